/*
 * level_load — building a world from nothing, growth included.
 *
 * Untimed set-up: an empty world with no initial_capacity (so every array starts small and
 * grows as the strategy grows it), u32 types A, B, C, D; the world declares the queries of a
 * level's systems, (A,B) and (C,D), so the pass pays their upkeep as it builds (queries=none:
 * no query). Timed pass: N entities (serials 0 .. N-1) created, each with A and B, the odd
 * serials also with C, those with i % 4 == 3 also with D (level_load_holds): the set chosen
 * first, then one spawn (a table layout appends one row, no row move per component), then
 * each value written; order=regular in serial order, order=shuffled in an order drawn from a
 * fixed seed (so which entity ids hold C and D follow no pattern). The pass consumes the
 * set-up: every timed pass starts from an empty world. order=aged: the world has lived before
 * the pass (a level loaded, played and unloaded): the set-up builds the same N entities, ages
 * them (scenarios/aging.h) and destroys them all in serial order, so the pass loads into a grown world
 * whose free lists hand out slots in the order the last level's life left them. Item: entity created (N per pass, with 2.75N component
 * adds). The checksum reads all four types of every entity, then the live entities.
 * Limit: none. The floor writes each value once into arrays of their final size.
 */
#include "scenarios/defs/level_load.h"
typedef struct level_load_state {
    world w;
    ecsb_entity *entities; /* by serial */
    ecsb_world_order order; /* which serial is created k-th */
    uint64_t n;
    bool world_live;
} level_load_state;

#define LEVEL_LOAD_SALT 0x6c6576656cull /* its world order: creation */

static void level_load_release(void *state)
{
    level_load_state *s = state;
    if (!s)
        return;
    if (s->world_live)
        world_fini(&s->w);
    ecsb_array_free(s->entities);
    ecsb_world_order_free(&s->order);
    ecsb_array_free(s);
}

/* Serial i with its types and starting values, in one spawn. */
static ecsb_status level_load_spawn(world *w, uint64_t i, ecsb_entity *out)
{
    ecsb_type types[LEVEL_LOAD_TYPES];
    void *v[LEVEL_LOAD_TYPES];
    uint32_t count = 0;
    for (uint32_t t = 0; t < LEVEL_LOAD_TYPES; t++)
        if (level_load_holds(i, t))
            types[count++] = t;
    ecsb_status st = spawn(w, types, count, out, v);
    for (uint32_t j = 0; j < count && st == ECSB_OK; j++)
        *(uint32_t *)v[j] = ecsb_u32_start(types[j], i);
    return st;
}

static ecsb_status level_load_pass(void *state);

/* Its population, for an aged world's life: level_load_holds's types, u32 starting values,
 * each entity made by one spawn as the pass makes them. */
static uint32_t level_load_types(const void *ctx, uint64_t serial, uint64_t rank)
{
    (void)ctx, (void)rank;
    uint32_t types = 0;
    for (uint32_t t = 0; t < LEVEL_LOAD_TYPES; t++)
        types |= (uint32_t)level_load_holds(serial, t) << t;
    return types;
}

/* An aged world's past (untimed): the level loaded, lived in, unloaded. */
static ecsb_status level_load_live(level_load_state *s)
{
    const scenario_population pop = {LEVEL_LOAD_TYPES, 0, level_load_types, scenario_u32_init,
                                     NULL, true};
    ecsb_status st = level_load_pass(s);
    if (st == ECSB_OK)
        st = scenario_age(&s->w, &s->order, s->n, s->entities, &pop);
    for (uint64_t i = 0; i < s->n && st == ECSB_OK; i++)
        st = entity_destroy(&s->w, s->entities[i]);
    return st;
}

static ecsb_status level_load_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    *out = NULL;
    level_load_state *s = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    ecsb_world_config config = {
        .type_count = LEVEL_LOAD_TYPES,
        .type_size = {4, 4, 4, 4},
        .allocator = ecsb_scenario_allocator,
        /* the level's systems: one over (A, B), every entity; one over (C, D), a quarter */
        .query_count = ecsb_declared_queries(p, 2),
        .queries = {{2, {0, 1}, false, 0, {0}}, {2, {2, 3}, false, 0, {0}}},
    };
    ecsb_status st = scenario_world_open(&s->w, &s->world_live, &config);
    s->n = n;
    s->entities = ecsb_array_alloc(n, sizeof *s->entities);
    if (st == ECSB_OK && (!s->entities || !ecsb_world_order_make(&s->order, n, p, LEVEL_LOAD_SALT)))
        st = ECSB_ERR_NOMEM;
    if (st == ECSB_OK && s->order.aged_salt)
        st = level_load_live(s);
    if (st != ECSB_OK) {
        level_load_release(s);
        return st;
    }
    *out = s;
    return ECSB_OK;
}

ECSB_SCENARIO_MEMORY(level_load, level_load_state)

static ecsb_status level_load_pass(void *state)
{
    level_load_state *s = state;
    world *w = &s->w;
    ecsb_status st = ECSB_OK;
    for (uint64_t k = 0; k < s->n; k++) {
        const uint64_t i = ecsb_serial_at(&s->order, k);
        if (ECSB_UNLIKELY((st = level_load_spawn(w, i, &s->entities[i])) != ECSB_OK))
            break;
    }
    return st;
}

static uint64_t level_load_checksum(void *state)
{
    level_load_state *s = state;
    uint64_t h = u32_world_fold(&s->w, s->entities, s->n, LEVEL_LOAD_TYPES, ECSB_CHECKSUM_SEED);
    return ecsb_mix(h, entity_count(&s->w));
}
