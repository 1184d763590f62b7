/* churn_iterate's floor: dual_iterate's arrays, the churned positions of the handle list
 * holding their new values (a position keeps its place: the floor has no order to decay). */
#include "scenarios/defs/churn_iterate.h"
static ecsb_status floor_churn_iterate_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    ecsb_status st = floor_dual_iterate_prepare(out, n, p);
    if (st != ECSB_OK)
        return st;
    floor_dual_iterate *s = *out;
    ecsb_world_order o;
    const double match = dual_iterate_match(p);
    if (!dual_iterate_order_make(&o, n, p)) {
        floor_dual_iterate_release(s);
        *out = NULL;
        return ECSB_ERR_NOMEM;
    }
    ecsb_rng rng = {CHURN_ITERATE_SEED};
    for (uint64_t round = 0, rounds = churn_iterate_rounds(n, p); round < rounds; round++) {
        uint64_t pos = churn_iterate_position(&rng, n); /* a serial: a handle-list position */
        s->a[s->pos_of ? s->pos_of[pos] : pos] = dual_iterate_a0(n + round);
        if (dual_iterate_order_holds_b(&o, pos, match))
            s->b[s->b_index[pos]] = dual_iterate_b0(n + round);
    }
    ecsb_world_order_free(&o);
    return ECSB_OK;
}

static ecsb_status floor_churn_iterate_pass(void *state) { return floor_dual_iterate_pass(state); }
static uint64_t floor_churn_iterate_checksum(void *state)
{
    return floor_dual_iterate_checksum(state);
}
static void floor_churn_iterate_release(void *state) { floor_dual_iterate_release(state); }
static void floor_churn_iterate_memory(void *state, uint64_t *bytes, uint64_t *entities)
{
    floor_dual_iterate_memory(state, bytes, entities);
}
