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

#include "scenarios/aging.h"
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

/* ---- an aged world's life (scenarios/aging.h), checked on its stream of events ---------- */

enum { LIFE_N = 4096, LIFE_TYPES = 3 };

/* Who holds what in the lives below: type 0 on every serial, 1 on the odd ones, 2 on none. */
static uint32_t life_types(const void *ctx, uint64_t serial)
{
    (void)ctx;
    return 1u | (uint32_t)(serial & 1) << 1;
}

/* What a life did, event by event, each event checked against the world it acts on. */
typedef struct life_record {
    uint64_t deaths, increasing, pairs, adds, removes, newcomers, changed_serials;
    uint64_t gains, losses; /* adds of a type not built with, removes of one built with */
    uint64_t living, least, most, never_died;
    bool ends_as_built;
} life_record;

static life_record live_a_life(uint64_t salt)
{
    enum { IDS = LIFE_N + LIFE_N / 8 + 1 };
    static bool alive[IDS], died[LIFE_N], changed[LIFE_N];
    static uint32_t held[IDS];
    life_record r = {.living = LIFE_N, .least = LIFE_N, .most = LIFE_N};
    for (uint32_t i = 0; i < IDS; i++) {
        alive[i] = i < LIFE_N;
        held[i] = i < LIFE_N ? life_types(NULL, i) : 0;
    }
    memset(died, 0, sizeof died);
    memset(changed, 0, sizeof changed);
    ecsb_aging a;
    TST_CHECK(ecsb_aging_start(&a, LIFE_N, salt, LIFE_TYPES, life_types, NULL),
              "aging start: no memory");
    ecsb_aging_event e;
    uint32_t last_death = 0;
    while (ecsb_aging_next(&a, &e)) {
        TST_CHECK(e.id < IDS && e.of < LIFE_N && (e.id >= LIFE_N || e.of == e.id),
                  "event of id %u copying %u: out of range", e.id, e.of);
        switch (e.kind) {
        case ECSB_AGING_DIE:
            TST_CHECK(alive[e.id], "entity %u dies but is not alive", e.id);
            alive[e.id] = false;
            r.living--;
            if (e.id < LIFE_N)
                died[e.id] = true;
            if (r.deaths++ > 0) {
                r.increasing += e.id > last_death;
                r.pairs++;
            }
            last_death = e.id;
            break;
        case ECSB_AGING_BORN:
            TST_CHECK(!alive[e.id], "entity %u is born but is alive", e.id);
            alive[e.id] = true;
            held[e.id] = life_types(NULL, e.of);
            r.living++;
            r.newcomers += e.id >= LIFE_N;
            break;
        case ECSB_AGING_ADD:
        case ECSB_AGING_REMOVE: {
            const bool add = e.kind == ECSB_AGING_ADD;
            TST_CHECK(alive[e.id] && e.type < LIFE_TYPES, "entity %u changes type %u: dead or "
                      "no such type", e.id, e.type);
            TST_CHECK((held[e.id] >> e.type & 1) != add, "entity %u %s type %u, which it %s",
                      e.id, add ? "gains" : "loses", e.type, add ? "holds" : "lacks");
            held[e.id] ^= 1u << e.type;
            add ? r.adds++ : r.removes++;
            const bool built_with = life_types(NULL, e.of) >> e.type & 1;
            r.gains += add && !built_with;
            r.losses += !add && built_with;
            if (e.id < LIFE_N && !changed[e.id]) {
                changed[e.id] = true;
                r.changed_serials++;
            }
            break;
        }
        }
        r.least = r.living < r.least ? r.living : r.least;
        r.most = r.living > r.most ? r.living : r.most;
    }
    ecsb_aging_end(&a);
    r.ends_as_built = r.living == LIFE_N;
    for (uint32_t i = 0; i < IDS; i++)
        r.ends_as_built &= i < LIFE_N ? alive[i] && held[i] == life_types(NULL, i) : !alive[i];
    for (uint32_t i = 0; i < LIFE_N; i++)
        r.never_died += !died[i];
    return r;
}

/*
 * Deaths are drawn at random: the victims die in the order drawn, not sorted (a batch dying in
 * serial order hands swap-remove layouts a structured permutation: about half the successive
 * victims must be in increasing order), and the rounds kill enough that no third of the
 * entities is immortal (about 2N deaths: about 10 % never die).
 */
void worlds_aged_deaths_are_drawn_in_random_order_and_few_never_die(void **state)
{
    (void)state;
    life_record r = live_a_life(0x1234);
    TST_CHECK(r.deaths >= 2 * LIFE_N, "%llu deaths, want at least 2N = %d",
              (unsigned long long)r.deaths, 2 * LIFE_N);
    TST_CHECK(r.pairs > 0 && r.increasing * 10 > r.pairs * 4 && r.increasing * 10 < r.pairs * 6,
              "%llu of %llu successive victims in increasing order: want about half (drawn "
              "order), not all (serial order)", (unsigned long long)r.increasing,
              (unsigned long long)r.pairs);
    TST_CHECK(r.never_died * 5 < LIFE_N, "%llu of %d entities never died: want under a fifth",
              (unsigned long long)r.never_died, LIFE_N);
}

/*
 * Entities gain and lose components as they live (each event on a type the entity lacks or
 * holds), many of them: types they were not built with gained, types they were built with
 * lost (not only gains undone); and the life ends with every serial alive with its own
 * components: the membership the scenario's checksum needs.
 */
void worlds_aged_life_gains_and_loses_components_and_ends_as_built(void **state)
{
    (void)state;
    life_record r = live_a_life(0x5678);
    TST_CHECK(r.gains > LIFE_N / 16 && r.losses > LIFE_N / 16,
              "%llu types gained that entities were not built with, %llu lost that they were "
              "(%llu adds, %llu removes in all) in the life of %d entities: want over N/16 of "
              "each", (unsigned long long)r.gains, (unsigned long long)r.losses,
              (unsigned long long)r.adds, (unsigned long long)r.removes, LIFE_N);
    TST_CHECK(r.changed_serials > LIFE_N / 4, "%llu of %d serials ever changed components: "
              "want over a quarter", (unsigned long long)r.changed_serials, LIFE_N);
    TST_CHECK(r.ends_as_built, "the life ends with %llu alive, not the N = %d serials each with "
              "its own components (and no newcomer)", (unsigned long long)r.living, LIFE_N);
}

/* The population rises and falls around N in waves (newcomers beyond the N serials born and
 * dying), and is exactly N when the life ends. */
void worlds_aged_population_rises_and_falls_around_n_and_ends_at_n(void **state)
{
    (void)state;
    life_record r = live_a_life(0x9abc);
    TST_CHECK(r.least <= LIFE_N - LIFE_N / 8 && r.most >= LIFE_N + LIFE_N / 8,
              "population between %llu and %llu: want it to fall to N - N/8 = %d or below and "
              "rise to N + N/8 = %d or above", (unsigned long long)r.least,
              (unsigned long long)r.most, LIFE_N - LIFE_N / 8, LIFE_N + LIFE_N / 8);
    TST_CHECK(r.newcomers >= LIFE_N / 8, "%llu newcomers born: want at least N/8",
              (unsigned long long)r.newcomers);
    TST_CHECK(r.living == LIFE_N, "%llu alive at the end, want N = %d",
              (unsigned long long)r.living, LIFE_N);
}

/*
 * A scenario's prepare plays that life on the strategy's world: on faulty (the template
 * strategy, counting its operations), dual_iterate's aged prepare removes components and
 * holds more than N entities at its peak, where the regular prepare does neither, and leaves
 * N entities alive.
 */
void worlds_aged_prepare_lives_the_life_on_the_world(void **state)
{
    (void)state;
    const uint64_t n = 4096;
    uint64_t removes[2], peak[2], alive[2];
    for (int aged = 0; aged < 2; aged++) {
        ecsb_params p = ecsb_params_default(ECSB_SCENARIO_dual_iterate);
        p.v[ECSB_PARAM_ORDER] = aged ? ECSB_ORDER_AGED : ECSB_ORDER_REGULAR;
        const ecsb_scenario_impl *impl = &ecsb_strategy_faulty.scenarios[ECSB_SCENARIO_dual_iterate];
        void *s = NULL;
        tst_fault_arm(TST_FAULT_REMOVE_MISS, UINT64_MAX); /* only count the removes */
        ecsb_status st = impl->prepare(&s, n, &p);
        removes[aged] = tst_fault_opportunities();
        peak[aged] = tst_fault_peak_entities();
        tst_fault_disarm();
        uint64_t bytes = 0;
        alive[aged] = 0;
        if (st == ECSB_OK)
            impl->memory(s, &bytes, &alive[aged]);
        if (s)
            impl->release(s);
        TST_CHECK(st == ECSB_OK, "dual_iterate on faulty, order=%s: prepare: %s",
                  order_names[aged ? 2 : 0], ecsb_status_str(st));
    }
    TST_CHECK(removes[0] == 0 && removes[1] > n / 8, "components removed in prepare: %llu "
              "regular, %llu aged: want none, and over N/8 (the aged world loses components)",
              (unsigned long long)removes[0], (unsigned long long)removes[1]);
    TST_CHECK(peak[0] == n && peak[1] > n, "most entities alive in prepare: %llu regular, %llu "
              "aged: want N = %llu, and more (the aged population rises past N)",
              (unsigned long long)peak[0], (unsigned long long)peak[1], (unsigned long long)n);
    TST_CHECK(alive[0] == n && alive[1] == n, "alive after prepare: %llu regular, %llu aged, "
              "want N = %llu in both", (unsigned long long)alive[0], (unsigned long long)alive[1],
              (unsigned long long)n);
}
