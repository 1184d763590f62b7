/*
 * dual_iterate's floor: a[] for every entity and b[] packed for the holders, both in rank
 * order (ecsb_serials_by_rank: creation order in a regular world, the drawn ranks in a
 * shuffled one, the regular world's in an aged one), so the holders sit where membership puts
 * them in every world: with match = 1/k (the articles' odd entities at 1/2) the pass walks
 * a[] with stride k, otherwise through the holders' positions (at[], ascending), the same in
 * every world. The checksum reads serial s's a at its rank (pos_of). Shared by churn_iterate's
 * floor, which rewrites the values its churn replaces.
 */
#include "scenarios/defs/dual_iterate.h"
typedef struct floor_dual_iterate {
    double *a;           /* by position: rank order */
    int32_t *b;          /* the j-th holder's b */
    uint32_t *at;        /* the j-th holder's position in a[]; NULL when holders are a stride */
    uint32_t *pos_of;    /* serial -> position in a[] (its rank); NULL when the same */
    uint64_t *b_index;   /* serial -> its j in b[] (holders only); for churn_iterate */
    uint64_t n, holders, stride, visits;
} floor_dual_iterate;

static void floor_dual_iterate_release(void *state)
{
    floor_dual_iterate *s = state;
    if (s) {
        ecsb_array_free(s->a);
        ecsb_array_free(s->b);
        ecsb_array_free(s->at);
        ecsb_array_free(s->pos_of);
        ecsb_array_free(s->b_index);
    }
    ecsb_array_free(s);
}

static ecsb_status floor_dual_iterate_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    floor_dual_iterate *s = *out = ecsb_state_alloc(sizeof *s);
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
    double k = 1.0 / match;
    s->stride = k == (double)(uint64_t)k ? (uint64_t)k : 0;
    for (uint64_t pos = 0; s->stride && pos < n; pos++) /* holders every k-th, exactly? */
        if (dual_iterate_holds_b(pos, match) != (pos % s->stride == s->stride - 1))
            s->stride = 0;
    s->a = ecsb_array_alloc(n, sizeof *s->a);
    s->b = ecsb_array_alloc(s->holders, sizeof *s->b);
    s->b_index = ecsb_array_alloc(n, sizeof *s->b_index);
    uint32_t *by_rank = ecsb_serials_by_rank(&o, n);
    bool ok = s->a && s->b && s->b_index && by_rank;
    if (ok && !s->stride)
        ok = (s->at = ecsb_array_alloc(s->holders, sizeof *s->at)) != NULL;
    s->pos_of = o.rank; /* serial -> rank: its position */
    o.rank = NULL;
    ecsb_world_order_free(&o);
    if (!ok) {
        ecsb_array_free(by_rank);
        floor_dual_iterate_release(s);
        *out = NULL;
        return ECSB_ERR_NOMEM;
    }
    uint64_t j = 0;
    for (uint64_t pos = 0; pos < n; pos++) {
        uint64_t serial = by_rank[pos];
        s->a[pos] = dual_iterate_a0(serial);
        if (dual_iterate_holds_b(pos, match)) {
            s->b[j] = dual_iterate_b0(serial);
            s->b_index[serial] = j;
            if (s->at)
                s->at[j] = (uint32_t)pos;
            j++;
        }
    }
    ecsb_array_free(by_rank);
    return ECSB_OK;
}

static void floor_dual_iterate_memory(void *state, uint64_t *bytes, uint64_t *entities)
{
    floor_dual_iterate *s = state;
    *bytes = sizeof *s + s->n * sizeof *s->a + s->holders * sizeof *s->b +
             (s->at ? s->holders * sizeof *s->at : 0);
    *entities = s->n;
}

static ecsb_status floor_dual_iterate_pass(void *state)
{
    floor_dual_iterate *s = state;
    double *restrict a = s->a;
    const int32_t *restrict b = s->b;
    uint64_t pairs = s->holders;
    if (s->stride == 2) { /* the articles' world: a constant stride, as before parameters */
        for (uint64_t j = 0; j < pairs; j++)
            a[2 * j + 1] += 1.5 * b[j];
    } else if (s->stride) {
        const uint64_t k = s->stride;
        for (uint64_t j = 0; j < pairs; j++)
            a[k * j + k - 1] += 1.5 * b[j];
    } else {
        const uint32_t *restrict at = s->at;
        for (uint64_t j = 0; j < pairs; j++)
            a[at[j]] += 1.5 * b[j];
    }
    s->visits += pairs;
    return ECSB_OK;
}

static uint64_t floor_dual_iterate_checksum(void *state)
{
    floor_dual_iterate *s = state;
    uint64_t h = ECSB_CHECKSUM_SEED;
    for (uint64_t i = 0; i < s->n; i++)
        h = ecsb_mix(h, ecsb_double_bits(s->a[s->pos_of ? s->pos_of[i] : i]));
    h = ecsb_mix(h, s->visits);
    return ecsb_mix(h, s->holders);
}
