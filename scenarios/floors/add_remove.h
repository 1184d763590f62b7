/* add_remove's floor: A (and the held Cs) for every entity; B packed, written in serial order
 * by the adds and dropped all at once by the removes. Indexed by serial, it does the same work
 * in both orders: creation and removal order are what a layout may trip over, not the floor. */
#include "scenarios/defs/add_remove.h"
typedef struct floor_add_remove {
    uint32_t *a, *b;
    uint32_t *c[ADD_REMOVE_MAX_HELD]; /* the held types, never touched by the pass */
    uint32_t held;
    uint64_t n, ops;
} floor_add_remove;

static void floor_add_remove_release(void *state)
{
    floor_add_remove *s = state;
    if (s) {
        ecsb_array_free(s->a);
        ecsb_array_free(s->b);
        for (uint32_t j = 0; j < ADD_REMOVE_MAX_HELD; j++)
            ecsb_array_free(s->c[j]);
    }
    ecsb_array_free(s);
}

static ecsb_status floor_add_remove_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    floor_add_remove *s = *out = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    s->n = n;
    s->held = add_remove_held(p);
    s->a = ecsb_array_alloc(n, sizeof *s->a);
    s->b = ecsb_array_alloc(n, sizeof *s->b);
    bool ok = s->a && s->b;
    for (uint32_t j = 0; j < s->held; j++)
        ok &= (s->c[j] = ecsb_array_alloc(n, sizeof(uint32_t))) != NULL;
    if (!ok) {
        floor_add_remove_release(s);
        *out = NULL;
        return ECSB_ERR_NOMEM;
    }
    for (uint64_t i = 0; i < n; i++) {
        s->a[i] = ecsb_u32_start(0, i);
        for (uint32_t j = 0; j < s->held; j++)
            s->c[j][i] = ecsb_u32_start(2 + j, i);
    }
    memset(s->b, 0, n * sizeof *s->b); /* touched now, so no pass pays the first touch */
    return ECSB_OK;
}

static void floor_add_remove_memory(void *state, uint64_t *bytes, uint64_t *entities)
{
    floor_add_remove *s = state;
    *bytes = sizeof *s + (2 + s->held) * s->n * sizeof(uint32_t);
    *entities = s->n;
}

static ecsb_status floor_add_remove_pass(void *state)
{
    floor_add_remove *s = state;
    uint32_t *restrict b = s->b;
    for (uint64_t i = 0; i < s->n; i++) /* the adds: each value written */
        b[i] = ecsb_u32_start(1, i);
    s->ops += 2 * s->n;                  /* the removes: the whole array dropped, no work */
    return ECSB_OK;
}

static uint64_t floor_add_remove_checksum(void *state)
{
    floor_add_remove *s = state;
    uint64_t h = ECSB_CHECKSUM_SEED;
    for (uint64_t i = 0; i < s->n; i++) {
        h = ecsb_mix(ecsb_mix(h, s->a[i]), ECSB_ABSENT); /* B removed again */
        for (uint32_t j = 0; j < s->held; j++)
            h = ecsb_mix(h, s->c[j][i]);
    }
    return ecsb_mix(h, s->ops);
}
