/* frag_iter's floor: Data for every entity; each Tk packed for its holders (entity of rank
 * 26m + k at m; the rank is the serial in a regular world, ecsb_world_order's otherwise). The
 * pass touches Data and T25. */
typedef struct floor_frag_iter {
    uint32_t *data;
    uint32_t *kind[FRAG_ITER_KINDS];
    uint64_t n, visits;
    ecsb_world_order order; /* serial -> rank */
} floor_frag_iter;

static uint64_t floor_frag_iter_holders(uint64_t n, uint32_t k)
{
    return (n + FRAG_ITER_KINDS - 1 - k) / FRAG_ITER_KINDS;
}

static void floor_frag_iter_release(void *state)
{
    floor_frag_iter *s = state;
    if (s) {
        free(s->data);
        for (uint32_t k = 0; k < FRAG_ITER_KINDS; k++)
            free(s->kind[k]);
        ecsb_world_order_free(&s->order);
    }
    free(s);
}

static ecsb_status floor_frag_iter_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    floor_frag_iter *s = *out = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    s->n = n;
    bool ok = ecsb_world_order_make(&s->order, n, p, FRAG_ITER_SALT);
    ok &= (s->data = ecsb_array_alloc(n, sizeof *s->data)) != NULL;
    for (uint32_t k = 0; k < FRAG_ITER_KINDS; k++)
        ok &= (s->kind[k] = ecsb_array_alloc(floor_frag_iter_holders(n, k), sizeof(uint32_t))) !=
              NULL;
    if (!ok) {
        floor_frag_iter_release(s);
        *out = NULL;
        return ECSB_ERR_NOMEM;
    }
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = ecsb_rank_of(&s->order, i);
        s->data[i] = ecsb_u32_start(FRAG_ITER_DATA, i);
        s->kind[r % FRAG_ITER_KINDS][r / FRAG_ITER_KINDS] =
            ecsb_u32_start((uint32_t)(r % FRAG_ITER_KINDS), i);
    }
    return ECSB_OK;
}

static void floor_frag_iter_memory(void *state, uint64_t *bytes, uint64_t *entities)
{
    floor_frag_iter *s = state;
    *bytes = sizeof *s + 2 * s->n * sizeof(uint32_t); /* Data + every Tk together */
    *entities = s->n;
}

static ecsb_status floor_frag_iter_pass(void *state)
{
    floor_frag_iter *s = state;
    uint32_t *restrict data = s->data, *restrict last = s->kind[FRAG_ITER_LAST];
    uint64_t n = s->n, lasts = floor_frag_iter_holders(n, FRAG_ITER_LAST);
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
    for (uint64_t i = 0; i < s->n; i++)
        for (uint32_t t = 0; t <= FRAG_ITER_KINDS; t++) {
            uint64_t r = ecsb_rank_of(&s->order, i);
            uint64_t v = t == FRAG_ITER_DATA            ? s->data[i]
                         : t == r % FRAG_ITER_KINDS     ? s->kind[t][r / FRAG_ITER_KINDS]
                                                        : ECSB_ABSENT;
            h = ecsb_mix(h, v);
        }
    return ecsb_mix(h, s->visits);
}
