/*
 * packed.h — the world packed_1 and packed_5 share: N entities created in order, each with the
 * u32 types A, B, C, D, E (ecsb_u32_start values), declaring one query per type the scenario
 * updates. The checksum reads every value of every entity in creation order, then the visit
 * count.
 */
#define PACKED_TYPES 5u

typedef struct packed_state {
    world w;
    ecsb_entity *entities;
    uint64_t n;
    uint64_t visits;
    bool world_live;
} packed_state;

static void packed_release(void *state)
{
    packed_state *s = state;
    if (!s)
        return;
    if (s->world_live)
        world_fini(&s->w);
    free(s->entities);
    free(s);
}

/* The world, declaring one-type queries for the first `queried` types. */
static ecsb_status packed_prepare(void **out, uint64_t n, uint32_t queried,
                                  const ecsb_params *p)
{
    (void)p; /* its parameters: only order=regular (scenarios/scenarios.c) */
    *out = NULL;
    packed_state *s = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    ecsb_world_config config = {
        .type_count = PACKED_TYPES,
        .initial_capacity = ecsb_capacity_hint(n),
        .allocator = ecsb_scenario_allocator,
        .query_count = queried,
    };
    for (uint32_t t = 0; t < PACKED_TYPES; t++)
        config.type_size[t] = sizeof(uint32_t);
    for (uint32_t t = 0; t < queried; t++)
        config.queries[t] = (ecsb_query){1, {t}};
    ecsb_status st = world_init(&s->w, &config);
    if (st != ECSB_OK) {
        free(s);
        return st;
    }
    s->world_live = true;
    s->n = n;
    s->entities = ecsb_array_alloc(n, sizeof *s->entities);
    if (!s->entities) {
        packed_release(s);
        return ECSB_ERR_NOMEM;
    }
    for (uint64_t i = 0; i < n; i++) {
        if ((st = entity_create(&s->w, &s->entities[i])) != ECSB_OK) {
            packed_release(s);
            return st;
        }
        for (uint32_t t = 0; t < PACKED_TYPES; t++) {
            void *v;
            if ((st = component_add(&s->w, s->entities[i], t, &v)) != ECSB_OK) {
                packed_release(s);
                return st;
            }
            *(uint32_t *)v = ecsb_u32_start(t, i);
        }
    }
    *out = s;
    return ECSB_OK;
}

static uint64_t packed_checksum(void *state)
{
    packed_state *s = state;
    uint64_t h = u32_world_fold(&s->w, s->entities, s->n, PACKED_TYPES, ECSB_CHECKSUM_SEED);
    return ecsb_mix(h, s->visits);
}
