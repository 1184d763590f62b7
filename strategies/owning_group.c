/*
 * owning_group — TODO header
 */
#define PAGED_OWNING_GROUPS 1
#include "strategies/paged_sparse_set.h"

#define ECSB_STRATEGY_NAME owning_group
#define ECSB_STRATEGY_SUMMARY "paged_sparse_set + EnTT owning groups for the declared queries: owned pools keep the full matches packed in step at the front, a query is one run"
#include "harness/strategy_impl.h"
