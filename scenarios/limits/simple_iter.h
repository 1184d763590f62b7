/*
 * simple_iter's limit: A and B for every entity (the (A,B) system matches all); the C and D of
 * the kind-2 entities packed together, the C and E of the kind-3 entities packed together (as
 * the {A,B,C,D} and {A,B,C,E} tables hold them); kind 1's C apart, untouched by the pass. In a
 * shuffled world the positions follow the rank (ecsb_world_order), as in the floor.
 */
#include "scenarios/defs/simple_iter.h"
typedef struct limit_simple_iter {
    uint32_t *a, *b;
    uint32_t *c_of[4]; /* c_of[k]: C of kind-k entities 4m + k at m (k = 1, 2, 3) */
    uint32_t *d, *e;   /* D of entity 4m + 2, E of entity 4m + 3, at m */
    uint64_t n, visits;
    ecsb_world_order order; /* serial -> rank, for the checksum */
} limit_simple_iter;

static void limit_simple_iter_release(void *state)
{
    limit_simple_iter *s = state;
    if (s) {
        ecsb_array_free(s->a);
        ecsb_array_free(s->b);
        for (int k = 1; k < 4; k++)
            ecsb_array_free(s->c_of[k]);
        ecsb_array_free(s->d);
        ecsb_array_free(s->e);
        ecsb_world_order_free(&s->order);
    }
    ecsb_array_free(s);
}

/* Where serial s's value of type t is, or NULL when it does not hold t. */
static uint32_t *limit_simple_iter_value(limit_simple_iter *s, uint64_t serial, uint32_t t)
{
    uint64_t i = ecsb_rank_of(&s->order, serial);
    unsigned k = simple_iter_kind(i);
    uint64_t m = i / 4;
    switch (t) {
    case SIMPLE_ITER_A:
        return &s->a[i];
    case SIMPLE_ITER_B:
        return &s->b[i];
    case SIMPLE_ITER_C:
        return k ? &s->c_of[k][m] : NULL;
    case SIMPLE_ITER_D:
        return k == 2 ? &s->d[m] : NULL;
    default:
        return k == 3 ? &s->e[m] : NULL;
    }
}

static ecsb_status limit_simple_iter_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    limit_simple_iter *s = *out = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    s->n = n;
    bool ok = ecsb_world_order_make(&s->order, n, p, SIMPLE_ITER_SALT);
    ok &= (s->a = ecsb_array_alloc(n, sizeof *s->a)) != NULL;
    ok &= (s->b = ecsb_array_alloc(n, sizeof *s->b)) != NULL;
    for (unsigned k = 1; k < 4; k++)
        ok &= (s->c_of[k] = ecsb_array_alloc(simple_iter_of_kind(n, k), sizeof(uint32_t))) != NULL;
    ok &= (s->d = ecsb_array_alloc(simple_iter_of_kind(n, 2), sizeof *s->d)) != NULL;
    ok &= (s->e = ecsb_array_alloc(simple_iter_of_kind(n, 3), sizeof *s->e)) != NULL;
    if (!ok) {
        limit_simple_iter_release(s);
        *out = NULL;
        return ECSB_ERR_NOMEM;
    }
    for (uint64_t i = 0; i < n; i++)
        for (uint32_t t = 0; t < 5; t++) {
            uint32_t *v = limit_simple_iter_value(s, i, t);
            if (v)
                *v = ecsb_u32_start(t, i);
        }
    return ECSB_OK;
}

static void limit_simple_iter_memory(void *state, uint64_t *bytes, uint64_t *entities)
{
    limit_simple_iter *s = state;
    uint64_t values = 2 * s->n + (s->n - simple_iter_of_kind(s->n, 0)) +
                      simple_iter_of_kind(s->n, 2) + simple_iter_of_kind(s->n, 3);
    *bytes = sizeof *s + values * sizeof(uint32_t);
    *entities = s->n;
}

/* Swap-and-update two packed columns of `count` values. */
static void limit_simple_iter_swap(uint32_t *restrict x, uint32_t *restrict y, uint64_t count)
{
    for (uint64_t i = 0; i < count; i++) {
        uint32_t t = x[i];
        x[i] = ecsb_u32_step(y[i]);
        y[i] = ecsb_u32_step(t);
    }
}

static ecsb_status limit_simple_iter_pass(void *state)
{
    limit_simple_iter *s = state;
    uint64_t nd = simple_iter_of_kind(s->n, 2), ne = simple_iter_of_kind(s->n, 3);
    limit_simple_iter_swap(s->a, s->b, s->n);
    limit_simple_iter_swap(s->c_of[2], s->d, nd);
    limit_simple_iter_swap(s->c_of[3], s->e, ne);
    s->visits += s->n + nd + ne;
    return ECSB_OK;
}

static uint64_t limit_simple_iter_checksum(void *state)
{
    limit_simple_iter *s = state;
    uint64_t h = ECSB_CHECKSUM_SEED;
    for (uint64_t i = 0; i < s->n; i++)
        for (uint32_t t = 0; t < 5; t++) {
            const uint32_t *v = limit_simple_iter_value(s, i, t);
            h = ecsb_mix(h, v ? *v : ECSB_ABSENT);
        }
    return ecsb_mix(h, s->visits);
}
