/* churn_iterate's limit: dual_iterate's, the churned positions holding their new values. */
#include "scenarios/defs/churn_iterate.h"
static ecsb_status limit_churn_iterate_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    ecsb_status st = limit_dual_iterate_prepare(out, n, p);
    if (st != ECSB_OK)
        return st;
    limit_dual_iterate *s = *out;
    ecsb_rng rng = {CHURN_ITERATE_SEED};
    for (uint64_t round = 0, rounds = churn_iterate_rounds(n, p); round < rounds; round++) {
        uint64_t pos = churn_iterate_position(&rng, n);
        uint64_t w = s->where[pos];
        *limit_dual_iterate_a(s, pos) = dual_iterate_a0(n + round);
        if (w & 1)
            s->b[w / 2] = dual_iterate_b0(n + round);
    }
    return ECSB_OK;
}

static ecsb_status limit_churn_iterate_pass(void *state) { return limit_dual_iterate_pass(state); }
static uint64_t limit_churn_iterate_checksum(void *state)
{
    return limit_dual_iterate_checksum(state);
}
static void limit_churn_iterate_release(void *state) { limit_dual_iterate_release(state); }
static void limit_churn_iterate_memory(void *state, uint64_t *bytes, uint64_t *entities)
{
    limit_dual_iterate_memory(state, bytes, entities);
}
