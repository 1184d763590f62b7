/* packed_1's and packed_5's floor: one array per type, N values each. */
#define FLOOR_PACKED_TYPES 5u

typedef struct floor_packed {
    uint32_t *v[FLOOR_PACKED_TYPES];
    uint64_t n, visits;
} floor_packed;

static void floor_packed_release(void *state)
{
    floor_packed *s = state;
    for (uint32_t t = 0; s && t < FLOOR_PACKED_TYPES; t++)
        ecsb_array_free(s->v[t]);
    ecsb_array_free(s);
}

static ecsb_status floor_packed_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    (void)p; /* order=shuffled changes which entity's value sits where in a layout, never the
              * values: the floor's arrays stay in serial order */
    floor_packed *s = *out = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    s->n = n;
    for (uint32_t t = 0; t < FLOOR_PACKED_TYPES; t++) {
        if (!(s->v[t] = ecsb_array_alloc(n, sizeof *s->v[t]))) {
            floor_packed_release(s);
            *out = NULL;
            return ECSB_ERR_NOMEM;
        }
        for (uint64_t i = 0; i < n; i++)
            s->v[t][i] = ecsb_u32_start(t, i);
    }
    return ECSB_OK;
}

static void floor_packed_memory(void *state, uint64_t *bytes, uint64_t *entities)
{
    floor_packed *s = state;
    *bytes = sizeof *s + FLOOR_PACKED_TYPES * s->n * sizeof(uint32_t);
    *entities = s->n;
}

static void floor_packed_step(floor_packed *s, uint32_t t)
{
    uint32_t *restrict v = s->v[t];
    for (uint64_t i = 0; i < s->n; i++)
        v[i] = ecsb_u32_step(v[i]);
    s->visits += s->n;
}

static uint64_t floor_packed_checksum(void *state)
{
    floor_packed *s = state;
    uint64_t h = ECSB_CHECKSUM_SEED;
    for (uint64_t i = 0; i < s->n; i++)
        for (uint32_t t = 0; t < FLOOR_PACKED_TYPES; t++)
            h = ecsb_mix(h, s->v[t][i]);
    return ecsb_mix(h, s->visits);
}

static ecsb_status floor_packed_1_pass(void *state)
{
    floor_packed_step(state, 0);
    return ECSB_OK;
}

static ecsb_status floor_packed_5_pass(void *state)
{
    for (uint32_t t = 0; t < FLOOR_PACKED_TYPES; t++)
        floor_packed_step(state, t);
    return ECSB_OK;
}

#define floor_packed_1_prepare floor_packed_prepare
#define floor_packed_1_checksum floor_packed_checksum
#define floor_packed_1_release floor_packed_release
#define floor_packed_1_memory floor_packed_memory
#define floor_packed_5_prepare floor_packed_prepare
#define floor_packed_5_checksum floor_packed_checksum
#define floor_packed_5_release floor_packed_release
#define floor_packed_5_memory floor_packed_memory
