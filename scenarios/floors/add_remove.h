/* add_remove's floor: A for every entity; B packed, written in creation order by the adds and
 * dropped all at once by the removes. */
typedef struct floor_add_remove {
    uint32_t *a, *b;
    uint64_t n, ops;
} floor_add_remove;

static void floor_add_remove_release(void *state)
{
    floor_add_remove *s = state;
    if (s) {
        free(s->a);
        free(s->b);
    }
    free(s);
}

static ecsb_status floor_add_remove_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    (void)p; /* its parameters: only order=regular (scenarios/scenarios.c) */
    floor_add_remove *s = *out = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    s->n = n;
    s->a = ecsb_array_alloc(n, sizeof *s->a);
    s->b = ecsb_array_alloc(n, sizeof *s->b);
    if (!s->a || !s->b) {
        floor_add_remove_release(s);
        *out = NULL;
        return ECSB_ERR_NOMEM;
    }
    for (uint64_t i = 0; i < n; i++)
        s->a[i] = ecsb_u32_start(0, i);
    memset(s->b, 0, n * sizeof *s->b); /* touched now, so no pass pays the first touch */
    return ECSB_OK;
}

static void floor_add_remove_memory(void *state, uint64_t *bytes, uint64_t *entities)
{
    floor_add_remove *s = state;
    *bytes = sizeof *s + 2 * s->n * sizeof(uint32_t);
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
    for (uint64_t i = 0; i < s->n; i++)
        h = ecsb_mix(ecsb_mix(h, s->a[i]), ECSB_ABSENT); /* B removed again */
    return ecsb_mix(h, s->ops);
}
