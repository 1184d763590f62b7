/* defs/dual_iterate.h — dual_iterate's own definitions, shared by its body
 * (scenarios/dual_iterate.h), its floor (floors/dual_iterate.h) and its limit
 * (limits/dual_iterate.h). */
#ifndef ECSB_SCENARIOS_DEFS_DUAL_ITERATE_H
#define ECSB_SCENARIOS_DEFS_DUAL_ITERATE_H

#include "scenarios/common.h"

/*
 * dual_iterate, churn_iterate, random_get: `a` and `b` of the entity with serial number s (the
 * i-th created has serial i; churn_iterate's round r creates serial N + r). Both non-zero; b in
 * -1000 .. -1 and 1 .. 1000.
 */
static inline double dual_iterate_a0(uint64_t s) { return (double)s * 0.25 + 1.0; }
static inline int32_t dual_iterate_b0(uint64_t s)
{
    int32_t magnitude = (int32_t)((s * 37) % 1000) + 1;
    return s & 2 ? -magnitude : magnitude;
}

/*
 * dual_iterate's parameters (and churn_iterate's, which reuses its world): `order`, then
 * `match`, the fraction of entities holding b. The entity of rank r (in membership order)
 * holds b when floor((r + 1) * match) > floor(r * match): with match = 1/2, the odd ranks, as
 * article 002's test; floor(N * match) holders in all, spread evenly over the ranks.
 * Regular worlds: serial i is created i-th and has rank i. Shuffled worlds: creation order
 * and ranks are two permutations of the serials from fixed seeds (the same for every
 * strategy, the floor and the limit), so which entities hold b and the order they were
 * created in have no pattern a layout could exploit; the counts are the same.
 */
enum { DUAL_ITERATE_MATCH = 1 };
#define DUAL_ITERATE_ORDER_SEED 0x6f726465722d6f72ull
#define DUAL_ITERATE_RANK_SEED 0x72616e6b2d6f6e65ull

static inline bool dual_iterate_holds_b(uint64_t rank, double match)
{
    return (uint64_t)((double)(rank + 1) * match) > (uint64_t)((double)rank * match);
}
static inline uint64_t dual_iterate_holders(uint64_t n, double match)
{
    return (uint64_t)((double)n * match);
}

/* The order of a dual_iterate world (churn_iterate's and random_get's too): an ecsb_world_order
 * drawn from dual_iterate's own two seeds (the worlds it has always drawn). */
static inline bool dual_iterate_order_make(ecsb_world_order *o, uint64_t n, const ecsb_params *p)
{
    return ecsb_world_order_make_seeded(o, n, p, DUAL_ITERATE_ORDER_SEED, DUAL_ITERATE_RANK_SEED);
}
static inline double dual_iterate_match(const ecsb_params *p) { return p->v[DUAL_ITERATE_MATCH]; }
/* Whether serial s (or the position s of churn_iterate's handle list) holds b. */
static inline bool dual_iterate_order_holds_b(const ecsb_world_order *o, uint64_t s, double match)
{
    return dual_iterate_holds_b(ecsb_rank_of(o, s), match);
}

#endif
