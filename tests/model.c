/* model.c — the expected state of a conformance test, declared in tests/model.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/model.h"

void model_free(model *m)
{
    tst_xfree(m->handle);
    tst_xfree(m->alive);
    tst_xfree(m->seed);
    memset(m, 0, sizeof *m);
}

/* A new live entity holding nothing in the model for handle e; returns its model index. */
static size_t model_push(model *m, ecsb_entity e)
{
    if (m->n == m->capacity) {
        size_t cap = m->capacity ? 2 * m->capacity : 64;
        m->handle = tst_xrealloc(m->handle, cap * sizeof *m->handle);
        m->alive = tst_xrealloc(m->alive, cap * sizeof *m->alive);
        m->seed = tst_xrealloc(m->seed, cap * m->types * sizeof *m->seed);
        m->capacity = cap;
    }
    size_t i = m->n++;
    m->handle[i] = e;
    m->alive[i] = true;
    for (ecsb_type t = 0; t < m->types; t++)
        *seed_at(m, i, t) = 0;
    return i;
}

/* Create an entity in the world and the model; returns its model index. */
size_t model_create(model *m, tst_world *tw) { return model_push(m, tw_create(tw)); }

/* Spawn an entity holding types[0 .. count), value of t tst_pattern(seed_for(i, t, version)). */
size_t model_spawn(model *m, tst_world *tw, const ecsb_type *types, uint32_t count,
                   uint64_t version)
{
    uint64_t seeds[ECSB_MAX_TYPES] = {0};
    size_t i = m->n; /* the index model_push will give */
    for (uint32_t j = 0; j < count && j < ECSB_MAX_TYPES; j++)
        seeds[j] = seed_for(i, types[j], version);
    i = model_push(m, tw_spawn(tw, types, count, seeds));
    for (uint32_t j = 0; j < count; j++)
        *seed_at(m, i, types[j]) = seeds[j];
    return i;
}

void model_init(model *m, const tst_world *tw)
{
    memset(m, 0, sizeof *m);
    m->types = tw->config.type_count;
}

void model_open(model *m, tst_world *tw)
{
    ecsb_world_config c = tst_config3();
    tw_init(tw, &c);
    model_init(m, tw);
}

void model_close(model *m, tst_world *tw)
{
    model_free(m);
    tw_fini(tw);
}

void model_create_full(model *m, tst_world *tw, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        size_t i = model_create(m, tw);
        for (ecsb_type t = 0; t < m->types; t++)
            model_add(m, tw, i, t, 1);
    }
}

/* A seed nobody else uses: entity index, type and a version. */
uint64_t seed_for(size_t i, ecsb_type t, uint64_t version)
{
    return ((uint64_t)i << 24) ^ ((uint64_t)t << 16) ^ version ^ 0x5eed000000000000ull;
}

void model_add(model *m, tst_world *tw, size_t i, ecsb_type t, uint64_t version)
{
    uint64_t s = seed_for(i, t, version);
    tw_add(tw, m->handle[i], t, s);
    *seed_at(m, i, t) = s;
}

void model_remove(model *m, tst_world *tw, size_t i, ecsb_type t)
{
    tw_remove(tw, m->handle[i], t);
    *seed_at(m, i, t) = 0;
}

void model_destroy(model *m, tst_world *tw, size_t i)
{
    tw_destroy(tw, m->handle[i]);
    m->alive[i] = false;
    for (ecsb_type t = 0; t < m->types; t++)
        *seed_at(m, i, t) = 0;
}

typedef struct handle_index {
    ecsb_entity handle;
    size_t index;
} handle_index;

static int cmp_handle_index(const void *x, const void *y)
{
    const handle_index *a = x, *b = y;
    return a->handle < b->handle ? -1 : a->handle > b->handle;
}

/* Model index of the live entity `e`, via the sorted map; SIZE_MAX when none. */
static size_t lookup(const handle_index *map, size_t live, ecsb_entity e)
{
    handle_index key = {e, 0};
    const handle_index *hit = bsearch(&key, map, live, sizeof *map, cmp_handle_index);
    return hit ? hit->index : SIZE_MAX;
}

/* The live entities' handles, sorted, with their model indices: *live of them. */
static handle_index *live_map(const model *m, size_t *live)
{
    handle_index *map = tst_xrealloc(NULL, (m->n ? m->n : 1) * sizeof *map);
    *live = 0;
    for (size_t i = 0; i < m->n; i++)
        if (m->alive[i])
            map[(*live)++] = (handle_index){m->handle[i], i};
    qsort(map, *live, sizeof *map, cmp_handle_index);
    return map;
}

/* True when model entity i is one of q's matches: alive, holding every type of q and none of
 * the types it excludes. */
static bool model_matches(const model *m, size_t i, const ecsb_query *q)
{
    bool all = m->alive[i];
    for (uint32_t j = 0; all && j < q->count; j++)
        all = *seed_at(m, i, q->types[j]) != 0;
    for (uint32_t j = 0; all && j < q->exclude_count; j++)
        all = *seed_at(m, i, q->exclude[j]) == 0;
    return all;
}

/*
 * q's visits with handles against the model: exactly the live holders of all its types (and
 * none it excludes), each once, each handle with its own values (in q's column order), every value where
 * get(handle, type) points.
 */
static void check_handle_visits(const model *m, tst_world *tw, const ecsb_query *q,
                                const char *name)
{
    size_t live, expected = 0;
    handle_index *map = live_map(m, &live);
    tst_visits v = {0};
    tst_visits_query(&v, tw, q);
    TST_STATUS(v.status, ECSB_OK, "query with handles");
    for (size_t i = 0; i < m->n; i++)
        expected += model_matches(m, i, q);
    bool *seen = tst_xcalloc(m->n ? m->n : 1, 1);
    for (size_t k = 0; k < v.count; k++) {
        size_t i = lookup(map, live, v.entities[k]);
        TST_CHECK(i != SIZE_MAX, "query(%s) handed handle 0x%llx, which is not a live entity",
                  name, (unsigned long long)v.entities[k]);
        TST_CHECK(!seen[i], "query(%s) visited entity #%zu twice", name, i);
        seen[i] = true;
        for (uint32_t j = 0; j < q->count; j++) {
            uint64_t seed = *seed_at(m, i, q->types[j]);
            TST_CHECK(seed, "query(%s) visited entity #%zu, which does not hold type %u", name, i,
                      q->types[j]);
            TST_CHECK(tst_pattern_is(tst_visit_value(&v, k, j), v.sizes[j], seed),
                      "query(%s) handed entity #%zu (by its handle) a wrong value of type %u",
                      name, i, q->types[j]);
        }
        for (uint32_t j = 0; j < q->exclude_count; j++)
            TST_CHECK(!*seed_at(m, i, q->exclude[j]),
                      "query(%s) visited entity #%zu, which holds excluded type %u", name, i,
                      q->exclude[j]);
    }
    TST_CHECK(v.misplaced == 0, "query(%s): %zu of %zu visits' values are not where "
              "get(handle) points: the handle column is out of step with the values", name,
              v.misplaced, v.count);
    TST_CHECK(v.count == expected, "query(%s) with handles visited %zu entities, want %zu",
              name, v.count, expected);
    tst_xfree(seen);
    tst_xfree(map);
    tst_visits_free(&v);
}

/* The tuples query q must hand out: each live holder of all its types, values in q's order. */
void model_expected_tuples(const model *m, const tst_world *tw, const ecsb_query *q,
                                  tst_tuples *want)
{
    want->count = 0;
    want->width = 0;
    for (uint32_t j = 0; j < q->count; j++)
        want->width += tw->config.type_size[q->types[j]];
    unsigned char tuple[ECSB_MAX_QUERY_TYPES * ECSB_MAX_TYPE_SIZE];
    for (size_t i = 0; i < m->n; i++) {
        if (!model_matches(m, i, q))
            continue;
        size_t at = 0;
        for (uint32_t j = 0; j < q->count; j++) {
            uint32_t size = tw->config.type_size[q->types[j]];
            tst_pattern(tuple + at, size, *seed_at(m, i, q->types[j]));
            at += size;
        }
        tst_tuples_push(want, tuple);
    }
    tst_tuples_sort(want);
}


void model_check_query(const model *m, tst_world *tw, const ecsb_query *q)
{
    tst_tuples got = {0}, want = {0};
    tst_tuples_query(&got, tw, q);
    model_expected_tuples(m, tw, q, &want);
    char name[96] = "";
    for (uint32_t j = 0; j < q->count; j++)
        snprintf(name + strlen(name), sizeof name - strlen(name), "%s%u", j ? "," : "",
                 q->types[j]);
    for (uint32_t j = 0; j < q->exclude_count; j++)
        snprintf(name + strlen(name), sizeof name - strlen(name), ",!%u", q->exclude[j]);
    TST_STATUS(got.status, ECSB_OK, "query");
    const char *diff = tst_tuples_diff(&got, &want);
    TST_CHECK(!diff, "query(%s): %s", name, diff);
    tst_tuples_free(&got);
    tst_tuples_free(&want);
    check_handle_visits(m, tw, q, name);
}

/*
 * Queries over every subset of the first four types, each in ascending and in descending
 * order, then each excluding every non-empty subset of the other types among the first five
 * (descending); and with more types the first eight in a shuffled order, excluding nothing
 * and then the ninth (or the last).
 */
void model_check_queries(const model *m, tst_world *tw)
{
    uint32_t few = m->types < 4 ? m->types : 4, five = m->types < 5 ? m->types : 5;
    for (uint32_t set = 1; set < (1u << few); set++) {
        ecsb_type up[4], down[4], out[5];
        uint32_t k = 0;
        for (ecsb_type t = 0; t < few; t++)
            if (set & (1u << t))
                up[k++] = t;
        for (uint32_t j = 0; j < k; j++)
            down[j] = up[k - 1 - j];
        ecsb_query q = tst_query(k, up);
        model_check_query(m, tw, &q);
        q = tst_query(k, down);
        model_check_query(m, tw, &q);
        const uint32_t rest = ((1u << five) - 1) & ~set;
        for (uint32_t without = rest; without; without = (without - 1) & rest) {
            uint32_t x = 0;
            for (ecsb_type t = five; t-- > 0;)
                if (without & (1u << t) && x < ECSB_MAX_QUERY_EXCLUDES)
                    out[x++] = t;
            q = tst_query_without(k, k % 2 ? up : down, x, out);
            model_check_query(m, tw, &q);
        }
    }
    if (m->types > 4) {
        ecsb_type list[ECSB_MAX_QUERY_TYPES];
        uint32_t k = m->types < ECSB_MAX_QUERY_TYPES ? m->types : ECSB_MAX_QUERY_TYPES;
        for (uint32_t j = 0; j < k; j++)
            list[j] = (m->types - 1 - (j * 5) % m->types);
        for (uint32_t n = 2; n <= k; n += 3) {
            ecsb_query q = tst_query(n, list);
            if (ecsb_query_check(&q, m->types, &(uint32_t){0}) == ECSB_OK)
                model_check_query(m, tw, &q);
            q.exclude_count = 1;
            q.exclude[0] = m->types > 8 ? 8 : list[k - 1];
            if (ecsb_query_check(&q, m->types, &(uint32_t){0}) == ECSB_OK)
                model_check_query(m, tw, &q);
        }
    }
}

/*
 * Everything the world shows equals the model: entity and component counts, alive/has/get of
 * every entity (destroyed ones rejected by every operation), the query of every type and of
 * every ordered pair of types with handles, the queries of model_check_queries, world_valid.
 */
void model_check(const model *m, tst_world *tw)
{
    const ecsb_vtable *ops = tw->ops;
    size_t live, held[ECSB_MAX_TYPES] = {0};
    handle_index *map = live_map(m, &live);
    for (size_t i = 0; i < m->n; i++) {
        if (!m->alive[i]) {
            tw_expect_stale(tw, m->handle[i]);
            continue;
        }
        for (ecsb_type t = 0; t < m->types; t++) {
            uint64_t s = *seed_at(m, i, t);
            held[t] += s != 0;
            if (s)
                tw_expect_value(tw, m->handle[i], t, s);
            else
                tw_expect_absent(tw, m->handle[i], t);
        }
    }
    for (size_t k = 1; k < live; k++)
        TST_CHECK(map[k].handle != map[k - 1].handle, "two live entities share handle 0x%llx",
                  (unsigned long long)map[k].handle);
    TST_CHECK(ops->entity_count(tw->w) == live, "entity_count %zu, want %zu",
              ops->entity_count(tw->w), live);
    for (ecsb_type t = 0; t < m->types; t++)
        TST_CHECK(ops->component_count(tw->w, t) == held[t], "component_count(%u) %zu, want %zu",
                  t, ops->component_count(tw->w, t), held[t]);
    for (ecsb_type a = 0; a < m->types; a++)
        for (ecsb_type b = 0; b < m->types; b++) {
            ecsb_type pair[2] = {a, b};
            ecsb_query q = tst_query(a == b ? 1 : 2, pair); /* {a, a} stands for {a} */
            char name[32];
            snprintf(name, sizeof name, a == b ? "%u" : "%u,%u", a, b);
            check_handle_visits(m, tw, &q, name);
            if (a == b)
                continue;
            q = tst_query_without(1, &a, 1, &b); /* {a} without b */
            snprintf(name, sizeof name, "%u,!%u", a, b);
            check_handle_visits(m, tw, &q, name);
        }
    tst_xfree(map);
    model_check_queries(m, tw);
    tw_expect_valid(tw);
}
