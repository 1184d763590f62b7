/* dual_iterate's limit: the a values of the holders of b packed beside their b values (in
 * rank order, as the floor: the same in every world); the other entities' a values apart,
 * untouched by the pass. Shared by churn_iterate. */
#include "scenarios/defs/dual_iterate.h"
typedef struct limit_dual_iterate {
    double *matched_a; /* the j-th holder's a at j */
    int32_t *b;        /* the j-th holder's b at j */
    double *other_a;   /* the other entities' a, in rank order */
    uint64_t *where;   /* serial -> 2 * index + 1 in matched_a/b, or 2 * index in other_a */
    uint64_t n, holders, visits;
} limit_dual_iterate;

static void limit_dual_iterate_release(void *state)
{
    limit_dual_iterate *s = state;
    if (s) {
        ecsb_array_free(s->matched_a);
        ecsb_array_free(s->b);
        ecsb_array_free(s->other_a);
        ecsb_array_free(s->where);
    }
    ecsb_array_free(s);
}

/* Where serial (or handle-list position) i's a is. */
static double *limit_dual_iterate_a(limit_dual_iterate *s, uint64_t i)
{
    uint64_t w = s->where[i];
    return w & 1 ? &s->matched_a[w / 2] : &s->other_a[w / 2];
}

static ecsb_status limit_dual_iterate_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    limit_dual_iterate *s = *out = ecsb_state_alloc(sizeof *s);
    ecsb_world_order o;
    const double match = dual_iterate_match(p);
    if (!s)
        return ECSB_ERR_NOMEM;
    if (!dual_iterate_order_make(&o, n, p)) {
        ecsb_array_free(s);
        *out = NULL;
        return ECSB_ERR_NOMEM;
    }
    s->n = n;
    s->holders = dual_iterate_holders(n, match);
    s->matched_a = ecsb_array_alloc(s->holders, sizeof *s->matched_a);
    s->b = ecsb_array_alloc(s->holders, sizeof *s->b);
    s->other_a = ecsb_array_alloc(n - s->holders, sizeof *s->other_a);
    s->where = ecsb_array_alloc(n, sizeof *s->where);
    uint32_t *by_rank = ecsb_serials_by_rank(&o, n);
    if (!s->matched_a || !s->b || !s->other_a || !s->where || !by_rank) {
        ecsb_world_order_free(&o);
        ecsb_array_free(by_rank);
        limit_dual_iterate_release(s);
        *out = NULL;
        return ECSB_ERR_NOMEM;
    }
    uint64_t j = 0, other = 0;
    for (uint64_t k = 0; k < n; k++) {
        uint64_t i = by_rank[k];
        if (dual_iterate_holds_b(k, match)) {
            s->where[i] = 2 * j + 1;
            s->b[j++] = dual_iterate_b0(i);
        } else {
            s->where[i] = 2 * other++;
        }
        *limit_dual_iterate_a(s, i) = dual_iterate_a0(i);
    }
    ecsb_array_free(by_rank);
    ecsb_world_order_free(&o);
    return ECSB_OK;
}

static void limit_dual_iterate_memory(void *state, uint64_t *bytes, uint64_t *entities)
{
    limit_dual_iterate *s = state;
    *bytes = sizeof *s + s->n * sizeof(double) + s->holders * sizeof(int32_t);
    *entities = s->n;
}

static ecsb_status limit_dual_iterate_pass(void *state)
{
    limit_dual_iterate *s = state;
    double *restrict a = s->matched_a;
    const int32_t *restrict b = s->b;
    uint64_t pairs = s->holders;
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
    return ecsb_mix(h, s->holders);
}
