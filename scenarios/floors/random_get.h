/* random_get's floor: a[] and b[] indexed by entity (b 0 where it is absent, never a held value:
 * no branch on a miss), looked up through the same permutation the strategies' handle list
 * follows. */
#include "scenarios/defs/random_get.h"
typedef struct floor_random_get {
    double *a;
    int32_t *b;
    uint32_t *perm;
    uint64_t n, sum_a, sum_b, found;
} floor_random_get;

static void floor_random_get_release(void *state)
{
    floor_random_get *s = state;
    if (s) {
        ecsb_array_free(s->a);
        ecsb_array_free(s->b);
        ecsb_array_free(s->perm);
    }
    ecsb_array_free(s);
}

static ecsb_status floor_random_get_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    floor_random_get *s = *out = ecsb_state_alloc(sizeof *s);
    ecsb_world_order order;
    if (s && !ecsb_world_order_make(&order, n, p, RANDOM_GET_SALT)) {
        ecsb_array_free(s);
        s = *out = NULL;
    }
    if (!s)
        return ECSB_ERR_NOMEM;
    s->n = n;
    s->a = ecsb_array_alloc(n, sizeof *s->a);
    s->b = ecsb_array_alloc(n, sizeof *s->b);
    s->perm = ecsb_array_alloc(n, sizeof *s->perm);
    if (!s->a || !s->b || !s->perm) {
        ecsb_world_order_free(&order);
        floor_random_get_release(s);
        *out = NULL;
        return ECSB_ERR_NOMEM;
    }
    for (uint64_t i = 0; i < n; i++) {
        s->a[i] = dual_iterate_a0(i);
        s->b[i] = ecsb_rank_of(&order, i) & 1 ? dual_iterate_b0(i) : 0;
    }
    ecsb_world_order_free(&order);
    ecsb_permutation(s->perm, n, RANDOM_GET_SEED);
    return ECSB_OK;
}

static void floor_random_get_memory(void *state, uint64_t *bytes, uint64_t *entities)
{
    floor_random_get *s = state;
    *bytes = sizeof *s + s->n * (sizeof *s->a + sizeof *s->b + sizeof *s->perm);
    *entities = s->n;
}

static ecsb_status floor_random_get_pass(void *state)
{
    floor_random_get *s = state;
    const double *restrict a = s->a;
    const int32_t *restrict b = s->b;
    const uint32_t *restrict perm = s->perm;
    uint64_t sum_a = s->sum_a, sum_b = s->sum_b, found = s->found;
    for (uint64_t k = 0; k < s->n; k++) {
        uint32_t i = perm[k];
        found += 1 + (b[i] != 0);
        sum_a += ecsb_double_bits(a[i]) * ecsb_weight(k);
        sum_b += (uint32_t)b[i] * ecsb_weight(k);
    }
    s->sum_a = sum_a;
    s->sum_b = sum_b;
    s->found = found;
    return ECSB_OK;
}

static uint64_t floor_random_get_checksum(void *state)
{
    floor_random_get *s = state;
    return ecsb_mix(ecsb_mix(ecsb_mix(ECSB_CHECKSUM_SEED, s->sum_a), s->sum_b), s->found);
}
