/* move3's limit: pos, vel and mass of the matched entities (every 4th) packed together; the
 * other entities' pos and vel apart, untouched by the pass. Positions follow the rank (the
 * serial in a regular world, ecsb_world_order's otherwise). */
#include "scenarios/defs/move3.h"
typedef struct limit_move3 {
    unsigned char *pos, *vel;   /* entity 4m's at m (values of `size` bytes) */
    float *mass;                /* entity 4m's at m */
    unsigned char *opos, *ovel; /* entity 4m + k's (k = 1, 2, 3) at 3m + k - 1 */
    size_t size;
    uint64_t n, visits;
    ecsb_world_order order; /* serial -> rank */
} limit_move3;

static void limit_move3_release(void *state)
{
    limit_move3 *s = state;
    if (s) {
        ecsb_array_free(s->pos);
        ecsb_array_free(s->vel);
        ecsb_array_free(s->mass);
        ecsb_array_free(s->opos);
        ecsb_array_free(s->ovel);
        ecsb_world_order_free(&s->order);
    }
    ecsb_array_free(s);
}

/* Where the entity of rank i has its pos (vel when `vel`). */
static move3_vec *limit_move3_vec(limit_move3 *s, uint64_t i, bool vel)
{
    if (i % 4 == 0)
        return move3_at(vel ? s->vel : s->pos, i / 4, s->size);
    uint64_t at = 3 * (i / 4) + i % 4 - 1;
    return move3_at(vel ? s->ovel : s->opos, at, s->size);
}

static ecsb_status limit_move3_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    limit_move3 *s = *out = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    s->n = n;
    uint64_t matched = move3_matched(n);
    s->size = move3_size(p);
    s->pos = ecsb_array_alloc(matched, s->size);
    s->vel = ecsb_array_alloc(matched, s->size);
    s->mass = ecsb_array_alloc(matched, sizeof *s->mass);
    s->opos = ecsb_array_alloc(n - matched, s->size);
    s->ovel = ecsb_array_alloc(n - matched, s->size);
    if (!s->pos || !s->vel || !s->mass || !s->opos || !s->ovel ||
        !ecsb_world_order_make(&s->order, n, p, MOVE3_SALT)) {
        limit_move3_release(s);
        *out = NULL;
        return ECSB_ERR_NOMEM;
    }
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = ecsb_rank_of(&s->order, i);
        memset(limit_move3_vec(s, r, false), 0, s->size);
        memset(limit_move3_vec(s, r, true), 0, s->size);
        *limit_move3_vec(s, r, false) = move3_pos0(i);
        *limit_move3_vec(s, r, true) = move3_vel0(i);
        if (r % 4 == 0)
            s->mass[r / 4] = move3_mass0(i);
    }
    return ECSB_OK;
}

static void limit_move3_memory(void *state, uint64_t *bytes, uint64_t *entities)
{
    limit_move3 *s = state;
    *bytes = sizeof *s + s->n * 2 * s->size + move3_matched(s->n) * sizeof(float);
    *entities = s->n;
}

static ecsb_status limit_move3_pass(void *state)
{
    limit_move3 *s = state;
    const float *restrict mass = s->mass;
    uint64_t matched = move3_matched(s->n);
    if (s->size == sizeof(move3_vec)) {
        move3_vec *restrict pos = (move3_vec *)s->pos;
        const move3_vec *restrict vel = (const move3_vec *)s->vel;
        for (uint64_t m = 0; m < matched; m++)
            move3_step(&pos[m], &vel[m], mass[m]);
    } else {
        for (uint64_t m = 0; m < matched; m++)
            move3_step(move3_at(s->pos, m, s->size), move3_at(s->vel, m, s->size), mass[m]);
    }
    s->visits += matched;
    return ECSB_OK;
}

static uint64_t limit_move3_checksum(void *state)
{
    limit_move3 *s = state;
    uint64_t h = ECSB_CHECKSUM_SEED;
    for (uint64_t i = 0; i < s->n; i++) {
        uint64_t r = ecsb_rank_of(&s->order, i);
        for (int vel = 0; vel < 2; vel++)
            for (int c = 0; c < 3; c++)
                h = ecsb_mix(h, ecsb_float_bits(limit_move3_vec(s, r, vel)->v[c]));
        h = ecsb_mix(h, r % 4 == 0 ? ecsb_float_bits(s->mass[r / 4]) : ECSB_ABSENT);
    }
    return ecsb_mix(h, s->visits);
}
