/*
 * entity_cycle — noctjs/ecs-benchmark's entity_cycle, scaled by N.
 *
 * Untimed set-up: N entities (serials 0 .. N-1; order=regular creates them in serial order,
 * order=shuffled in an order drawn from a fixed seed), each with the u32 type A; the world declares the queries (A) and
 * (B) its two systems run (queries=none: no query). Timed pass: (1) a query over A copies every A value out (counting the
 * visits); (2) after the visit, for each value v two new entities are spawned with B = 3v + 1
 * and 3v + 2; (3) a query over B with handles collects every holder's handle, adding its B
 * value to a sum (counting the visits); (4) after the visit, every collected entity is
 * destroyed: order=regular, the last visited first (as EnTT walks its packed arrays from the
 * back so that removing what it visits stays cheap; first-visited-first makes every destroy in
 * a vector sorted by id, flat_map's, an O(N) shift: 8.5 s per pass at N = 65536 instead of
 * 17 ms); order=shuffled, in an order of the visit positions drawn from a fixed seed (from
 * the middle of every array; flat_map is capped there). Structural changes never
 * happen inside a visit. Item: entity created or destroyed (4N per pass). The checksum mixes
 * every original entity's A and B (B must be absent again), the sum, the visit count and the
 * live entities.
 * Limit: none. The floor appends and drops B values on one packed array: nothing to save.
 */
#include "scenarios/defs/entity_cycle.h"
enum { ENTITY_CYCLE_A = 0, ENTITY_CYCLE_B = 1 };

typedef struct entity_cycle_state {
    world w;
    ecsb_entity *entities; /* the N originals, by serial */
    uint32_t *seen;        /* step 1's A values: room for N */
    ecsb_entity *doomed;   /* step 3's handles: room for 2N */
    uint32_t *destroy_at;  /* k -> the visit position the k-th destroy takes; NULL: 2N-1-k */
    uint64_t n, seen_count, doomed_count; /* seen_count <= n; doomed_count counts all */
    uint64_t sum;          /* every B value step 3 visited */
    uint64_t visits;
    bool world_live;
} entity_cycle_state;

static void entity_cycle_release(void *state)
{
    entity_cycle_state *s = state;
    if (!s)
        return;
    if (s->world_live)
        world_fini(&s->w);
    ecsb_array_free(s->entities);
    ecsb_array_free(s->seen);
    ecsb_array_free(s->doomed);
    ecsb_array_free(s->destroy_at);
    ecsb_array_free(s);
}

#define ENTITY_CYCLE_SALT 0x6379636c65ull /* its world order: creation; destroys: seed ^ salt */

static uint32_t entity_cycle_types(const void *ctx, uint64_t serial, uint64_t rank)
{
    (void)ctx, (void)serial, (void)rank;
    return 1u << ENTITY_CYCLE_A;
}

static ecsb_status entity_cycle_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    *out = NULL;
    entity_cycle_state *s = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    ecsb_world_config config = {
        .type_count = 2,
        .type_size = {sizeof(uint32_t), sizeof(uint32_t)},
        .initial_capacity = ecsb_capacity_hint(3 * n),
        .allocator = ecsb_scenario_allocator,
        .query_count = ecsb_declared_queries(p, 2),
        .queries = {{1, {ENTITY_CYCLE_A}, false, 0, {0}}, {1, {ENTITY_CYCLE_B}, false, 0, {0}}},
    };
    ecsb_status st = scenario_world_open(&s->w, &s->world_live, &config);
    s->n = n;
    s->entities = ecsb_array_alloc(n, sizeof *s->entities);
    s->seen = ecsb_array_alloc(n, sizeof *s->seen);
    s->doomed = ecsb_array_alloc(2 * n, sizeof *s->doomed);
    ecsb_world_order order = {0};
    bool shuffled = p->v[ECSB_PARAM_ORDER] == ECSB_ORDER_SHUFFLED;
    if (shuffled && (s->destroy_at = ecsb_array_alloc(2 * n, sizeof *s->destroy_at)))
        ecsb_permutation(s->destroy_at, 2 * n, ECSB_WORLD_ORDER_SEED ^ ENTITY_CYCLE_SALT);
    if (st == ECSB_OK && (!s->entities || !s->seen || !s->doomed || (shuffled && !s->destroy_at) ||
                          !ecsb_world_order_make(&order, n, p, ENTITY_CYCLE_SALT)))
        st = ECSB_ERR_NOMEM;
    const scenario_population originals = {2, 0, entity_cycle_types, scenario_u32_init, NULL,
                                             false};
    if (st == ECSB_OK)
        st = scenario_populate(&s->w, &order, n, s->entities, &originals);
    ecsb_world_order_free(&order);
    if (st != ECSB_OK) {
        entity_cycle_release(s);
        return st;
    }
    *out = s;
    return ECSB_OK;
}

ECSB_SCENARIO_MEMORY(entity_cycle, entity_cycle_state)

/* Step 1: copy the A values out (a run beyond room for N is only counted: a strategy's bug,
 * which the visit count shows). */
ECSB_INLINE void entity_cycle_read(void *ctx, size_t count, void *const *columns)
{
    entity_cycle_state *s = ctx;
    if (ECSB_LIKELY(count <= s->n - s->seen_count)) {
        memcpy(s->seen + s->seen_count, columns[0], count * sizeof *s->seen);
        s->seen_count += count;
    }
    s->visits += count;
}

/* Step 3: collect the B holders' handles (the query's handle column) and add their values
 * (handles beyond room for 2N are only counted: a strategy's bug, which the count shows). */
ECSB_INLINE void entity_cycle_collect(void *ctx, size_t count, void *const *columns)
{
    entity_cycle_state *s = ctx;
    const uint32_t *values = columns[0];
    const ecsb_entity *handles = columns[1];
    for (size_t i = 0; i < count; i++) {
        if (ECSB_LIKELY(s->doomed_count < 2 * s->n))
            s->doomed[s->doomed_count] = handles[i];
        s->doomed_count++;
        s->sum += values[i];
    }
    s->visits += count;
}

static const ecsb_query entity_cycle_query = {.count = 1, .types = {ENTITY_CYCLE_A}};
static const ecsb_query entity_cycle_doomed_query = {.count = 1, .types = {ENTITY_CYCLE_B}, .entities = true};

static ecsb_status entity_cycle_pass(void *state)
{
    entity_cycle_state *s = state;
    world *w = &s->w;
    s->seen_count = s->doomed_count = 0;
    ecsb_status st = query(w, &entity_cycle_query, entity_cycle_read, s);
    for (uint64_t k = 0; k < s->seen_count && st == ECSB_OK; k++)
        for (unsigned which = 0; which < 2 && st == ECSB_OK; which++) {
            static const ecsb_type with_b[1] = {ENTITY_CYCLE_B};
            ecsb_entity e;
            void *b;
            if ((st = spawn(w, with_b, 1, &e, &b)) == ECSB_OK) /* one spawn: no row move */
                *(uint32_t *)b = entity_cycle_b(s->seen[k], which);
        }
    if (st != ECSB_OK || (st = query(w, &entity_cycle_doomed_query, entity_cycle_collect, s)))
        return st;
    uint64_t doomed = s->doomed_count < 2 * s->n ? s->doomed_count : 2 * s->n;
    const uint32_t *destroy_at = s->destroy_at;
    if (!destroy_at)
        for (uint64_t k = doomed; k-- > 0 && st == ECSB_OK;)
            st = entity_destroy(w, s->doomed[k]);
    else /* a position past what was visited (a strategy's bug) is skipped: the count shows it */
        for (uint64_t k = 0; k < 2 * s->n && st == ECSB_OK; k++)
            if (destroy_at[k] < doomed)
                st = entity_destroy(w, s->doomed[destroy_at[k]]);
    return st;
}

static uint64_t entity_cycle_checksum(void *state)
{
    entity_cycle_state *s = state;
    uint64_t h = u32_world_fold(&s->w, s->entities, s->n, 2, ECSB_CHECKSUM_SEED);
    h = ecsb_mix(ecsb_mix(h, s->sum), s->visits);
    return ecsb_mix(h, entity_count(&s->w));
}
