/*
 * query.c — query() and the configuration it relies on: which entities a query visits (those
 * holding every one of its 1..8 types, each once, values in the query's column order, in runs
 * of consecutive values), that declared and undeclared queries visit the same, that callback
 * writes reach the stored values, queries over a 32-type world, bad queries, and that every
 * value pointer any operation hands out is aligned as the configuration says.
 *
 * The visits are compared as multisets of value tuples (runs carry values, not handles): the
 * collector (tst_tuples_query) reads every run row by row, so a run whose count or columns are
 * wrong hands out wrong tuples, and flags runs of 0, NULL columns and misaligned columns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/model.h"
#include "tests/support.h"
#include "tests/suites.h"

/* Ten types of assorted sizes (and so natural alignments 1 .. 16). */
#define Q_TYPES 10
static const uint32_t q_sizes[Q_TYPES] = {4, 8, 12, 16, 24, 32, 1, 2, 64, 3};

/* k distinct types in a random order from [0, types), excluding x others. */
static ecsb_query random_query_without(tst_rng *rng, uint32_t types, uint32_t k, uint32_t x)
{
    ecsb_type all[ECSB_MAX_TYPES];
    for (ecsb_type t = 0; t < types; t++)
        all[t] = t;
    for (uint32_t j = 0; j < k + x; j++) {
        uint32_t m = j + (uint32_t)tst_rng_below(rng, types - j);
        ecsb_type tmp = all[j];
        all[j] = all[m];
        all[m] = tmp;
    }
    return tst_query_without(k, all, x, all + k);
}

/* k distinct types in a random order from [0, types). */
static ecsb_query random_query(tst_rng *rng, uint32_t types, uint32_t k)
{
    ecsb_type all[ECSB_MAX_TYPES];
    for (ecsb_type t = 0; t < types; t++)
        all[t] = t;
    for (uint32_t j = 0; j < k; j++) {
        uint32_t m = j + (uint32_t)tst_rng_below(rng, types - j);
        ecsb_type tmp = all[j];
        all[j] = all[m];
        all[m] = tmp;
    }
    return tst_query(k, all);
}

/*
 * n entities, each holding each type with chance 3/4 (so even 8-type queries match a few
 * percent), then removals, destroys and re-created entities in reused slots.
 */
static void build_dense(model *m, tst_world *tw, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        model_create(m, tw);
        for (ecsb_type t = 0; t < m->types; t++)
            if (tst_mix64(i * 131 + t) % 4 != 0)
                model_add(m, tw, i, t, 1);
    }
    for (size_t i = 0; i < n; i += 7) {
        ecsb_type t = (ecsb_type)(tst_mix64(i) % m->types);
        if (*seed_at(m, i, t))
            model_remove(m, tw, i, t);
    }
    for (size_t i = 3; i < n; i += 11)
        model_destroy(m, tw, i);
    for (size_t k = 0; k < n / 16; k++) {
        size_t i = model_create(m, tw);
        for (ecsb_type t = 0; t < m->types; t++)
            if (tst_mix64(k * 7 + t) % 3 != 0)
                model_add(m, tw, i, t, 2);
    }
}

void query_visits_exactly_the_holders_of_all_k_types_once_with_their_values(void **state)
{
    (void)state;
    tst_world tw;
    ecsb_world_config c = tst_config(Q_TYPES, q_sizes);
    tw_init(&tw, &c);
    tw.check_valid = false;
    model m;
    model_init(&m, &tw);
    tst_rng rng = {11};
    ecsb_query empty_world = random_query(&rng, Q_TYPES, 3);
    model_check_query(&m, &tw, &empty_world); /* nothing to visit */
    build_dense(&m, &tw, 800);
    for (uint32_t k = 1; k <= ECSB_MAX_QUERY_TYPES; k++)
        for (int round = 0; round < 8; round++) {
            ecsb_query q = random_query(&rng, Q_TYPES, k);
            model_check_query(&m, &tw, &q);
        }
    /* A type nobody holds any more: every query naming it visits nothing. */
    for (size_t i = 0; i < m.n; i++)
        if (m.alive[i] && *seed_at(&m, i, 5))
            model_remove(&m, &tw, i, 5);
    ecsb_query q = tst_query(3, (ecsb_type[]){2, 5, 0});
    model_check_query(&m, &tw, &q);
    q = tst_query(1, (ecsb_type[]){5});
    model_check_query(&m, &tw, &q);
    model_check(&m, &tw);
    model_close(&m, &tw);
}

/* Queries of one type and of all ten, in entity-creation order: a packed world. */
void query_over_a_packed_world_hands_out_every_value_in_runs(void **state)
{
    (void)state;
    tst_world tw;
    ecsb_world_config c = tst_config(Q_TYPES, q_sizes);
    tw_init(&tw, &c);
    tw.check_valid = false;
    model m;
    model_init(&m, &tw);
    for (size_t i = 0; i < 1000; i++) {
        model_create(&m, &tw);
        for (ecsb_type t = 0; t < 4; t++)
            model_add(&m, &tw, i, t, 1);
    }
    for (uint32_t k = 1; k <= 4; k++) {
        ecsb_type list[4] = {3, 1, 0, 2};
        ecsb_query q = tst_query(k, list);
        model_check_query(&m, &tw, &q);
        tst_tuples got = {0};
        tst_tuples_query(&got, &tw, &q);
        TST_CHECK(got.runs >= 1 && got.runs <= got.count, "%zu runs for %zu entities",
                  got.runs, got.count);
        tst_tuples_free(&got);
    }
    model_close(&m, &tw);
}

/* ---- two pools in step ---------------------------------------------------------------------- */

/*
 * A two-type query over pools A and B whose dense orders are in step over whole blocks of
 * entries: a view may judge a block of lead entries at once (paged_sparse_set: VIEW_BLOCK, 64)
 * and hand it out as one run when each entry's B sits one distance from its A (B position - A
 * position), which may be negative. The shapes are built through the public API alone: A is
 * added to STEP_N entities y0.. in order (after `a_only` entities holding only A), B in an order
 * made from theirs (blocks 0 and 1 swapped, then rotated), one of them (`hole`) replaced by an
 * entity holding only B, then `b_only` entities holding only B. A pool with fewer holders
 * leads; a tie leads with the query's first type, so both orders of the pair lead once. A
 * third type on y0.. in A's order then puts the same shapes before three-type queries.
 */
#define STEP_N 276 /* four blocks of 64 and a part of 20 */
#define STEP_NONE SIZE_MAX

typedef struct step_shape {
    const char *what;
    size_t a_only;  /* entities holding only A, first in A's order */
    bool swap01;    /* B takes y64..y127 before y0..y63 */
    size_t rotate;  /* B's order starts this far into that sequence and wraps */
    size_t hole;    /* y_hole lacks B; an entity holding only B takes its place (STEP_NONE: none) */
    size_t b_only;  /* entities holding only B, last in B's order */
} step_shape;

/* One shape in a fresh world, A and B = (0, 1) then (2, 0): B's values of 8, then 4 bytes, and
 * the reverse lead A's of 24. Both query orders, then everything the world shows. */
static void check_step_shape(const step_shape *sh)
{
    static const ecsb_type pairs[2][2] = {{0, 1}, {2, 0}};
    for (int p = 0; p < 2; p++) {
        ecsb_type a = pairs[p][0], b = pairs[p][1];
        tst_world tw;
        ecsb_world_config c = tst_config3();
        tw_init(&tw, &c);
        tw.check_valid = false;
        model m;
        model_init(&m, &tw);
        size_t x0 = m.n;
        for (size_t i = 0; i < sh->a_only; i++)
            model_create(&m, &tw);
        size_t y0 = m.n;
        for (size_t i = 0; i < STEP_N; i++)
            model_create(&m, &tw);
        size_t z = model_create(&m, &tw);
        for (size_t i = 0; i < sh->a_only; i++)
            model_add(&m, &tw, x0 + i, a, 1);
        for (size_t i = 0; i < STEP_N; i++)
            model_add(&m, &tw, y0 + i, a, 1);
        for (size_t k = 0; k < STEP_N; k++) {
            size_t i = (k + sh->rotate) % STEP_N;
            if (sh->swap01 && i < 128)
                i ^= 64;
            model_add(&m, &tw, i == sh->hole ? z : y0 + i, b, 1);
        }
        for (size_t i = 0; i < sh->b_only; i++)
            model_add(&m, &tw, model_create(&m, &tw), b, 1);
        ecsb_query q = tst_query(2, (ecsb_type[]){a, b});
        model_check_query(&m, &tw, &q);
        q = tst_query(2, (ecsb_type[]){b, a});
        model_check_query(&m, &tw, &q);
        /* The third type, C, on y0.. in A's order: three-type queries see B's shape too,
         * led by C (fewest holders, or first of a tie) at A's distance a_only. */
        ecsb_type c3 = (ecsb_type)(3 - a - b);
        for (size_t i = 0; i < STEP_N; i++)
            model_add(&m, &tw, y0 + i, c3, 1);
        q = tst_query(3, (ecsb_type[]){c3, a, b});
        model_check_query(&m, &tw, &q);
        q = tst_query(3, (ecsb_type[]){b, c3, a});
        model_check_query(&m, &tw, &q);
        model_check(&m, &tw);
        model_free(&m);
        tw_fini(&tw);
    }
}

static void check_step_shapes(const step_shape *shapes, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        tst_context = shapes[k].what;
        check_step_shape(&shapes[k]);
    }
    tst_context = NULL;
}

/*
 * Blocks of lead entries in step with the other pool at a negative distance (the other pool
 * holds fewer of the matches' predecessors than the lead): right after a block in step at a
 * positive one, after blocks walked entry by entry, and through the part block at the end.
 */
void query_two_type_blocks_in_step_at_a_negative_distance_visit_each_match_once(void **state)
{
    (void)state;
    static const step_shape shapes[] = {
        {"B holds blocks 1, 0, 2..: block 0 at +64, block 1 at -64", 0, true, 0, STEP_NONE, 0},
        {"B rotated by 64: block 0 at +212, blocks 1.. at -64", 0, false, 64, STEP_NONE, 0},
        {"B rotated by 10: block 0 split, blocks 1.. at -10", 0, false, 10, STEP_NONE, 0},
        {"B rotated by 138: blocks 0, 1 at +138, 2 split, 3.. at -138", 0, false, 138,
         STEP_NONE, 0},
        {"B holds blocks 1, 0, 2.. rotated by 64: block 0 at 0, 1 at +148, 2.. at -64", 0, true,
         64, STEP_NONE, 0},
        {"10 A-only first, 20 B-only last: A leads, B at -10", 10, false, 0, STEP_NONE, 20},
        {"10 A-only first: B leads, A at +10", 10, false, 0, STEP_NONE, 0},
    };
    check_step_shapes(shapes, sizeof shapes / sizeof shapes[0]);
}

/*
 * A block in step but for one lead entity that lacks the other type, first, in the middle or
 * last in its block, at distance 0 and at negative ones. A lacking entry reads as position 0,
 * so a lacking first entry of a block at distance -from sits exactly where the others say.
 */
void query_two_type_blocks_in_step_but_for_one_lacking_entity_visit_each_match_once(void **state)
{
    (void)state;
    static const step_shape shapes[] = {
        {"y0 lacks B: first of block 0, distance 0", 0, false, 0, 0, 0},
        {"y64 lacks B: first of block 1, distance -64", 0, false, 64, 64, 0},
        {"y95 lacks B: middle of block 1, distance -64", 0, false, 64, 95, 0},
        {"y127 lacks B: last of block 1, distance -64", 0, false, 64, 127, 0},
        {"y159 lacks B: middle of block 2, distance 0", 0, false, 0, 159, 0},
        {"y275 lacks B: last of the part block, distance -64", 0, false, 64, STEP_N - 1, 0},
        {"10 A-only first, y54 lacks B: first of block 1, distance -10", 10, false, 0, 54, 20},
        {"10 A-only first, y85 lacks B: middle of block 1, distance -10", 10, false, 0, 85, 20},
        {"10 A-only first, y117 lacks B: last of block 1, distance -10", 10, false, 0, 117, 20},
        {"y128 lacks B, blocks 1, 0 swapped: first of block 2 after -64", 0, true, 0, 128, 0},
    };
    check_step_shapes(shapes, sizeof shapes / sizeof shapes[0]);
}

/* The same operations on a world declaring queries and on one declaring none. */
static void build_pair(model *ms, tst_world *tws, const ecsb_world_config *declared)
{
    ecsb_world_config plain = *declared;
    plain.query_count = 0;
    tw_init(&tws[0], declared);
    tw_init(&tws[1], &plain);
    for (int w = 0; w < 2; w++) {
        tws[w].check_valid = false;
        model_init(&ms[w], &tws[w]);
        build_dense(&ms[w], &tws[w], 600);
    }
}

/* Each declared set in three orders, and as many undeclared queries. */
static void check_pair(model *ms, tst_world *tws, const ecsb_world_config *c, tst_rng *rng)
{
    for (uint32_t d = 0; d < c->query_count; d++)
        for (int order = 0; order < 3; order++) {
            ecsb_query q = c->queries[d];
            for (uint32_t j = 0; order && j + 1 < q.count; j++) {
                uint32_t x = j + (uint32_t)tst_rng_below(rng, q.count - j);
                ecsb_type tmp = q.types[j];
                q.types[j] = q.types[x];
                q.types[x] = tmp;
            }
            ecsb_query u = random_query(rng, c->type_count, 1 + d % ECSB_MAX_QUERY_TYPES);
            for (int w = 0; w < 2; w++) {
                model_check_query(&ms[w], &tws[w], &q);
                model_check_query(&ms[w], &tws[w], &u);
            }
        }
}

/*
 * Build a world and a model with config c, compare every declared query with its undeclared
 * twin, change the holders of every type in both worlds alike (destroys, removes, adds), and
 * look again.
 */
static void declared_against_undeclared(const ecsb_world_config *cfg, tst_rng *rng)
{
    ecsb_world_config c = *cfg;
    tst_world tws[2];
    model ms[2];
    build_pair(ms, tws, &c);
    check_pair(ms, tws, &c, rng);
    for (int w = 0; w < 2; w++) {
        for (size_t i = 0; i < ms[w].n; i += 5)
            if (ms[w].alive[i])
                model_destroy(&ms[w], &tws[w], i);
        for (size_t i = 1; i < ms[w].n; i += 3)
            for (ecsb_type t = 0; t < Q_TYPES; t += 2)
                if (ms[w].alive[i] && *seed_at(&ms[w], i, t))
                    model_remove(&ms[w], &tws[w], i, t);
        for (size_t i = 2; i < ms[w].n; i += 3)
            for (ecsb_type t = 0; t < Q_TYPES; t++)
                if (ms[w].alive[i] && !*seed_at(&ms[w], i, t))
                    model_add(&ms[w], &tws[w], i, t, 3);
    }
    check_pair(ms, tws, &c, rng);
    for (int w = 0; w < 2; w++) {
        model_check(&ms[w], &tws[w]);
        model_free(&ms[w]);
        tw_fini(&tws[w]);
    }
}

/*
 * Strategies may keep structures for declared queries (updated by add, remove and destroy):
 * a world declaring ECSB_MAX_QUERIES queries visits what a world declaring none visits,
 * before and after the holders change.
 */
void query_declared_and_undeclared_queries_visit_the_same_entities(void **state)
{
    (void)state;
    tst_rng rng = {23};
    ecsb_world_config c = tst_config(Q_TYPES, q_sizes);
    c.query_count = ECSB_MAX_QUERIES;
    for (uint32_t d = 0; d < ECSB_MAX_QUERIES; d++)
        c.queries[d] = random_query(&rng, Q_TYPES, 1 + d % ECSB_MAX_QUERY_TYPES);
    c.queries[0] = tst_query(2, (ecsb_type[]){0, 1}); /* and one set declared twice */
    c.queries[1] = tst_query(2, (ecsb_type[]){1, 0});
    declared_against_undeclared(&c, &rng);
}

/*
 * The same with tags (types 6 and 9 of size 0) and exclusions: every declared query excludes
 * one to three other types (one is the same set as another without its exclusion), so the
 * structures strategies keep for declared queries (groups, rosters, table caches) must follow
 * the excluded types' adds, removes and destroys too.
 */
void query_declared_queries_with_exclusions_and_tags_visit_what_undeclared_ones_do(void **state)
{
    (void)state;
    tst_rng rng = {29};
    uint32_t sizes[Q_TYPES];
    memcpy(sizes, q_sizes, sizeof sizes);
    sizes[6] = sizes[9] = 0;
    ecsb_world_config c = tst_config(Q_TYPES, sizes);
    c.query_count = ECSB_MAX_QUERIES;
    for (uint32_t d = 0; d < ECSB_MAX_QUERIES; d++)
        c.queries[d] = random_query_without(&rng, Q_TYPES, 1 + d % 4, 1 + d % 3);
    c.queries[0] = tst_query_without(2, (ecsb_type[]){0, 1}, 1, (ecsb_type[]){6});
    c.queries[1] = tst_query(2, (ecsb_type[]){1, 0});
    c.queries[2] = tst_query_without(2, (ecsb_type[]){2, 9}, 2, (ecsb_type[]){0, 3});
    declared_against_undeclared(&c, &rng);
}

/* ---- callback writes ---------------------------------------------------------------------- */

typedef struct query_writer {
    const ecsb_query *q;
    const uint32_t *sizes;
    uint64_t version;
} query_writer;

/* The new seed of column j of an entity whose old values are `tuple` (never 0: 0 = absent). */
static uint64_t written_seed(const unsigned char *tuple, size_t width, uint32_t j, uint64_t version)
{
    uint64_t h = version;
    for (size_t i = 0; i < width; i++)
        h = tst_mix64(h ^ tuple[i]);
    return tst_mix64(h + j) | 1;
}

static void write_query(void *ctx, size_t count, void *const *columns)
{
    const query_writer *qw = ctx;
    unsigned char tuple[ECSB_MAX_QUERY_TYPES * ECSB_MAX_TYPE_SIZE];
    for (size_t i = 0; i < count; i++) {
        size_t at = 0;
        for (uint32_t j = 0; j < qw->q->count; j++) {
            uint32_t size = qw->sizes[qw->q->types[j]];
            memcpy(tuple + at, (unsigned char *)columns[j] + i * size, size);
            at += size;
        }
        for (uint32_t j = 0; j < qw->q->count; j++) {
            uint32_t size = qw->sizes[qw->q->types[j]];
            tst_pattern((unsigned char *)columns[j] + i * size, size,
                        written_seed(tuple, at, j, qw->version));
        }
    }
}

void query_callback_writes_reach_the_stored_values(void **state)
{
    (void)state;
    tst_world tw;
    ecsb_world_config c = tst_config(Q_TYPES, q_sizes);
    c.query_count = 1;
    c.queries[0] = tst_query(3, (ecsb_type[]){0, 2, 4});
    tw_init(&tw, &c);
    tw.check_valid = false;
    model m;
    model_init(&m, &tw);
    build_dense(&m, &tw, 500);
    tst_rng rng = {5};
    for (uint64_t version = 1; version <= 12; version++) {
        ecsb_query q = version == 1 ? c.queries[0]
                                    : random_query(&rng, Q_TYPES, 1 + (uint32_t)(version % 8));
        query_writer qw = {&q, q_sizes, version};
        TST_STATUS(tw.ops->query(tw.w, &q, write_query, &qw), ECSB_OK, "query");
        unsigned char tuple[ECSB_MAX_QUERY_TYPES * ECSB_MAX_TYPE_SIZE];
        for (size_t i = 0; i < m.n; i++) {
            bool all = m.alive[i];
            size_t at = 0;
            for (uint32_t j = 0; all && j < q.count; j++) {
                all = *seed_at(&m, i, q.types[j]) != 0;
                if (all)
                    tst_pattern(tuple + at, q_sizes[q.types[j]], *seed_at(&m, i, q.types[j]));
                at += q_sizes[q.types[j]];
            }
            for (uint32_t j = 0; all && j < q.count; j++)
                *seed_at(&m, i, q.types[j]) = written_seed(tuple, at, j, version);
        }
        model_check(&m, &tw); /* get and queries (with handles or not) see the written values */
    }
    model_close(&m, &tw);
}

/* ---- many types ----------------------------------------------------------------------------- */

void query_over_32_types_uses_every_type_index(void **state)
{
    (void)state;
    uint32_t sizes[ECSB_MAX_TYPES];
    for (uint32_t t = 0; t < ECSB_MAX_TYPES; t++)
        sizes[t] = 1 + (t * 7) % 40;
    tst_world tw;
    ecsb_world_config c = tst_config(ECSB_MAX_TYPES, sizes);
    c.query_count = 3;
    c.queries[0] = tst_query(2, (ecsb_type[]){31, 0});
    c.queries[1] = tst_query(8, (ecsb_type[]){24, 25, 26, 27, 28, 29, 30, 31});
    c.queries[2] = tst_query(1, (ecsb_type[]){17});
    tw_init(&tw, &c);
    tw.check_valid = false;
    model m;
    model_init(&m, &tw);
    build_dense(&m, &tw, 300);
    tst_rng rng = {31};
    for (uint32_t d = 0; d < c.query_count; d++)
        model_check_query(&m, &tw, &c.queries[d]);
    for (ecsb_type t = 0; t < ECSB_MAX_TYPES; t++) { /* every type, alone and with 31 - t */
        ecsb_query q = tst_query(1, &t);
        model_check_query(&m, &tw, &q);
        if (t != ECSB_MAX_TYPES - 1 - t) {
            q = tst_query(2, (ecsb_type[]){t, ECSB_MAX_TYPES - 1 - t});
            model_check_query(&m, &tw, &q);
        }
    }
    for (int round = 0; round < 24; round++) {
        ecsb_query q = random_query(&rng, ECSB_MAX_TYPES, 1 + (uint32_t)round % 8);
        model_check_query(&m, &tw, &q);
    }
    model_close(&m, &tw);
}

/* ---- bad queries ---------------------------------------------------------------------------- */

static void count_runs(void *ctx, size_t count, void *const *columns)
{
    (void)columns;
    *(size_t *)ctx += 1 + count;
}

/*
 * ecsb_query_check's order: no type, more than ECSB_MAX_QUERY_TYPES, more than
 * ECSB_MAX_QUERY_EXCLUDES excluded, or a type twice (good or bad, included or excluded or
 * both) is ECSB_ERR_QUERY; else a type out of range (in either list) is ECSB_ERR_TYPE. No
 * visit, no change.
 */
void query_bad_queries_return_their_status_visit_nothing_and_change_nothing(void **state)
{
    (void)state;
    static const struct {
        ecsb_query q;
        ecsb_status want;
        const char *what;
    } bad[] = {
        {{.count = 0, .types = {0}}, ECSB_ERR_QUERY, "no type"},
        {{.count = ECSB_MAX_QUERY_TYPES + 1, .types = {0, 1, 2}}, ECSB_ERR_QUERY, "9 types"},
        {{.count = UINT32_MAX, .types = {0}}, ECSB_ERR_QUERY, "count UINT32_MAX"},
        {{.count = 2, .types = {1, 1}}, ECSB_ERR_QUERY, "a type twice"},
        {{.count = 4, .types = {0, 2, 1, 2}}, ECSB_ERR_QUERY, "a type twice, not adjacent"},
        {{.count = 8, .types = {0, 1, 2, 0, 1, 2, 0, 1}}, ECSB_ERR_QUERY, "8 types, repeated"},
        {{.count = 3, .types = {0, 7, 7}}, ECSB_ERR_QUERY, "a bad type twice"},
        {{.count = 2, .types = {3, 3}}, ECSB_ERR_QUERY, "a bad type twice (type_count)"},
        {{.count = 1, .types = {3}}, ECSB_ERR_TYPE, "type_count"},
        {{.count = 2, .types = {0, ECSB_MAX_TYPES}}, ECSB_ERR_TYPE, "ECSB_MAX_TYPES"},
        {{.count = 3, .types = {UINT32_MAX, 1, 2}}, ECSB_ERR_TYPE, "UINT32_MAX first"},
        {{.count = 8, .types = {0, 1, 2, 3, 4, 5, 6, 7}}, ECSB_ERR_TYPE, "8 types, 5 of them bad"},
        {{.count = 1, .types = {0}, .exclude_count = 1, .exclude = {0}}, ECSB_ERR_QUERY,
         "excluding an included type"},
        {{.count = 2, .types = {0, 1}, .exclude_count = 2, .exclude = {2, 1}}, ECSB_ERR_QUERY,
         "excluding an included type, after another"},
        {{.count = 1, .types = {0}, .exclude_count = 2, .exclude = {2, 2}}, ECSB_ERR_QUERY,
         "excluding a type twice"},
        {{.count = 1, .types = {0}, .exclude_count = 2, .exclude = {9, 9}}, ECSB_ERR_QUERY,
         "excluding a bad type twice"},
        {{.count = 1, .types = {0}, .exclude_count = ECSB_MAX_QUERY_EXCLUDES + 1,
          .exclude = {1, 2}}, ECSB_ERR_QUERY, "too many exclusions"},
        {{.count = 1, .types = {0}, .exclude_count = UINT32_MAX}, ECSB_ERR_QUERY,
         "exclude_count UINT32_MAX"},
        {{.count = 0, .exclude_count = 1, .exclude = {1}}, ECSB_ERR_QUERY,
         "no type, one excluded"},
        {{.count = 1, .types = {0}, .exclude_count = 1, .exclude = {3}}, ECSB_ERR_TYPE,
         "excluding type_count"},
        {{.count = 2, .types = {0, 1}, .exclude_count = 2, .exclude = {2, UINT32_MAX}},
         ECSB_ERR_TYPE, "excluding UINT32_MAX"},
        {{.count = 1, .types = {5}, .exclude_count = 1, .exclude = {5}}, ECSB_ERR_QUERY,
         "a bad type included and excluded"},
    };
    for (int filled = 0; filled < 2; filled++) {
        tst_world tw;
        ecsb_world_config c = tst_config3();
        tw_init(&tw, &c);
        model m;
        model_init(&m, &tw);
        if (filled)
            for (size_t i = 0; i < 50; i++) {
                model_create(&m, &tw);
                for (ecsb_type t = 0; t < TST_TYPES; t++)
                    model_add(&m, &tw, i, t, 1);
            }
        tst_snapshot before, after;
        tst_snapshot_take(&before, &tw, m.handle, m.n);
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            size_t visits = 0;
            ecsb_status st = tw.ops->query(tw.w, &bad[k].q, count_runs, &visits);
            TST_CHECK(st == bad[k].want, "query with %s: got %s, want %s", bad[k].what,
                      ecsb_status_str(st), ecsb_status_str(bad[k].want));
            TST_CHECK(visits == 0, "query with %s visited %zu entities", bad[k].what, visits);
        }
        tst_snapshot_take(&after, &tw, m.handle, m.n);
        const char *diff = tst_snapshot_diff(&before, &after);
        TST_CHECK(!diff, "bad queries changed the world: %s", diff);
        tst_snapshot_free(&before);
        tst_snapshot_free(&after);
        model_check(&m, &tw);
        model_free(&m);
        tw_fini(&tw);
    }
}

/* ---- alignment ------------------------------------------------------------------------------ */

#define A_TYPES 9
static const uint32_t a_sizes[A_TYPES] = {16, 32, 64, 64, 4, 12, 48, 128, 1024};
static const uint32_t a_align[A_TYPES] = {16, 32, 64, 0, 0, 4, 16, 64, 64};

typedef struct align_check {
    const tst_world *tw;
    const ecsb_query *q;
    size_t bad, visits;
} align_check;

static bool aligned(const tst_world *tw, const void *p, ecsb_type t)
{
    return (uintptr_t)p % ecsb_type_align(&tw->config, t) == 0;
}

/* A run of a query with handles: every value and the handle column aligned. */
static void align_run(void *ctx, size_t count, void *const *columns)
{
    align_check *ac = ctx;
    const uint32_t k = ac->q->count;
    for (size_t i = 0; i < count; i++, ac->visits++)
        for (uint32_t j = 0; j < k; j++) {
            ecsb_type t = ac->q->types[j];
            ac->bad += !aligned(ac->tw, (unsigned char *)columns[j] + i * a_sizes[t], t);
        }
    ac->bad += (uintptr_t)columns[k] % _Alignof(ecsb_entity) != 0;
}

/* Every value pointer from add, get and query (with handles or not): every type, after every
 * growth. */
static void check_alignment(const model *m, tst_world *tw)
{
    for (size_t i = 0; i < m->n; i++)
        for (ecsb_type t = 0; m->alive[i] && t < A_TYPES; t++) {
            const void *v = tw->ops->component_get(tw->w, m->handle[i], t);
            TST_CHECK(!v || aligned(tw, v, t), "get(entity #%zu, type %u) = %p, not a multiple "
                      "of %u", i, t, v, ecsb_type_align(&tw->config, t));
        }
    for (ecsb_type a = 0; a < A_TYPES; a++)
        for (ecsb_type b = 0; b < A_TYPES; b++) {
            ecsb_query q = tst_query(a == b ? 1 : 2, (ecsb_type[]){a, b});
            q.entities = true;
            align_check ac = {tw, &q, 0, 0};
            TST_STATUS(tw->ops->query(tw->w, &q, align_run, &ac), ECSB_OK, "query");
            TST_CHECK(ac.bad == 0, "query(%u, %u) with handles: %zu misaligned pointers in %zu "
                      "visits", a, b, ac.bad, ac.visits);
        }
    model_check(m, tw); /* the query collector checks every column's alignment */
    for (ecsb_type a = 0; a + 2 < A_TYPES; a++) {
        ecsb_query q = tst_query(3, (ecsb_type[]){a + 2, a, a + 1});
        model_check_query(m, tw, &q);
    }
}

void query_every_value_pointer_is_aligned_as_configured(void **state)
{
    (void)state;
    ecsb_world_config c = tst_config(A_TYPES, a_sizes);
    memcpy(c.type_align, a_align, sizeof a_align);
    const uint32_t initial[] = {0, 3, 100};
    for (size_t k = 0; k < sizeof initial / sizeof initial[0]; k++) {
        c.initial_capacity = initial[k];
        tst_world tw;
        tw_init(&tw, &c);
        tw.check_valid = false;
        model m;
        model_init(&m, &tw);
        for (size_t i = 0; i < 300; i++) {
            size_t e = model_create(&m, &tw);
            for (ecsb_type t = 0; t < A_TYPES; t++) {
                if ((i + t) % 3 == 0)
                    continue;
                void *v = NULL;
                TST_STATUS(tw.ops->component_add(tw.w, m.handle[e], t, &v), ECSB_OK, "add");
                TST_CHECK(aligned(&tw, v, t), "add(type %u of size %u) gave %p, not a multiple "
                          "of %u", t, a_sizes[t], v, ecsb_type_align(&c, t));
                tst_pattern(v, a_sizes[t], seed_for(e, t, 1));
                *seed_at(&m, e, t) = seed_for(e, t, 1);
            }
            if (i == 20 || i == 299)
                check_alignment(&m, &tw);
        }
        for (size_t i = 0; i < m.n; i += 4)
            model_destroy(&m, &tw, i);
        for (size_t i = 1; i < m.n; i += 3)
            for (ecsb_type t = 0; t < A_TYPES; t += 3)
                if (*seed_at(&m, i, t))
                    model_remove(&m, &tw, i, t);
        check_alignment(&m, &tw);
        model_free(&m);
        tw_fini(&tw);
    }
}
