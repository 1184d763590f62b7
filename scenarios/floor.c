/*
 * floor.c — every scenario's arithmetic on plain packed C arrays, with no entity bookkeeping
 * at all: the lower bound drawn on every plot. Its checksums are the ones every strategy must
 * reproduce exactly.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "scenarios/common.h"

/* ---- platformer: a stack of hp values ------------------------------------------------- */

typedef struct floor_platformer {
    int32_t *hp;
    uint64_t n, count, checksum;
} floor_platformer;

static void floor_platformer_release(void *state)
{
    floor_platformer *s = state;
    if (s)
        free(s->hp);
    free(s);
}

static ecsb_status floor_platformer_prepare(void **out, uint64_t n)
{
    floor_platformer *s = *out = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    s->hp = malloc((n + 2) * sizeof *s->hp);
    if (!s->hp) {
        floor_platformer_release(s);
        *out = NULL;
        return ECSB_ERR_NOMEM;
    }
    for (uint64_t i = 0; i < n; i++)
        s->hp[i] = platformer_original_hp(i);
    s->n = s->count = n;
    s->checksum = ECSB_CHECKSUM_SEED;
    return ECSB_OK;
}

static void floor_platformer_memory(void *state, uint64_t *bytes, uint64_t *entities)
{
    floor_platformer *s = state;
    *bytes = sizeof *s + (s->n + 2) * sizeof *s->hp;
    *entities = s->count;
}

static ecsb_status floor_platformer_pass(void *state)
{
    floor_platformer *s = state;
    int32_t *restrict hp = s->hp;
    uint64_t h = s->checksum, top = s->count;
    for (uint64_t round = 0; round < s->n; round++) {
        hp[top] = platformer_spawn_hp(round, 0);     /* e1 at top, e2 at top + 1 */
        hp[top + 1] = platformer_spawn_hp(round, 1);
        h = ecsb_mix(h, (uint32_t)hp[top - 1]);      /* the newest original dies */
        hp[top - 1] = hp[top];                       /* close the gap: e1, e2 shift down */
        hp[top] = hp[top + 1];
        h = ecsb_mix(h, (uint32_t)hp[top - 1]);      /* e1 dies */
        hp[top - 1] = hp[top];
        h = ecsb_mix(h, (uint32_t)hp[top - 1]);      /* e2 dies */
        top -= 1;
    }
    s->count = top;
    s->checksum = h;
    return ECSB_OK;
}

static uint64_t floor_platformer_checksum(void *state)
{
    floor_platformer *s = state;
    /* Same fold as the strategies: live entities * 1000003 + hp holders, both equal here. */
    return ecsb_mix(s->checksum, s->count * 1000003u + s->count);
}

/* ---- dual_iterate: a[] on every id, b[] packed for the odd ids ------------------------- */

typedef struct floor_dual_iterate {
    double *a;
    int32_t *b;
    uint64_t n;
} floor_dual_iterate;

static void floor_dual_iterate_release(void *state)
{
    floor_dual_iterate *s = state;
    if (s) {
        free(s->a);
        free(s->b);
    }
    free(s);
}

static ecsb_status floor_dual_iterate_prepare(void **out, uint64_t n)
{
    floor_dual_iterate *s = *out = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    s->n = n;
    s->a = malloc((n ? n : 1) * sizeof *s->a);
    s->b = malloc((n / 2 + 1) * sizeof *s->b);
    if (!s->a || !s->b) {
        floor_dual_iterate_release(s);
        *out = NULL;
        return ECSB_ERR_NOMEM;
    }
    for (uint64_t i = 0; i < n; i++)
        s->a[i] = dual_iterate_a0(i);
    for (uint64_t k = 0; k < n / 2; k++)
        s->b[k] = dual_iterate_b0(2 * k + 1);
    return ECSB_OK;
}

static void floor_dual_iterate_memory(void *state, uint64_t *bytes, uint64_t *entities)
{
    floor_dual_iterate *s = state;
    *bytes = sizeof *s + (s->n ? s->n : 1) * sizeof *s->a + (s->n / 2 + 1) * sizeof *s->b;
    *entities = s->n;
}

static ecsb_status floor_dual_iterate_pass(void *state)
{
    floor_dual_iterate *s = state;
    double *restrict a = s->a;
    const int32_t *restrict b = s->b;
    for (uint64_t k = 0, pairs = s->n / 2; k < pairs; k++)
        a[2 * k + 1] += 1.5 * b[k];
    return ECSB_OK;
}

static uint64_t floor_dual_iterate_checksum(void *state)
{
    floor_dual_iterate *s = state;
    uint64_t h = ECSB_CHECKSUM_SEED;
    for (uint64_t i = 0; i < s->n; i++)
        h = ecsb_mix(h, ecsb_double_bits(s->a[i]));
    return ecsb_mix(h, s->n / 2);
}

const ecsb_scenario_impl ecsb_floor[ECSB_SCENARIO_COUNT] = {
#define ECSB_SCENARIO(name, ...)                                          \
    [ECSB_SCENARIO_##name] = {floor_##name##_prepare, floor_##name##_pass,                     \
                              floor_##name##_checksum, floor_##name##_release,                 \
                              floor_##name##_memory},
#include "scenarios/scenarios.def"
#undef ECSB_SCENARIO
};

/* No scenario has a limit yet. */
const ecsb_scenario_impl ecsb_limit[ECSB_SCENARIO_COUNT];
