/* move3's floor: pos[] and vel[] for every entity, mass[] packed for every 4th (entity 4m at
 * m), "entity" being the rank (the serial in a regular world, ecsb_world_order's otherwise). */
#include "scenarios/defs/move3.h"
typedef struct floor_move3 {
    unsigned char *pos, *vel; /* values of `size` bytes, a move3_vec at the start of each */
    size_t size;
    float *mass;
    uint64_t n, visits;
    ecsb_world_order order; /* serial -> rank */
} floor_move3;

static void floor_move3_release(void *state)
{
    floor_move3 *s = state;
    if (s) {
        ecsb_array_free(s->pos);
        ecsb_array_free(s->vel);
        ecsb_array_free(s->mass);
        ecsb_world_order_free(&s->order);
    }
    ecsb_array_free(s);
}

static ecsb_status floor_move3_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    floor_move3 *s = *out = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    s->n = n;
    s->size = move3_size(p);
    s->pos = ecsb_array_alloc(n, s->size);
    s->vel = ecsb_array_alloc(n, s->size);
    s->mass = ecsb_array_alloc(move3_matched(n), sizeof *s->mass);
    if (!s->pos || !s->vel || !s->mass || !ecsb_world_order_make(&s->order, n, p, MOVE3_SALT)) {
        floor_move3_release(s);
        *out = NULL;
        return ECSB_ERR_NOMEM;
    }
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = ecsb_rank_of(&s->order, i);
        memset(s->pos + r * s->size, 0, s->size);
        memset(s->vel + r * s->size, 0, s->size);
        *move3_at(s->pos, r, s->size) = move3_pos0(i);
        *move3_at(s->vel, r, s->size) = move3_vel0(i);
        if (r % 4 == 0)
            s->mass[r / 4] = move3_mass0(i);
    }
    return ECSB_OK;
}

static void floor_move3_memory(void *state, uint64_t *bytes, uint64_t *entities)
{
    floor_move3 *s = state;
    *bytes = sizeof *s + s->n * 2 * s->size + move3_matched(s->n) * sizeof(float);
    *entities = s->n;
}

static ecsb_status floor_move3_pass(void *state)
{
    floor_move3 *s = state;
    const float *restrict mass = s->mass;
    uint64_t matched = move3_matched(s->n);
    if (s->size == sizeof(move3_vec)) {
        move3_vec *restrict pos = (move3_vec *)s->pos;
        const move3_vec *restrict vel = (const move3_vec *)s->vel;
        for (uint64_t m = 0; m < matched; m++)
            move3_step(&pos[4 * m], &vel[4 * m], mass[m]);
    } else {
        for (uint64_t m = 0; m < matched; m++)
            move3_step(move3_at(s->pos, 4 * m, s->size), move3_at(s->vel, 4 * m, s->size), mass[m]);
    }
    s->visits += matched;
    return ECSB_OK;
}

static uint64_t floor_move3_checksum(void *state)
{
    floor_move3 *s = state;
    uint64_t h = ECSB_CHECKSUM_SEED;
    for (uint64_t i = 0; i < s->n; i++) {
        uint64_t r = ecsb_rank_of(&s->order, i);
        for (int c = 0; c < 3; c++)
            h = ecsb_mix(h, ecsb_float_bits(move3_at(s->pos, r, s->size)->v[c]));
        for (int c = 0; c < 3; c++)
            h = ecsb_mix(h, ecsb_float_bits(move3_at(s->vel, r, s->size)->v[c]));
        h = ecsb_mix(h, r % 4 == 0 ? ecsb_float_bits(s->mass[r / 4]) : ECSB_ABSENT);
    }
    return ecsb_mix(h, s->visits);
}
