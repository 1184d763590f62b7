/*
 * differential.c — long seeded random runs of mixed operations against a deliberately simple
 * reference model: an array of live entities (each with a has flag and a copy of the value of
 * every type) and a ring of recently destroyed handles. Nothing clever: lookups are by index
 * into that array, visit sets are compared after sorting both sides by handle.
 *
 * Every step checks the result of its own operation; every CHECK_EVERY steps (and at the end)
 * the whole state is compared: every live entity's alive/has/value for all types, the
 * recently destroyed handles, the counts, the each() visit set of every type, the join()
 * visit set of every ordered pair, unique live handles, world_valid. Phases alternate between
 * creating (the world grows to a few thousand entities, through every growth step) and
 * destroying (down to a handful), so slots are reused and swap-removes happen at every
 * position. A failure names strategy, seed and step; ECSB_SEED=<seed> ECSB_OPS=<step + 1>
 * replays exactly that run up to the failing step.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support.h"
#include "tests/suites.h"

#define D_TYPES 3
#define D_VALUE_MAX 24
#define D_DEAD_RING 256
#define CHECK_EVERY 4096
#define DEFAULT_SEEDS 5        /* seeds 1..5; seed % 5 == 0 runs near the id counter's wrap */
#define DEFAULT_OPS 52000ull   /* per seed: 260,000 per strategy */
#define GROW_TARGET_MAX 4096

static const uint32_t d_sizes[D_TYPES] = {4, 8, 24};

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
    tst_rng rng;
    /* the reference model */
    ref_entity *live;
    size_t n, capacity;
    size_t held[D_TYPES];
    ecsb_entity dead[D_DEAD_RING];
    size_t dead_total;
    uint64_t creates;
    uint64_t id_room; /* creates before a never-reusing id counter may run out */
    /* phases */
    bool growing;
    size_t target;
    /* statistics */
    size_t peak, full_checks, capacity_refusals;
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

static uint64_t value_seed(const run *r, uint64_t salt)
{
    return tst_mix64(r->seed * 0x9e3779b97f4a7c15ull ^ r->step ^ (salt << 48));
}

/* ---- the reference model's own operations ---------------------------------------------- */

static size_t pick_live(run *r) { return tst_rng_below(&r->rng, r->n); }

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

/* ---- operations ------------------------------------------------------------------------- */

static void op_create(run *r)
{
    ecsb_entity e = ECSB_ENTITY_NULL;
    size_t before = r->ops->entity_count(r->tw.w);
    ecsb_status s = r->ops->entity_create(r->tw.w, &e);
    if (s == ECSB_ERR_CAPACITY && r->creates >= r->id_room) {
        /* The id space is used up: allowed, and nothing may change. */
        D_CHECK(r, r->ops->entity_count(r->tw.w) == before, "refused create changed the count");
        r->capacity_refusals++;
        return;
    }
    D_CHECK(r, s == ECSB_OK, "create: %s", st(s));
    D_CHECK(r, e != ECSB_ENTITY_NULL, "create gave the null handle");
    D_CHECK(r, !is_recently_dead(r, e),
            "create gave 0x%llx, the handle of a recently destroyed entity",
            (unsigned long long)e);
    r->creates++;
    if (r->n == r->capacity) {
        size_t cap = r->capacity ? 2 * r->capacity : 1024;
        ref_entity *p = realloc(r->live, cap * sizeof *p);
        D_CHECK(r, p != NULL, "test: out of memory");
        r->live = p;
        r->capacity = cap;
    }
    ref_entity *x = &r->live[r->n++];
    memset(x, 0, sizeof *x);
    x->handle = e;
    if (r->n > r->peak)
        r->peak = r->n;
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

/* A type the entity holds (want_held) or lacks, most of the time; any type otherwise. */
static ecsb_type pick_type(run *r, const ref_entity *x, bool want_held)
{
    ecsb_type t = (ecsb_type)tst_rng_below(&r->rng, D_TYPES);
    if (tst_rng_below(&r->rng, 5) == 0)
        return t;
    for (int k = 0; k < D_TYPES; k++, t = (t + 1) % D_TYPES)
        if (x->has[t] == want_held)
            return t;
    return t;
}

static void op_add(run *r)
{
    ref_entity *x = &r->live[pick_live(r)];
    ecsb_type t = pick_type(r, x, false);
    void *v = &v;
    ecsb_status s = r->ops->component_add(r->tw.w, x->handle, t, &v);
    if (x->has[t]) {
        D_CHECK(r, s == ECSB_ERR_PRESENT, "add of a held type %u: got %s, want %s", t, st(s),
                st(ECSB_ERR_PRESENT));
        D_CHECK(r, v == NULL, "failed add left *value_out non-NULL");
        return;
    }
    D_CHECK(r, s == ECSB_OK && v != NULL, "add of type %u: %s%s", t, st(s),
            s == ECSB_OK ? " with a NULL value" : "");
    tst_pattern(v, d_sizes[t], value_seed(r, t));
    memcpy(x->value[t], v, d_sizes[t]);
    x->has[t] = true;
    r->held[t]++;
}

static void op_remove(run *r)
{
    ref_entity *x = &r->live[pick_live(r)];
    ecsb_type t = pick_type(r, x, true);
    ecsb_status s = r->ops->component_remove(r->tw.w, x->handle, t);
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
    D_CHECK(r, !v || memcmp(v, x->value[t], d_sizes[t]) == 0,
            "get(0x%llx, %u) returned a value other than the one last written",
            (unsigned long long)x->handle, t);
}

static void op_get(run *r)
{
    const ref_entity *x = &r->live[pick_live(r)];
    check_entity(r, x, pick_type(r, x, true));
}

/* Overwrite a held value through get's pointer. */
static void op_set(run *r)
{
    ref_entity *x = &r->live[pick_live(r)];
    ecsb_type t = pick_type(r, x, true);
    void *v = r->ops->component_get(r->tw.w, x->handle, t);
    D_CHECK(r, (v != NULL) == x->has[t], "get(%u) is %s", t, v ? "a value" : "NULL");
    if (!v)
        return;
    tst_pattern(v, d_sizes[t], value_seed(r, 16 + t));
    memcpy(x->value[t], v, d_sizes[t]);
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
    ecsb_type t = (ecsb_type)tst_rng_below(&r->rng, D_TYPES);
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
    uint64_t k = tst_rng_below(&r->rng, 10);
    ecsb_entity e;
    if (k < 4 && r->dead_total)
        e = r->dead[tst_rng_below(&r->rng, r->dead_total < D_DEAD_RING ? r->dead_total
                                                                        : D_DEAD_RING)];
    else if (k < 5)
        e = ECSB_ENTITY_NULL;
    else if (k < 8 || r->n == 0)
        e = tst_rng_next(&r->rng);
    else
        e = r->live[pick_live(r)].handle ^ (1ull << tst_rng_below(&r->rng, 64));
    if (e != ECSB_ENTITY_NULL && is_live_handle(r, e))
        return;
    expect_stale(r, e);
}

static void no_each(void *ctx, ecsb_entity e, void *v)
{
    (void)e;
    (void)v;
    ++*(size_t *)ctx;
}

static void no_join(void *ctx, ecsb_entity e, void *a, void *b)
{
    (void)e;
    (void)a;
    (void)b;
    ++*(size_t *)ctx;
}

static void op_bad_type(run *r)
{
    static const ecsb_type bad[] = {D_TYPES, D_TYPES + 1, ECSB_MAX_TYPES - 1, ECSB_MAX_TYPES,
                                    1000, UINT32_MAX};
    ecsb_type t = bad[tst_rng_below(&r->rng, sizeof bad / sizeof bad[0])];
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
    ops->each(r->tw.w, t, no_each, &visits);
    ops->join(r->tw.w, t, (ecsb_type)tst_rng_below(&r->rng, D_TYPES), no_join, &visits);
    ops->join(r->tw.w, (ecsb_type)tst_rng_below(&r->rng, D_TYPES), t, no_join, &visits);
    D_CHECK(r, visits == 0, "each/join with bad type %u visited %zu entities", t, visits);
}

/* ---- visit sets ------------------------------------------------------------------------- */

typedef struct visit {
    ecsb_entity handle;
    size_t order; /* index into the collector's bytes */
} visit;

typedef struct collector {
    run *r;
    ecsb_type a, b;
    bool rewrite; /* write new values through the pointers handed over */
    visit *visits;
    unsigned char *bytes; /* per visit: old a, old b (D_VALUE_MAX each) */
    size_t count, capacity;
} collector;

static unsigned char *collect(collector *c, ecsb_entity e)
{
    if (c->count == c->capacity) {
        size_t cap = c->capacity ? 2 * c->capacity : 1024;
        visit *v = realloc(c->visits, cap * sizeof *v);
        unsigned char *b = realloc(c->bytes, cap * 2 * D_VALUE_MAX);
        if (v)
            c->visits = v;
        if (b)
            c->bytes = b;
        D_CHECK(c->r, v && b, "test: out of memory");
        c->capacity = cap;
    }
    c->visits[c->count] = (visit){e, c->count};
    return c->bytes + 2 * D_VALUE_MAX * c->count++;
}

static uint64_t rewrite_seed(const collector *c, ecsb_entity e, int which)
{
    return tst_mix64(value_seed(c->r, 40 + (uint64_t)which) ^ e);
}

static void collect_each(void *ctx, ecsb_entity e, void *value)
{
    collector *c = ctx;
    unsigned char *dst = collect(c, e);
    memcpy(dst, value, d_sizes[c->a]);
    if (c->rewrite)
        tst_pattern(value, d_sizes[c->a], rewrite_seed(c, e, 0));
}

static void collect_join(void *ctx, ecsb_entity e, void *a, void *b)
{
    collector *c = ctx;
    unsigned char *dst = collect(c, e);
    memcpy(dst, a, d_sizes[c->a]);
    memcpy(dst + D_VALUE_MAX, b, d_sizes[c->b]);
    if (c->rewrite) {
        tst_pattern(a, d_sizes[c->a], rewrite_seed(c, e, 0));
        tst_pattern(b, d_sizes[c->b], rewrite_seed(c, e, 1));
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
 * Run each(a) (join = false) or join(a, b), then compare the visits with the model: the same
 * entities, each once, with the model's values. With rewrite, the visit wrote new values,
 * which the model then takes over.
 */
static void visit_and_compare(run *r, bool join, ecsb_type a, ecsb_type b, bool rewrite)
{
    collector c = {.r = r, .a = a, .b = join ? b : a, .rewrite = rewrite};
    if (join)
        r->ops->join(r->tw.w, a, b, collect_join, &c);
    else
        r->ops->each(r->tw.w, a, collect_each, &c);
    size_t *want = malloc((r->n ? r->n : 1) * sizeof *want), expected = 0;
    D_CHECK(r, want != NULL, "test: out of memory");
    for (size_t i = 0; i < r->n; i++)
        if (r->live[i].has[a] && (!join || r->live[i].has[b]))
            want[expected++] = i;
    sort_run = r;
    qsort(want, expected, sizeof *want, cmp_ref);
    if (c.count > 1)
        qsort(c.visits, c.count, sizeof *c.visits, cmp_visit);
    const char *what = join ? "join" : "each";
    for (size_t k = 0; k < c.count || k < expected; k++) {
        D_CHECK(r, k < c.count, "%s(%u, %u) visited %zu entities, want %zu (0x%llx missing)", what,
                a, b, c.count, expected, (unsigned long long)r->live[want[k]].handle);
        D_CHECK(r, k < expected, "%s(%u, %u) visited %zu entities, want %zu (0x%llx extra)", what,
                a, b, c.count, expected, (unsigned long long)c.visits[k].handle);
        ref_entity *x = &r->live[want[k]];
        D_CHECK(r, c.visits[k].handle == x->handle,
                "%s(%u, %u) visited 0x%llx where 0x%llx was due (a wrong, doubled or missing "
                "entity)", what, a, b, (unsigned long long)c.visits[k].handle,
                (unsigned long long)x->handle);
        const unsigned char *old = c.bytes + 2 * D_VALUE_MAX * c.visits[k].order;
        D_CHECK(r, memcmp(old, x->value[a], d_sizes[a]) == 0,
                "%s(%u, %u) handed 0x%llx a wrong value of type %u", what, a, b,
                (unsigned long long)x->handle, a);
        D_CHECK(r, !join || memcmp(old + D_VALUE_MAX, x->value[b], d_sizes[b]) == 0,
                "join(%u, %u) handed 0x%llx a wrong value of type %u", a, b,
                (unsigned long long)x->handle, b);
        if (rewrite) {
            tst_pattern(x->value[a], d_sizes[a], rewrite_seed(&c, x->handle, 0));
            if (join)
                tst_pattern(x->value[b], d_sizes[b], rewrite_seed(&c, x->handle, 1));
        }
    }
    free(want);
    free(c.visits);
    free(c.bytes);
}

static void op_each(run *r)
{
    visit_and_compare(r, false, (ecsb_type)tst_rng_below(&r->rng, D_TYPES), 0,
                      tst_rng_below(&r->rng, 2));
}

static void op_join(run *r)
{
    ecsb_type a = (ecsb_type)tst_rng_below(&r->rng, D_TYPES);
    ecsb_type b = (ecsb_type)tst_rng_below(&r->rng, D_TYPES);
    visit_and_compare(r, true, a, b, a != b && tst_rng_below(&r->rng, 2));
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
    ecsb_entity *handles = malloc((r->n ? r->n : 1) * sizeof *handles);
    D_CHECK(r, handles != NULL, "test: out of memory");
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
    free(handles);
    size_t dead = r->dead_total < D_DEAD_RING ? r->dead_total : D_DEAD_RING;
    for (size_t i = 0; i < dead; i++)
        if (!is_live_handle(r, r->dead[i]))
            expect_stale(r, r->dead[i]);
    for (ecsb_type a = 0; a < D_TYPES; a++) {
        visit_and_compare(r, false, a, a, false);
        for (ecsb_type b = 0; b < D_TYPES; b++)
            visit_and_compare(r, true, a, b, false);
    }
    D_CHECK(r, r->ops->world_valid(r->tw.w), "world_valid false");
    r->checked = 0;
}

/* ---- one run ----------------------------------------------------------------------------- */

static void next_phase(run *r)
{
    r->growing = !r->growing;
    r->target = r->growing ? 64 + tst_rng_below(&r->rng, GROW_TARGET_MAX - 63)
                           : tst_rng_below(&r->rng, 65);
}

static void step(run *r)
{
    if (r->growing ? r->n >= r->target : r->n <= r->target)
        next_phase(r);
    /* per mille; creating and destroying swap weights between phases */
    uint64_t p = tst_rng_below(&r->rng, 1000);
    uint64_t create = r->growing ? 250 : 60, destroy = r->growing ? 60 : 250;
    if (r->n == 0) { /* nothing to pick: create, or an operation that needs no entity */
        if (p < 900)
            op_create(r);
        else if (p < 940)
            op_stale(r);
        else if (p < 960)
            op_bad_type(r);
        else if (p < 980)
            op_each(r);
        else
            op_join(r);
        return;
    }
    if (p < create)
        op_create(r);
    else if ((p -= create) < destroy)
        r->n ? op_destroy(r) : op_create(r);
    else if ((p -= destroy) < 220)
        op_add(r);
    else if ((p -= 220) < 130)
        op_remove(r);
    else if ((p -= 130) < 150)
        op_get(r);
    else if ((p -= 150) < 40)
        op_set(r);
    else if ((p -= 40) < 50) {
        const ref_entity *x = &r->live[pick_live(r)];
        ecsb_type t = (ecsb_type)tst_rng_below(&r->rng, D_TYPES);
        D_CHECK(r, r->ops->component_has(r->tw.w, x->handle, t) == x->has[t],
                "has(0x%llx, %u) wrong", (unsigned long long)x->handle, t);
    } else if ((p -= 50) < 30)
        op_alive(r);
    else if ((p -= 30) < 20)
        op_counts(r);
    else if ((p -= 20) < 30)
        op_stale(r);
    else if ((p -= 30) < 5)
        op_bad_type(r);
    else if ((p -= 5) < 6)
        op_each(r);
    else
        op_join(r);
}

/* One seeded run of `ops` operations; the seed also picks the world's configuration. */
static void run_seed(run *r, uint64_t seed, uint64_t ops)
{
    memset(r, 0, sizeof *r);
    r->seed = seed;
    r->rng.s = tst_mix64(seed);
    ecsb_world_config c = tst_config(D_TYPES, d_sizes);
    static const uint32_t capacities[3] = {0, 16, 1000};
    c.initial_capacity = capacities[seed % 3];
    r->id_room = UINT64_MAX;
    if (seed % 5 == 0) { /* a never-reusing id counter wraps early in the run */
        c.first_id = UINT32_MAX - 6000;
        r->id_room = (uint64_t)UINT32_MAX + 1 - c.first_id;
    }
    tw_init(&r->tw, &c);
    r->tw.check_valid = false;
    r->ops = r->tw.ops;
    r->growing = false;
    next_phase(r);
    for (r->step = 0; r->step < ops; r->step++) {
        step(r);
        if (r->step % CHECK_EVERY == CHECK_EVERY - 1)
            full_check(r, r->step + 1);
    }
    full_check(r, ops);
    r->ops_total += ops;
    tw_fini(&r->tw);
    free(r->live);
    r->live = NULL;
}

void differential_matches_the_reference_model(void **state)
{
    (void)state;
    run r;
    uint64_t total = 0, first = 1, last = DEFAULT_SEEDS;
    uint64_t ops = tst_replay_ops ? tst_replay_ops : DEFAULT_OPS;
    size_t peak = 0, checks = 0, refusals = 0;
    if (tst_replay_seed)
        first = last = tst_replay_seed;
    for (uint64_t seed = first; seed <= last; seed++) {
        run_seed(&r, seed, ops);
        total += r.ops_total;
        peak = r.peak > peak ? r.peak : peak;
        checks += r.full_checks;
        refusals += r.capacity_refusals;
    }
    printf("    differential %s: %llu operations (seeds %llu-%llu x %llu), %zu full-state "
           "comparisons, peak %zu live entities%s\n",
           tst_strategy->name, (unsigned long long)total, (unsigned long long)first,
           (unsigned long long)last, (unsigned long long)ops, checks, peak,
           refusals ? ", creates refused once the id space ran out" : "");
}
