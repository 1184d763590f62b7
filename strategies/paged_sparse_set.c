/*
 * paged_sparse_set — TODO header
 */
#define PAGED_OWNING_GROUPS 0
#include "strategies/paged_sparse_set.h"

#define ECSB_STRATEGY_NAME paged_sparse_set
#define ECSB_STRATEGY_SUMMARY "EnTT sparse sets: 24+8-bit versioned ids, 4096-entry sparse pages on demand, version in the sparse entry; views lead with the smallest pool"
#include "harness/strategy_impl.h"
