/* entity_cycle's floor: A for the N originals; B packed, appended two per A value and then
 * dropped all at once (destroying every B holder empties it). */
#include "scenarios/defs/entity_cycle.h"
typedef struct floor_entity_cycle {
    uint32_t *a, *b;
    uint64_t n, sum, visits;
} floor_entity_cycle;

static void floor_entity_cycle_release(void *state)
{
    floor_entity_cycle *s = state;
    if (s) {
        ecsb_array_free(s->a);
        ecsb_array_free(s->b);
    }
    ecsb_array_free(s);
}

static ecsb_status floor_entity_cycle_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    (void)p; /* indexed by serial, the same work in both orders */
    floor_entity_cycle *s = *out = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    s->n = n;
    s->a = ecsb_array_alloc(n, sizeof *s->a);
    s->b = ecsb_array_alloc(2 * n, sizeof *s->b);
    if (!s->a || !s->b) {
        floor_entity_cycle_release(s);
        *out = NULL;
        return ECSB_ERR_NOMEM;
    }
    for (uint64_t i = 0; i < n; i++)
        s->a[i] = ecsb_u32_start(0, i);
    memset(s->b, 0, 2 * n * sizeof *s->b); /* touched now, so no pass pays the first touch */
    return ECSB_OK;
}

static void floor_entity_cycle_memory(void *state, uint64_t *bytes, uint64_t *entities)
{
    floor_entity_cycle *s = state;
    *bytes = sizeof *s + 3 * s->n * sizeof(uint32_t);
    *entities = s->n;
}

static ecsb_status floor_entity_cycle_pass(void *state)
{
    floor_entity_cycle *s = state;
    const uint32_t *restrict a = s->a;
    uint32_t *restrict b = s->b;
    uint64_t n = s->n, sum = s->sum;
    for (uint64_t i = 0; i < n; i++) {
        b[2 * i] = entity_cycle_b(a[i], 0);
        b[2 * i + 1] = entity_cycle_b(a[i], 1);
    }
    for (uint64_t k = 0; k < 2 * n; k++)
        sum += b[k];
    s->sum = sum;
    s->visits += 3 * n;
    return ECSB_OK;
}

static uint64_t floor_entity_cycle_checksum(void *state)
{
    floor_entity_cycle *s = state;
    uint64_t h = ECSB_CHECKSUM_SEED;
    for (uint64_t i = 0; i < s->n; i++)
        h = ecsb_mix(ecsb_mix(h, s->a[i]), ECSB_ABSENT);
    h = ecsb_mix(ecsb_mix(h, s->sum), s->visits);
    return ecsb_mix(h, s->n);
}
