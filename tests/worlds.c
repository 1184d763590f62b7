/*
 * worlds.c — the three worlds of the `order` parameter are three worlds. Checksums cannot show
 * it (they are equal across orders by design: the same entities with the same values), so these
 * tests look at the world a prepare built (ecsb_world_look: each type's query with handles):
 * every scenario builds a different world in each order on every strategy, and the aged-world
 * diagnostic (the fraction of successive visits in increasing id order) tells a storage that
 * has aged from one that keeps id order whatever happens.
 */
#include <stdio.h>
#include <string.h>

#include "scenarios/world_order.h"
#include "tests/faulty.h"
#include "tests/support.h"
#include "tests/suites.h"

static const char *const order_names[] = {"regular", "shuffled", "aged"};

/*
 * How scenario id's world looks on `st` at n in world `order`: after prepare, and for a
 * scenario whose pass consumes its set-up (level_load starts from an empty world) after one
 * pass too, folded into one fingerprint.
 */
static ecsb_world_look look_at(const ecsb_strategy *st, ecsb_scenario_id id, uint64_t n,
                               int order)
{
    const ecsb_scenario_info *info = &ecsb_scenarios[id];
    const ecsb_scenario_impl *impl = &st->scenarios[id];
    ecsb_params p = ecsb_params_default(id);
    p.v[ECSB_PARAM_ORDER] = order;
    void *state = NULL;
    ecsb_status status = impl->prepare(&state, n, &p);
    TST_CHECK(status == ECSB_OK && state, "%s on %s, n = %llu, order=%s: prepare: %s",
              info->name, st->name, (unsigned long long)n, order_names[order],
              ecsb_status_str(status));
    ecsb_world_look look, after;
    st->look[id](state, &look);
    if (info->consumes_setup) {
        status = impl->pass(state);
        if (status != ECSB_OK) {
            impl->release(state);
            TST_FAIL("%s on %s, order=%s: pass: %s", info->name, st->name, order_names[order],
                     ecsb_status_str(status));
        }
        st->look[id](state, &after);
        look.fingerprint = look.fingerprint * 0x9e3779b97f4a7c15ull ^ after.fingerprint;
    }
    impl->release(state);
    return look;
}

/*
 * Every scenario, on the strategy under test, builds three different worlds: a scenario that
 * ignored order=shuffled or order=aged (created in serial order, or never lived) would build
 * the regular world twice and show the same fingerprint.
 */
void worlds_each_order_builds_its_own_world_in_every_scenario(void **state)
{
    (void)state;
    const uint64_t n = 1000;
    for (int s = 0; s < ECSB_SCENARIO_COUNT; s++) {
        const ecsb_scenario_info *info = &ecsb_scenarios[s];
        TST_CHECK(info->params[ECSB_PARAM_ORDER].max == ECSB_ORDER_AGED,
                  "%s does not take order=aged", info->name);
        uint64_t print[3];
        for (int o = 0; o < 3; o++)
            print[o] = look_at(tst_strategy, (ecsb_scenario_id)s, n, o).fingerprint;
        for (int a = 0; a < 3; a++)
            for (int b = a + 1; b < 3; b++)
                TST_CHECK(print[a] != print[b],
                          "%s on %s at n = %llu: order=%s and order=%s build the same world "
                          "(fingerprint %016llx): one of them ignores its order", info->name,
                          tst_strategy->name, (unsigned long long)n, order_names[a],
                          order_names[b], (unsigned long long)print[a]);
    }
}

/*
 * The aged-world diagnostic tells aged storage from id order: dual_iterate at n = 4096 on
 * sparse_set (swap-remove dense arrays) visits in id order in the regular world and in no
 * order in the aged one, while `faulty` with no mistake armed, whose query walks the live
 * slots in id order whatever has happened (tests/faulty.c), scores 1 in the aged world too.
 */
void worlds_aged_diagnostic_tells_aged_storage_from_id_order(void **state)
{
    (void)state;
    const uint64_t n = 4096;
    const ecsb_strategy *swap_remove = ecsb_strategy_find("sparse_set");
    TST_CHECK(swap_remove != NULL, "sparse_set is not registered");
    tst_fault_disarm();
    ecsb_world_look regular = look_at(swap_remove, ECSB_SCENARIO_dual_iterate, n,
                                      ECSB_ORDER_REGULAR);
    ecsb_world_look aged = look_at(swap_remove, ECSB_SCENARIO_dual_iterate, n, ECSB_ORDER_AGED);
    ecsb_world_look in_order = look_at(&ecsb_strategy_faulty, ECSB_SCENARIO_dual_iterate, n,
                                       ECSB_ORDER_AGED);
    TST_CHECK(regular.pairs > n && regular.in_order == 1.0,
              "sparse_set's regular dual_iterate world: %.3f of %llu successive visits in id "
              "order, want all", regular.in_order, (unsigned long long)regular.pairs);
    TST_CHECK(aged.pairs > n && aged.in_order < 0.75,
              "sparse_set's aged dual_iterate world: %.3f of %llu successive visits in id "
              "order, want under 0.75 (storage that has lived follows no order)",
              aged.in_order, (unsigned long long)aged.pairs);
    TST_CHECK(in_order.pairs > n && in_order.in_order == 1.0,
              "faulty (id-ordered storage) in the aged dual_iterate world: %.3f of %llu "
              "successive visits in id order, want all: the diagnostic must not call an "
              "id-ordered storage aged", in_order.in_order, (unsigned long long)in_order.pairs);
}

/*
 * An aged world's life (scenarios/world_order.h, ecsb_aging): each round's victims die in the
 * order drawn, not sorted (a batch dying in serial order hands swap-remove layouts a
 * structured permutation: about half the successive victims must be in increasing order),
 * and the rounds kill enough that no third of the entities is immortal (2N deaths: about
 * 10 % never die).
 */
void worlds_aged_deaths_are_drawn_in_random_order_and_few_never_die(void **state)
{
    (void)state;
    enum { N = 4096 };
    ecsb_aging a;
    TST_CHECK(ecsb_aging_start(&a, N, 0x1234), "aging start: no memory");
    static uint8_t died[N];
    memset(died, 0, sizeof died);
    uint64_t count, increasing = 0, pairs = 0, rounds = 0;
    const uint32_t *dying;
    for (const uint32_t *v; (v = ecsb_aging_next(&a, &count, &dying));) {
        rounds++;
        for (uint64_t j = 0; j < count; j++) {
            died[dying[j]] = 1;
            TST_CHECK(v[j] < N, "victim %u out of range", v[j]);
            if (j > 0) {
                increasing += dying[j] > dying[j - 1];
                pairs++;
            }
        }
    }
    ecsb_aging_end(&a);
    uint64_t never = 0;
    for (int i = 0; i < N; i++)
        never += !died[i];
    TST_CHECK(rounds == ECSB_AGED_ROUNDS, "%llu rounds, want %u", (unsigned long long)rounds,
              ECSB_AGED_ROUNDS);
    TST_CHECK(pairs > 0 && increasing * 10 > pairs * 4 && increasing * 10 < pairs * 6,
              "%llu of %llu successive victims in increasing order: want about half (drawn "
              "order), not all (serial order)", (unsigned long long)increasing,
              (unsigned long long)pairs);
    TST_CHECK(never * 5 < N, "%llu of %d entities never died: want under a fifth",
              (unsigned long long)never, N);
}
