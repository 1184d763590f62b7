/*
 * simple_iter's floor: A and B for every entity; C packed for kinds 1, 2, 3 (entity 4m + k at
 * 3m + k - 1); D for kind 2 and E for kind 3, packed (entity 4m + 2 or 4m + 3 at m). In a
 * shuffled world "entity" is the rank (ecsb_world_order): the arrays are packed by kind as
 * ever, and the checksum finds serial s's values at its rank's positions.
 */
#include "scenarios/defs/simple_iter.h"
typedef struct floor_simple_iter {
    uint32_t *v[5];
    uint64_t count[5]; /* holders of each type */
    uint64_t n, visits;
    ecsb_world_order order; /* serial -> rank, for the checksum */
} floor_simple_iter;

static void floor_simple_iter_release(void *state)
{
    floor_simple_iter *s = state;
    for (int t = 0; s && t < 5; t++)
        ecsb_array_free(s->v[t]);
    if (s)
        ecsb_world_order_free(&s->order);
    ecsb_array_free(s);
}

/* Where entity i's value of type t is in s->v[t], or UINT64_MAX when it does not hold t. */
static uint64_t floor_simple_iter_index(uint64_t i, uint32_t t)
{
    uint64_t m = i / 4;
    unsigned k = simple_iter_kind(i);
    switch (t) {
    case SIMPLE_ITER_A:
    case SIMPLE_ITER_B:
        return i;
    case SIMPLE_ITER_C:
        return k ? 3 * m + k - 1 : UINT64_MAX;
    case SIMPLE_ITER_D:
        return k == 2 ? m : UINT64_MAX;
    default:
        return k == 3 ? m : UINT64_MAX;
    }
}

static ecsb_status floor_simple_iter_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    floor_simple_iter *s = *out = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    if (!ecsb_world_order_make(&s->order, n, p, SIMPLE_ITER_SALT)) {
        floor_simple_iter_release(s);
        *out = NULL;
        return ECSB_ERR_NOMEM;
    }
    s->n = n;
    s->count[SIMPLE_ITER_A] = s->count[SIMPLE_ITER_B] = n;
    s->count[SIMPLE_ITER_C] = n - simple_iter_of_kind(n, 0);
    s->count[SIMPLE_ITER_D] = simple_iter_of_kind(n, 2);
    s->count[SIMPLE_ITER_E] = simple_iter_of_kind(n, 3);
    for (uint32_t t = 0; t < 5; t++)
        if (!(s->v[t] = ecsb_array_alloc(s->count[t], sizeof *s->v[t]))) {
            floor_simple_iter_release(s);
            *out = NULL;
            return ECSB_ERR_NOMEM;
        }
    for (uint64_t i = 0; i < n; i++)
        for (uint32_t t = 0; t < 5; t++) {
            uint64_t at = floor_simple_iter_index(ecsb_rank_of(&s->order, i), t);
            if (at != UINT64_MAX)
                s->v[t][at] = ecsb_u32_start(t, i);
        }
    return ECSB_OK;
}

static void floor_simple_iter_memory(void *state, uint64_t *bytes, uint64_t *entities)
{
    floor_simple_iter *s = state;
    *bytes = sizeof *s;
    for (int t = 0; t < 5; t++)
        *bytes += s->count[t] * sizeof(uint32_t);
    *entities = s->n;
}

static ecsb_status floor_simple_iter_pass(void *state)
{
    floor_simple_iter *s = state;
    uint32_t *restrict a = s->v[SIMPLE_ITER_A], *restrict b = s->v[SIMPLE_ITER_B];
    uint32_t *restrict c = s->v[SIMPLE_ITER_C], *restrict d = s->v[SIMPLE_ITER_D];
    uint32_t *restrict e = s->v[SIMPLE_ITER_E];
    uint64_t n = s->n, nd = s->count[SIMPLE_ITER_D], ne = s->count[SIMPLE_ITER_E];
    for (uint64_t i = 0; i < n; i++) {
        uint32_t t = a[i];
        a[i] = ecsb_u32_step(b[i]);
        b[i] = ecsb_u32_step(t);
    }
    for (uint64_t m = 0; m < nd; m++) { /* (C,D): entity 4m + 2 */
        uint32_t t = c[3 * m + 1];
        c[3 * m + 1] = ecsb_u32_step(d[m]);
        d[m] = ecsb_u32_step(t);
    }
    for (uint64_t m = 0; m < ne; m++) { /* (C,E): entity 4m + 3 */
        uint32_t t = c[3 * m + 2];
        c[3 * m + 2] = ecsb_u32_step(e[m]);
        e[m] = ecsb_u32_step(t);
    }
    s->visits += n + nd + ne;
    return ECSB_OK;
}

static uint64_t floor_simple_iter_checksum(void *state)
{
    floor_simple_iter *s = state;
    uint64_t h = ECSB_CHECKSUM_SEED;
    for (uint64_t i = 0; i < s->n; i++)
        for (uint32_t t = 0; t < 5; t++) {
            uint64_t at = floor_simple_iter_index(ecsb_rank_of(&s->order, i), t);
            h = ecsb_mix(h, at != UINT64_MAX ? s->v[t][at] : ECSB_ABSENT);
        }
    return ecsb_mix(h, s->visits);
}
