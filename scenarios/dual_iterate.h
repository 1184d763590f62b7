/*
 * dual_iterate — article 002's Test 2, compiled against one strategy's static functions.
 *
 * Untimed set-up: entities 0..N-1 in order, each with `a` (double); every odd one also with
 * `b` (int32, never 0); the world declares the query (a, b). Parameters (defs/dual_iterate.h):
 * `match` sets the fraction holding b (1/2 by default: the odd ones), `order=shuffled` draws
 * the creation order and the holders of b from fixed seeds, `order=aged` lives in the regular
 * world first (deaths, births and components gained and lost, scenarios/aging.h). Timed pass: for every entity
 * holding both, a += 1.5 * b, through the strategy's query (runs of columns), counting the
 * visits. N/2 matched pairs per pass. The checksum reads every entity's `a` in creation order,
 * then the visit count and the holders of b, so a missed, doubled, extra or mismatched visit
 * changes it.
 * Limit: yes. The floor keeps `a` for every entity and walks the odd ones, so it moves every
 * cache line of `a` for half of the values; a table or group holding only the matched
 * entities moves the N/2 matched `a` values and the `b` values, packed (scenarios/limits/).
 */
#include "scenarios/defs/dual_iterate.h"
enum { DUAL_ITERATE_A = 0, DUAL_ITERATE_B = 1 };

typedef struct dual_iterate_state {
    world w;
    ecsb_entity *entities; /* by serial (churn_iterate: by position of the handle list) */
    ecsb_world_order order;
    double match;
    uint64_t n;
    uint64_t visits;
    bool world_live;
} dual_iterate_state;

static void dual_iterate_release(void *state)
{
    dual_iterate_state *s = state;
    if (!s)
        return;
    if (s->world_live)
        world_fini(&s->w);
    ecsb_array_free(s->entities);
    ecsb_world_order_free(&s->order);
    ecsb_array_free(s);
}

/* An entity with the values of serial number `serial`: a, and b when with_b. */
static ecsb_status dual_iterate_spawn(world *w, uint64_t serial, bool with_b, ecsb_entity *out)
{
    void *a, *b;
    ecsb_status st = entity_create(w, out);
    if (st == ECSB_OK && (st = component_add(w, *out, DUAL_ITERATE_A, &a)) == ECSB_OK)
        *(double *)a = dual_iterate_a0(serial);
    if (st == ECSB_OK && with_b &&
        (st = component_add(w, *out, DUAL_ITERATE_B, &b)) == ECSB_OK)
        *(int32_t *)b = dual_iterate_b0(serial);
    return st;
}

/* Its population (scenario_populate): a on every entity, b on the holders; ctx: the match. */
static uint32_t dual_iterate_types(const void *ctx, uint64_t serial, uint64_t rank)
{
    (void)serial;
    return 1u << DUAL_ITERATE_A |
           (uint32_t)dual_iterate_holds_b(rank, *(const double *)ctx) << DUAL_ITERATE_B;
}

static void dual_iterate_init(const void *ctx, uint64_t serial, ecsb_type type, void *value)
{
    (void)ctx;
    if (type == DUAL_ITERATE_A)
        *(double *)value = dual_iterate_a0(serial);
    else
        *(int32_t *)value = dual_iterate_b0(serial);
}

static ecsb_status dual_iterate_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    *out = NULL;
    dual_iterate_state *s = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    ecsb_world_config config = {
        .type_count = 2,
        .type_size = {sizeof(double), sizeof(int32_t)},
        .initial_capacity = ecsb_capacity_hint(n),
        .allocator = ecsb_scenario_allocator,
        .query_count = 1,
        .queries = {{2, {DUAL_ITERATE_A, DUAL_ITERATE_B}, false, 0, {0}}},
    };
    ecsb_status st = scenario_world_open(&s->w, &s->world_live, &config);
    s->n = n;
    s->entities = ecsb_array_alloc(n, sizeof *s->entities);
    s->match = dual_iterate_match(p);
    if (st == ECSB_OK && (!s->entities || !dual_iterate_order_make(&s->order, n, p)))
        st = ECSB_ERR_NOMEM;
    const scenario_population pop = {2, 0, dual_iterate_types, dual_iterate_init, &s->match,
                                     false};
    if (st == ECSB_OK)
        st = scenario_populate(&s->w, &s->order, n, s->entities, &pop);
    if (st != ECSB_OK) {
        dual_iterate_release(s);
        return st;
    }
    *out = s;
    return ECSB_OK;
}

ECSB_SCENARIO_MEMORY(dual_iterate, dual_iterate_state)

ECSB_INLINE void dual_iterate_run(void *ctx, size_t count, void *const *columns)
{
    double *restrict a = columns[0];
    const int32_t *restrict b = columns[1];
    for (size_t i = 0; i < count; i++)
        a[i] += 1.5 * b[i];
    *(uint64_t *)ctx += count;
}

static const ecsb_query dual_iterate_query = {.count = 2, .types = {DUAL_ITERATE_A, DUAL_ITERATE_B}};

static ecsb_status dual_iterate_pass(void *state)
{
    dual_iterate_state *s = state;
    uint64_t visits = 0; /* a register: see scenarios/body.h */
    ecsb_status st = query(&s->w, &dual_iterate_query, dual_iterate_run, &visits);
    s->visits += visits;
    return st;
}

static uint64_t dual_iterate_checksum(void *state)
{
    dual_iterate_state *s = state;
    uint64_t h = ECSB_CHECKSUM_SEED;
    for (uint64_t i = 0; i < s->n; i++) {
        const double *a = component_get(&s->w, s->entities[i], DUAL_ITERATE_A);
        h = ecsb_mix(h, a ? ecsb_double_bits(*a) : ECSB_ABSENT);
    }
    h = ecsb_mix(h, s->visits);
    return ecsb_mix(h, component_count(&s->w, DUAL_ITERATE_B));
}
