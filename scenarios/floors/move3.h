/* move3's floor: pos[] and vel[] for every entity, mass[] packed for every 4th (entity 4m at
 * m). */
typedef struct floor_move3 {
    move3_vec *pos, *vel;
    float *mass;
    uint64_t n, visits;
} floor_move3;

static void floor_move3_release(void *state)
{
    floor_move3 *s = state;
    if (s) {
        free(s->pos);
        free(s->vel);
        free(s->mass);
    }
    free(s);
}

static ecsb_status floor_move3_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    (void)p; /* its parameters: only order=regular (scenarios/scenarios.c) */
    floor_move3 *s = *out = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    s->n = n;
    s->pos = ecsb_array_alloc(n, sizeof *s->pos);
    s->vel = ecsb_array_alloc(n, sizeof *s->vel);
    s->mass = ecsb_array_alloc(move3_matched(n), sizeof *s->mass);
    if (!s->pos || !s->vel || !s->mass) {
        floor_move3_release(s);
        *out = NULL;
        return ECSB_ERR_NOMEM;
    }
    for (uint64_t i = 0; i < n; i++) {
        s->pos[i] = move3_pos0(i);
        s->vel[i] = move3_vel0(i);
        if (i % 4 == 0)
            s->mass[i / 4] = move3_mass0(i);
    }
    return ECSB_OK;
}

static void floor_move3_memory(void *state, uint64_t *bytes, uint64_t *entities)
{
    floor_move3 *s = state;
    *bytes = sizeof *s + s->n * 2 * sizeof(move3_vec) + move3_matched(s->n) * sizeof(float);
    *entities = s->n;
}

static ecsb_status floor_move3_pass(void *state)
{
    floor_move3 *s = state;
    move3_vec *restrict pos = s->pos;
    const move3_vec *restrict vel = s->vel;
    const float *restrict mass = s->mass;
    uint64_t matched = move3_matched(s->n);
    for (uint64_t m = 0; m < matched; m++)
        move3_step(&pos[4 * m], &vel[4 * m], mass[m]);
    s->visits += matched;
    return ECSB_OK;
}

static uint64_t floor_move3_checksum(void *state)
{
    floor_move3 *s = state;
    uint64_t h = ECSB_CHECKSUM_SEED;
    for (uint64_t i = 0; i < s->n; i++) {
        for (int c = 0; c < 3; c++)
            h = ecsb_mix(h, ecsb_float_bits(s->pos[i].v[c]));
        for (int c = 0; c < 3; c++)
            h = ecsb_mix(h, ecsb_float_bits(s->vel[i].v[c]));
        h = ecsb_mix(h, i % 4 == 0 ? ecsb_float_bits(s->mass[i / 4]) : ECSB_ABSENT);
    }
    return ecsb_mix(h, s->visits);
}
