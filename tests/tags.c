/*
 * tags.c — conformance of tags (types of size 0: membership only) and of queries that exclude
 * types ("has A and B, not C"), on every strategy: what add, get, spawn and query hand out for
 * a tag (ECSB_TAG), that a tag stores no value, which entities an excluding query visits, and
 * that declared queries with exclusions (owning groups, rosters, table caches) follow every
 * add, remove and destroy of an excluded type. The model (tests/model.c) checks every query it
 * runs with and without exclusions; these tests build the worlds that reach each case.
 */
#include <stdio.h>
#include <string.h>

#include "tests/model.h"
#include "tests/support.h"
#include "tests/suites.h"

/* Types 0 (4 B), 1 (tag), 2 (8 B), 3 (tag), 4 (24 B). */
#define G_TYPES 5
static const uint32_t g_sizes[G_TYPES] = {4, 0, 8, 0, 24};

static void open_tags(model *m, tst_world *tw, const ecsb_world_config *c)
{
    tw_init(tw, c);
    model_init(m, tw);
}

/*
 * A tag is added, held, counted, removed and destroyed like any type; add, spawn and get hand
 * out ECSB_TAG (get: only while held, so non-NULL still means present); a query's column for
 * it is ECSB_TAG (tw_add, tw_spawn, tw_expect_value and the query collectors check each).
 */
void conformance_tags_hold_membership_only_and_hand_out_the_tag_pointer(void **state)
{
    (void)state;
    ecsb_world_config c = tst_config(G_TYPES, g_sizes);
    tst_world tw;
    model m;
    open_tags(&m, &tw, &c);
    for (size_t i = 0; i < 40; i++) {
        model_create(&m, &tw);
        for (ecsb_type t = 0; t < G_TYPES; t++)
            if ((i >> t) & 1 || i % 7 == t)
                model_add(&m, &tw, i, t, 1);
    }
    for (size_t i = 0; i < 12; i++) { /* spawned with tags among their types */
        const ecsb_type types[3] = {3, (ecsb_type)(i % 3 == 0 ? 1 : 0), 4};
        model_spawn(&m, &tw, types, 1 + i % 3, 2);
    }
    model_check(&m, &tw);
    void *v = &v;
    TST_STATUS(tw.ops->component_add(tw.w, m.handle[1], 0, &v), ECSB_ERR_PRESENT,
               "add of a held type");
    ecsb_entity holder = m.handle[2]; /* i = 2: holds tag 1 */
    TST_CHECK(*seed_at(&m, 2, 1), "test bug: entity 2 should hold tag 1");
    TST_STATUS(tw.ops->component_add(tw.w, holder, 1, &v), ECSB_ERR_PRESENT,
               "add of a held tag");
    TST_CHECK(v == NULL, "a failed add of a tag left *value_out non-NULL");
    for (size_t i = 0; i < m.n; i += 3) /* tags go, some come back, entities die */
        for (ecsb_type t = 1; t < G_TYPES; t += 2)
            if (*seed_at(&m, i, t))
                model_remove(&m, &tw, i, t);
    TST_STATUS(tw.ops->component_remove(tw.w, m.handle[0], 1), ECSB_ERR_ABSENT,
               "remove of an absent tag");
    TST_CHECK(tw.ops->component_get(tw.w, m.handle[0], 1) == NULL,
              "get of an absent tag is not NULL");
    for (size_t i = 0; i < m.n; i += 4)
        if (!*seed_at(&m, i, 3))
            model_add(&m, &tw, i, 3, 3);
    for (size_t i = 1; i < m.n; i += 5)
        model_destroy(&m, &tw, i);
    model_check(&m, &tw);
    model_close(&m, &tw);
}

/* A world of tags only: every operation and query works with no value anywhere. */
void conformance_a_world_of_tags_only_works(void **state)
{
    (void)state;
    const uint32_t sizes[3] = {0, 0, 0};
    ecsb_world_config c = tst_config(3, sizes);
    c.query_count = 2;
    c.queries[0] = tst_query(2, (ecsb_type[]){0, 1});
    c.queries[1] = tst_query_without(1, (ecsb_type[]){2}, 1, (ecsb_type[]){0});
    tst_world tw;
    model m;
    open_tags(&m, &tw, &c);
    for (size_t i = 0; i < 300; i++) {
        model_create(&m, &tw);
        for (ecsb_type t = 0; t < 3; t++)
            if (tst_mix64(i * 7 + t) % 3)
                model_add(&m, &tw, i, t, 1);
    }
    for (size_t i = 0; i < m.n; i += 4)
        model_destroy(&m, &tw, i);
    for (size_t i = 1; i < m.n; i += 3)
        if (*seed_at(&m, i, 0))
            model_remove(&m, &tw, i, 0);
    model_check(&m, &tw);
    model_close(&m, &tw);
}

/*
 * A tag stores no value: N entities holding a valued type and a tag take at least N * 64
 * bytes less than the same world whose second type has 64-byte values (every layout stores a
 * held value somewhere; none may store one for a tag).
 */
void conformance_tags_cost_no_value_storage(void **state)
{
    (void)state;
    enum { N = 3000 };
    size_t bytes[2];
    for (int valued = 0; valued < 2; valued++) {
        const uint32_t sizes[2] = {8, valued ? 64u : 0u};
        ecsb_world_config c = tst_config(2, sizes);
        tst_world tw;
        tw_init(&tw, &c);
        tw.check_valid = false;
        for (size_t i = 0; i < N; i++) {
            ecsb_entity e = tw_create(&tw);
            tw_add(&tw, e, 0, i + 1);
            tw_add(&tw, e, 1, i + 1);
        }
        tw_expect_valid(&tw);
        bytes[valued] = tw.ops->world_bytes(tw.w);
        tw_fini(&tw);
    }
    TST_CHECK(bytes[0] + (size_t)N * 64 <= bytes[1],
              "a world whose %d entities hold a tag takes %zu bytes, the same world with 64-byte "
              "values instead %zu: the tag stores %zu bytes per entity or more",
              N, bytes[0], bytes[1], (bytes[0] + (size_t)N * 64 - bytes[1]) / N);
}

/*
 * Excluding queries visit exactly the holders of the included types that hold none of the
 * excluded ones: entities holding every combination of three types, queried with every
 * exclusion (model_check runs each query over every subset of the first four types excluding
 * every subset of the others, and {a} without b for every pair).
 */
void conformance_excluding_queries_skip_the_holders_of_excluded_types(void **state)
{
    (void)state;
    tst_world tw;
    model m;
    ecsb_world_config c = tst_config(G_TYPES, g_sizes);
    open_tags(&m, &tw, &c);
    for (size_t i = 0; i < 3 * 32; i++) { /* each of the 32 sets three times, interleaved */
        model_create(&m, &tw);
        for (ecsb_type t = 0; t < G_TYPES; t++)
            if ((i % 32) >> t & 1)
                model_add(&m, &tw, i, t, 1);
    }
    model_check(&m, &tw);
    /* A run of holders of type 0 broken by every other one holding type 2 (so layouts that
     * hand out runs must cut them at each excluded entity). */
    for (size_t k = 0; k < 300; k++) {
        size_t i = model_create(&m, &tw);
        model_add(&m, &tw, i, 0, 2);
        model_add(&m, &tw, i, 4, 2);
        if (k % 2)
            model_add(&m, &tw, i, 2, 2);
        if (k % 5 == 0)
            model_add(&m, &tw, i, 3, 2);
    }
    model_check(&m, &tw);
    /* Excluded types gained and lost: the same queries now visit others. */
    for (size_t i = 0; i < m.n; i += 2)
        if (*seed_at(&m, i, 2))
            model_remove(&m, &tw, i, 2);
        else
            model_add(&m, &tw, i, 2, 3);
    model_check(&m, &tw);
    model_close(&m, &tw);
}

/*
 * Declared queries with exclusions: the structures a strategy keeps for them must follow the
 * excluded types. Entities gain and lose the excluded types (valued and tags), are spawned
 * holding them, and die; after every batch the declared queries (and every other) must visit
 * exactly the model's matches. Declared: {0, 2} without tag 1 (owning_group: a group that
 * excludes), {0, 2} as well (the same set without the exclusion), {4} without {0, 3}, and
 * {2, 3} without 4 (a tag in the set).
 */
void conformance_declared_queries_with_exclusions_follow_every_change(void **state)
{
    (void)state;
    ecsb_world_config c = tst_config(G_TYPES, g_sizes);
    c.query_count = 4;
    c.queries[0] = tst_query_without(2, (ecsb_type[]){0, 2}, 1, (ecsb_type[]){1});
    c.queries[1] = tst_query(2, (ecsb_type[]){2, 0});
    c.queries[2] = tst_query_without(1, (ecsb_type[]){4}, 2, (ecsb_type[]){3, 0});
    c.queries[3] = tst_query_without(2, (ecsb_type[]){3, 2}, 1, (ecsb_type[]){4});
    tst_world tw;
    model m;
    open_tags(&m, &tw, &c);
    tst_rng rng = {41};
    for (int round = 0; round < 6; round++) {
        for (size_t k = 0; k < 60; k++) {
            size_t i = model_create(&m, &tw);
            for (ecsb_type t = 0; t < G_TYPES; t++)
                if (tst_rng_below(&rng, 3))
                    model_add(&m, &tw, i, t, (uint64_t)round);
        }
        for (size_t k = 0; k < 20; k++) {
            const ecsb_type types[4] = {0, 2, 1, 4};
            model_spawn(&m, &tw, types, 2 + (uint32_t)(k % 3), (uint64_t)round + 10);
        }
        for (size_t k = 0; k < 200 && m.n; k++) { /* toggle a type of a live entity */
            size_t i = (size_t)tst_rng_below(&rng, m.n);
            ecsb_type t = (ecsb_type)tst_rng_below(&rng, G_TYPES);
            if (!m.alive[i])
                continue;
            if (*seed_at(&m, i, t))
                model_remove(&m, &tw, i, t);
            else
                model_add(&m, &tw, i, t, (uint64_t)round + 20);
        }
        for (size_t k = 0; k < 25 && m.n; k++) {
            size_t i = (size_t)tst_rng_below(&rng, m.n);
            if (m.alive[i])
                model_destroy(&m, &tw, i);
        }
        for (uint32_t d = 0; d < c.query_count; d++)
            model_check_query(&m, &tw, &c.queries[d]);
    }
    model_check(&m, &tw);
    model_close(&m, &tw);
}
