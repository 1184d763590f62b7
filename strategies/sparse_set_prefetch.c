/*
 * sparse_set_prefetch — sparse_set with software prefetch: the same layout and code
 * (strategies/sparse_set.c, included whole), with SPARSE_SET_PREFETCH on. A tuning, not a
 * layout, so it is shown as its own line beside sparse_set rather than folded into it: the
 * gap between the two is what prefetching buys (or costs) in each scenario.
 *
 * Idea: a query of several types walks the lead type's dense entries and looks each entity up in the
 * other types (a sparse entry, then a value). While the dense orders follow each other
 * (worlds filled one entity at a time, in any order: regular and shuffled) the hardware
 * prefetcher follows those lookups; once deaths and births have scrambled them (an aged world,
 * churn_iterate), each lookup is a cache miss at DRAM scale. Walks led by
 * more than WALK_PREFETCH_MIN (65536) entities go in blocks of WALK_BLOCK (256); a block whose
 * lookups are out of order (judged from samples of the block before it, already in cache)
 * prefetches the sparse entry 2 * WALK_PREFETCH_AHEAD (32) entities ahead and the value 16
 * ahead.
 * Costs: about 10 instructions per entity in prefetching blocks; nothing below 65,536 holders.
 * Wins: large worlds that have lived (churn_iterate, dual_iterate order=aged at 1,048,576).
 * Level elsewhere: a shuffled world's dense orders still follow ids, so its blocks run plain;
 * small worlds never prefetch, so it equals sparse_set there.
 * Tuning: software prefetch (this line's point); otherwise as sparse_set.
 */
#define SPARSE_SET_PREFETCH 1
#define ECSB_STRATEGY_NAME sparse_set_prefetch
#define ECSB_STRATEGY_SUMMARY "sparse_set with software prefetch of the other types' lookups in out-of-order walks above 65,536 holders"
#include "strategies/sparse_set.c"
