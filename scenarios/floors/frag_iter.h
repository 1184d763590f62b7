/* frag_iter's floor: Data for every entity and T25 packed for its holders (the holder of rank r
 * at frag_iter_lasts(r): the rank is the serial in a regular world, ecsb_world_order's
 * otherwise): exactly what the pass touches. Every other value never changes after set-up, so
 * the checksum computes it rather than storing it; the memory counts one u32 per value held. */
#include "scenarios/defs/frag_iter.h"
typedef struct floor_frag_iter {
    uint32_t *data, *last;
    uint64_t n, visits, values;
    uint32_t kinds, types;
    ecsb_world_order order; /* serial -> rank */
} floor_frag_iter;

static void floor_frag_iter_release(void *state)
{
    floor_frag_iter *s = state;
    if (s) {
        ecsb_array_free(s->data);
        ecsb_array_free(s->last);
        ecsb_world_order_free(&s->order);
    }
    ecsb_array_free(s);
}

static ecsb_status floor_frag_iter_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    floor_frag_iter *s = *out = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    s->n = n;
    s->kinds = frag_iter_kinds(p);
    s->types = frag_iter_type_count(s->kinds);
    bool ok = ecsb_world_order_make(&s->order, n, p, FRAG_ITER_SALT);
    ok &= (s->data = ecsb_array_alloc(n, sizeof *s->data)) != NULL;
    ok &= (s->last = ecsb_array_alloc(frag_iter_lasts(n, s->kinds), sizeof *s->last)) != NULL;
    if (!ok) {
        floor_frag_iter_release(s);
        *out = NULL;
        return ECSB_ERR_NOMEM;
    }
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = ecsb_rank_of(&s->order, i);
        uint32_t kind = (uint32_t)(r % s->kinds);
        s->data[i] = ecsb_u32_start(FRAG_ITER_DATA, i);
        if (frag_iter_holds(kind, FRAG_ITER_LAST))
            s->last[frag_iter_lasts(r, s->kinds)] = ecsb_u32_start(FRAG_ITER_LAST, i);
        for (uint32_t t = 0; t < s->types; t++)
            s->values += frag_iter_holds(kind, t);
    }
    return ECSB_OK;
}

static void floor_frag_iter_memory(void *state, uint64_t *bytes, uint64_t *entities)
{
    floor_frag_iter *s = state;
    *bytes = sizeof *s + s->values * sizeof(uint32_t);
    *entities = s->n;
}

static ecsb_status floor_frag_iter_pass(void *state)
{
    floor_frag_iter *s = state;
    uint32_t *restrict data = s->data, *restrict last = s->last;
    uint64_t n = s->n, lasts = frag_iter_lasts(n, s->kinds);
    for (uint64_t i = 0; i < n; i++)
        data[i] = ecsb_u32_step(data[i]);
    for (uint64_t m = 0; m < lasts; m++)
        last[m] = ecsb_u32_step(last[m]);
    s->visits += n + lasts;
    return ECSB_OK;
}

static uint64_t floor_frag_iter_checksum(void *state)
{
    floor_frag_iter *s = state;
    uint64_t h = ECSB_CHECKSUM_SEED;
    for (uint64_t i = 0; i < s->n; i++) {
        uint64_t r = ecsb_rank_of(&s->order, i);
        uint32_t kind = (uint32_t)(r % s->kinds);
        for (uint32_t t = 0; t < s->types; t++) {
            uint64_t v = t == FRAG_ITER_DATA        ? s->data[i]
                         : t == FRAG_ITER_LAST && frag_iter_holds(kind, t)
                             ? s->last[frag_iter_lasts(r, s->kinds)]
                         : frag_iter_holds(kind, t) ? ecsb_u32_start(t, i)
                                                    : ECSB_ABSENT;
            h = ecsb_mix(h, v);
        }
    }
    return ecsb_mix(h, s->visits);
}
