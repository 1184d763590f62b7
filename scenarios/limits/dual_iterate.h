/* dual_iterate's limit: the a values of the matched (odd) entities packed beside their b
 * values; the even entities' a values apart, untouched by the pass. Shared by churn_iterate. */
typedef struct limit_dual_iterate {
    double *matched_a; /* entity 2k + 1's a at k */
    int32_t *b;        /* entity 2k + 1's b at k */
    double *other_a;   /* entity 2k's a at k */
    uint64_t n, visits;
} limit_dual_iterate;

static void limit_dual_iterate_release(void *state)
{
    limit_dual_iterate *s = state;
    if (s) {
        free(s->matched_a);
        free(s->b);
        free(s->other_a);
    }
    free(s);
}

/* Where entity (or position) i's a is. */
static double *limit_dual_iterate_a(limit_dual_iterate *s, uint64_t i)
{
    return i & 1 ? &s->matched_a[i / 2] : &s->other_a[i / 2];
}

static ecsb_status limit_dual_iterate_prepare(void **out, uint64_t n)
{
    limit_dual_iterate *s = *out = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    s->n = n;
    s->matched_a = ecsb_array_alloc(n / 2, sizeof *s->matched_a);
    s->b = ecsb_array_alloc(n / 2, sizeof *s->b);
    s->other_a = ecsb_array_alloc((n + 1) / 2, sizeof *s->other_a);
    if (!s->matched_a || !s->b || !s->other_a) {
        limit_dual_iterate_release(s);
        *out = NULL;
        return ECSB_ERR_NOMEM;
    }
    for (uint64_t i = 0; i < n; i++) {
        *limit_dual_iterate_a(s, i) = dual_iterate_a0(i);
        if (i & 1)
            s->b[i / 2] = dual_iterate_b0(i);
    }
    return ECSB_OK;
}

static void limit_dual_iterate_memory(void *state, uint64_t *bytes, uint64_t *entities)
{
    limit_dual_iterate *s = state;
    *bytes = sizeof *s + s->n * sizeof(double) + s->n / 2 * sizeof(int32_t);
    *entities = s->n;
}

static ecsb_status limit_dual_iterate_pass(void *state)
{
    limit_dual_iterate *s = state;
    double *restrict a = s->matched_a;
    const int32_t *restrict b = s->b;
    uint64_t pairs = s->n / 2;
    for (uint64_t k = 0; k < pairs; k++)
        a[k] += 1.5 * b[k];
    s->visits += pairs;
    return ECSB_OK;
}

static uint64_t limit_dual_iterate_checksum(void *state)
{
    limit_dual_iterate *s = state;
    uint64_t h = ECSB_CHECKSUM_SEED;
    for (uint64_t i = 0; i < s->n; i++)
        h = ecsb_mix(h, ecsb_double_bits(*limit_dual_iterate_a(s, i)));
    h = ecsb_mix(h, s->visits);
    return ecsb_mix(h, s->n / 2);
}
