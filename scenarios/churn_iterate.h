/*
 * churn_iterate — dual_iterate after churn (article 004's order decay).
 *
 * Untimed set-up: dual_iterate's world (N entities with `a`, the odd ones with `b`), then
 * rounds * N rounds of churn (parameter `rounds`, default 1: how far order has decayed): destroy the entity at a pseudo-random position p of the handle list
 * (CHURN_ITERATE_SEED, the same for every strategy), create a fresh one with the same
 * components (`a`, and `b` when position p holds it) holding the values of serial N + round, and
 * store its handle at p. Whatever a strategy keeps in creation or slot order now follows a
 * random permutation: swap-remove layouts have moved their newest values into old holes, id
 * maps that never reuse ids have lost their run of consecutive ids. Timed pass and checksum:
 * dual_iterate's (the checksum reads `a` by position of the handle list). N/2 matched pairs.
 * Limit: yes, as dual_iterate's: only the matched `a` and `b` values, packed, can be moved.
 */
#include "scenarios/defs/churn_iterate.h"
typedef dual_iterate_state churn_iterate_state;

static ecsb_status churn_iterate_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    ecsb_status st = dual_iterate_prepare(out, n, p);
    if (st != ECSB_OK)
        return st;
    churn_iterate_state *s = *out;
    ecsb_rng rng = {CHURN_ITERATE_SEED};
    for (uint64_t round = 0, rounds = churn_iterate_rounds(n, p); round < rounds; round++) {
        uint64_t pos = churn_iterate_position(&rng, n);
        if ((st = entity_destroy(&s->w, s->entities[pos])) != ECSB_OK ||
            (st = dual_iterate_spawn(&s->w, n + round, dual_iterate_order_holds_b(&s->order, pos, s->match),
                                     &s->entities[pos])) != ECSB_OK) {
            dual_iterate_release(s);
            *out = NULL;
            return st;
        }
    }
    return ECSB_OK;
}

static ecsb_status churn_iterate_pass(void *state) { return dual_iterate_pass(state); }
static uint64_t churn_iterate_checksum(void *state) { return dual_iterate_checksum(state); }
static void churn_iterate_release(void *state) { dual_iterate_release(state); }
ECSB_SCENARIO_MEMORY(churn_iterate, churn_iterate_state)
