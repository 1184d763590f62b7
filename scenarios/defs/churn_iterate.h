/* defs/churn_iterate.h — churn_iterate's own definitions, shared by its body
 * (scenarios/churn_iterate.h), its floor (floors/churn_iterate.h) and its limit
 * (limits/churn_iterate.h). */
#ifndef ECSB_SCENARIOS_DEFS_CHURN_ITERATE_H
#define ECSB_SCENARIOS_DEFS_CHURN_ITERATE_H

#include "scenarios/common.h"
#include "scenarios/defs/dual_iterate.h"

/* churn_iterate: `rounds` (parameter 2), the rounds of churn as a multiple of N (default 1). */
enum { CHURN_ITERATE_ROUNDS = 2 };
static inline uint64_t churn_iterate_rounds(uint64_t n, const ecsb_params *p)
{
    return (uint64_t)((double)n * p->v[CHURN_ITERATE_ROUNDS]);
}

/* churn_iterate: the position of the handle list round r of the churn replaces. */
#define CHURN_ITERATE_SEED 0x636875726e2d3031ull
static inline uint64_t churn_iterate_position(ecsb_rng *r, uint64_t n) { return ecsb_rng_below(r, n); }

#endif
