/* level_load's floor: one array per type, packed, allocated at its final size before the pass
 * (untouched: the pass pays the first touch of every page, as the strategies do, but no
 * growth). */
#include "scenarios/defs/level_load.h"
typedef struct floor_level_load {
    uint32_t *v[LEVEL_LOAD_TYPES];
    uint64_t count[LEVEL_LOAD_TYPES]; /* holders of each type */
    uint64_t n, created;
} floor_level_load;

static void floor_level_load_release(void *state)
{
    floor_level_load *s = state;
    for (uint32_t t = 0; s && t < LEVEL_LOAD_TYPES; t++)
        ecsb_array_free(s->v[t]);
    ecsb_array_free(s);
}

/* Entity i's index in type t's array (when it holds t). */
static uint64_t floor_level_load_index(uint64_t i, uint32_t t)
{
    return t < 2 ? i : t == 2 ? i / 2 : i / 4;
}

static ecsb_status floor_level_load_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    (void)p; /* indexed by serial: the same work in both orders */
    floor_level_load *s = *out = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    s->n = n;
    s->count[0] = s->count[1] = n;
    s->count[2] = n / 2;
    s->count[3] = (n + 1) / 4;
    for (uint32_t t = 0; t < LEVEL_LOAD_TYPES; t++)
        if (!(s->v[t] = ecsb_array_alloc(s->count[t], sizeof(uint32_t)))) {
            floor_level_load_release(s);
            *out = NULL;
            return ECSB_ERR_NOMEM;
        }
    return ECSB_OK;
}

static void floor_level_load_memory(void *state, uint64_t *bytes, uint64_t *entities)
{
    floor_level_load *s = state;
    *bytes = sizeof *s;
    for (uint32_t t = 0; t < LEVEL_LOAD_TYPES; t++)
        *bytes += s->count[t] * sizeof(uint32_t);
    *entities = s->created;
}

static ecsb_status floor_level_load_pass(void *state)
{
    floor_level_load *s = state;
    uint32_t *restrict a = s->v[0], *restrict b = s->v[1], *restrict c = s->v[2];
    uint32_t *restrict d = s->v[3];
    for (uint64_t i = 0; i < s->n; i++) {
        a[i] = ecsb_u32_start(0, i);
        b[i] = ecsb_u32_start(1, i);
    }
    for (uint64_t m = 0; m < s->count[2]; m++)
        c[m] = ecsb_u32_start(2, 2 * m + 1);
    for (uint64_t m = 0; m < s->count[3]; m++)
        d[m] = ecsb_u32_start(3, 4 * m + 3);
    s->created = s->n;
    return ECSB_OK;
}

static uint64_t floor_level_load_checksum(void *state)
{
    floor_level_load *s = state;
    uint64_t h = ECSB_CHECKSUM_SEED;
    for (uint64_t i = 0; i < s->n; i++)
        for (uint32_t t = 0; t < LEVEL_LOAD_TYPES; t++)
            h = ecsb_mix(h, level_load_holds(i, t) ? s->v[t][floor_level_load_index(i, t)]
                                                    : ECSB_ABSENT);
    return ecsb_mix(h, s->created);
}
