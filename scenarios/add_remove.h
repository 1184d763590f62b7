/*
 * add_remove — noctjs/ecs-benchmark's add_remove, scaled by N.
 *
 * Untimed set-up: N entities (serials 0 .. N-1), each with the u32 type A and `held` other u32 components C1..Ch
 * (parameter held, default 0: what a table layout moves with every add and remove); the world declares the query (A,B) of
 * the system that would read what the pass adds (queries=none: no query; the README shows
 * both where they differ), so every add and remove keeps it up to date. Timed pass: B added to every
 * entity in serial order (its value written), then removed from every one, counting the
 * operations. order=regular: serials are created in order, and B is removed the last added
 * first (as EnTT removes over a view, from the back of its packed array; oldest-first would
 * make each remove from a vector sorted by id, flat_map's, an O(N) shift: 1 s per pass at
 * N = 65536 instead of 10 ms). order=shuffled: the serials are created in an order drawn from
 * a fixed seed (so the adds reach slots and ids in no order), and B is removed in another
 * drawn order (from the middle of every packed array; flat_map is capped there). Item: component op (2N per pass). The
 * checksum reads every type of every entity (A and the Cs unchanged, B absent again), then the
 * operation count.
 * Limit: none: no iteration, so no layout moves less than the floor's packed B array.
 */
#include "scenarios/defs/add_remove.h"
enum { ADD_REMOVE_A = 0, ADD_REMOVE_B = 1 };

typedef struct add_remove_state {
    world w;
    ecsb_entity *entities; /* by serial */
    uint32_t *remove_at;   /* k -> the serial whose B the k-th remove takes; NULL: N-1-k */
    uint64_t n;
    uint64_t ops;
    uint32_t types; /* A, B and the held Cs */
    bool world_live;
} add_remove_state;

static void add_remove_release(void *state)
{
    add_remove_state *s = state;
    if (!s)
        return;
    if (s->world_live)
        world_fini(&s->w);
    ecsb_array_free(s->entities);
    ecsb_array_free(s->remove_at);
    ecsb_array_free(s);
}

#define ADD_REMOVE_SALT 0x6164646d76ull /* its world order: creation, then removal by rank */

/* Every type but B. ctx: the world's types. */
static uint32_t add_remove_types(const void *ctx, uint64_t serial, uint64_t rank)
{
    const uint32_t types = *(const uint32_t *)ctx;
    (void)serial, (void)rank;
    return (uint32_t)(((uint64_t)1 << types) - 1) & ~(1u << ADD_REMOVE_B);
}

static ecsb_status add_remove_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    *out = NULL;
    add_remove_state *s = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    const uint32_t types = 2 + add_remove_held(p);
    ecsb_world_config config = {
        .type_count = types,
        .initial_capacity = ecsb_capacity_hint(n),
        .allocator = ecsb_scenario_allocator,
        .query_count = ecsb_declared_queries(p, 1),
        .queries = {{2, {ADD_REMOVE_A, ADD_REMOVE_B}, false, 0, {0}}},
    };
    for (uint32_t t = 0; t < types; t++)
        config.type_size[t] = sizeof(uint32_t);
    ecsb_status st = scenario_world_open(&s->w, &s->world_live, &config);
    s->n = n;
    s->types = types;
    s->entities = ecsb_array_alloc(n, sizeof *s->entities);
    ecsb_world_order order = {0};
    if (st == ECSB_OK && (!s->entities || !ecsb_world_order_make(&order, n, p, ADD_REMOVE_SALT)))
        st = ECSB_ERR_NOMEM;
    s->remove_at = order.rank; /* a second drawn permutation, read as k -> serial */
    order.rank = NULL;
    const scenario_population pop = {types, 0, add_remove_types, scenario_u32_init, &s->types,
                                     false};
    if (st == ECSB_OK)
        st = scenario_populate(&s->w, &order, n, s->entities, &pop);
    ecsb_world_order_free(&order);
    if (st != ECSB_OK) {
        add_remove_release(s);
        return st;
    }
    *out = s;
    return ECSB_OK;
}

ECSB_SCENARIO_MEMORY(add_remove, add_remove_state)

static ecsb_status add_remove_pass(void *state)
{
    add_remove_state *s = state;
    world *w = &s->w;
    const ecsb_entity *entities = s->entities;
    const uint32_t *remove_at = s->remove_at;
    ecsb_status st = ECSB_OK;
    uint64_t i = 0, k = 0;
    for (; i < s->n; i++) {
        void *b;
        if (ECSB_UNLIKELY((st = component_add(w, entities[i], ADD_REMOVE_B, &b)) != ECSB_OK))
            break;
        *(uint32_t *)b = ecsb_u32_start(ADD_REMOVE_B, i);
    }
    for (; k < s->n && st == ECSB_OK; k++) {
        uint64_t serial = remove_at ? remove_at[k] : s->n - 1 - k;
        if (ECSB_UNLIKELY((st = component_remove(w, entities[serial], ADD_REMOVE_B)) != ECSB_OK))
            break;
    }
    s->ops += i + k;
    return st;
}

static uint64_t add_remove_checksum(void *state)
{
    add_remove_state *s = state;
    return ecsb_mix(u32_world_fold(&s->w, s->entities, s->n, s->types, ECSB_CHECKSUM_SEED),
                    s->ops);
}
