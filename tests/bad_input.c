/*
 * bad_input.c — every kind of bad input returns its documented status and leaves the world
 * unchanged (a snapshot of everything the world shows, before and after the call, compares
 * equal) and valid: absent and present components, stale entities, bad types, a full world,
 * out-of-range configurations, failed allocations (the k-th allocation of a scripted sequence
 * failing, for every k, including those in world_init), and the id counter's wrap-around. No
 * test may leak: each world's allocator holds no block after world_fini.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support.h"
#include "tests/suites.h"

/* ---- a world with every kind of entity, all tracked ------------------------------------- */

typedef struct tracked {
    ecsb_entity handle[256];
    bool alive[256];
    size_t n;
} tracked;

static ecsb_entity track(tracked *k, tst_world *tw)
{
    TST_CHECK(k->n < 256, "test bug: too many tracked entities");
    k->alive[k->n] = true;
    return k->handle[k->n++] = tw_create(tw);
}

/* 60 entities, mixed types, a few destroyed and their slots reused. */
static void build(tracked *k, tst_world *tw)
{
    memset(k, 0, sizeof *k);
    for (size_t i = 0; i < 60; i++) {
        ecsb_entity e = track(k, tw);
        for (ecsb_type t = 0; t < TST_TYPES; t++)
            if ((i + t) % 3 != 0 && i % 7 != 6)
                tw_add(tw, e, t, i * 8 + t);
    }
    for (size_t i = 2; i < 60; i += 9) {
        tw_destroy(tw, k->handle[i]);
        k->alive[i] = false;
    }
    for (size_t i = 0; i < 5; i++) {
        ecsb_entity e = track(k, tw);
        tw_add(tw, e, (ecsb_type)(i % 3), 1000 + i);
    }
}

/* A world of tst_config3() with build's entities in it. */
static void open_built(tst_world *tw, tracked *k)
{
    ecsb_world_config c = tst_config3();
    tw_init(tw, &c);
    build(k, tw);
}

/* Run `call`, then assert it returned `want` and changed nothing the world shows. */
#define EXPECT_UNCHANGED(tw, k, want, call, ...)                                                \
    do {                                                                                       \
        tst_snapshot before_, after_;                                                          \
        tst_snapshot_take(&before_, (tw), (k)->handle, (k)->n);                                \
        ecsb_status status_ = (call);                                                             \
        tst_snapshot_take(&after_, (tw), (k)->handle, (k)->n);                                 \
        const char *diff_ = tst_snapshot_diff(&before_, &after_);                              \
        tst_snapshot_free(&before_);                                                           \
        tst_snapshot_free(&after_);                                                            \
        char what_[160];                                                                       \
        snprintf(what_, sizeof what_, __VA_ARGS__);                                            \
        TST_STATUS(status_, (want), what_);                                                       \
        TST_CHECK(!diff_, "%s changed the world: %s", what_, diff_);                           \
    } while (0)

static ecsb_status add_status(tst_world *tw, ecsb_entity e, ecsb_type t)
{
    void *v = &v;
    ecsb_status s = tw->ops->component_add(tw->w, e, t, &v);
    TST_CHECK(s == ECSB_OK || v == NULL, "failed component_add left *value_out non-NULL");
    return s;
}

/* spawn of types[0 .. count); a failure must leave *out null and every value NULL. */
static ecsb_status spawn_status(tst_world *tw, uint32_t count, const ecsb_type *types)
{
    ecsb_entity e = ~ECSB_ENTITY_NULL;
    void *v[ECSB_MAX_TYPES + 8];
    for (uint32_t j = 0; j < count; j++)
        v[j] = &v;
    ecsb_status s = tw->ops->entity_spawn(tw->w, types, count, &e, count ? v : NULL);
    if (s == ECSB_OK)
        return s;
    TST_CHECK(e == ECSB_ENTITY_NULL, "failed spawn (%s) left *out non-null", ecsb_status_str(s));
    for (uint32_t j = 0; j < count; j++)
        TST_CHECK(v[j] == NULL, "failed spawn (%s) left values_out[%u] non-NULL",
                  ecsb_status_str(s), j);
    return s;
}

/*
 * spawn refuses a list naming a bad type (ECSB_ERR_TYPE, before any duplicate) or a type twice
 * (ECSB_ERR_PRESENT; so is any list longer than type_count, up to ECSB_MAX_TYPES and past it),
 * changing nothing: the next create issues the handle it would have issued anyway.
 */
void bad_input_spawn_of_a_bad_or_repeated_type_returns_its_status_and_changes_nothing(void **state)
{
    (void)state;
    tst_world tw;
    tracked k;
    open_built(&tw, &k);
    static const struct {
        ecsb_status want;
        uint32_t count;
        ecsb_type types[6];
    } cases[] = {
        {ECSB_ERR_TYPE, 1, {TST_TYPES}},
        {ECSB_ERR_TYPE, 3, {0, 1, ECSB_MAX_TYPES}},
        {ECSB_ERR_TYPE, 2, {UINT32_MAX, 2}},
        {ECSB_ERR_TYPE, 4, {1, 1, 0, TST_TYPES}}, /* a bad type beats a duplicate */
        {ECSB_ERR_PRESENT, 2, {0, 0}},
        {ECSB_ERR_PRESENT, 3, {2, 0, 2}},
        {ECSB_ERR_PRESENT, 4, {0, 1, 2, 1}},
        {ECSB_ERR_PRESENT, 6, {0, 1, 2, 0, 1, 2}},
    };
    for (size_t j = 0; j < sizeof cases / sizeof cases[0]; j++)
        EXPECT_UNCHANGED(&tw, &k, cases[j].want, spawn_status(&tw, cases[j].count, cases[j].types),
                         "spawn case %zu", j);
    ecsb_type many[ECSB_MAX_TYPES + 8];
    for (uint32_t j = 0; j < ECSB_MAX_TYPES + 8; j++)
        many[j] = j % TST_TYPES;
    EXPECT_UNCHANGED(&tw, &k, ECSB_ERR_PRESENT, spawn_status(&tw, ECSB_MAX_TYPES, many),
                     "spawn of ECSB_MAX_TYPES types of 3");
    EXPECT_UNCHANGED(&tw, &k, ECSB_ERR_PRESENT, spawn_status(&tw, ECSB_MAX_TYPES + 8, many),
                     "spawn of more than ECSB_MAX_TYPES types");
    /* Nothing used up: a create now gives what a create gives in a world that never saw them. */
    tst_world fresh;
    tracked kf;
    open_built(&fresh, &kf);
    ecsb_entity a = tw_create(&tw), b = tw_create(&fresh);
    TST_CHECK(a == b, "after refused spawns create gave 0x%llx; without them 0x%llx",
              (unsigned long long)a, (unsigned long long)b);
    tw_fini(&fresh);
    tw_fini(&tw);
}

void bad_input_remove_of_an_absent_component_returns_absent_and_changes_nothing(void **state)
{
    (void)state;
    tst_world tw;
    tracked k;
    open_built(&tw, &k);
    size_t tried = 0;
    for (size_t i = 0; i < k.n; i++)
        for (ecsb_type t = 0; t < TST_TYPES; t++)
            if (k.alive[i] && !tw.ops->component_has(tw.w, k.handle[i], t)) {
                EXPECT_UNCHANGED(&tw, &k, ECSB_ERR_ABSENT,
                                 tw.ops->component_remove(tw.w, k.handle[i], t),
                                 "remove of absent type %u from entity #%zu", t, i);
                tried++;
            }
    /* Removed just now, removed again. */
    tw_remove(&tw, k.handle[1], 1);
    EXPECT_UNCHANGED(&tw, &k, ECSB_ERR_ABSENT, tw.ops->component_remove(tw.w, k.handle[1], 1),
                     "second remove of type 1 from entity #1");
    TST_CHECK(tried > 20, "test bug: only %zu absent components tried", tried);
    tw_fini(&tw);
}

void bad_input_add_of_a_present_component_returns_present_and_changes_nothing(void **state)
{
    (void)state;
    tst_world tw;
    tracked k;
    open_built(&tw, &k);
    size_t tried = 0;
    for (size_t i = 0; i < k.n; i++)
        for (ecsb_type t = 0; t < TST_TYPES; t++)
            if (k.alive[i] && tw.ops->component_has(tw.w, k.handle[i], t)) {
                EXPECT_UNCHANGED(&tw, &k, ECSB_ERR_PRESENT, add_status(&tw, k.handle[i], t),
                                 "add of present type %u to entity #%zu", t, i);
                tried++;
            }
    TST_CHECK(tried > 20, "test bug: only %zu present components tried", tried);
    tw_fini(&tw);
}

void bad_input_operations_on_a_stale_entity_return_stale_and_change_nothing(void **state)
{
    (void)state;
    tst_world tw;
    tracked k;
    open_built(&tw, &k);
    ecsb_entity stale[64];
    size_t n = 0;
    for (size_t i = 0; i < k.n; i++)
        if (!k.alive[i])
            stale[n++] = k.handle[i];
    stale[n++] = ECSB_ENTITY_NULL;
    stale[n++] = UINT64_MAX;
    stale[n++] = 0x123456789abcdef0ull;
    for (size_t j = 0; j < n; j++) {
        ecsb_entity e = stale[j];
        for (ecsb_type t = 0; t < TST_TYPES; t++) {
            EXPECT_UNCHANGED(&tw, &k, ECSB_ERR_STALE, add_status(&tw, e, t),
                             "add(stale 0x%llx, %u)", (unsigned long long)e, t);
            EXPECT_UNCHANGED(&tw, &k, ECSB_ERR_STALE, tw.ops->component_remove(tw.w, e, t),
                             "remove(stale 0x%llx, %u)", (unsigned long long)e, t);
        }
        EXPECT_UNCHANGED(&tw, &k, ECSB_ERR_STALE, tw.ops->entity_destroy(tw.w, e),
                         "destroy(stale 0x%llx)", (unsigned long long)e);
        tw_expect_stale(&tw, e); /* alive, get, has too */
    }
    tw_fini(&tw);
}

static ecsb_status bad_type_calls(tst_world *tw, ecsb_entity e, ecsb_type t)
{
    const ecsb_vtable *ops = tw->ops;
    ecsb_status add = add_status(tw, e, t), rm = ops->component_remove(tw->w, e, t);
    TST_CHECK(add == rm, "add and remove of bad type %u disagree: %s, %s", t,
              ecsb_status_str(add), ecsb_status_str(rm));
    TST_CHECK(!ops->component_get(tw->w, e, t) && !ops->component_has(tw->w, e, t) &&
                  ops->component_count(tw->w, t) == 0,
              "get/has/count of bad type %u not NULL/false/0", t);
    return add;
}

void bad_input_bad_type_returns_type_and_changes_nothing(void **state)
{
    (void)state;
    tst_world tw;
    tracked k;
    open_built(&tw, &k);
    const ecsb_type bad[] = {TST_TYPES, ECSB_MAX_TYPES, UINT32_MAX};
    for (size_t j = 0; j < sizeof bad / sizeof bad[0]; j++)
        for (size_t i = 0; i < k.n; i += 4)
            EXPECT_UNCHANGED(&tw, &k, ECSB_ERR_TYPE, bad_type_calls(&tw, k.handle[i], bad[j]),
                             "add/remove of bad type %u on entity #%zu", bad[j], i);
    tw_fini(&tw);
}

void bad_input_create_beyond_max_entities_returns_capacity_and_changes_nothing(void **state)
{
    (void)state;
    const uint32_t limits[][2] = {{1, 0}, {2, 0}, {3, 3}, {17, 0}, {100, 100}, {130, 16}};
    for (size_t j = 0; j < sizeof limits / sizeof limits[0]; j++) {
        uint32_t max = limits[j][0];
        tst_world tw;
        ecsb_world_config c = tst_config3();
        c.max_entities = max;
        c.initial_capacity = limits[j][1];
        tw_init(&tw, &c);
        tracked k = {0};
        for (uint32_t i = 0; i < max; i++) {
            ecsb_entity e = track(&k, &tw);
            tw_add(&tw, e, i % 3, i);
        }
        ecsb_entity out;
        static const ecsb_type all3[3] = {2, 0, 1};
        EXPECT_UNCHANGED(&tw, &k, ECSB_ERR_CAPACITY, tw.ops->entity_create(tw.w, &out),
                         "create past max_entities %u", max);
        EXPECT_UNCHANGED(&tw, &k, ECSB_ERR_CAPACITY, spawn_status(&tw, 3, all3),
                         "spawn of 3 types past max_entities %u", max);
        EXPECT_UNCHANGED(&tw, &k, ECSB_ERR_CAPACITY, spawn_status(&tw, 0, NULL),
                         "spawn of no type past max_entities %u", max);
        /* Room again after a destroy, full again after one create. */
        tw_destroy(&tw, k.handle[max / 2]);
        k.alive[max / 2] = false;
        tw_add(&tw, track(&k, &tw), 1, 999);
        EXPECT_UNCHANGED(&tw, &k, ECSB_ERR_CAPACITY, tw.ops->entity_create(tw.w, &out),
                         "create past max_entities %u after a destroy and a create", max);
        TST_CHECK(tw.ops->entity_count(tw.w) == max, "entity_count %zu, want %u",
                  tw.ops->entity_count(tw.w), max);
        tw_fini(&tw);
    }
}

/* world_init on `c` must return `want`; a refused config allocates nothing. */
static void expect_init(const ecsb_world_config *c, ecsb_status want, const char *what)
{
    tst_world tw;
    tw_open(&tw);
    ecsb_status got = tw_try_init(&tw, c);
    TST_STATUS(got, want, what);
    if (got == ECSB_OK) { /* usable */
        tw_expect_valid(&tw);
        ecsb_entity e = tw_create(&tw);
        for (ecsb_type t = 0; t < c->type_count; t++)
            tw_add(&tw, e, t, t);
        for (ecsb_type t = 0; t < c->type_count; t++)
            tw_expect_value(&tw, e, t, t);
    }
    tw_fini(&tw); /* no leak either way */
}

void bad_input_world_init_rejects_out_of_range_configs(void **state)
{
    (void)state;
    ecsb_world_config c;
    c = tst_config3(), c.type_count = 0;
    expect_init(&c, ECSB_ERR_CONFIG, "type_count 0");
    c = tst_config3(), c.type_count = ECSB_MAX_TYPES + 1;
    expect_init(&c, ECSB_ERR_CONFIG, "type_count ECSB_MAX_TYPES + 1");
    c = tst_config3(), c.type_count = UINT32_MAX;
    expect_init(&c, ECSB_ERR_CONFIG, "type_count UINT32_MAX");
    for (uint32_t t = 0; t < TST_TYPES; t++) {
        c = tst_config3(), c.type_size[t] = 0, c.type_align[t] = 1;
        expect_init(&c, ECSB_ERR_CONFIG, "a tag (size 0) with an alignment");
        c = tst_config3(), c.type_size[t] = ECSB_MAX_TYPE_SIZE + 1;
        expect_init(&c, ECSB_ERR_CONFIG, "a type of size ECSB_MAX_TYPE_SIZE + 1");
        c = tst_config3(), c.type_size[t] = UINT32_MAX;
        expect_init(&c, ECSB_ERR_CONFIG, "a type of size UINT32_MAX");
    }
    c = tst_config3(), c.max_entities = ECSB_MAX_ENTITIES + 1;
    expect_init(&c, ECSB_ERR_CONFIG, "max_entities ECSB_MAX_ENTITIES + 1");
    c = tst_config3(), c.max_entities = UINT32_MAX;
    expect_init(&c, ECSB_ERR_CONFIG, "max_entities UINT32_MAX");
    c = tst_config3(), c.max_entities = 10, c.initial_capacity = 11;
    expect_init(&c, ECSB_ERR_CONFIG, "initial_capacity above max_entities");
    /* Alignment: a power of two up to ECSB_MAX_TYPE_ALIGN dividing the size (0 = natural). */
    const uint32_t bad_align[][2] = {{24, 3}, {64, 128}, {4, 8}, {24, 16}, {1024, 2048},
                                     {12, 12}, {8, UINT32_MAX}, {64, 0x80000000u}};
    for (size_t k = 0; k < sizeof bad_align / sizeof bad_align[0]; k++) {
        char what[80];
        c = tst_config3(), c.type_size[1] = bad_align[k][0], c.type_align[1] = bad_align[k][1];
        snprintf(what, sizeof what, "type of size %u aligned to %u", bad_align[k][0],
                 bad_align[k][1]);
        expect_init(&c, ECSB_ERR_CONFIG, what);
    }
    /* Declared queries: at most ECSB_MAX_QUERIES, each one ecsb_query_check accepts. */
    c = tst_config3(), c.query_count = ECSB_MAX_QUERIES + 1;
    for (uint32_t q = 0; q < ECSB_MAX_QUERIES; q++)
        c.queries[q] = tst_query(1, (ecsb_type[]){q % TST_TYPES});
    expect_init(&c, ECSB_ERR_CONFIG, "ECSB_MAX_QUERIES + 1 declared queries");
    c.query_count = UINT32_MAX;
    expect_init(&c, ECSB_ERR_CONFIG, "query_count UINT32_MAX");
    const ecsb_query bad_queries[] = {
        {.count = 0},
        {.count = ECSB_MAX_QUERY_TYPES + 1, .types = {0, 1, 2}},
        {.count = 2, .types = {1, 1}},
        {.count = 2, .types = {0, TST_TYPES}},
        {.count = 1, .types = {UINT32_MAX}},
        {.count = 3, .types = {2, 0, 2}},
        {.count = 1, .types = {0}, .exclude_count = 1, .exclude = {0}},
        {.count = 1, .types = {0}, .exclude_count = 1, .exclude = {TST_TYPES}},
        {.count = 1, .types = {0}, .exclude_count = 2, .exclude = {1, 1}},
        {.count = 1, .types = {0}, .exclude_count = ECSB_MAX_QUERY_EXCLUDES + 1},
    };
    for (size_t k = 0; k < sizeof bad_queries / sizeof bad_queries[0]; k++) {
        c = tst_config3(), c.query_count = 3;
        c.queries[0] = tst_query(2, (ecsb_type[]){0, 1});
        c.queries[1] = bad_queries[k];
        c.queries[2] = tst_query(1, (ecsb_type[]){2});
        expect_init(&c, ECSB_ERR_CONFIG, "a declared query ecsb_query_check refuses");
    }
}

void bad_input_world_init_accepts_the_config_boundaries(void **state)
{
    (void)state;
    ecsb_world_config c;
    uint32_t sizes[ECSB_MAX_TYPES];
    for (int t = 0; t < (int)ECSB_MAX_TYPES; t++)
        sizes[t] = t % 2 ? ECSB_MAX_TYPE_SIZE : 1;
    c = tst_config(ECSB_MAX_TYPES, sizes);
    expect_init(&c, ECSB_OK, "type_count ECSB_MAX_TYPES, sizes 1 and ECSB_MAX_TYPE_SIZE");
    c = tst_config(1, sizes);
    expect_init(&c, ECSB_OK, "one type of size 1");
    c = tst_config3(), c.max_entities = ECSB_MAX_ENTITIES;
    expect_init(&c, ECSB_OK, "max_entities ECSB_MAX_ENTITIES");
    c = tst_config3(), c.max_entities = 10, c.initial_capacity = 10;
    expect_init(&c, ECSB_OK, "initial_capacity equal to max_entities");
    c = tst_config3(), c.max_entities = 1;
    expect_init(&c, ECSB_OK, "max_entities 1");
    c = tst_config3(), c.type_count = 2, c.type_size[2] = 5, c.type_size[3] = 99999;
    expect_init(&c, ECSB_OK, "sizes beyond type_count are ignored");
    c = tst_config3(), c.type_size[0] = 0, c.type_size[2] = 0;
    expect_init(&c, ECSB_OK, "tags (size 0) among valued types");
    for (int t = 0; t < (int)ECSB_MAX_TYPES; t++)
        sizes[t] = 0;
    c = tst_config(ECSB_MAX_TYPES, sizes);
    expect_init(&c, ECSB_OK, "ECSB_MAX_TYPES tags, no valued type");
    c = tst_config3(), c.query_count = 2;
    c.queries[0] = tst_query_without(1, (const ecsb_type[]){0}, ECSB_MAX_QUERY_EXCLUDES - 2,
                                     (const ecsb_type[]){1, 2});
    c.queries[1] = tst_query_without(2, (const ecsb_type[]){2, 1}, 1, (const ecsb_type[]){0});
    expect_init(&c, ECSB_OK, "declared queries with exclusions");
    c = tst_config3(), c.first_id = UINT32_MAX;
    expect_init(&c, ECSB_OK, "first_id UINT32_MAX");
    c = tst_config3(), c.first_generation = UINT32_MAX;
    expect_init(&c, ECSB_OK, "first_generation UINT32_MAX");
    c = tst_config3(), c.type_size[0] = 64, c.type_align[0] = 64, c.type_size[1] = 3,
    c.type_align[1] = 1, c.type_size[2] = ECSB_MAX_TYPE_SIZE, c.type_align[2] = 64;
    expect_init(&c, ECSB_OK, "alignments 64, 1 and 64 (size ECSB_MAX_TYPE_SIZE)");
    for (int t = 0; t < (int)ECSB_MAX_TYPES; t++)
        sizes[t] = 64;
    c = tst_config(ECSB_MAX_TYPES, sizes), c.query_count = ECSB_MAX_QUERIES;
    for (uint32_t q = 0; q < ECSB_MAX_QUERIES; q++) {
        ecsb_type list[ECSB_MAX_QUERY_TYPES];
        for (uint32_t j = 0; j < ECSB_MAX_QUERY_TYPES; j++)
            list[j] = (q * 3 + j * 4) % ECSB_MAX_TYPES;
        c.queries[q] = tst_query(1 + q % ECSB_MAX_QUERY_TYPES, list);
        c.type_align[q] = 1u << (q % 7);
    }
    expect_init(&c, ECSB_OK, "ECSB_MAX_QUERIES declared queries of up to 8 types, 32 types");
}

/* ---- failed allocations ------------------------------------------------------------------ */

typedef enum { S_CREATE, S_DESTROY, S_ADD, S_REMOVE, S_SET, S_SPAWN } script_kind;

typedef struct script_op {
    script_kind kind;
    uint16_t entity; /* index in creation order */
    uint8_t type; /* S_SPAWN: the set, bit t for type t */
} script_op;

#define SCRIPT_MAX 1024

typedef struct script {
    script_op op[SCRIPT_MAX];
    size_t n;
} script;

static void push(script *s, script_kind kind, size_t entity, ecsb_type type)
{
    TST_CHECK(s->n < SCRIPT_MAX, "test bug: script too long");
    s->op[s->n++] = (script_op){kind, (uint16_t)entity, (uint8_t)type};
}

/*
 * Growth of every array from nothing (adds interleaved with creates), removals at every
 * position, destroys, slot reuse, growth again past 128 entities, churn; then spawns of every
 * set of the three types (the empty one too) into fresh and reused slots.
 */
static void make_script(script *s)
{
    s->n = 0;
    size_t e = 0;
    for (; e < 40; e++) {
        push(s, S_CREATE, e, 0);
        push(s, S_ADD, e, 0);
        if (e % 2 == 0)
            push(s, S_ADD, e, 1);
        if (e % 3 == 0)
            push(s, S_ADD, e, 2);
    }
    for (size_t i = 0; i < 40; i += 4)
        push(s, S_REMOVE, i, 0);
    for (size_t i = 5; i < 40; i += 5)
        push(s, S_DESTROY, i, 0);
    for (; e < 60; e++) {
        push(s, S_CREATE, e, 0);
        push(s, S_ADD, e, 2);
        if (e % 2)
            push(s, S_ADD, e, 1);
    }
    for (; e < 150; e++) {
        push(s, S_CREATE, e, 0);
        push(s, S_ADD, e, (ecsb_type)(e % 2));
        push(s, S_SET, e, (ecsb_type)(e % 2));
    }
    for (size_t i = 100; i < 150; i += 2)
        push(s, S_DESTROY, i, 0);
    for (size_t i = 61; i < 100; i += 3)
        push(s, S_REMOVE, i, (ecsb_type)(i % 2));
    for (; e < 200; e++) {
        push(s, S_CREATE, e, 0);
        push(s, S_ADD, e, 2);
        push(s, S_ADD, e, 0);
    }
    for (; e < 236; e++)
        push(s, S_SPAWN, e, (ecsb_type)(e % 8));
    for (size_t i = 150; i < 236; i += 3)
        push(s, S_DESTROY, i, 0);
    for (; e < 256; e++)
        push(s, S_SPAWN, e, (ecsb_type)((e * 5) % 8));
}

static const char *const kind_name[] = {"create", "destroy", "add", "remove", "set", "spawn"};

/* One script step on the world; tracked handles by creation order. */
static ecsb_status script_do(tst_world *tw, tracked *k, const script_op *op, size_t i)
{
    const ecsb_vtable *ops = tw->ops;
    ecsb_entity *h = &k->handle[op->entity];
    ecsb_status s;
    switch (op->kind) {
    case S_CREATE: {
        ecsb_entity e = ECSB_ENTITY_NULL;
        if ((s = ops->entity_create(tw->w, &e)) == ECSB_OK) {
            *h = e;
            k->alive[op->entity] = true;
            if (k->n <= op->entity)
                k->n = op->entity + 1u;
        }
        return s;
    }
    case S_DESTROY:
        if ((s = ops->entity_destroy(tw->w, *h)) == ECSB_OK)
            k->alive[op->entity] = false;
        return s;
    case S_ADD: {
        void *v = &v;
        if ((s = ops->component_add(tw->w, *h, op->type, &v)) == ECSB_OK)
            tst_pattern(v, tw->config.type_size[op->type], i);
        else
            TST_CHECK(v == NULL, "failed component_add left *value_out non-NULL");
        return s;
    }
    case S_REMOVE:
        return ops->component_remove(tw->w, *h, op->type);
    case S_SET: {
        void *v = ops->component_get(tw->w, *h, op->type);
        TST_CHECK(v != NULL, "script step %zu: get of a held component returned NULL", i);
        tst_pattern(v, tw->config.type_size[op->type], i + 1000000);
        return ECSB_OK;
    }
    case S_SPAWN: { /* the set's types, highest first */
        ecsb_type types[TST_TYPES];
        void *v[TST_TYPES];
        uint32_t count = 0;
        for (ecsb_type t = TST_TYPES; t-- > 0;)
            if (op->type >> t & 1) {
                v[count] = &v;
                types[count++] = t;
            }
        ecsb_entity e = ~ECSB_ENTITY_NULL;
        if ((s = ops->entity_spawn(tw->w, types, count, &e, v)) == ECSB_OK) {
            *h = e;
            k->alive[op->entity] = true;
            if (k->n <= op->entity)
                k->n = op->entity + 1u;
            for (uint32_t j = 0; j < count; j++)
                tst_pattern(v[j], tw->config.type_size[types[j]], i * 8 + j);
            return s;
        }
        TST_CHECK(e == ECSB_ENTITY_NULL, "failed spawn left *out non-null");
        for (uint32_t j = 0; j < count; j++)
            TST_CHECK(v[j] == NULL, "failed spawn left values_out[%u] non-NULL", j);
        return s;
    }
    }
    return ECSB_OK;
}

/* The run without failures: allocation calls before/after each step (0 = world_init). */
typedef struct sweep_ref {
    size_t before[SCRIPT_MAX + 1], after[SCRIPT_MAX + 1];
    size_t calls;
    tst_snapshot final;
} sweep_ref;

static void sweep_reference(const script *s, const ecsb_world_config *c, sweep_ref *ref)
{
    tst_world tw;
    tracked k = {0};
    tw_open(&tw);
    tw.check_valid = false;
    TST_STATUS(tw_try_init(&tw, c), ECSB_OK, "world_init");
    ref->before[0] = 0;
    ref->after[0] = tw.alloc->calls;
    for (size_t i = 0; i < s->n; i++) {
        ref->before[i + 1] = tw.alloc->calls;
        ecsb_status st = script_do(&tw, &k, &s->op[i], i);
        TST_CHECK(st == ECSB_OK, "script step %zu (%s): %s", i, kind_name[s->op[i].kind],
                  ecsb_status_str(st));
        ref->after[i + 1] = tw.alloc->calls;
    }
    ref->calls = tw.alloc->calls;
    tst_snapshot_take(&ref->final, &tw, k.handle, k.n);
    tw_fini(&tw);
}

/*
 * The script with its k-th allocation failing (and, when persistent, every later one until
 * the failing call returns). The failing call must return ECSB_ERR_NOMEM (only world_init,
 * create, spawn, add and remove may) and change nothing, or succeed regardless; either way the
 * script then goes on with allocations succeeding, and must end where the run without
 * failures ended.
 */
static void sweep_one(const script *s, const ecsb_world_config *c, const sweep_ref *ref,
                      size_t k, bool persistent)
{
    tst_world tw;
    tracked tk = {0};
    tw_open(&tw);
    tw.check_valid = false;
    tw_fail_in(&tw, k, persistent);
    bool done = false; /* the injected failure has happened and been checked */
    ecsb_status st = tw_try_init(&tw, c);
    if (tw.alloc->failures) {
        done = true;
        tw_succeed(&tw);
        if (st != ECSB_OK) {
            TST_CHECK(st == ECSB_ERR_NOMEM, "allocation %zu failed in world_init: got %s, want %s",
                      k, ecsb_status_str(st), ecsb_status_str(ECSB_ERR_NOMEM));
            TST_CHECK(tw.alloc->block_count == 0,
                      "allocation %zu failed in world_init, which returned %s but left %zu "
                      "blocks allocated (nothing to release, says the contract)", k,
                      ecsb_status_str(st), tw.alloc->block_count);
            st = tw_try_init(&tw, c);
        }
    }
    TST_STATUS(st, ECSB_OK, "world_init");
    for (size_t i = 0; i < s->n; i++) {
        const script_op *op = &s->op[i];
        bool here = !done && ref->before[i + 1] < k && k <= ref->after[i + 1];
        tst_snapshot before, after;
        if (here)
            tst_snapshot_take(&before, &tw, tk.handle, tk.n);
        st = script_do(&tw, &tk, op, i);
        if (!done && tw.alloc->failures) {
            done = true;
            tw_succeed(&tw);
            TST_CHECK(here, "allocation %zu failed during step %zu (%s); in the same run without "
                      "failures it happened elsewhere (allocations not deterministic?)", k, i,
                      kind_name[op->kind]);
            if (st != ECSB_OK) {
                TST_CHECK(st == ECSB_ERR_NOMEM && (op->kind == S_CREATE || op->kind == S_ADD ||
                                                   op->kind == S_REMOVE || op->kind == S_SPAWN),
                          "allocation %zu failed during step %zu, entity %s: it returned %s "
                          "(only create, spawn, add and remove may fail, with %s)", k, i,
                          kind_name[op->kind],
                          ecsb_status_str(st), ecsb_status_str(ECSB_ERR_NOMEM));
                tst_snapshot_take(&after, &tw, tk.handle, tk.n);
                const char *diff = tst_snapshot_diff(&before, &after);
                tst_snapshot_free(&after);
                TST_CHECK(!diff, "%s failed for lack of memory (allocation %zu, step %zu) but "
                          "changed the world: %s", kind_name[op->kind], k, i, diff);
                st = script_do(&tw, &tk, op, i); /* allocations succeed again */
            }
            tst_snapshot_free(&before);
        } else if (here) {
            tst_snapshot_free(&before);
        }
        TST_CHECK(st == ECSB_OK, "step %zu (%s) after allocation %zu failed: %s", i,
                  kind_name[op->kind], k, ecsb_status_str(st));
    }
    TST_CHECK(done, "allocation %zu never happened (the run without failures made %zu)", k,
              ref->calls);
    tst_snapshot end;
    tst_snapshot_take(&end, &tw, tk.handle, tk.n);
    const char *diff = tst_snapshot_diff(&ref->final, &end);
    tst_snapshot_free(&end);
    TST_CHECK(!diff, "after allocation %zu failed (persistent %d), the script ended in another "
              "state than without failures: %s", k, persistent, diff);
    tw_fini(&tw); /* and nothing leaked */
}

static void sweep(bool persistent)
{
    static script s;
    static sweep_ref ref;
    make_script(&s);
    const uint32_t initial[] = {0, 100};
    size_t swept[2] = {0, 0};
    for (size_t j = 0; j < 2; j++) {
        ecsb_world_config c = tst_config3();
        c.initial_capacity = initial[j];
        sweep_reference(&s, &c, &ref);
        TST_CHECK(ref.calls > 0, "the script made no allocation at all");
        for (size_t k = 1; k <= ref.calls; k++)
            sweep_one(&s, &c, &ref, k, persistent);
        swept[j] = ref.calls;
        tst_snapshot_free(&ref.final);
    }
    printf("    allocation sweep %s: %zu + %zu allocations, each failed %s\n", tst_strategy->name,
           swept[0], swept[1], persistent ? "with every later one" : "alone");
}

void bad_input_each_failed_allocation_returns_nomem_and_changes_nothing(void **state)
{
    (void)state;
    sweep(false);
}

void bad_input_allocations_failing_from_then_on_return_nomem_and_change_nothing(void **state)
{
    (void)state;
    sweep(true);
}

void bad_input_failed_world_init_leaves_nothing_to_release(void **state)
{
    (void)state;
    uint32_t sizes[ECSB_MAX_TYPES];
    for (int t = 0; t < (int)ECSB_MAX_TYPES; t++)
        sizes[t] = 4u + 12u * (uint32_t)t;
    const uint32_t types[] = {1, TST_TYPES, ECSB_MAX_TYPES};
    const uint32_t initial[] = {0, 1, 1000};
    for (size_t a = 0; a < sizeof types / sizeof types[0]; a++)
        for (size_t b = 0; b < sizeof initial / sizeof initial[0]; b++) {
            ecsb_world_config c = tst_config(types[a], sizes);
            c.initial_capacity = initial[b];
            tst_world tw;
            tw_open(&tw);
            TST_STATUS(tw_try_init(&tw, &c), ECSB_OK, "world_init");
            size_t calls = tw.alloc->calls;
            tw_fini(&tw);
            for (size_t k = 1; k <= calls; k++)
                for (int persistent = 0; persistent < 2; persistent++) {
                    tw_open(&tw);
                    tw_fail_in(&tw, k, persistent);
                    ecsb_status st = tw_try_init(&tw, &c);
                    TST_CHECK(st == ECSB_ERR_NOMEM || (st == ECSB_OK && !persistent),
                              "world_init (%u types, initial_capacity %u) with allocation %zu "
                              "failing: %s", c.type_count, c.initial_capacity, k,
                              ecsb_status_str(st));
                    if (st != ECSB_OK) {
                        TST_CHECK(tw.alloc->block_count == 0,
                                  "failed world_init (%u types, initial_capacity %u, allocation "
                                  "%zu) left %zu blocks allocated", c.type_count,
                                  c.initial_capacity, k, tw.alloc->block_count);
                        tw_succeed(&tw);
                        TST_STATUS(tw_try_init(&tw, &c), ECSB_OK, "world_init after a failed one");
                    }
                    ecsb_entity e = tw_create(&tw);
                    tw_add(&tw, e, c.type_count - 1, 5);
                    tw_expect_value(&tw, e, c.type_count - 1, 5);
                    tw_fini(&tw);
                }
        }
}

/* ---- the id counter's wrap-around -------------------------------------------------------- */

/*
 * With first_id just below the top (a never-reusing counter: flat_map), churn through the
 * wrap: every handle ever issued is distinct, destroyed ones stay stale, live ones keep their
 * values. A create may be refused with ECSB_ERR_CAPACITY once the id space is used up, and
 * then changes nothing; strategies that reuse ids ignore first_id.
 */
void bad_input_id_space_wrap_keeps_handles_unique_and_stale_ones_rejected(void **state)
{
    (void)state;
    const uint32_t firsts[] = {UINT32_MAX - 100, UINT32_MAX};
    enum { ROUNDS = 700, LIVE = 40 };
    for (size_t j = 0; j < sizeof firsts / sizeof firsts[0]; j++) {
        tst_world tw;
        ecsb_world_config c = tst_config3();
        c.first_id = firsts[j];
        tw_init(&tw, &c);
        tw.check_valid = false;
        uint64_t room = (uint64_t)UINT32_MAX + 1 - c.first_id;
        ecsb_entity issued[ROUNDS];
        bool alive[ROUNDS];
        size_t n = 0, oldest = 0, live = 0, refused = 0;
        for (size_t round = 0; round < ROUNDS; round++) {
            if (live < LIVE) {
                ecsb_entity e = ECSB_ENTITY_NULL;
                size_t count = tw.ops->entity_count(tw.w);
                ecsb_status st = tw.ops->entity_create(tw.w, &e);
                if (st == ECSB_ERR_CAPACITY) {
                    TST_CHECK(n >= room, "create refused (%s) after only %zu creates, first_id %u",
                              ecsb_status_str(st), n, c.first_id);
                    TST_CHECK(tw.ops->entity_count(tw.w) == count, "refused create changed count");
                    refused++;
                    continue;
                }
                TST_STATUS(st, ECSB_OK, "entity_create near the id counter's wrap");
                TST_CHECK(e != ECSB_ENTITY_NULL, "create gave the null handle");
                for (size_t i = 0; i < n; i++)
                    TST_CHECK(issued[i] != e, "handle 0x%llx issued twice (creates #%zu and #%zu, "
                              "first_id %u)", (unsigned long long)e, i, n, c.first_id);
                tw_add(&tw, e, (ecsb_type)(n % 3), n);
                issued[n] = e;
                alive[n++] = true;
                live++;
            } else {
                while (!alive[oldest])
                    oldest++;
                tw_destroy(&tw, issued[oldest]);
                alive[oldest] = false;
                live--;
            }
        }
        for (size_t i = 0; i < n; i++) {
            if (alive[i])
                tw_expect_value(&tw, issued[i], (ecsb_type)(i % 3), i);
            else
                tw_expect_stale(&tw, issued[i]);
        }
        TST_CHECK(tw.ops->entity_count(tw.w) == live, "entity_count %zu, want %zu",
                  tw.ops->entity_count(tw.w), live);
        tw_expect_valid(&tw);
        if (refused)
            printf("    %s: creates refused after %zu ids from first_id %u\n", tst_strategy->name,
                   n, c.first_id);
        tw_fini(&tw);
    }
}

/* ---- structural changes inside a query ------------------------------------------------- */

typedef struct inside_query {
    tst_world *tw;
    ecsb_entity victim; /* alive, holds type 0 */
    ecsb_status got[5]; /* create, destroy, add, remove, spawn, the first time */
    ecsb_status nested[5]; /* the same from inside a nested query of the same world */
    bool outer_after_nested; /* still refused once the nested query has returned */
    ecsb_entity spawned;
    void *values[2];
    size_t runs, nested_runs;
} inside_query;

static void try_all(inside_query *iq, ecsb_status out[5])
{
    static const ecsb_type set[2] = {1, 2};
    const ecsb_vtable *ops = iq->tw->ops;
    ecsb_entity e = 0;
    void *v = &v;
    out[0] = ops->entity_create(iq->tw->w, &e);
    out[1] = ops->entity_destroy(iq->tw->w, iq->victim);
    out[2] = ops->component_add(iq->tw->w, iq->victim, 2, &v);
    TST_CHECK(out[2] == ECSB_OK || v == NULL, "refused component_add left *value_out non-NULL");
    out[3] = ops->component_remove(iq->tw->w, iq->victim, 0);
    iq->spawned = ECSB_ENTITY_NULL;
    out[4] = ops->entity_spawn(iq->tw->w, set, 2, &iq->spawned, iq->values);
    TST_CHECK(out[4] == ECSB_OK || (iq->spawned == ECSB_ENTITY_NULL && !iq->values[0] &&
                                    !iq->values[1]),
              "refused spawn left *out or values_out non-null");
}

static void nested_visit(void *ctx, size_t count, void *const *columns)
{
    inside_query *iq = ctx;
    (void)count, (void)columns;
    if (iq->nested_runs++ == 0)
        try_all(iq, iq->nested);
}

static void structural_visit(void *ctx, size_t count, void *const *columns)
{
    inside_query *iq = ctx;
    (void)count, (void)columns;
    if (iq->runs++ != 0)
        return;
    try_all(iq, iq->got);
    ecsb_query inner = {.count = 1, .types = {1}};
    TST_STATUS(iq->tw->ops->query(iq->tw->w, &inner, nested_visit, iq), ECSB_OK,
               "a read-only nested query");
    ecsb_status again[5];
    try_all(iq, again);
    iq->outer_after_nested = true;
    for (int i = 0; i < 5; i++)
        iq->outer_after_nested &= again[i] == ECSB_ERR_ITERATING;
}

static ecsb_status query_trying_structural_changes(inside_query *iq)
{
    ecsb_query q = {.count = 1, .types = {0}};
    return iq->tw->ops->query(iq->tw->w, &q, structural_visit, iq);
}

/*
 * Test builds refuse create, destroy, add, remove and spawn on a world from inside one of its own
 * query callbacks (ECSB_CHECKED, harness/strategy_impl.h): each returns ECSB_ERR_ITERATING and
 * the world is unchanged, in a nested query too, and they work again once the query returns.
 */
void bad_input_structural_change_inside_a_query_returns_iterating_and_changes_nothing(void **state)
{
    (void)state;
    tst_world tw;
    tracked k;
    open_built(&tw, &k);
    inside_query iq = {.tw = &tw};
    for (size_t i = 0; i < k.n && !iq.victim; i++)
        if (k.alive[i] && tw.ops->component_has(tw.w, k.handle[i], 0) &&
            !tw.ops->component_has(tw.w, k.handle[i], 2))
            iq.victim = k.handle[i];
    TST_CHECK(iq.victim, "test bug: no entity with type 0 and without type 2");
    EXPECT_UNCHANGED(&tw, &k, ECSB_OK, query_trying_structural_changes(&iq),
                     "a query whose callback tries create, destroy, add, remove and spawn");
    static const char *const ops[5] = {"create", "destroy", "add", "remove", "spawn"};
    for (int i = 0; i < 5; i++) {
        TST_STATUS(iq.got[i], ECSB_ERR_ITERATING, ops[i]);
        TST_STATUS(iq.nested[i], ECSB_ERR_ITERATING, ops[i]);
    }
    TST_CHECK(iq.runs > 0 && iq.nested_runs > 0, "test bug: no run visited");
    TST_CHECK(iq.outer_after_nested, "after a nested query returned, the outer one's callback "
                                     "could change structure");
    TST_CHECK(tw.ops->world_valid(tw.w), "world invalid after the refused changes");
    /* Outside the query, the same calls work. */
    ecsb_status after[5];
    try_all(&iq, after);
    for (int i = 0; i < 5; i++)
        TST_CHECK(after[i] != ECSB_ERR_ITERATING, "%s refused after the query returned", ops[i]);
    TST_CHECK(tw.ops->world_valid(tw.w), "world invalid after the changes");
    tw_fini(&tw);
}
