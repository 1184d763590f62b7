/* dual_iterate's floor: a[] for every entity, b[] packed for the odd ones. Shared by
 * churn_iterate's floor, which rewrites the values its churn replaces. */
typedef struct floor_dual_iterate {
    double *a;
    int32_t *b;
    uint64_t n, visits;
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
    s->a = ecsb_array_alloc(n, sizeof *s->a);
    s->b = ecsb_array_alloc(n / 2, sizeof *s->b);
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
    *bytes = sizeof *s + s->n * sizeof *s->a + s->n / 2 * sizeof *s->b;
    *entities = s->n;
}

static ecsb_status floor_dual_iterate_pass(void *state)
{
    floor_dual_iterate *s = state;
    double *restrict a = s->a;
    const int32_t *restrict b = s->b;
    uint64_t pairs = s->n / 2;
    for (uint64_t k = 0; k < pairs; k++)
        a[2 * k + 1] += 1.5 * b[k];
    s->visits += pairs;
    return ECSB_OK;
}

static uint64_t floor_dual_iterate_checksum(void *state)
{
    floor_dual_iterate *s = state;
    uint64_t h = ECSB_CHECKSUM_SEED;
    for (uint64_t i = 0; i < s->n; i++)
        h = ecsb_mix(h, ecsb_double_bits(s->a[i]));
    h = ecsb_mix(h, s->visits);
    return ecsb_mix(h, s->n / 2);
}
