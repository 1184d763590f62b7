/*
 * conformance.c — what every world operation does on good input (and on stale handles and bad
 * types, which the contract defines too), checked through the vtable for the strategy under
 * test. Each test changes a world and an expected state (tests/model.h) side by side and then
 * checks everything the world shows (model_check): counts, alive/has/get of every entity, the
 * visits (with handles) of the query of every type and of every ordered pair of types, and
 * queries over sets of types.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/model.h"
#include "tests/support.h"
#include "tests/suites.h"

/* ---- the descriptor ---------------------------------------------------------------------- */

/* One name everywhere: a C identifier, unique, found by ecsb_strategy_find when registered. */
void conformance_descriptor_is_complete_and_registered_by_its_name(void **state)
{
    (void)state;
    const ecsb_strategy *s = tst_strategy;
    TST_CHECK(s->name && *s->name, "no name");
    for (const char *c = s->name; *c; c++)
        TST_CHECK((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_',
                  "name '%s' is not lower-case letters, digits and '_'", s->name);
    TST_CHECK(s->summary && *s->summary, "no summary");
    const ecsb_vtable *v = s->ops;
    TST_CHECK(v && v->world_size > 0, "no vtable, or world_size 0");
    TST_CHECK(v->world_init && v->world_fini && v->entity_create && v->entity_destroy &&
                  v->entity_alive && v->entity_count && v->component_add &&
                  v->component_remove && v->component_get && v->component_has &&
                  v->component_count && v->query && v->world_valid && v->world_bytes &&
                  v->world_corrupt,
              "a vtable slot is NULL");
    for (int id = 0; id < ECSB_SCENARIO_COUNT; id++) {
        const ecsb_scenario_impl *impl = &s->scenarios[id];
        TST_CHECK(impl->prepare && impl->pass && impl->checksum && impl->release,
                  "scenario %s: an entry point is NULL", ecsb_scenarios[id].name);
    }
    bool registered = false;
    for (size_t i = 0; i < ecsb_strategy_count; i++) {
        registered |= ecsb_strategies[i] == s;
        TST_CHECK(ecsb_strategies[i] == s || strcmp(ecsb_strategies[i]->name, s->name) != 0,
                  "two registered strategies are named '%s'", s->name);
    }
    TST_CHECK(ecsb_strategy_find(s->name) == (registered ? s : NULL),
              "ecsb_strategy_find(\"%s\") does not return %s", s->name,
              registered ? "it" : "NULL (it is not registered)");
}

/* ---- good input -------------------------------------------------------------------------- */

void conformance_new_world_is_empty_and_valid(void **state)
{
    (void)state;
    tst_world tw;
    model m;
    model_open(&m, &tw);
    model_check(&m, &tw);
    TST_CHECK(tw.ops->world_bytes(tw.w) >= tw.ops->world_size,
              "world_bytes %zu < world_size %zu", tw.ops->world_bytes(tw.w), tw.ops->world_size);
    model_close(&m, &tw);
}

void conformance_created_entities_are_alive_distinct_and_hold_nothing(void **state)
{
    (void)state;
    tst_world tw;
    model m;
    model_open(&m, &tw);
    for (int i = 0; i < 1000; i++) {
        model_create(&m, &tw);
        TST_CHECK(tw.ops->entity_count(tw.w) == m.n, "entity_count %zu after %zu creates",
                  tw.ops->entity_count(tw.w), m.n);
    }
    model_check(&m, &tw); /* alive, distinct handles, nothing held, nothing visited */
    model_close(&m, &tw);
}

void conformance_get_returns_the_value_written_through_add(void **state)
{
    (void)state;
    tst_world tw;
    model m;
    model_open(&m, &tw);
    size_t e = model_create(&m, &tw), f = model_create(&m, &tw);
    for (ecsb_type t = 0; t < TST_TYPES; t++) {
        model_add(&m, &tw, e, t, 1);
        model_check(&m, &tw); /* the new value, and every earlier one, unchanged */
    }
    model_add(&m, &tw, f, 1, 1);
    model_check(&m, &tw);
    /* Values written later through get are what get returns. */
    tw_set(&tw, m.handle[e], 2, seed_for(e, 2, 7));
    *seed_at(&m, e, 2) = seed_for(e, 2, 7);
    model_check(&m, &tw);
    model_close(&m, &tw);
}

void conformance_has_and_counts_follow_add_remove_and_destroy(void **state)
{
    (void)state;
    tst_world tw;
    model m;
    model_open(&m, &tw);
    for (size_t i = 0; i < 12; i++) {
        model_create(&m, &tw);
        for (ecsb_type t = 0; t < TST_TYPES; t++)
            if ((i + t) % 2)
                model_add(&m, &tw, i, t, 1);
        model_check(&m, &tw);
    }
    for (size_t i = 0; i < 12; i += 3) {
        for (ecsb_type t = 0; t < TST_TYPES; t++)
            if (*seed_at(&m, i, t)) {
                model_remove(&m, &tw, i, t);
                model_check(&m, &tw);
            }
        model_destroy(&m, &tw, i + 1);
        model_check(&m, &tw);
    }
    model_close(&m, &tw);
}

void conformance_values_survive_growth(void **state)
{
    (void)state;
    tst_world tw;
    ecsb_world_config c = tst_config3();
    tw_init(&tw, &c);
    tw.check_valid = false; /* O(size) per call; model_check checks it at the end */
    model m;
    model_init(&m, &tw);
    /* Values exist while every array grows, one entity at a time. */
    for (size_t i = 0; i < 20000; i++) {
        model_create(&m, &tw);
        model_add(&m, &tw, i, 0, 1);
        if (i % 2 == 0)
            model_add(&m, &tw, i, 1, 1);
        if (i % 3 == 0)
            model_add(&m, &tw, i, 2, 1);
    }
    model_check(&m, &tw);
    /* Then the sparser types grow on their own. */
    for (size_t i = 0; i < m.n; i++) {
        if (i % 2)
            model_add(&m, &tw, i, 1, 2);
        if (i % 3)
            model_add(&m, &tw, i, 2, 2);
    }
    model_check(&m, &tw);
    model_close(&m, &tw);
}

/*
 * Removing a component from one entity leaves every other entity's values alone: the check
 * that catches a swap-remove moving the wrong element (article 003's off-by-one), whichever
 * position is removed: the first added, the last added, the middle, then random order.
 */
void conformance_remove_keeps_every_other_value(void **state)
{
    (void)state;
    tst_world tw;
    model m;
    model_open(&m, &tw);
    const size_t n = 100;
    model_create_full(&m, &tw, n);
    tst_rng rng = {42};
    for (ecsb_type t = 0; t < TST_TYPES; t++) {
        size_t order[100];
        for (size_t i = 0; i < n; i++)
            order[i] = i;
        /* first added, last added, middle, then the rest in random order */
        size_t fixed[3] = {0, n - 1, n / 2};
        for (int k = 0; k < 3; k++) {
            size_t j = 0;
            while (order[j] != fixed[k])
                j++;
            size_t tmp = order[k];
            order[k] = order[j];
            order[j] = tmp;
        }
        for (size_t k = 3; k < n; k++) {
            size_t j = k + tst_rng_below(&rng, n - k);
            size_t tmp = order[k];
            order[k] = order[j];
            order[j] = tmp;
        }
        for (size_t k = 0; k < n; k++) {
            model_remove(&m, &tw, order[k], t);
            model_check(&m, &tw);
        }
    }
    model_close(&m, &tw);
}

void conformance_add_after_remove_stores_the_new_value(void **state)
{
    (void)state;
    tst_world tw;
    model m;
    model_open(&m, &tw);
    for (size_t i = 0; i < 40; i++) {
        model_create(&m, &tw);
        model_add(&m, &tw, i, 0, 1);
        model_add(&m, &tw, i, 2, 1);
    }
    for (uint64_t round = 2; round < 6; round++) {
        for (size_t i = round % 3; i < m.n; i += 3) {
            model_remove(&m, &tw, i, 0);
            model_remove(&m, &tw, i, 2);
        }
        for (size_t i = round % 3; i < m.n; i += 3) {
            model_add(&m, &tw, i, 2, round);
            model_add(&m, &tw, i, 0, round);
        }
        model_check(&m, &tw);
    }
    model_close(&m, &tw);
}

/* A world with holes: mixed holders per type, some removals and destroyed entities. */
static void build_mixed(model *m, tst_world *tw, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        model_create(m, tw);
        if (i % 2 == 0)
            model_add(m, tw, i, 0, 1);
        if (i % 3 == 0)
            model_add(m, tw, i, 1, 1);
        if (i % 5 == 0 || i % 7 == 1)
            model_add(m, tw, i, 2, 1);
    }
    for (size_t i = 0; i < n; i += 11)
        if (*seed_at(m, i, 0))
            model_remove(m, tw, i, 0);
    for (size_t i = 4; i < n; i += 13)
        model_destroy(m, tw, i);
    /* Re-created entities land in reused slots. */
    for (size_t k = 0; k < n / 20; k++) {
        size_t i = model_create(m, tw);
        model_add(m, tw, i, (ecsb_type)(k % 3), 1);
        model_add(m, tw, i, (ecsb_type)((k + 1) % 3), 1);
    }
}

void conformance_query_with_handles_visits_every_holder_once_with_its_value(void **state)
{
    (void)state;
    tst_world tw;
    ecsb_world_config c = tst_config3();
    tw_init(&tw, &c);
    tw.check_valid = false;
    model m;
    model_init(&m, &tw);
    model_check(&m, &tw); /* no holders: no visits */
    build_mixed(&m, &tw, 600);
    model_check(&m, &tw);
    for (size_t i = 0; i < m.n; i++) /* empty one type entirely */
        if (m.alive[i] && *seed_at(&m, i, 1))
            model_remove(&m, &tw, i, 1);
    model_check(&m, &tw);
    model_close(&m, &tw);
}

/* Writes through a query with handles: each value rewritten from its entity's handle. */
typedef struct rewrite {
    uint32_t k;
    uint32_t sizes[ECSB_MAX_QUERY_TYPES];
    uint64_t version;
    size_t calls;
} rewrite;

static uint64_t rewrite_seed(ecsb_entity e, uint64_t version, uint32_t which)
{
    return tst_mix64(e ^ (version << 40) ^ ((uint64_t)which << 60));
}

static void rewrite_run(void *ctx, size_t count, void *const *columns)
{
    rewrite *r = ctx;
    const ecsb_entity *handles = columns[r->k];
    for (size_t i = 0; i < count; i++, r->calls++)
        for (uint32_t j = 0; j < r->k; j++)
            tst_pattern((unsigned char *)columns[j] + i * r->sizes[j], r->sizes[j],
                        rewrite_seed(handles[i], r->version, j));
}

/* Run q with handles through rewrite_run, the model alike; then compare everything. */
static void rewrite_and_check(model *m, tst_world *tw, const ecsb_type *types, uint32_t k,
                              uint64_t version)
{
    rewrite r = {.k = k, .version = version};
    ecsb_query q = tst_query(k, types);
    q.entities = true;
    for (uint32_t j = 0; j < k; j++)
        r.sizes[j] = tst_sizes[types[j]];
    TST_STATUS(tw->ops->query(tw->w, &q, rewrite_run, &r), ECSB_OK, "query with handles");
    size_t expected = 0;
    for (size_t i = 0; i < m->n; i++) {
        bool all = m->alive[i];
        for (uint32_t j = 0; j < k; j++)
            all = all && *seed_at(m, i, types[j]);
        if (!all)
            continue;
        for (uint32_t j = 0; j < k; j++)
            *seed_at(m, i, types[j]) = rewrite_seed(m->handle[i], version, j);
        expected++;
    }
    TST_CHECK(r.calls == expected, "query of %u types visited %zu entities, want %zu", k,
              r.calls, expected);
    model_check(m, tw);
}

void conformance_query_writes_keyed_by_handle_reach_the_stored_values(void **state)
{
    (void)state;
    tst_world tw;
    ecsb_world_config c = tst_config3();
    tw_init(&tw, &c);
    tw.check_valid = false;
    model m;
    model_init(&m, &tw);
    build_mixed(&m, &tw, 300);
    for (ecsb_type t = 0; t < TST_TYPES; t++)
        rewrite_and_check(&m, &tw, &t, 1, 100 + t);
    model_close(&m, &tw);
}

void conformance_two_type_query_visits_exactly_the_common_holders_with_their_handles(void **state)
{
    (void)state;
    tst_world tw;
    ecsb_world_config c = tst_config3();
    tw_init(&tw, &c);
    tw.check_valid = false;
    model m;
    model_init(&m, &tw);
    /* model_check queries every ordered pair: both orders, the smaller set first and second. */
    build_mixed(&m, &tw, 700);
    model_check(&m, &tw);
    /* Disjoint holders: two-type queries visit nothing. */
    for (size_t i = 0; i < m.n; i++)
        if (m.alive[i] && *seed_at(&m, i, 0) && *seed_at(&m, i, 1))
            model_remove(&m, &tw, i, (ecsb_type)(i % 2));
    model_check(&m, &tw);
    /* One type held by a single entity that also holds the others. */
    for (size_t i = 0; i < m.n; i++)
        if (m.alive[i] && *seed_at(&m, i, 2))
            model_remove(&m, &tw, i, 2);
    size_t last = model_create(&m, &tw);
    for (ecsb_type t = 0; t < TST_TYPES; t++)
        model_add(&m, &tw, last, t, 3);
    model_check(&m, &tw);
    model_close(&m, &tw);
}

void conformance_query_writes_keyed_by_handle_reach_every_column(void **state)
{
    (void)state;
    tst_world tw;
    ecsb_world_config c = tst_config3();
    tw_init(&tw, &c);
    tw.check_valid = false;
    model m;
    model_init(&m, &tw);
    build_mixed(&m, &tw, 400);
    static const ecsb_type sets[][3] = {{0, 1}, {1, 0}, {2, 0}, {1, 2}, {0, 1, 2}, {2, 1, 0}};
    for (uint32_t p = 0; p < sizeof sets / sizeof sets[0]; p++)
        rewrite_and_check(&m, &tw, sets[p], p < 4 ? 2 : 3, 200 + p);
    model_close(&m, &tw);
}

/*
 * The handle column carries the entities whose values the other columns carry, also where
 * runs are long (every strategy's packed path) and where handles are computed into buffers
 * (runs longer than any buffer): a packed world, then one with every third entity gone.
 */
void conformance_query_handle_column_stays_in_step_over_long_runs(void **state)
{
    (void)state;
    tst_world tw;
    ecsb_world_config c = tst_config3();
    tw_init(&tw, &c);
    tw.check_valid = false;
    model m;
    model_init(&m, &tw);
    model_create_full(&m, &tw, 1000);
    model_check(&m, &tw);
    for (size_t i = 0; i < m.n; i += 3)
        model_destroy(&m, &tw, i);
    model_check(&m, &tw);
    model_close(&m, &tw);
}

void conformance_destroy_removes_every_component(void **state)
{
    (void)state;
    tst_world tw;
    model m;
    model_open(&m, &tw);
    for (size_t i = 0; i < 30; i++) {
        model_create(&m, &tw);
        for (ecsb_type t = 0; t < TST_TYPES; t++)
            if (i % (t + 2) != 1)
                model_add(&m, &tw, i, t, 1);
    }
    /* first, last, middle, entities with nothing and with everything */
    size_t order[] = {0, 29, 15, 1, 7, 8, 2, 28, 14, 16, 3};
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        model_destroy(&m, &tw, order[k]);
        model_check(&m, &tw); /* counts drop, has false, get NULL, not visited, stale */
    }
    for (size_t i = 0; i < 30; i++)
        if (m.alive[i])
            model_destroy(&m, &tw, i);
    model_check(&m, &tw);
    model_close(&m, &tw);
}

void conformance_reused_slot_gives_a_fresh_entity(void **state)
{
    (void)state;
    tst_world tw;
    model m;
    model_open(&m, &tw);
    for (size_t i = 0; i < 10; i++) { /* bystanders */
        model_create(&m, &tw);
        model_add(&m, &tw, i, (ecsb_type)(i % 3), 1);
    }
    /* Destroy and re-create over and over: each new entity starts empty, old handles stay dead. */
    size_t e = model_create(&m, &tw);
    for (int round = 0; round < 200; round++) {
        for (ecsb_type t = 0; t < TST_TYPES; t++)
            model_add(&m, &tw, e, t, (uint64_t)round + 1);
        model_destroy(&m, &tw, e);
        e = model_create(&m, &tw);
        for (ecsb_type t = 0; t < TST_TYPES; t++)
            tw_expect_absent(&tw, m.handle[e], t);
        if (round % 20 == 0)
            model_check(&m, &tw); /* every old handle rejected, bystanders intact */
    }
    model_check(&m, &tw);
    model_close(&m, &tw);
}

void conformance_destroyed_handles_are_rejected_by_every_operation(void **state)
{
    (void)state;
    tst_world tw;
    model m;
    model_open(&m, &tw);
    model_create_full(&m, &tw, 50);
    /* Destroyed, and destroyed then slot reused by an entity that holds every type. */
    for (size_t i = 0; i < 50; i += 2)
        model_destroy(&m, &tw, i);
    for (size_t k = 0; k < 10; k++) {
        size_t i = model_create(&m, &tw);
        for (ecsb_type t = 0; t < TST_TYPES; t++)
            model_add(&m, &tw, i, t, 1);
    }
    tst_snapshot before, after;
    tst_snapshot_take(&before, &tw, m.handle, m.n);
    for (size_t i = 0; i < m.n; i++)
        if (!m.alive[i])
            tw_expect_stale(&tw, m.handle[i]);
    tst_snapshot_take(&after, &tw, m.handle, m.n);
    const char *diff = tst_snapshot_diff(&before, &after);
    TST_CHECK(!diff, "operations on stale handles changed the world: %s", diff);
    tst_snapshot_free(&before);
    tst_snapshot_free(&after);
    model_check(&m, &tw);
    model_close(&m, &tw);
}

static bool is_live_handle(const model *m, ecsb_entity e)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->alive[i] && m->handle[i] == e)
            return true;
    return false;
}

void conformance_never_issued_handles_are_rejected_by_every_operation(void **state)
{
    (void)state;
    tst_world tw;
    model m;
    model_open(&m, &tw);
    model_create_full(&m, &tw, 64);
    for (size_t i = 5; i < 64; i += 9)
        model_destroy(&m, &tw, i);
    /* Any value that is not a live handle is stale: null, crafted neighbours, random. */
    ecsb_entity fixed[] = {ECSB_ENTITY_NULL, 1, 2, 63, 64, 65, UINT32_MAX, (uint64_t)UINT32_MAX + 1,
                           UINT64_MAX, UINT64_MAX - 1, 1ull << 63, (1ull << 32) | 1};
    tst_snapshot before, after;
    tst_snapshot_take(&before, &tw, m.handle, m.n);
    size_t tried = 0;
    tst_rng rng = {7};
    for (size_t k = 0; k < sizeof fixed / sizeof fixed[0] + 64 * 6 + 1000; k++) {
        ecsb_entity e;
        size_t j = k - sizeof fixed / sizeof fixed[0];
        if (k < sizeof fixed / sizeof fixed[0])
            e = fixed[k];
        else if (j < 64 * 6) { /* a live handle with bits changed */
            ecsb_entity h = m.handle[j / 6];
            const ecsb_entity delta[6] = {1, 1ull << 32, 1ull << 63, 1ull << 31, 1ull << 48,
                                          0xffffffffull};
            e = h ^ delta[j % 6];
        } else
            e = tst_rng_next(&rng);
        if (e != ECSB_ENTITY_NULL && is_live_handle(&m, e))
            continue;
        tw_expect_stale(&tw, e);
        tried++;
    }
    TST_CHECK(tried > 1000, "test bug: only %zu never-issued handles tried", tried);
    tst_snapshot_take(&after, &tw, m.handle, m.n);
    const char *diff = tst_snapshot_diff(&before, &after);
    TST_CHECK(!diff, "operations on never-issued handles changed the world: %s", diff);
    tst_snapshot_free(&before);
    tst_snapshot_free(&after);
    model_check(&m, &tw);
    model_close(&m, &tw);
}

static void count_visit(void *ctx, size_t count, void *const *columns)
{
    (void)columns;
    *(size_t *)ctx += count;
}

void conformance_bad_type_is_rejected_by_every_operation(void **state)
{
    (void)state;
    tst_world tw;
    model m;
    model_open(&m, &tw);
    model_create_full(&m, &tw, 20);
    const ecsb_type bad[] = {TST_TYPES, TST_TYPES + 1, ECSB_MAX_TYPES - 1, ECSB_MAX_TYPES,
                             ECSB_MAX_TYPES + 1, 0x80000000u, UINT32_MAX};
    const ecsb_vtable *ops = tw.ops;
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        ecsb_type t = bad[k];
        ecsb_entity e = m.handle[k];
        void *v = &v;
        TST_STATUS(ops->component_add(tw.w, e, t, &v), ECSB_ERR_TYPE, "component_add(bad type)");
        TST_CHECK(v == NULL, "component_add(bad type %u) left *value_out non-NULL", t);
        TST_STATUS(ops->component_remove(tw.w, e, t), ECSB_ERR_TYPE,
                   "component_remove(bad type)");
        TST_CHECK(ops->component_get(tw.w, e, t) == NULL, "component_get(bad type %u) not NULL",
                  t);
        TST_CHECK(!ops->component_has(tw.w, e, t), "component_has(bad type %u) true", t);
        TST_CHECK(ops->component_count(tw.w, t) == 0, "component_count(bad type %u) %zu", t,
                  ops->component_count(tw.w, t));
        size_t visits = 0;
        const ecsb_query qs[] = {{.count = 1, .types = {t}, .entities = true},
                                 {.count = 2, .types = {t, 0}, .entities = true},
                                 {.count = 2, .types = {0, t}, .entities = true},
                                 {.count = 2, .types = {t, t}, .entities = true}};
        for (size_t j = 0; j < sizeof qs / sizeof qs[0]; j++) {
            ecsb_status st = ops->query(tw.w, &qs[j], count_visit, &visits);
            TST_CHECK(st == (j < 3 ? ECSB_ERR_TYPE : ECSB_ERR_QUERY),
                      "query %zu with bad type %u: %s", j, t, ecsb_status_str(st));
        }
        TST_CHECK(visits == 0, "queries with bad type %u visited %zu entities", t, visits);
        tw_expect_valid(&tw);
    }
    model_check(&m, &tw); /* nothing changed */
    model_close(&m, &tw);
}

/* ecsb.h: add checks TYPE, STALE, PRESENT, NOMEM; remove checks TYPE, STALE, ABSENT. */
void conformance_statuses_follow_the_documented_checking_order(void **state)
{
    (void)state;
    tst_world tw;
    model m;
    model_open(&m, &tw);
    size_t held = model_create(&m, &tw);
    model_add(&m, &tw, held, 0, 1);
    size_t dead = model_create(&m, &tw);
    model_add(&m, &tw, dead, 0, 1);
    model_destroy(&m, &tw, dead);
    /* The dead entity's slot is likely reused by this one, which holds type 0. */
    size_t heir = model_create(&m, &tw);
    model_add(&m, &tw, heir, 0, 1);
    const ecsb_vtable *ops = tw.ops;
    ecsb_entity stale = m.handle[dead];
    void *v;

    TST_STATUS(ops->component_add(tw.w, stale, TST_TYPES, &v), ECSB_ERR_TYPE,
               "add(stale entity, bad type)");
    TST_STATUS(ops->component_add(tw.w, m.handle[held], TST_TYPES, &v), ECSB_ERR_TYPE,
               "add(live entity, bad type)");
    TST_STATUS(ops->component_add(tw.w, stale, 0, &v), ECSB_ERR_STALE,
               "add(stale entity whose slot's new owner holds the type)");
    TST_STATUS(ops->component_add(tw.w, ECSB_ENTITY_NULL, 0, &v), ECSB_ERR_STALE,
               "add(null entity)");
    TST_STATUS(ops->component_add(tw.w, m.handle[held], 0, &v), ECSB_ERR_PRESENT,
               "add(live entity, held type)");
    TST_STATUS(ops->component_remove(tw.w, stale, TST_TYPES), ECSB_ERR_TYPE,
               "remove(stale entity, bad type)");
    TST_STATUS(ops->component_remove(tw.w, m.handle[held], UINT32_MAX), ECSB_ERR_TYPE,
               "remove(live entity, bad type)");
    TST_STATUS(ops->component_remove(tw.w, stale, 0), ECSB_ERR_STALE,
               "remove(stale entity whose slot's new owner holds the type)");
    TST_STATUS(ops->component_remove(tw.w, stale, 1), ECSB_ERR_STALE,
               "remove(stale entity, type nobody holds)");
    TST_STATUS(ops->component_remove(tw.w, m.handle[held], 1), ECSB_ERR_ABSENT,
               "remove(live entity, absent type)");
    TST_STATUS(ops->entity_destroy(tw.w, stale), ECSB_ERR_STALE, "destroy(stale entity)");
    model_check(&m, &tw); /* and none of it changed anything */
    model_close(&m, &tw);
}

void conformance_every_type_index_and_size_round_trips(void **state)
{
    (void)state;
    static const uint32_t sizes[ECSB_MAX_TYPES] = {
        1,  2,  3,  4,  5,  7,  8,  12, 16, 24,  33,  64,  100, 255, 512, ECSB_MAX_TYPE_SIZE,
        6,  9,  10, 11, 13, 20, 28, 32, 40, 48, 96, 128, 200, 256, 300, 1000};
    tst_world tw;
    ecsb_world_config c = tst_config(ECSB_MAX_TYPES, sizes);
    tw_init(&tw, &c);
    tw.check_valid = false;
    model m;
    model_init(&m, &tw);
    for (size_t i = 0; i < 120; i++) {
        model_create(&m, &tw);
        for (ecsb_type t = 0; t < ECSB_MAX_TYPES; t++)
            if ((i * 7 + t * 3) % 4 != 0)
                model_add(&m, &tw, i, t, 1);
    }
    model_check(&m, &tw); /* 32 one-type and 992 two-type visit sets with handles */
    for (size_t i = 0; i < m.n; i += 3)
        for (ecsb_type t = 0; t < ECSB_MAX_TYPES; t += 2)
            if (*seed_at(&m, i, t))
                model_remove(&m, &tw, i, t);
    for (size_t i = 1; i < m.n; i += 10)
        model_destroy(&m, &tw, i);
    model_check(&m, &tw);
    model_close(&m, &tw);
}

void conformance_worlds_are_independent(void **state)
{
    (void)state;
    static const uint32_t other_sizes[2] = {16, 4};
    tst_world x, y;
    ecsb_world_config cx = tst_config3(), cy = tst_config(2, other_sizes);
    tw_init(&x, &cx);
    tw_init(&y, &cy);
    model mx, my;
    model_init(&mx, &x);
    model_init(&my, &y);
    for (size_t i = 0; i < 300; i++) {
        model_create(&mx, &x);
        model_add(&mx, &x, i, (ecsb_type)(i % 3), 1);
        model_create(&my, &y);
        model_add(&my, &y, i, (ecsb_type)(i % 2), 2);
        if (i % 4 == 3) {
            model_destroy(&mx, &x, i - 1);
            model_remove(&my, &y, i - 2, (ecsb_type)((i - 2) % 2));
        }
    }
    model_check(&mx, &x);
    model_check(&my, &y);
    model_free(&mx);
    tw_fini(&x);
    model_check(&my, &y); /* releasing one world leaves the other intact */
    model_free(&my);
    tw_fini(&y);
}

void conformance_initial_capacity_is_a_hint_not_a_limit(void **state)
{
    (void)state;
    const uint32_t caps[][2] = {{1, 0}, {10, 0}, {5000, 0}, {64, 64}, {1, 1}};
    for (size_t k = 0; k < sizeof caps / sizeof caps[0]; k++) {
        tst_world tw;
        ecsb_world_config c = tst_config3();
        c.initial_capacity = caps[k][0];
        c.max_entities = caps[k][1];
        tw_init(&tw, &c);
        tw.check_valid = false;
        model m;
        model_init(&m, &tw);
        size_t n = c.max_entities ? c.max_entities : 1000;
        for (size_t i = 0; i < n; i++) {
            model_create(&m, &tw);
            model_add(&m, &tw, i, (ecsb_type)(i % 3), 1);
        }
        model_check(&m, &tw);
        model_free(&m);
        tw_fini(&tw);
    }
}

/* A short random sequence of good and bad calls, world_valid after each one. */
void conformance_world_stays_valid_after_every_operation(void **state)
{
    (void)state;
    tst_world tw;
    model m;
    model_open(&m, &tw);
    tst_rng rng = {99};
    const ecsb_vtable *ops = tw.ops;
    for (int step = 0; step < 3000; step++) {
        uint64_t r = tst_rng_below(&rng, 100);
        size_t i = m.n ? tst_rng_below(&rng, m.n) : 0;
        ecsb_type t = (ecsb_type)tst_rng_below(&rng, TST_TYPES);
        if (m.n == 0 || r < 25 - (m.n > 200 ? 15 : 0)) {
            model_create(&m, &tw);
        } else if (r < 35) {
            if (m.alive[i])
                model_destroy(&m, &tw, i);
            else
                TST_STATUS(ops->entity_destroy(tw.w, m.handle[i]), ECSB_ERR_STALE, "destroy");
        } else if (r < 70) {
            if (m.alive[i] && !*seed_at(&m, i, t))
                model_add(&m, &tw, i, t, (uint64_t)step);
            else {
                void *v;
                TST_STATUS(ops->component_add(tw.w, m.handle[i], t, &v),
                           m.alive[i] ? ECSB_ERR_PRESENT : ECSB_ERR_STALE, "add");
            }
        } else {
            if (m.alive[i] && *seed_at(&m, i, t))
                model_remove(&m, &tw, i, t);
            else
                TST_STATUS(ops->component_remove(tw.w, m.handle[i], t),
                           m.alive[i] ? ECSB_ERR_ABSENT : ECSB_ERR_STALE, "remove");
        }
        TST_CHECK(ops->world_valid(tw.w), "world_valid false after step %d", step);
    }
    model_check(&m, &tw);
    model_close(&m, &tw);
}

/* ecsb.h: world_bytes = the world's allocations plus world_size. */
void conformance_world_bytes_counts_the_world_and_its_allocations(void **state)
{
    (void)state;
    tst_world tw;
    ecsb_world_config c = tst_config3();
    tw_init(&tw, &c);
    tw.check_valid = false;
    model m;
    model_init(&m, &tw);
    for (int round = 0; round < 4; round++) {
        size_t bytes = tw.ops->world_bytes(tw.w), want = tw.ops->world_size + tw.alloc->live_bytes;
        TST_CHECK(bytes == want,
                  "world_bytes %zu, want world_size %zu + allocated %zu = %zu (after %zu entities)",
                  bytes, tw.ops->world_size, tw.alloc->live_bytes, want, m.n);
        for (size_t k = 0; k < 3000; k++) {
            size_t i = model_create(&m, &tw);
            model_add(&m, &tw, i, (ecsb_type)(k % 3), 1);
        }
    }
    model_close(&m, &tw);
}

/* ---- scale ------------------------------------------------------------------------------- */

#define GROWTH_N (4194304u + 3u)
#define GROWTH_SHRINK 16u

static uint32_t growth_a(uint32_t i) { return i * 2654435761u ^ 0x5a5a5a5au; } /* bijective */
static uint64_t growth_b(uint32_t i) { return (uint64_t)i * 3 + 1; }

typedef struct growth_sum {
    const ecsb_entity *h; /* the handles, by creation index */
    uint64_t count, sum, handles;
    bool mismatch;
} growth_sum;

/* Query {0} with handles: its values and handles summed. */
static void growth_one(void *ctx, size_t count, void *const *columns)
{
    growth_sum *g = ctx;
    const ecsb_entity *handles = columns[1];
    for (size_t i = 0; i < count; i++) {
        uint32_t a;
        memcpy(&a, (unsigned char *)columns[0] + 4 * i, 4);
        g->count++;
        g->sum += a;
        g->handles += handles[i];
    }
}

/* Query {1, 0} with handles: each b names its entity, whose a and handle must come with it. */
static void growth_pair(void *ctx, size_t count, void *const *columns)
{
    growth_sum *g = ctx;
    const ecsb_entity *handles = columns[2];
    for (size_t i = 0; i < count; i++) {
        uint64_t vb;
        uint32_t va;
        memcpy(&vb, (unsigned char *)columns[0] + 8 * i, 8);
        memcpy(&va, (unsigned char *)columns[1] + 4 * i, 4);
        uint32_t at = (uint32_t)((vb - 1) / 3);
        g->count++;
        g->sum += vb;
        g->handles += handles[i];
        g->mismatch |= (vb - 1) % 3 != 0 || at >= GROWTH_N || va != growth_a(at) ||
                       handles[i] != g->h[at];
    }
}

/*
 * 4,194,307 entities, each with a 4-byte value and every 64th with an 8-byte one, grown from
 * nothing one entity at a time: counts, spot-checked values, the totals (values and handles)
 * of a one-type and a two-type query with handles, and a shrink at both ends.
 */
void conformance_grows_to_4194304_entities(void **state)
{
    (void)state;
    static const uint32_t sizes[2] = {4, 8};
    tst_world tw;
    ecsb_world_config c = tst_config(2, sizes);
    tw_init(&tw, &c);
    tw.check_valid = false;
    const ecsb_vtable *ops = tw.ops;
    ecsb_entity *h = tst_xrealloc(NULL, GROWTH_N * sizeof *h);
    uint64_t sum_a = 0, sum_b = 0, count_b = 0, handles_a = 0, handles_b = 0;
    for (uint32_t i = 0; i < GROWTH_N; i++) {
        void *v;
        ecsb_status st = ops->entity_create(tw.w, &h[i]);
        if (st == ECSB_OK)
            st = ops->component_add(tw.w, h[i], 0, &v);
        if (st != ECSB_OK) {
            TST_FAIL("entity %u: %s", i, ecsb_status_str(st));
        }
        uint32_t a = growth_a(i);
        memcpy(v, &a, 4);
        sum_a += a;
        handles_a += h[i];
        if (i % 64 == 5) {
            uint64_t b = growth_b(i);
            if ((st = ops->component_add(tw.w, h[i], 1, &v)) != ECSB_OK) {
                TST_FAIL("entity %u, type 1: %s", i, ecsb_status_str(st));
            }
            memcpy(v, &b, 8);
            sum_b += b;
            handles_b += h[i];
            count_b++;
        }
    }
    bool ok = ops->entity_count(tw.w) == GROWTH_N && ops->component_count(tw.w, 0) == GROWTH_N &&
              ops->component_count(tw.w, 1) == count_b;
    for (uint32_t i = 0; ok && i < GROWTH_N; i += (i < 1000 || i > GROWTH_N - 1000) ? 1 : 4099) {
        const void *a = ops->component_get(tw.w, h[i], 0);
        const void *b = ops->component_get(tw.w, h[i], 1);
        uint32_t va;
        uint64_t vb;
        ok = a && (memcpy(&va, a, 4), va == growth_a(i)) && (b != NULL) == (i % 64 == 5) &&
             (!b || (memcpy(&vb, b, 8), vb == growth_b(i)));
        if (!ok)
            printf("    entity %u: wrong value or presence\n", i);
    }
    growth_sum ea = {.h = h}, jb = {.h = h};
    const ecsb_query one = {.count = 1, .types = {0}, .entities = true};
    const ecsb_query pair = {.count = 2, .types = {1, 0}, .entities = true};
    ok = ok && ops->query(tw.w, &one, growth_one, &ea) == ECSB_OK &&
         ops->query(tw.w, &pair, growth_pair, &jb) == ECSB_OK;
    ok = ok && ea.count == GROWTH_N && ea.sum == sum_a && ea.handles == handles_a &&
         jb.count == count_b && jb.sum == sum_b && jb.handles == handles_b && !jb.mismatch;
    /* Shrink at both ends (few: the front is O(n) per destroy for sorted layouts). */
    for (uint32_t i = 0; ok && i < GROWTH_SHRINK; i++)
        ok = ops->entity_destroy(tw.w, h[i]) == ECSB_OK &&
             ops->entity_destroy(tw.w, h[GROWTH_N - 1 - i]) == ECSB_OK;
    for (uint32_t i = GROWTH_SHRINK; ok && i < GROWTH_N - GROWTH_SHRINK; i += 997) {
        const void *a = ops->component_get(tw.w, h[i], 0);
        uint32_t va;
        ok = a && (memcpy(&va, a, 4), va == growth_a(i));
    }
    ok = ok && ops->entity_count(tw.w) == GROWTH_N - 2 * GROWTH_SHRINK && ops->world_valid(tw.w);
    tst_xfree(h);
    TST_CHECK(ok, "at %u entities: counts %zu/%zu/%zu (want %u/%u/%llu), query {0} %llu visits, "
              "{1, 0} %llu visits%s, or a handle sum, a spot check or world_valid failed", GROWTH_N,
              ops->entity_count(tw.w), ops->component_count(tw.w, 0),
              ops->component_count(tw.w, 1), GROWTH_N, GROWTH_N, (unsigned long long)count_b,
              (unsigned long long)ea.count, (unsigned long long)jb.count,
              jb.mismatch ? " with mismatched values or handles" : "");
    tw_fini(&tw);
}

/* ---- rare paths ---------------------------------------------------------------------------- */

/*
 * With first_generation near the top (a test knob), a slot reaches the end of its generations
 * in a few destroys: the strategy must retire it (or otherwise never hand out a used handle),
 * never wrap to generation 0 (slot 0's handle would then be ECSB_ENTITY_NULL). Components are
 * added and removed on the way, so per-component generations (handle_table's slots) run out
 * too. Every handle ever issued is unique and non-null; dead ones stay stale; bystanders keep
 * their values.
 */
void conformance_generations_run_out_without_reissuing_a_handle(void **state)
{
    (void)state;
    const uint32_t firsts[] = {UINT32_MAX, UINT32_MAX - 1, UINT32_MAX - 5};
    for (size_t f = 0; f < sizeof firsts / sizeof firsts[0]; f++) {
        tst_world tw;
        ecsb_world_config c = tst_config3();
        c.first_generation = firsts[f];
        tw_init(&tw, &c); /* world_valid after every call */
        model m;
        model_init(&m, &tw);
        /* Slot 0 first, alone: the slot a wrap to generation 0 would turn into the null handle. */
        for (int round = 0; round < 12; round++) {
            size_t i = model_create(&m, &tw);
            for (int k = 0; k < 9; k++) { /* component generations run out too */
                model_add(&m, &tw, i, (ecsb_type)(k % 3), (uint64_t)k + 1);
                model_add(&m, &tw, i, (ecsb_type)((k + 1) % 3), (uint64_t)k + 1);
                model_remove(&m, &tw, i, (ecsb_type)(k % 3));
                model_remove(&m, &tw, i, (ecsb_type)((k + 1) % 3));
            }
            model_add(&m, &tw, i, (ecsb_type)(round % 3), 99);
            model_check(&m, &tw);
            model_destroy(&m, &tw, i);
        }
        /* Then churn among bystanders: many slots, each through its last generations. */
        for (size_t i = 0; i < 40; i++) {
            size_t e = model_create(&m, &tw);
            model_add(&m, &tw, e, (ecsb_type)(i % 3), 1);
        }
        for (int round = 0; round < 200; round++) {
            size_t victim = m.n - 1 - (size_t)(round * 7) % 30;
            while (!m.alive[victim])
                victim--;
            model_destroy(&m, &tw, victim);
            size_t e = model_create(&m, &tw);
            model_add(&m, &tw, e, (ecsb_type)(round % 3), (uint64_t)round + 2);
        }
        model_check(&m, &tw); /* handles unique, dead ones stale, values intact */
        for (size_t i = 0; i < m.n; i++)
            TST_CHECK(m.handle[i] != ECSB_ENTITY_NULL, "entity #%zu got the null handle "
                      "(first_generation %u: a generation wrapped to 0?)", i, firsts[f]);
        model_free(&m);
        tw_fini(&tw);
    }
    /*
     * Retired slots still count against the id space: with max_entities 3 and one generation
     * per slot, creates may be refused (ECSB_ERR_CAPACITY, "the id space is used up") once
     * retired slots fill the world's room, changing nothing; or go on, with fresh handles.
     */
    tst_world tw;
    ecsb_world_config c = tst_config3();
    c.max_entities = 3;
    c.first_generation = UINT32_MAX;
    tw_init(&tw, &c);
    ecsb_entity issued[16];
    size_t n = 0, refused = 0;
    for (int round = 0; round < 16; round++) {
        ecsb_entity e = ECSB_ENTITY_NULL;
        ecsb_status st = tw.ops->entity_create(tw.w, &e);
        if (st == ECSB_ERR_CAPACITY) {
            TST_CHECK(tw.ops->entity_count(tw.w) == 0 && e == ECSB_ENTITY_NULL,
                      "a refused create changed the world or *out");
            refused++;
            continue;
        }
        TST_STATUS(st, ECSB_OK, "entity_create");
        for (size_t i = 0; i < n; i++)
            TST_CHECK(issued[i] != e, "handle 0x%llx issued twice", (unsigned long long)e);
        issued[n++] = e;
        tw_add(&tw, e, 0, (uint64_t)round);
        tw_destroy(&tw, e);
    }
    for (size_t i = 0; i < n; i++)
        tw_expect_stale(&tw, issued[i]);
    if (refused)
        printf("    %s: creates refused after %zu slots retired (max_entities 3)\n",
               tst_strategy->name, n);
    tw_fini(&tw);
}

/*
 * A short-lived entity spawned and destroyed 2^20 times beside a bystander: the world stays
 * bounded (world_bytes after the churn is at most what it was after the first 1024 lives:
 * slots are reused, not used up), the previous life's handle is rejected after every create,
 * and the bystander keeps its value. Over the first CHURN_CHECKED lives each handle is new to
 * the CHURN_RING - 1 lives before it, except that where versions wrap
 * (ecsb_strategy.versions_wrap = n) it equals the handles of exactly n, 2n, ... lives before:
 * EnTT's stated risk, held to exactly what the strategy declares.
 */
#define CHURN_LIVES (1u << 20)
#define CHURN_RING 512u
#define CHURN_CHECKED 8192u
void conformance_long_churn_of_one_entity_stays_bounded_and_rejects_the_last_life(void **state)
{
    (void)state;
    uint32_t wrap = tst_strategy->versions_wrap;
    TST_CHECK(wrap < CHURN_RING, "versions_wrap %u: the test's ring is too short", wrap);
    tst_world tw;
    ecsb_world_config c = tst_config3();
    tw_init(&tw, &c);
    tw.check_valid = false; /* checked every 65536 lives below */
    const ecsb_vtable *ops = tw.ops;
    ecsb_entity bystander = tw_create(&tw);
    tw_add(&tw, bystander, 1, 77);
    static ecsb_entity ring[CHURN_RING];
    size_t bytes_warm = 0;
    for (uint32_t life = 0; life < CHURN_LIVES; life++) {
        ecsb_entity e;
        TST_STATUS(ops->entity_create(tw.w, &e), ECSB_OK, "entity_create");
        if (life > 0)
            TST_CHECK(!ops->entity_alive(tw.w, ring[(life - 1) % CHURN_RING]),
                      "life %u: the previous life's handle 0x%llx is alive", life,
                      (unsigned long long)ring[(life - 1) % CHURN_RING]);
        for (uint32_t j = 1; life < CHURN_CHECKED && j <= life && j < CHURN_RING; j++) {
            bool same = ring[(life - j) % CHURN_RING] == e;
            TST_CHECK(same == (wrap && j % wrap == 0), "life %u: handle 0x%llx %s the one %u "
                      "lives before (versions_wrap %u)", life, (unsigned long long)e,
                      same ? "repeats" : "differs from", j, wrap);
        }
        ring[life % CHURN_RING] = e;
        void *v;
        TST_STATUS(ops->component_add(tw.w, e, 0, &v), ECSB_OK, "component_add");
        memcpy(v, &life, sizeof life);
        TST_STATUS(ops->entity_destroy(tw.w, e), ECSB_OK, "entity_destroy");
        if (life == 1023)
            bytes_warm = ops->world_bytes(tw.w);
        if (life % 65536 == 65535)
            TST_CHECK(ops->world_valid(tw.w), "world_valid false after %u lives", life + 1);
    }
    size_t bytes = ops->world_bytes(tw.w);
    TST_CHECK(bytes <= bytes_warm, "world_bytes grew from %zu after 1024 lives to %zu after %u: "
              "the churn uses up slots", bytes_warm, bytes, CHURN_LIVES);
    TST_CHECK(ops->entity_count(tw.w) == 1, "entity_count %zu, want 1",
              ops->entity_count(tw.w));
    tw_expect_value(&tw, bystander, 1, 77);
    tw_fini(&tw);
}

/*
 * world_corrupt (a testing aid) damages one invariant at a time: world_valid must then say
 * false, and the same damage again must restore the world exactly. On an empty world and on
 * one with every kind of state; each strategy must have at least 3 kinds of damage.
 */
void conformance_world_valid_catches_every_world_corrupt_damage(void **state)
{
    (void)state;
    for (int filled = 0; filled < 2; filled++) {
        tst_world tw;
        ecsb_world_config c = tst_config3();
        c.initial_capacity = filled ? 0 : 8;
        tw_init(&tw, &c);
        tw.check_valid = false;
        model m;
        model_init(&m, &tw);
        if (filled)
            build_mixed(&m, &tw, 150); /* holders, removed components, free and reused slots */
        if (filled) /* a free slot at the head of any free list */
            model_destroy(&m, &tw, m.n - 2);
        tst_snapshot before, after;
        tst_snapshot_take(&before, &tw, m.handle, m.n);
        size_t applied = 0;
        unsigned which = 0;
        for (;; which++) {
            TST_CHECK(which < 64, "world_corrupt never returned -1 (past the last number)");
            int r = tw.ops->world_corrupt(tw.w, which);
            if (r < 0)
                break;
            if (r == 0)
                continue;
            TST_CHECK(r == 1, "world_corrupt(%u) returned %d", which, r);
            TST_CHECK(!tw.ops->world_valid(tw.w), "world_valid true after world_corrupt(%u) "
                      "damaged its invariant (%s world)", which, filled ? "a filled" : "an empty");
            TST_CHECK(tw.ops->world_corrupt(tw.w, which) == 1, "world_corrupt(%u) the second "
                      "time did not apply", which);
            TST_CHECK(tw.ops->world_valid(tw.w), "world_valid false after world_corrupt(%u) "
                      "twice (the second should undo the first)", which);
            tst_snapshot_take(&after, &tw, m.handle, m.n);
            const char *diff = tst_snapshot_diff(&before, &after);
            TST_CHECK(!diff, "world_corrupt(%u) twice changed the world: %s", which, diff);
            tst_snapshot_free(&after);
            applied++;
        }
        if (filled)
            TST_CHECK(applied >= 3, "world_corrupt applied only %zu kinds of damage to a filled "
                      "world (of %u numbers); every strategy needs at least 3", applied, which);
        tst_snapshot_free(&before);
        model_check(&m, &tw);
        model_free(&m);
        tw_fini(&tw);
    }
}

/* ---- growth -------------------------------------------------------------------------------- */

/*
 * A world grown from nothing (no initial_capacity) one entity at a time: the bytes it has
 * asked its allocator for, in all, stay within a constant factor of what it holds (geometric
 * growth copies each byte O(1) times; growing by a constant step copies O(n) per entity).
 * Checked at every power of two up to 2^20 entities.
 */
void conformance_growth_asks_for_amortised_constant_bytes_per_entity(void **state)
{
    (void)state;
    static const uint32_t sizes[2] = {8, 16};
    tst_world tw;
    ecsb_world_config c = tst_config(2, sizes);
    tw_init(&tw, &c);
    tw.check_valid = false;
    const ecsb_vtable *ops = tw.ops;
    const uint32_t n = 1u << 20;
    for (uint32_t i = 0; i < n; i++) {
        ecsb_entity e;
        void *v;
        ecsb_status st = ops->entity_create(tw.w, &e);
        if (st == ECSB_OK)
            st = ops->component_add(tw.w, e, 0, &v);
        if (st == ECSB_OK && i % 4 == 0)
            st = ops->component_add(tw.w, e, 1, &v);
        TST_STATUS(st, ECSB_OK, "create and add");
        uint32_t count = i + 1;
        if (count >= 4096 && (count & (count - 1)) == 0) {
            size_t asked = tw.alloc->bytes_requested, held = tw.alloc->live_bytes;
            TST_CHECK(asked <= 8 * held + (1u << 20),
                      "after %u entities the world holds %zu bytes but has asked for %zu in all "
                      "(%.1fx): capacity does not grow geometrically", count, held, asked,
                      (double)asked / (double)held);
        }
    }
    printf("    growth %s: %u entities, %zu allocation calls, %.2f bytes asked per byte held\n",
           tst_strategy->name, n, tw.alloc->calls,
           (double)tw.alloc->bytes_requested / (double)tw.alloc->live_bytes);
    tw_fini(&tw);
}

/* ---- long two-type queries ------------------------------------------------------------------ */

#define SHUFFLED_N 100000u /* > 65,536 holders of the rarer type: blocked, prefetched walks */
#define SHUFFLE_WINDOW 64u  /* permuted within windows near the end: cheap for sorted layouts */

typedef struct long_join {
    unsigned char *seen; /* per entity index */
    const ecsb_entity *h; /* the handles, by entity index */
    size_t visits, wrong, twice;
    bool a_first;        /* query {0, 1} rather than {1, 0} */
    bool entities;       /* with handles: each must be its entity's */
} long_join;

static uint32_t shuffled_value(uint64_t i) { return (uint32_t)tst_mix64(i) | 1; }

static void long_join_pair(long_join *lj, const void *v0, const void *v1, const ecsb_entity *e)
{
    uint64_t i;
    uint32_t a;
    memcpy(&i, v1, 8);
    memcpy(&a, v0, 4);
    lj->visits++;
    if (i >= SHUFFLED_N || a != shuffled_value(i) || (e && *e != lj->h[i])) {
        lj->wrong++;
        return;
    }
    lj->twice += lj->seen[i]++;
}

static void long_query_visit(void *ctx, size_t count, void *const *columns)
{
    long_join *lj = ctx;
    unsigned char *c0 = columns[lj->a_first ? 0 : 1], *c1 = columns[lj->a_first ? 1 : 0];
    const ecsb_entity *handles = lj->entities ? columns[2] : NULL;
    for (size_t k = 0; k < count; k++)
        long_join_pair(lj, c0 + 4 * k, c1 + 8 * k, handles ? handles + k : NULL);
}

/*
 * 100,000 entities hold type 1 (8 bytes: the entity's number) but for every 50th; 90,000 hold
 * type 0 (4 bytes), the first 30,000 added in creation order, the rest in an order permuted
 * within windows of 64. Queries of {0, 1} and {1, 0} with handles and {0, 1} without visit
 * every common holder once with both values (and its own handle): the long, blocked, partly
 * prefetched walks of layouts that lead with the smaller type (sparse_set's blocks of 256
 * judged in order or not), and their handle buffers.
 */
void conformance_two_type_queries_over_more_than_65536_shuffled_holders_visit_each_once(void **state)
{
    (void)state;
    static const uint32_t sizes[2] = {4, 8};
    tst_world tw;
    ecsb_world_config c = tst_config(2, sizes);
    tw_init(&tw, &c);
    tw.check_valid = false;
    const ecsb_vtable *ops = tw.ops;
    ecsb_entity *h = tst_xrealloc(NULL, SHUFFLED_N * sizeof *h);
    uint32_t *order = tst_xrealloc(NULL, SHUFFLED_N * sizeof *order);
    size_t expected = 0;
    for (uint32_t i = 0; i < SHUFFLED_N; i++) {
        void *v;
        TST_STATUS(ops->entity_create(tw.w, &h[i]), ECSB_OK, "entity_create");
        if (i % 50 != 3) {
            TST_STATUS(ops->component_add(tw.w, h[i], 1, &v), ECSB_OK, "add type 1");
            uint64_t x = i;
            memcpy(v, &x, 8);
        }
        order[i] = i;
    }
    tst_rng rng = {77};
    for (uint32_t w = 30000; w < SHUFFLED_N; w += SHUFFLE_WINDOW)
        for (uint32_t k = w; k + 1 < w + SHUFFLE_WINDOW && k + 1 < SHUFFLED_N; k++) {
            uint32_t end = w + SHUFFLE_WINDOW < SHUFFLED_N ? w + SHUFFLE_WINDOW : SHUFFLED_N;
            uint32_t j = k + (uint32_t)tst_rng_below(&rng, end - k);
            uint32_t tmp = order[k];
            order[k] = order[j];
            order[j] = tmp;
        }
    for (uint32_t k = 0; k < SHUFFLED_N; k++) {
        uint32_t i = order[k];
        if (i % 10 == 9)
            continue;
        void *v;
        TST_STATUS(ops->component_add(tw.w, h[i], 0, &v), ECSB_OK, "add type 0");
        uint32_t a = shuffled_value(i);
        memcpy(v, &a, 4);
        expected += i % 50 != 3;
    }
    long_join lj = {.h = h};
    lj.seen = tst_xcalloc(SHUFFLED_N, 1);
    for (int pass = 0; pass < 3; pass++) {
        memset(lj.seen, 0, SHUFFLED_N);
        lj.visits = lj.wrong = lj.twice = 0;
        lj.a_first = pass != 1;
        lj.entities = pass != 2;
        const char *what = pass == 0   ? "query {0, 1} with handles"
                           : pass == 1 ? "query {1, 0} with handles"
                                       : "query {0, 1}";
        ecsb_query q = tst_query(2, lj.a_first ? (ecsb_type[]){0, 1} : (ecsb_type[]){1, 0});
        q.entities = lj.entities;
        TST_STATUS(ops->query(tw.w, &q, long_query_visit, &lj), ECSB_OK, "query");
        size_t missing = 0;
        for (uint32_t i = 0; i < SHUFFLED_N; i++)
            missing += i % 10 != 9 && i % 50 != 3 && !lj.seen[i];
        TST_CHECK(lj.visits == expected && !lj.wrong && !lj.twice && !missing,
                  "%s over %u entities: %zu visits (want %zu), %zu with wrong values or "
                  "handles, %zu "
                  "entities visited twice, %zu missed", what, SHUFFLED_N, lj.visits, expected,
                  lj.wrong, lj.twice, missing);
    }
    TST_CHECK(ops->world_valid(tw.w), "world_valid false");
    tst_xfree(lj.seen);
    tst_xfree(order);
    tst_xfree(h);
    tw_fini(&tw);
}

/*
 * Queries between a type held by every entity and one held by a few (more than 16 times fewer:
 * sorted layouts gallop through the larger side), the last entity holding both, and the first:
 * every match is found, at both ends, with its handle.
 */
void conformance_query_of_a_common_and_a_rare_type_finds_every_match(void **state)
{
    (void)state;
    tst_world tw;
    ecsb_world_config c = tst_config3();
    tw_init(&tw, &c);
    tw.check_valid = false;
    model m;
    model_init(&m, &tw);
    const size_t n = 3000;
    for (size_t i = 0; i < n; i++) {
        model_create(&m, &tw);
        model_add(&m, &tw, i, 0, 1);
        if (i % 97 == 0 || i == n - 1)
            model_add(&m, &tw, i, 1, 1);
        if (i == n - 1 || i == n - 2)
            model_add(&m, &tw, i, 2, 1);
    }
    model_check(&m, &tw); /* {0, 1}, {1, 0}, {0, 2}, ... with handles, and the queries */
    model_remove(&m, &tw, n - 1, 0); /* the rare side's last entity no longer matches */
    model_check(&m, &tw);
    model_close(&m, &tw);
}

/* ---- spawn ------------------------------------------------------------------------------- */

/* The types of `set` (bit t for type t of `types`), in an order picked by `turn`. */
static uint32_t set_types(uint32_t set, uint32_t types, uint64_t turn, ecsb_type *out)
{
    uint32_t count = 0;
    for (ecsb_type t = 0; t < types; t++)
        if (set >> t & 1)
            out[count++] = t;
    for (uint32_t j = 0; count > 1 && j < count; j++) { /* swaps picked by turn */
        uint32_t k = (uint32_t)((j + turn) % count);
        ecsb_type tmp = out[j];
        out[j] = out[k];
        out[k] = tmp;
    }
    return count;
}

/*
 * spawn gives a new entity holding exactly its types, each with the value written through
 * values_out, for every set of three types (the empty one: a plain create) in several
 * orders, between creates and adds that make the same sets one type at a time.
 */
void conformance_spawn_holds_exactly_its_types_with_the_values_written(void **state)
{
    (void)state;
    tst_world tw;
    model m;
    model_open(&m, &tw);
    for (uint64_t round = 0; round < 6; round++)
        for (uint32_t set = 0; set < (1u << TST_TYPES); set++) {
            ecsb_type types[TST_TYPES];
            uint32_t count = set_types(set, TST_TYPES, round + set, types);
            model_spawn(&m, &tw, types, count, round + 1);
            size_t i = model_create(&m, &tw); /* the same set one add at a time */
            for (uint32_t j = 0; j < count; j++)
                model_add(&m, &tw, i, types[j], round + 7);
        }
    model_check(&m, &tw);
    /* count 0 with values_out NULL is a create */
    ecsb_entity e = ECSB_ENTITY_NULL;
    TST_STATUS(tw.ops->entity_spawn(tw.w, NULL, 0, &e, NULL), ECSB_OK, "spawn of no type");
    TST_CHECK(e != ECSB_ENTITY_NULL && tw.ops->entity_alive(tw.w, e), "spawn of no type: dead");
    for (ecsb_type t = 0; t < TST_TYPES; t++)
        tw_expect_absent(&tw, e, t);
    model_close(&m, &tw);
}

/*
 * A spawned entity is like any other: adds, removes and destroy work on it, its slot is
 * reused by the next spawn or create with nothing of its old life, and its old handle is stale.
 */
void conformance_spawned_entities_change_and_die_like_created_ones(void **state)
{
    (void)state;
    tst_world tw;
    model m;
    model_open(&m, &tw);
    static const ecsb_type all[3] = {2, 0, 1}, two[2] = {1, 0};
    for (size_t i = 0; i < 30; i++)
        model_spawn(&m, &tw, i % 2 ? all : two, i % 2 ? 3 : 2, 1);
    for (size_t i = 0; i < 30; i += 3) {
        model_remove(&m, &tw, i, 0);
        if (i % 2 == 0)
            model_add(&m, &tw, i, 2, 2);
        model_destroy(&m, &tw, i + 1);
    }
    model_check(&m, &tw);
    for (size_t i = 0; i < 10; i++) /* into the slots just freed */
        model_spawn(&m, &tw, i % 2 ? two : all + 1, 2, 3);
    for (size_t i = 0; i < m.n; i++)
        if (!m.alive[i])
            tw_expect_stale(&tw, m.handle[i]);
    model_check(&m, &tw);
    model_close(&m, &tw);
}

/*
 * Spawns into a world of 6 types with declared queries (tables, rosters, owning groups kept
 * for them) visit as adds would: every declared and undeclared query sees each spawned
 * entity once, amid adds, removes and destroys, and after the world grows.
 */
void conformance_spawn_into_declared_queries_visits_each_entity_once(void **state)
{
    (void)state;
    enum { TYPES = 6 };
    static const uint32_t sizes[TYPES] = {4, 8, 12, 16, 4, 24};
    static const ecsb_type declared[4][3] = {{0, 1}, {1, 2, 3}, {4, 0}, {5}};
    static const uint32_t declared_count[4] = {2, 3, 2, 1};
    tst_world tw;
    ecsb_world_config c = tst_config(TYPES, sizes);
    c.query_count = 4;
    for (uint32_t d = 0; d < 4; d++)
        c.queries[d] = tst_query(declared_count[d], declared[d]);
    tw_init(&tw, &c);
    tw.check_valid = false; /* O(size) per call; model_check checks it */
    model m;
    model_init(&m, &tw);
    tst_rng rng = {17};
    for (int round = 0; round < 4; round++) {
        for (size_t k = 0; k < 300; k++) {
            ecsb_type types[TYPES];
            uint32_t set = (uint32_t)tst_rng_below(&rng, 1u << TYPES);
            uint32_t count = set_types(set, TYPES, tst_rng_next(&rng), types);
            size_t i = model_spawn(&m, &tw, types, count, (uint64_t)round + 1);
            uint64_t r = tst_rng_below(&rng, 8);
            ecsb_type t = (ecsb_type)tst_rng_below(&rng, TYPES);
            if (r == 0 && !(set >> t & 1))
                model_add(&m, &tw, i, t, 9);
            else if (r == 1 && (set >> t & 1))
                model_remove(&m, &tw, i, t);
            else if (r == 2 && m.alive[i = (size_t)tst_rng_below(&rng, m.n)])
                model_destroy(&m, &tw, i);
        }
        for (uint32_t d = 0; d < 4; d++)
            model_check_query(&m, &tw, &c.queries[d]);
        model_check(&m, &tw);
    }
    model_close(&m, &tw);
}
