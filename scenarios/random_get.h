/*
 * random_get — lookups in an order no layout can follow.
 *
 * Untimed set-up: dual_iterate's entities (N with `a`, double; the odd ones with `b`, int32),
 * no query, and a handle list in one pseudo-random order (a permutation from RANDOM_GET_SEED,
 * the same for every strategy). Timed pass: for the k-th handle of that list, get(a) and
 * get(b) (a miss on even entities); each value found is added, times ecsb_weight(k), to a sum
 * per type, and counted. Item: lookup (2N per pass, half of the b lookups miss). The checksum
 * mixes both sums and the count. order=shuffled: the entities of odd rank hold b, ranks and
 * creation order drawn from fixed seeds (ecsb_world_order); the lookup order is the same.
 * Limit: none. Every lookup costs at least the cache line of its value, in any layout.
 */
#include "scenarios/defs/random_get.h"
enum { RANDOM_GET_A = 0, RANDOM_GET_B = 1 };

typedef struct random_get_state {
    world w;
    ecsb_entity *order; /* the handles, in lookup order */
    uint64_t n;
    uint64_t sum_a, sum_b, found;
    bool world_live;
} random_get_state;

static void random_get_release(void *state)
{
    random_get_state *s = state;
    if (!s)
        return;
    if (s->world_live)
        world_fini(&s->w);
    ecsb_array_free(s->order);
    ecsb_array_free(s);
}

/* a for everyone, b for the entities of odd rank. */
static uint32_t random_get_types(const void *ctx, uint64_t serial, uint64_t rank)
{
    (void)ctx, (void)serial;
    return 1u << RANDOM_GET_A | (uint32_t)(rank & 1) << RANDOM_GET_B;
}

/* dual_iterate's values. */
static void random_get_init(const void *ctx, uint64_t serial, ecsb_type type, void *value)
{
    (void)ctx;
    if (type == RANDOM_GET_A)
        *(double *)value = dual_iterate_a0(serial);
    else
        *(int32_t *)value = dual_iterate_b0(serial);
}

static ecsb_status random_get_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    *out = NULL;
    random_get_state *s = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    ecsb_world_config config = {
        .type_count = 2,
        .type_size = {sizeof(double), sizeof(int32_t)},
        .initial_capacity = ecsb_capacity_hint(n),
        .allocator = ecsb_scenario_allocator,
    };
    ecsb_status st = scenario_world_open(&s->w, &s->world_live, &config);
    s->n = n;
    ecsb_world_order world_order = {0};
    ecsb_entity *created = ecsb_array_alloc(n, sizeof *created);
    uint32_t *perm = ecsb_array_alloc(n, sizeof *perm);
    s->order = ecsb_array_alloc(n, sizeof *s->order);
    if (st == ECSB_OK && (!created || !perm || !s->order ||
                          !ecsb_world_order_make(&world_order, n, p, RANDOM_GET_SALT)))
        st = ECSB_ERR_NOMEM;
    const scenario_population pop = {2, 0, random_get_types, random_get_init, NULL, false};
    if (st == ECSB_OK && (st = scenario_populate(&s->w, &world_order, n, created, &pop)) == ECSB_OK) {
        ecsb_permutation(perm, n, RANDOM_GET_SEED);
        for (uint64_t k = 0; k < n; k++)
            s->order[k] = created[perm[k]];
    }
    ecsb_world_order_free(&world_order);
    ecsb_array_free(created);
    ecsb_array_free(perm);
    if (st != ECSB_OK) {
        random_get_release(s);
        return st;
    }
    *out = s;
    return ECSB_OK;
}

ECSB_SCENARIO_MEMORY(random_get, random_get_state)

static ecsb_status random_get_pass(void *state)
{
    static const double no_a = 0;
    static const int32_t no_b = 0;
    random_get_state *s = state;
    world *w = &s->w;
    const ecsb_entity *order = s->order;
    uint64_t sum_a = s->sum_a, sum_b = s->sum_b, found = s->found;
    for (uint64_t k = 0; k < s->n; k++) {
        const double *a = component_get(w, order[k], RANDOM_GET_A);
        const int32_t *b = component_get(w, order[k], RANDOM_GET_B);
        /* No branch on a miss (half the b lookups, in random order): read a zero instead. */
        found += (a != NULL) + (b != NULL);
        sum_a += ecsb_double_bits(*(a ? a : &no_a)) * ecsb_weight(k);
        sum_b += (uint32_t)*(b ? b : &no_b) * ecsb_weight(k);
    }
    s->sum_a = sum_a;
    s->sum_b = sum_b;
    s->found = found;
    return ECSB_OK;
}

static uint64_t random_get_checksum(void *state)
{
    random_get_state *s = state;
    return ecsb_mix(ecsb_mix(ecsb_mix(ECSB_CHECKSUM_SEED, s->sum_a), s->sum_b), s->found);
}
