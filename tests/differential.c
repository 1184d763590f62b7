/*
 * differential.c — long runs of mixed operations against a deliberately simple reference
 * model: an array of live entities (each with a has flag and a copy of the value of every
 * type) and a ring of recently destroyed handles. Nothing clever: lookups are by index into
 * that array, visit sets are compared after sorting both sides (by handle for queries asking
 * for handles; as multisets of value tuples for queries that do not).
 *
 * Every choice a run makes comes from its source: a seeded generator (make test, soak), or the
 * fuzzer's input bytes (tests/fuzz/, through tst_differential_bytes), so one engine serves
 * both. Every step checks the result of its own operation; every CHECK_EVERY steps (and at
 * the end) the whole state is compared: every live entity's alive/has/value for all types,
 * the recently destroyed handles, the counts, the query with handles of every type and of
 * every ordered pair, query() of every set of 2..4 types (tuples, and visits with handles;
 * and the declared ones reversed),
 * unique live handles, world_valid. Phases alternate between creating (the world grows to a
 * few thousand entities, through every growth step) and destroying (down to a handful), so
 * slots are reused and swap-removes happen at every position. The type mix is skewed (type 4
 * is added 32 times less often than types 0-2) so queries of a common and a rare type
 * make one side more than 16 times the other (galloping merges). Allocation failures are
 * injected now and then: create, spawn, add and (where it moves values) remove may then
 * return ECSB_ERR_NOMEM, changing nothing. Half the creations are spawns of a random set of
 * types (now and then with a type twice or out of range, refused with nothing changed).
 * Types 5 and 6 are tags (size 0: membership only); queries include and exclude them, and
 * now and then exclude other types ("has A and B, not C"), declared (with exclusions, so
 * owning groups, rosters and table caches must keep them) or not.
 * The seed also picks the world: initial capacity, declared queries, and knobs that reach rare
 * paths (an id counter near its wrap, generations near their end, a small max_entities).
 * A failure names strategy, seed and step; ECSB_SEED=<seed> ECSB_OPS=<step + 1> replays
 * exactly that run up to the failing step.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/differential.h"
#include "tests/support.h"
#include "tests/suites.h"

#define D_TYPES 7
#define D_VALUED 5 /* types 0 .. 4 have values; 5 and 6 are tags */
#define D_VALUE_MAX 24
#define D_DEAD_RING 256
#define CHECK_EVERY 4096
#define DEFAULT_SEEDS 5        /* seeds 1..5, each a different world configuration */
/* Per seed: 250,000 per strategy. 200,000 per seed (75 of the C tests' CPU seconds over the
 * strategies) caught no planted mistake that 50,000 misses: a swap-remove copying half of an
 * 8-byte value (sparse_set, step 203 of seed 1), a backward shift stopping one key early
 * (hash_map, by step 497 of every seed), a component generation wrapping to 0 (handle_table,
 * seed 1 step 245), a slot never retired (entity_ids.h, seed 1 step 4096), a shift one byte
 * short (flat_map, seed 1 step 172); the latest, a rehash to 2048+ positions dropping the old
 * table's last key (hash_map), fails seeds 2, 4 and 5 at steps 12,327, 12,104 and 24,489
 * (seed 1 at 173,135). Rare paths come from each seed's world (ids near their wrap,
 * generations near their end, a small max_entities), reached early; make soak runs fresh
 * seeds for longer. */
#define DEFAULT_OPS 50000ull
/* Seeds that soaks found failures on, each run (after the default seeds) for the ops that
 * reached its failure and some more: a regression test each, cheap beside the defaults. */
static const struct {
    uint64_t seed, ops;
} d_found_seeds[] = {
    {3425441899898ull, 4096}, /* step 9: an undone spawn into a reused last slot reissued a
                                 destroyed handle (entity_ids.h ecsb_ids_uncreate) */
};
#define GROW_TARGET_MAX 4096
#define FUZZ_GROW_TARGET_MAX 96 /* fuzz inputs are short: small worlds reach every corner */
#define FUZZ_CHECK_EVERY 64

uint64_t tst_replay_seed;
uint64_t tst_replay_ops;
uint64_t tst_soak_seconds;

static const uint32_t d_sizes[D_TYPES] = {4, 8, 24, 16, 12, 0, 0};
/* Add weights: types 0-2 common, 3 rarer, 4 rare (32x fewer adds than type 0); tag 5 as
 * common as type 3, tag 6 rarer. */
static const uint32_t d_weight[D_TYPES] = {32, 32, 32, 4, 1, 8, 2};
#define D_WEIGHT_SUM 111u

/*
 * Declared in the world config of every other seed (and of fuzz inputs that ask). In order,
 * owning_group makes groups of {0, 1}, {2, 4} and {3, 6} without 0 (a group excluding a type
 * another group owns); {0, 1} without 5 is the first set again with an exclusion (another
 * query: no group).
 */
static const ecsb_type d_declared[][4] = {{0, 1}, {1, 2, 3}, {0, 3, 4}, {2, 4},
                                          {0, 1},  {3, 6},  {5}};
static const uint32_t d_declared_count[] = {2, 3, 3, 2, 2, 2, 1};
static const ecsb_type d_declared_without[][2] = {{0}, {0}, {0}, {0}, {5}, {0}, {2, 6}};
static const uint32_t d_declared_without_count[] = {0, 0, 0, 0, 1, 1, 2};
#define D_DECLARED 7

/* Declared query d (its types reversed when `reversed`). */
static ecsb_query d_declared_query(uint32_t d, bool reversed)
{
    ecsb_type list[4];
    for (uint32_t j = 0; j < d_declared_count[d]; j++)
        list[j] = d_declared[d][reversed ? d_declared_count[d] - 1 - j : j];
    return tst_query_without(d_declared_count[d], list, d_declared_without_count[d],
                             d_declared_without[d]);
}

typedef struct ref_entity {
    ecsb_entity handle;
    bool has[D_TYPES];
    unsigned char value[D_TYPES][D_VALUE_MAX];
} ref_entity;

typedef struct run {
    tst_world tw;
    const ecsb_vtable *ops;
    uint64_t seed, step, ops_total;
    uint64_t checked; /* during a full-state check: the steps done before it; else 0 */
    /* the source of every choice: the generator, or the fuzzer's bytes */
    tst_rng rng;
    const uint8_t *input;
    size_t input_left;
    bool from_input, exhausted;
    /* the reference model */
    ref_entity *live;
    size_t n, capacity;
    size_t held[D_TYPES];
    ecsb_entity dead[D_DEAD_RING];
    size_t dead_total;
    uint64_t creates;
    uint64_t id_room;      /* creates before a never-reusing id counter may run out */
    uint32_t max_entities; /* the config's, 0 = none */
    bool failing;          /* an allocation failure is armed */
    /* phases */
    bool growing;
    size_t target, grow_max;
    uint64_t check_every;
    /* statistics */
    size_t peak, full_checks, capacity_refusals, nomem, queries, galloping_pairs;
    /* visit_and_compare's buffers, kept from one query to the next (run_finish frees them):
     * a fresh buffer per query is, under ASan, fresh pages to fault in every time */
    struct visit *visits_buffer;
    unsigned char *bytes_buffer;
    size_t buffer_capacity;
} run;

__attribute__((format(printf, 3, 4), noreturn)) static void d_fail(const run *r, int line,
                                                                     const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* A full-state check runs after `checked` steps; any other failure is in step r->step. */
    char where[64];
    if (r->checked)
        snprintf(where, sizeof where, "full-state check after %llu steps",
                 (unsigned long long)r->checked);
    else
        snprintf(where, sizeof where, "step %llu", (unsigned long long)r->step);
    if (r->from_input)
        tst_fail_at(__FILE__, line, "differential (fuzz input): strategy %s, %s (%zu live): %s",
                    tst_strategy->name, where, r->n, msg);
    tst_fail_at(__FILE__, line,
                "differential: strategy %s, seed %llu, %s (%zu live): %s\n"
                "    replay: ECSB_SEED=%llu ECSB_OPS=%llu build/test/ecsbench_tests %s "
                "'differential*'",
                tst_strategy->name, (unsigned long long)r->seed, where, r->n, msg,
                (unsigned long long)r->seed,
                (unsigned long long)(r->checked ? r->checked : r->step + 1), tst_strategy->name);
}

#define D_CHECK(r, cond, ...)                                                                  \
    do {                                                                                       \
        if (!(cond))                                                                           \
            d_fail((r), __LINE__, __VA_ARGS__);                                                \
    } while (0)

static const char *st(ecsb_status s) { return ecsb_status_str(s); }

/* ---- choices ------------------------------------------------------------------------------ */

/* A choice in [0, n), n > 0: from the generator, or from the next input bytes (0 once spent). */
static uint64_t choose(run *r, uint64_t n)
{
    if (!r->from_input)
        return tst_rng_below(&r->rng, n);
    size_t bytes = n <= 0x100 ? 1 : n <= 0x10000 ? 2 : 4;
    uint64_t x = 0;
    for (size_t i = 0; i < bytes; i++) {
        if (r->input_left == 0) {
            r->exhausted = true;
            break;
        }
        x = x << 8 | *r->input++;
        r->input_left--;
    }
    return x % n;
}

static uint64_t value_seed(const run *r, uint64_t salt)
{
    return tst_mix64(r->seed * 0x9e3779b97f4a7c15ull ^ r->step ^ (salt << 48));
}

/* ---- the reference model's own operations ---------------------------------------------- */

static size_t pick_live(run *r) { return choose(r, r->n); }

static bool is_live_handle(const run *r, ecsb_entity e)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->live[i].handle == e)
            return true;
    return false;
}

static bool is_recently_dead(const run *r, ecsb_entity e)
{
    size_t k = r->dead_total < D_DEAD_RING ? r->dead_total : D_DEAD_RING;
    for (size_t i = 0; i < k; i++)
        if (r->dead[i] == e)
            return true;
    return false;
}

/* An injected allocation failure happened: allowed only for create, add and remove, once armed. */
static bool nomem_allowed(run *r, ecsb_status s)
{
    if (s != ECSB_ERR_NOMEM || !r->failing || r->tw.alloc->failures == 0)
        return false;
    tw_succeed(&r->tw);
    r->failing = false;
    r->nomem++;
    return true;
}

/* ---- operations ------------------------------------------------------------------------- */

/* A refused create or spawn (ECSB_ERR_CAPACITY): allowed when the id space is used up or the
 * world is full, and then nothing may change. */
static bool capacity_allowed(run *r, ecsb_status s)
{
    if (s != ECSB_ERR_CAPACITY ||
        !(r->creates >= r->id_room || (r->max_entities && r->n >= r->max_entities)))
        return false;
    r->capacity_refusals++;
    return true;
}

/* The model's side of a create or spawn that gave e: a new live entity holding nothing. */
static ref_entity *ref_push(run *r, ecsb_entity e, const char *what)
{
    D_CHECK(r, e != ECSB_ENTITY_NULL, "%s gave the null handle", what);
    D_CHECK(r, !is_recently_dead(r, e),
            "%s gave 0x%llx, the handle of a recently destroyed entity", what,
            (unsigned long long)e);
    r->creates++;
    if (r->n == r->capacity) {
        size_t cap = r->capacity ? 2 * r->capacity : 1024;
        r->live = tst_xrealloc(r->live, cap * sizeof *r->live);
        r->capacity = cap;
    }
    ref_entity *x = &r->live[r->n++];
    memset(x, 0, sizeof *x);
    x->handle = e;
    if (r->n > r->peak)
        r->peak = r->n;
    return x;
}

static void op_create(run *r)
{
    ecsb_entity e = ECSB_ENTITY_NULL;
    size_t before = r->ops->entity_count(r->tw.w);
    ecsb_status s = r->ops->entity_create(r->tw.w, &e);
    if (capacity_allowed(r, s) || nomem_allowed(r, s)) {
        D_CHECK(r, r->ops->entity_count(r->tw.w) == before, "create failed (%s) but changed "
                "the count", st(s));
        D_CHECK(r, e == ECSB_ENTITY_NULL, "failed create left *out non-null");
        return;
    }
    D_CHECK(r, s == ECSB_OK, "create: %s", st(s));
    ref_push(r, e, "create");
}

/*
 * spawn of a random set of types (0..5 of them, the rare ones as often as the others) in a
 * random order; now and then with one type twice (ECSB_ERR_PRESENT) or one out of range
 * (ECSB_ERR_TYPE), which must change nothing.
 */
static void op_spawn(run *r)
{
    ecsb_type types[D_TYPES + 1];
    void *v[D_TYPES + 1];
    uint32_t count = 0, set = (uint32_t)choose(r, 1u << D_TYPES);
    for (ecsb_type t = 0; t < D_TYPES; t++)
        if (set >> t & 1)
            types[count++] = t;
    ecsb_status want = ECSB_OK;
    uint64_t bad = choose(r, 20);
    if (bad == 0 && count) {
        types[count] = types[choose(r, count)];
        count++;
        want = ECSB_ERR_PRESENT;
    } else if (bad == 1) {
        types[count++] = D_TYPES + (ecsb_type)choose(r, 100);
        want = ECSB_ERR_TYPE;
    }
    for (uint32_t j = 0; j + 1 < count; j++) {
        uint32_t m = j + (uint32_t)choose(r, count - j);
        ecsb_type tmp = types[j];
        types[j] = types[m];
        types[m] = tmp;
    }
    for (uint32_t j = 0; j < count; j++)
        v[j] = &v;
    ecsb_entity e = ~ECSB_ENTITY_NULL;
    size_t before = r->ops->entity_count(r->tw.w);
    ecsb_status s = r->ops->entity_spawn(r->tw.w, types, count, &e, v);
    if (want != ECSB_OK || capacity_allowed(r, s) || nomem_allowed(r, s)) {
        D_CHECK(r, s == want || want == ECSB_OK, "spawn of %u types (one %s): got %s, want %s",
                count, want == ECSB_ERR_TYPE ? "out of range" : "twice", st(s), st(want));
        D_CHECK(r, r->ops->entity_count(r->tw.w) == before, "spawn failed (%s) but changed "
                "the count", st(s));
        D_CHECK(r, e == ECSB_ENTITY_NULL, "failed spawn (%s) left *out non-null", st(s));
        for (uint32_t j = 0; j < count; j++)
            D_CHECK(r, v[j] == NULL, "failed spawn (%s) left values_out[%u] non-NULL", st(s), j);
        for (ecsb_type t = 0; t < D_TYPES; t++)
            D_CHECK(r, r->ops->component_count(r->tw.w, t) == r->held[t],
                    "failed spawn (%s) changed the count of type %u", st(s), t);
        return;
    }
    D_CHECK(r, s == ECSB_OK, "spawn of %u types: %s", count, st(s));
    ref_entity *x = ref_push(r, e, "spawn");
    for (uint32_t j = 0; j < count; j++) {
        ecsb_type t = types[j];
        D_CHECK(r, v[j] != NULL, "spawn gave a NULL value for type %u", t);
        D_CHECK(r, d_sizes[t] || v[j] == ECSB_TAG, "spawn gave %p for tag %u, not ECSB_TAG", v[j],
                t);
        tst_pattern(v[j], d_sizes[t], value_seed(r, t));
    }
    for (uint32_t j = 0; j < count; j++) { /* after every write: no two values overlap */
        ecsb_type t = types[j];
        D_CHECK(r, tst_pattern_is(v[j], d_sizes[t], value_seed(r, t)),
                "spawn's value of type %u overlaps another", t);
        memcpy(x->value[t], v[j], d_sizes[t]);
        x->has[t] = true;
        r->held[t]++;
    }
}

static void op_destroy(run *r)
{
    size_t i = pick_live(r);
    ref_entity *x = &r->live[i];
    ecsb_status s = r->ops->entity_destroy(r->tw.w, x->handle);
    D_CHECK(r, s == ECSB_OK, "destroy of a live entity: %s", st(s));
    D_CHECK(r, !r->ops->entity_alive(r->tw.w, x->handle), "alive right after destroy");
    for (int t = 0; t < D_TYPES; t++)
        r->held[t] -= x->has[t];
    r->dead[r->dead_total++ % D_DEAD_RING] = x->handle;
    *x = r->live[--r->n];
}

/* A type by the skewed add weights. */
static ecsb_type pick_weighted(run *r)
{
    uint64_t p = choose(r, D_WEIGHT_SUM);
    ecsb_type t = 0;
    while (p >= d_weight[t])
        p -= d_weight[t++];
    return t;
}

/* A type the entity holds, most of the time (any type otherwise, or when it holds none). */
static ecsb_type pick_held(run *r, const ref_entity *x)
{
    ecsb_type t = (ecsb_type)choose(r, D_TYPES);
    if (choose(r, 5) == 0)
        return t;
    for (int k = 0; k < D_TYPES; k++, t = (t + 1) % D_TYPES)
        if (x->has[t])
            return t;
    return t;
}

static void op_add(run *r)
{
    ref_entity *x = &r->live[pick_live(r)];
    ecsb_type t = pick_weighted(r);
    void *v = &v;
    size_t before = r->ops->component_count(r->tw.w, t);
    ecsb_status s = r->ops->component_add(r->tw.w, x->handle, t, &v);
    if (x->has[t]) {
        D_CHECK(r, s == ECSB_ERR_PRESENT, "add of a held type %u: got %s, want %s", t, st(s),
                st(ECSB_ERR_PRESENT));
        D_CHECK(r, v == NULL, "failed add left *value_out non-NULL");
        return;
    }
    if (nomem_allowed(r, s)) {
        D_CHECK(r, v == NULL, "failed add (NOMEM) left *value_out non-NULL");
        D_CHECK(r, r->ops->component_count(r->tw.w, t) == before &&
                       !r->ops->component_has(r->tw.w, x->handle, t),
                "add failed (NOMEM) but the entity or the count changed");
        return;
    }
    D_CHECK(r, s == ECSB_OK && v != NULL, "add of type %u: %s%s", t, st(s),
            s == ECSB_OK ? " with a NULL value" : "");
    D_CHECK(r, d_sizes[t] || v == ECSB_TAG, "add of tag %u handed out %p, not ECSB_TAG", t, v);
    tst_pattern(v, d_sizes[t], value_seed(r, t));
    memcpy(x->value[t], v, d_sizes[t]);
    x->has[t] = true;
    r->held[t]++;
}

static void op_remove(run *r)
{
    ref_entity *x = &r->live[pick_live(r)];
    ecsb_type t = pick_held(r, x);
    size_t before = r->ops->component_count(r->tw.w, t);
    ecsb_status s = r->ops->component_remove(r->tw.w, x->handle, t);
    if (x->has[t] && nomem_allowed(r, s)) {
        /* Allowed where remove moves the other values (archetype): nothing may change. */
        const void *v = r->ops->component_get(r->tw.w, x->handle, t);
        D_CHECK(r, r->ops->component_count(r->tw.w, t) == before && v &&
                       memcmp(v, x->value[t], d_sizes[t]) == 0,
                "remove failed (NOMEM) but the entity, its value or the count changed");
        return;
    }
    ecsb_status want = x->has[t] ? ECSB_OK : ECSB_ERR_ABSENT;
    D_CHECK(r, s == want, "remove of %s type %u: got %s, want %s", x->has[t] ? "a held" : "an absent",
            t, st(s), st(want));
    if (x->has[t]) {
        x->has[t] = false;
        r->held[t]--;
    }
}

static void check_entity(run *r, const ref_entity *x, ecsb_type t)
{
    const void *v = r->ops->component_get(r->tw.w, x->handle, t);
    bool has = r->ops->component_has(r->tw.w, x->handle, t);
    D_CHECK(r, has == x->has[t], "has(0x%llx, %u) is %d, want %d", (unsigned long long)x->handle,
            t, has, x->has[t]);
    D_CHECK(r, (v != NULL) == x->has[t], "get(0x%llx, %u) is %s, want %s",
            (unsigned long long)x->handle, t, v ? "a value" : "NULL", x->has[t] ? "a value" : "NULL");
    D_CHECK(r, !v || d_sizes[t] || v == ECSB_TAG, "get(0x%llx, tag %u) is %p, not ECSB_TAG",
            (unsigned long long)x->handle, t, v);
    D_CHECK(r, !v || memcmp(v, x->value[t], d_sizes[t]) == 0,
            "get(0x%llx, %u) returned a value other than the one last written",
            (unsigned long long)x->handle, t);
}

static void op_get(run *r)
{
    const ref_entity *x = &r->live[pick_live(r)];
    check_entity(r, x, pick_held(r, x));
}

/* Overwrite a held value through get's pointer. */
static void op_set(run *r)
{
    ref_entity *x = &r->live[pick_live(r)];
    ecsb_type t = pick_held(r, x);
    void *v = r->ops->component_get(r->tw.w, x->handle, t);
    D_CHECK(r, (v != NULL) == x->has[t], "get(%u) is %s", t, v ? "a value" : "NULL");
    if (!v)
        return;
    tst_pattern(v, d_sizes[t], value_seed(r, 16 + t));
    memcpy(x->value[t], v, d_sizes[t]);
}

static void op_has(run *r)
{
    const ref_entity *x = &r->live[pick_live(r)];
    ecsb_type t = (ecsb_type)choose(r, D_TYPES);
    D_CHECK(r, r->ops->component_has(r->tw.w, x->handle, t) == x->has[t],
            "has(0x%llx, %u) wrong", (unsigned long long)x->handle, t);
}

static void op_alive(run *r)
{
    const ref_entity *x = &r->live[pick_live(r)];
    D_CHECK(r, r->ops->entity_alive(r->tw.w, x->handle), "alive(0x%llx) false for a live entity",
            (unsigned long long)x->handle);
}

static void op_counts(run *r)
{
    D_CHECK(r, r->ops->entity_count(r->tw.w) == r->n, "entity_count %zu, want %zu",
            r->ops->entity_count(r->tw.w), r->n);
    for (ecsb_type t = 0; t < D_TYPES; t++)
        D_CHECK(r, r->ops->component_count(r->tw.w, t) == r->held[t],
                "component_count(%u) %zu, want %zu", t, r->ops->component_count(r->tw.w, t),
                r->held[t]);
}

/* Every operation on a handle that is not live: destroyed, null, random, or altered. */
static void expect_stale(run *r, ecsb_entity e)
{
    const ecsb_vtable *ops = r->ops;
    unsigned long long h = e;
    ecsb_type t = (ecsb_type)choose(r, D_TYPES);
    D_CHECK(r, !ops->entity_alive(r->tw.w, e), "alive(0x%llx) true for a stale handle", h);
    D_CHECK(r, !ops->component_get(r->tw.w, e, t), "get(0x%llx, %u) non-NULL, stale handle", h, t);
    D_CHECK(r, !ops->component_has(r->tw.w, e, t), "has(0x%llx, %u) true, stale handle", h, t);
    void *v = &v;
    ecsb_status s = ops->component_add(r->tw.w, e, t, &v);
    D_CHECK(r, s == ECSB_ERR_STALE && v == NULL, "add(0x%llx, %u), stale handle: %s%s", h, t,
            st(s), v ? ", *value_out non-NULL" : "");
    s = ops->component_remove(r->tw.w, e, t);
    D_CHECK(r, s == ECSB_ERR_STALE, "remove(0x%llx, %u), stale handle: %s", h, t, st(s));
    s = ops->entity_destroy(r->tw.w, e);
    D_CHECK(r, s == ECSB_ERR_STALE, "destroy(0x%llx), stale handle: %s", h, st(s));
}

static void op_stale(run *r)
{
    uint64_t k = choose(r, 10);
    ecsb_entity e;
    if (k < 4 && r->dead_total)
        e = r->dead[choose(r, r->dead_total < D_DEAD_RING ? r->dead_total : D_DEAD_RING)];
    else if (k < 5)
        e = ECSB_ENTITY_NULL;
    else if (k < 8 || r->n == 0)
        e = r->from_input ? choose(r, UINT32_MAX) * 0x100000001ull : tst_rng_next(&r->rng);
    else
        e = r->live[pick_live(r)].handle ^ (1ull << choose(r, 64));
    if (e != ECSB_ENTITY_NULL && is_live_handle(r, e))
        return;
    expect_stale(r, e);
}

static void no_query(void *ctx, size_t count, void *const *columns)
{
    (void)columns;
    *(size_t *)ctx += count + 1;
}

static void op_bad_type(run *r)
{
    static const ecsb_type bad[] = {D_TYPES, D_TYPES + 1, ECSB_MAX_TYPES - 1, ECSB_MAX_TYPES,
                                    1000, UINT32_MAX};
    ecsb_type t = bad[choose(r, sizeof bad / sizeof bad[0])];
    ecsb_entity e = r->n ? r->live[pick_live(r)].handle : ECSB_ENTITY_NULL;
    const ecsb_vtable *ops = r->ops;
    void *v = &v;
    ecsb_status s = ops->component_add(r->tw.w, e, t, &v);
    D_CHECK(r, s == ECSB_ERR_TYPE && v == NULL, "add(bad type %u): %s", t, st(s));
    s = ops->component_remove(r->tw.w, e, t);
    D_CHECK(r, s == ECSB_ERR_TYPE, "remove(bad type %u): %s", t, st(s));
    D_CHECK(r, !ops->component_get(r->tw.w, e, t), "get(bad type %u) non-NULL", t);
    D_CHECK(r, !ops->component_has(r->tw.w, e, t), "has(bad type %u) true", t);
    D_CHECK(r, ops->component_count(r->tw.w, t) == 0, "count(bad type %u) non-zero", t);
    size_t visits = 0;
    /* Alone, or among good types in either place, with handles or not: ECSB_ERR_TYPE; naming
     * a type twice: ECSB_ERR_QUERY. */
    ecsb_type list[3] = {(ecsb_type)choose(r, D_TYPES), t, (ecsb_type)choose(r, D_TYPES)};
    const ecsb_query bad_ones[3] = {{.count = 1, .types = {t}, .entities = true},
                                    {.count = 2, .types = {list[0], t}},
                                    {.count = 2, .types = {t, list[2]}, .entities = true}};
    for (int j = 0; j < 3; j++) {
        s = ops->query(r->tw.w, &bad_ones[j], no_query, &visits);
        D_CHECK(r, s == ECSB_ERR_TYPE, "query %d naming bad type %u: %s, want %s", j, t, st(s),
                st(ECSB_ERR_TYPE));
    }
    ecsb_query q;
    q = (ecsb_query){.count = 3, .types = {list[0], list[1], list[0]}};
    s = ops->query(r->tw.w, &q, no_query, &visits);
    D_CHECK(r, s == ECSB_ERR_QUERY, "query naming type %u twice: %s, want %s", list[0], st(s),
            st(ECSB_ERR_QUERY));
    /* Excluding the bad type: ECSB_ERR_TYPE; excluding an included type, a type twice, or
     * more than ECSB_MAX_QUERY_EXCLUDES: ECSB_ERR_QUERY. */
    q = (ecsb_query){.count = 1, .types = {list[0]}, .exclude_count = 1, .exclude = {t}};
    s = ops->query(r->tw.w, &q, no_query, &visits);
    D_CHECK(r, s == ECSB_ERR_TYPE, "query excluding bad type %u: %s, want %s", t, st(s),
            st(ECSB_ERR_TYPE));
    const ecsb_query twice[3] = {
        {.count = 1, .types = {list[0]}, .exclude_count = 1, .exclude = {list[0]}},
        {.count = 1, .types = {list[0]}, .exclude_count = 2, .exclude = {t, t}},
        {.count = 1, .types = {list[0]}, .exclude_count = ECSB_MAX_QUERY_EXCLUDES + 1}};
    for (int j = 0; j < 3; j++) {
        s = ops->query(r->tw.w, &twice[j], no_query, &visits);
        D_CHECK(r, s == ECSB_ERR_QUERY, "bad exclusion %d: %s, want %s", j, st(s),
                st(ECSB_ERR_QUERY));
    }
    D_CHECK(r, visits == 0, "queries with bad type %u visited %zu entities", t, visits);
}

/* True when the model's entity x is one of q's matches: every type held, no excluded one. */
static bool ref_matches(const ref_entity *x, const ecsb_query *q)
{
    bool all = true;
    for (uint32_t j = 0; all && j < q->count; j++)
        all = x->has[q->types[j]];
    for (uint32_t j = 0; all && j < q->exclude_count; j++)
        all = !x->has[q->exclude[j]];
    return all;
}

/* "1,3,!5": q's types, then its exclusions. */
static void query_name(const ecsb_query *q, char *name, size_t size)
{
    name[0] = 0;
    for (uint32_t j = 0; j < q->count; j++)
        snprintf(name + strlen(name), size - strlen(name), "%s%u", j ? "," : "", q->types[j]);
    for (uint32_t j = 0; j < q->exclude_count; j++)
        snprintf(name + strlen(name), size - strlen(name), ",!%u", q->exclude[j]);
}

/* ---- visit sets ------------------------------------------------------------------------- */

typedef struct visit {
    ecsb_entity handle;
    size_t order; /* index into the collector's bytes */
} visit;

typedef struct collector {
    run *r;
    const ecsb_query *q;
    bool rewrite; /* write new values through the pointers handed over */
    visit *visits;
    unsigned char *bytes; /* per visit: its old values, D_VALUE_MAX bytes per column */
    size_t count, capacity;
    size_t misplaced; /* values not where get(handle) points */
    size_t bad_tags;  /* tag columns other than ECSB_TAG */
} collector;

#define COLLECT_WIDTH (ECSB_MAX_QUERY_TYPES * D_VALUE_MAX)

static unsigned char *collect(collector *c, ecsb_entity e)
{
    if (c->count == c->capacity) {
        size_t cap = c->capacity ? 2 * c->capacity : 1024;
        c->visits = tst_xrealloc(c->visits, cap * sizeof *c->visits);
        c->bytes = tst_xrealloc(c->bytes, cap * COLLECT_WIDTH);
        c->capacity = cap;
    }
    c->visits[c->count] = (visit){e, c->count};
    return c->bytes + COLLECT_WIDTH * c->count++;
}

static uint64_t rewrite_seed(const collector *c, ecsb_entity e, uint32_t which)
{
    return tst_mix64(value_seed(c->r, 40 + (uint64_t)which) ^ e);
}

/* A run of a query with handles: per entity, its handle and values (then new values). */
static void collect_run(void *ctx, size_t count, void *const *columns)
{
    collector *c = ctx;
    const uint32_t k = c->q->count;
    const ecsb_entity *handles = columns[k];
    for (size_t i = 0; i < count; i++) {
        unsigned char *dst = collect(c, handles[i]);
        for (uint32_t j = 0; j < k; j++) {
            ecsb_type t = c->q->types[j];
            unsigned char *value = (unsigned char *)columns[j] + i * d_sizes[t];
            c->bad_tags += d_sizes[t] == 0 && value != ECSB_TAG;
            memcpy(dst + j * D_VALUE_MAX, value, d_sizes[t]);
            c->misplaced += c->r->ops->component_get(c->r->tw.w, handles[i], t) != value;
            if (c->rewrite)
                tst_pattern(value, d_sizes[t], rewrite_seed(c, handles[i], j));
        }
    }
}

static int cmp_visit(const void *x, const void *y)
{
    const visit *a = x, *b = y;
    return a->handle < b->handle ? -1 : a->handle > b->handle;
}

static const run *sort_run; /* for cmp_ref: the model being sorted */

static int cmp_ref(const void *x, const void *y)
{
    ecsb_entity a = sort_run->live[*(const size_t *)x].handle;
    ecsb_entity b = sort_run->live[*(const size_t *)y].handle;
    return a < b ? -1 : a > b;
}

/*
 * Run q asking for handles, then compare the visits with the model by handle: the same
 * entities, each once, each with the model's values, every value where get(handle) points.
 * With rewrite, the visit wrote new values (from the handle), which the model then takes over.
 */
static void visit_and_compare(run *r, const ecsb_query *q, bool rewrite)
{
    ecsb_query with = *q;
    with.entities = true;
    collector c = {.r = r, .q = &with, .rewrite = rewrite, .visits = r->visits_buffer,
                   .bytes = r->bytes_buffer, .capacity = r->buffer_capacity};
    const uint32_t k = q->count;
    if (k == 2) {
        size_t ha = r->held[q->types[0]], hb = r->held[q->types[1]];
        size_t small = ha < hb ? ha : hb, large = ha < hb ? hb : ha;
        r->galloping_pairs += small && small * 16 < large;
    }
    ecsb_status s = r->ops->query(r->tw.w, &with, collect_run, &c);
    D_CHECK(r, s == ECSB_OK, "query with handles: %s", st(s));
    size_t *want = tst_xrealloc(NULL, (r->n ? r->n : 1) * sizeof *want), expected = 0;
    for (size_t i = 0; i < r->n; i++)
        if (ref_matches(&r->live[i], q))
            want[expected++] = i;
    sort_run = r;
    qsort(want, expected, sizeof *want, cmp_ref);
    if (c.count > 1)
        qsort(c.visits, c.count, sizeof *c.visits, cmp_visit);
    char name[64], what[96];
    query_name(q, name, sizeof name);
    snprintf(what, sizeof what, "query(%s) with handles", name);
    D_CHECK(r, c.misplaced == 0, "%s: %zu values not where get(handle) points (handles out of "
            "step with the values)", what, c.misplaced);
    D_CHECK(r, c.bad_tags == 0, "%s: %zu tag columns other than ECSB_TAG", what, c.bad_tags);
    for (size_t v = 0; v < c.count || v < expected; v++) {
        D_CHECK(r, v < c.count, "%s visited %zu entities, want %zu (0x%llx missing)", what,
                c.count, expected, (unsigned long long)r->live[want[v]].handle);
        D_CHECK(r, v < expected, "%s visited %zu entities, want %zu (0x%llx extra)", what,
                c.count, expected, (unsigned long long)c.visits[v].handle);
        ref_entity *x = &r->live[want[v]];
        D_CHECK(r, c.visits[v].handle == x->handle,
                "%s visited 0x%llx where 0x%llx was due (a wrong, doubled or missing entity)",
                what, (unsigned long long)c.visits[v].handle, (unsigned long long)x->handle);
        const unsigned char *old = c.bytes + COLLECT_WIDTH * c.visits[v].order;
        for (uint32_t j = 0; j < k; j++) {
            ecsb_type t = q->types[j];
            D_CHECK(r, memcmp(old + j * D_VALUE_MAX, x->value[t], d_sizes[t]) == 0,
                    "%s handed 0x%llx a wrong value of type %u", what,
                    (unsigned long long)x->handle, t);
            if (rewrite)
                tst_pattern(x->value[t], d_sizes[t], rewrite_seed(&c, x->handle, j));
        }
    }
    tst_xfree(want);
    r->visits_buffer = c.visits;
    r->bytes_buffer = c.bytes;
    r->buffer_capacity = c.capacity;
}

/* A one-type query with handles, now and then excluding another type. */
static void op_visit_one(run *r)
{
    ecsb_type t = (ecsb_type)choose(r, D_TYPES), x = (ecsb_type)choose(r, D_TYPES);
    ecsb_query q = tst_query_without(1, &t, x != t && choose(r, 2), &x);
    visit_and_compare(r, &q, choose(r, 2));
}

/* A two-type query with handles (one type when both picks agree). */
static void op_visit_pair(run *r)
{
    ecsb_type pair[2] = {(ecsb_type)choose(r, D_TYPES), (ecsb_type)choose(r, D_TYPES)};
    ecsb_query q = tst_query(pair[0] == pair[1] ? 1 : 2, pair);
    visit_and_compare(r, &q, pair[0] != pair[1] && choose(r, 2));
}

/* ---- queries ----------------------------------------------------------------------------- */

/* A query's rewrite: each entity's new values, from its old tuple (runs carry no handle). */
static uint64_t tuple_seed(const run *r, const unsigned char *tuple, size_t width, uint32_t j)
{
    uint64_t h = value_seed(r, 60);
    for (size_t i = 0; i < width; i++)
        h = tst_mix64(h ^ tuple[i]);
    return tst_mix64(h + j);
}

typedef struct query_rewrite {
    const run *r;
    const ecsb_query *q;
    size_t width;
} query_rewrite;

static void rewrite_query(void *ctx, size_t count, void *const *columns)
{
    const query_rewrite *qr = ctx;
    unsigned char tuple[ECSB_MAX_QUERY_TYPES * D_VALUE_MAX];
    for (size_t i = 0; i < count; i++) {
        size_t at = 0;
        for (uint32_t j = 0; j < qr->q->count; j++) {
            uint32_t size = d_sizes[qr->q->types[j]];
            memcpy(tuple + at, (unsigned char *)columns[j] + i * size, size);
            at += size;
        }
        for (uint32_t j = 0; j < qr->q->count; j++) {
            uint32_t size = d_sizes[qr->q->types[j]];
            tst_pattern((unsigned char *)columns[j] + i * size, size,
                        tuple_seed(qr->r, tuple, at, j));
        }
    }
}

/*
 * Run query q and compare its tuples with the model's, as multisets; with rewrite, a second
 * run writes new values derived from each old tuple, and the model does the same.
 */
static void query_and_compare(run *r, const ecsb_query *q, bool rewrite)
{
    tst_tuples got = {0}, want = {0};
    tst_tuples_query(&got, &r->tw, q);
    D_CHECK(r, got.status == ECSB_OK, "query: %s", st(got.status));
    want.width = got.width;
    unsigned char tuple[ECSB_MAX_QUERY_TYPES * D_VALUE_MAX];
    for (size_t i = 0; i < r->n; i++) {
        const ref_entity *x = &r->live[i];
        if (!ref_matches(x, q))
            continue;
        size_t at = 0;
        for (uint32_t j = 0; j < q->count; j++) {
            ecsb_type t = q->types[j];
            memcpy(tuple + at, x->value[t], d_sizes[t]);
            at += d_sizes[t];
        }
        tst_tuples_push(&want, tuple);
    }
    tst_tuples_sort(&want);
    const char *diff = tst_tuples_diff(&got, &want);
    char name[64];
    query_name(q, name, sizeof name);
    D_CHECK(r, !diff, "query(%s): %s", name, diff);
    tst_tuples_free(&got);
    tst_tuples_free(&want);
    r->queries++;
    if (!rewrite)
        return;
    query_rewrite qr = {r, q, 0};
    ecsb_status s = r->ops->query(r->tw.w, q, rewrite_query, &qr);
    D_CHECK(r, s == ECSB_OK, "query(%s): %s", name, st(s));
    for (size_t i = 0; i < r->n; i++) {
        ref_entity *x = &r->live[i];
        const bool all = ref_matches(x, q);
        size_t at = 0;
        for (uint32_t j = 0; all && j < q->count; j++) {
            ecsb_type t = q->types[j];
            memcpy(tuple + at, x->value[t], d_sizes[t]);
            at += d_sizes[t];
        }
        for (uint32_t j = 0; all && j < q->count; j++)
            tst_pattern(x->value[q->types[j]], d_sizes[q->types[j]], tuple_seed(r, tuple, at, j));
    }
}

/* A query of 2..4 types: a declared one (its exclusions too) in a shuffled order, or any set,
 * half the time excluding one or two of the other types; its tuples, or its visits with
 * handles. */
static void op_query(run *r)
{
    ecsb_type list[D_TYPES];
    uint32_t k, pool; /* shuffle the first `pool` candidates, keep the first k */
    ecsb_query q;
    if (choose(r, 2)) {
        uint32_t d = (uint32_t)choose(r, D_DECLARED);
        q = d_declared_query(d, false);
        k = pool = q.count;
        memcpy(list, q.types, k * sizeof *list);
    } else {
        k = 2 + (uint32_t)choose(r, 3);
        pool = D_TYPES;
        for (ecsb_type t = 0; t < D_TYPES; t++)
            list[t] = t;
        q = tst_query(0, list);
    }
    for (uint32_t j = 0; j + 1 < pool; j++) {
        uint32_t m = j + (uint32_t)choose(r, pool - j);
        ecsb_type tmp = list[j];
        list[j] = list[m];
        list[m] = tmp;
    }
    q.count = k;
    memcpy(q.types, list, k * sizeof *list);
    if (pool == D_TYPES && choose(r, 2)) /* exclude one or two of the others */
        for (uint32_t x = 1 + (uint32_t)choose(r, 2); x && k + q.exclude_count < D_TYPES; x--) {
            q.exclude[q.exclude_count] = list[k + q.exclude_count];
            q.exclude_count++;
        }
    if (choose(r, 2))
        query_and_compare(r, &q, choose(r, 3) == 0);
    else
        visit_and_compare(r, &q, choose(r, 3) == 0);
}

/* ---- allocation failures ------------------------------------------------------------------ */

/* Arm a failure of one of the next few allocations (or of all of them from then on). */
static void op_fail_allocation(run *r)
{
    size_t k = 1 + choose(r, 4);
    bool persistent = choose(r, 2);
    tw_fail_in(&r->tw, k, persistent);
    r->failing = true;
}

/* ---- the whole state --------------------------------------------------------------------- */

static int cmp_entity(const void *x, const void *y)
{
    ecsb_entity a = *(const ecsb_entity *)x, b = *(const ecsb_entity *)y;
    return a < b ? -1 : a > b;
}

static void full_check(run *r, uint64_t steps_done)
{
    r->full_checks++;
    r->checked = steps_done;
    op_counts(r);
    ecsb_entity *handles = tst_xrealloc(NULL, (r->n ? r->n : 1) * sizeof *handles);
    for (size_t i = 0; i < r->n; i++) {
        const ref_entity *x = &r->live[i];
        D_CHECK(r, r->ops->entity_alive(r->tw.w, x->handle), "alive(0x%llx) false, live entity",
                (unsigned long long)x->handle);
        for (ecsb_type t = 0; t < D_TYPES; t++)
            check_entity(r, x, t);
        handles[i] = x->handle;
    }
    qsort(handles, r->n, sizeof *handles, cmp_entity);
    for (size_t i = 1; i < r->n; i++)
        D_CHECK(r, handles[i] != handles[i - 1], "two live entities share handle 0x%llx",
                (unsigned long long)handles[i]);
    tst_xfree(handles);
    size_t dead = r->dead_total < D_DEAD_RING ? r->dead_total : D_DEAD_RING;
    for (size_t i = 0; i < dead; i++)
        if (!is_live_handle(r, r->dead[i]))
            expect_stale(r, r->dead[i]);
    /* Every type and ordered pair (tags too); on every other check, every type without each
     * other one, and on the others the sets below with exclusions (the check's cost stays
     * within twice what it was without tags and exclusions). */
    const bool odd = r->full_checks % 2;
    for (ecsb_type a = 0; a < D_TYPES; a++)
        for (ecsb_type b = 0; b < D_TYPES; b++) {
            ecsb_type pair[2] = {a, b};
            ecsb_query q = tst_query(a == b ? 1 : 2, pair); /* {a, a} stands for {a} */
            visit_and_compare(r, &q, false);
            if (a == b || !odd)
                continue;
            q = tst_query_without(1, &a, 1, &b);
            visit_and_compare(r, &q, false);
        }
    /* Every set of 2..4 valued types in ascending order: as it is, then (even checks) without
     * tag 5, and without tag 6 and the first valued type it lacks; every declared query
     * reversed. */
    for (uint32_t set = 0; set < (1u << D_VALUED); set++) {
        int k = __builtin_popcount(set);
        if (k < 2 || k > 4)
            continue;
        ecsb_type list[D_TYPES], out[2] = {6, 0};
        uint32_t n = 0;
        for (ecsb_type t = 0; t < D_VALUED; t++)
            if (set & (1u << t))
                list[n++] = t;
        while (set >> out[1] & 1)
            out[1]++;
        ecsb_query q = tst_query(n, list);
        query_and_compare(r, &q, false);
        visit_and_compare(r, &q, false);
        if (odd)
            continue;
        q = tst_query_without(n, list, 1, (const ecsb_type[]){5});
        query_and_compare(r, &q, false);
        q = tst_query_without(n, list, 2, out);
        query_and_compare(r, &q, false);
        visit_and_compare(r, &q, false);
    }
    for (uint32_t d = 0; d < D_DECLARED; d++) {
        ecsb_query q = d_declared_query(d, true);
        query_and_compare(r, &q, false);
        visit_and_compare(r, &q, false);
    }
    D_CHECK(r, r->ops->world_valid(r->tw.w), "world_valid false");
    r->checked = 0;
}

/* ---- one run ----------------------------------------------------------------------------- */

static void next_phase(run *r)
{
    r->growing = !r->growing;
    r->target = r->growing ? 64 + choose(r, r->grow_max - 63) : choose(r, 65);
    if (r->max_entities && r->target > r->max_entities)
        r->target = r->max_entities;
}

static void step(run *r)
{
    if (r->growing ? r->n >= r->target : r->n <= r->target)
        next_phase(r);
    /* per mille; creating and destroying swap weights between phases */
    uint64_t p = choose(r, 1000);
    uint64_t create = r->growing ? 250 : 60, destroy = r->growing ? 60 : 250;
    if (r->n == 0) { /* nothing to pick: create, or an operation that needs no entity */
        if (p < 440)
            op_create(r);
        else if (p < 880)
            op_spawn(r);
        else if (p < 920)
            op_stale(r);
        else if (p < 940)
            op_bad_type(r);
        else if (p < 960)
            op_visit_one(r);
        else if (p < 980)
            op_query(r);
        else
            op_visit_pair(r);
        return;
    }
    if (p < create)
        (p & 1 ? op_spawn : op_create)(r);
    else if ((p -= create) < destroy)
        op_destroy(r);
    else if ((p -= destroy) < 220)
        op_add(r);
    else if ((p -= 220) < 130)
        op_remove(r);
    else if ((p -= 130) < 140)
        op_get(r);
    else if ((p -= 140) < 40)
        op_set(r);
    else if ((p -= 40) < 45)
        op_has(r);
    else if ((p -= 45) < 25)
        op_alive(r);
    else if ((p -= 25) < 15)
        op_counts(r);
    else if ((p -= 15) < 30)
        op_stale(r);
    else if ((p -= 30) < 5)
        op_bad_type(r);
    else if ((p -= 5) < 6)
        op_visit_one(r);
    else if ((p -= 6) < 6)
        op_visit_pair(r);
    else if ((p -= 6) < 5)
        op_query(r);
    else
        op_fail_allocation(r);
}

/*
 * The world a run uses, picked by `kind` (the seed, or an input byte): initial capacity,
 * declared queries, and one knob that reaches a rare path.
 */
static ecsb_world_config run_config(run *r, uint64_t kind)
{
    ecsb_world_config c = tst_config(D_TYPES, d_sizes);
    static const uint32_t capacities[3] = {0, 16, 1000};
    c.initial_capacity = capacities[kind % 3];
    if (kind % 2 == 0) {
        c.query_count = D_DECLARED;
        for (uint32_t d = 0; d < D_DECLARED; d++)
            c.queries[d] = d_declared_query(d, false);
    }
    r->id_room = UINT64_MAX;
    switch (kind % 5) {
    case 0: /* a never-reusing id counter wraps early in the run */
        c.first_id = UINT32_MAX - (r->from_input ? 100 : 6000);
        r->id_room = (uint64_t)UINT32_MAX + 1 - c.first_id;
        break;
    case 1: /* slots run out of generations after a few reuses and retire */
        c.first_generation = UINT32_MAX - 3;
        break;
    case 3: /* the world fills up */
        c.max_entities = r->from_input ? 40 : 700;
        c.initial_capacity = c.initial_capacity < c.max_entities ? c.initial_capacity : 0;
        break;
    }
    r->max_entities = c.max_entities;
    return c;
}

static void run_start(run *r, uint64_t kind)
{
    ecsb_world_config c = run_config(r, kind);
    tw_init(&r->tw, &c);
    r->tw.check_valid = false;
    r->ops = r->tw.ops;
    r->growing = false;
    next_phase(r);
}

static void run_finish(run *r, uint64_t steps)
{
    tw_succeed(&r->tw);
    r->failing = false;
    full_check(r, steps);
    r->ops_total += steps;
    tw_fini(&r->tw);
    tst_xfree(r->live);
    tst_xfree(r->visits_buffer);
    tst_xfree(r->bytes_buffer);
    r->live = NULL;
    r->visits_buffer = NULL;
    r->bytes_buffer = NULL;
    r->buffer_capacity = 0;
}

/* One seeded run of `ops` operations; the seed also picks the world's configuration. */
static void run_seed(run *r, uint64_t seed, uint64_t ops)
{
    memset(r, 0, sizeof *r);
    r->seed = seed;
    r->rng.s = tst_mix64(seed);
    r->grow_max = GROW_TARGET_MAX;
    run_start(r, seed);
    for (r->step = 0; r->step < ops; r->step++) {
        step(r);
        if (r->step % CHECK_EVERY == CHECK_EVERY - 1) {
            tw_succeed(&r->tw);
            r->failing = false;
            full_check(r, r->step + 1);
        }
    }
    run_finish(r, ops);
}

void tst_differential_bytes(const uint8_t *data, size_t size)
{
    static run r;
    memset(&r, 0, sizeof r);
    r.from_input = true;
    r.input = data;
    r.input_left = size;
    r.grow_max = FUZZ_GROW_TARGET_MAX;
    run_start(&r, choose(&r, 30));
    for (r.step = 0; !r.exhausted; r.step++) {
        step(&r);
        if (r.step % FUZZ_CHECK_EVERY == FUZZ_CHECK_EVERY - 1) {
            tw_succeed(&r.tw);
            r.failing = false;
            full_check(&r, r.step + 1);
        }
    }
    run_finish(&r, r.step);
}

typedef struct totals {
    uint64_t ops, seeds;
    size_t peak, checks, refusals, nomem, queries, galloping;
} totals;

static void add_totals(totals *t, const run *r)
{
    t->ops += r->ops_total;
    t->seeds++;
    t->peak = r->peak > t->peak ? r->peak : t->peak;
    t->checks += r->full_checks;
    t->refusals += r->capacity_refusals;
    t->nomem += r->nomem;
    t->queries += r->queries;
    t->galloping += r->galloping_pairs;
}

void differential_matches_the_reference_model(void **state)
{
    (void)state;
    static run r;
    totals t = {0};
    uint64_t first = 1, last = DEFAULT_SEEDS;
    uint64_t ops = tst_replay_ops ? tst_replay_ops : DEFAULT_OPS;
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (tst_replay_seed) {
        first = last = tst_replay_seed;
    } else if (tst_soak_seconds) { /* fresh seeds until the time is up */
        first = tst_mix64((uint64_t)time(NULL) ^ (uint64_t)t0.tv_nsec) >> 16;
        last = UINT64_MAX;
        printf("    soak %s: seeds from %llu for %llu s\n", tst_strategy->name,
               (unsigned long long)first, (unsigned long long)tst_soak_seconds);
    }
    double seconds = 0;
    for (uint64_t seed = first; seed <= last; seed++) {
        run_seed(&r, seed, ops);
        add_totals(&t, &r);
        clock_gettime(CLOCK_MONOTONIC, &now);
        seconds = (double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) / 1e9;
        if (tst_soak_seconds && !tst_replay_seed && seconds >= (double)tst_soak_seconds)
            break;
    }
    uint64_t seeds = t.seeds, found = 0;
    for (size_t k = 0; !tst_replay_seed && !tst_soak_seconds &&
                       k < sizeof d_found_seeds / sizeof d_found_seeds[0]; k++, found++) {
        run_seed(&r, d_found_seeds[k].seed, d_found_seeds[k].ops);
        add_totals(&t, &r);
    }
    printf("    differential %s: %llu operations (%llu seeds from %llu, %llu each; %llu found "
           "by soaks) in %.1f s, "
           "%zu full-state comparisons, peak %zu live, %zu queries, %zu galloping pairs, %zu "
           "injected allocation failures, %zu refused creates\n",
           tst_strategy->name, (unsigned long long)t.ops, (unsigned long long)seeds,
           (unsigned long long)first, (unsigned long long)ops, (unsigned long long)found, seconds,
           t.checks, t.peak, t.queries, t.galloping, t.nomem, t.refusals);
}
