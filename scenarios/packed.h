/*
 * packed.h — the world packed_1 and packed_5 share: N entities created in order, each with the
 * u32 types A, B, C, D, E (ecsb_u32_start values), declaring one query per type the scenario
 * updates. The checksum reads every value of every entity in serial order, then the visit
 * count. order=shuffled: the entities are created in a seeded order, and then each type is
 * added to all of them in an order of its own (seeded), as components arrive over a game's
 * life; so no two types' storage need list the entities in the same order.
 */
#define PACKED_SALT 0x7061636b6564ull /* its world order (ecsb_world_order_make) */
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

/* The empty world, declaring one-type queries for the first `queried` types, with room for
 * the handles of n entities. */
static ecsb_status packed_world(packed_state **out, uint64_t n, uint32_t queried)
{
    packed_state *s = *out = ecsb_state_alloc(sizeof *s);
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
        config.queries[t] = (ecsb_query){.count = 1, .types = {t}};
    ecsb_status st = world_init(&s->w, &config);
    if (st != ECSB_OK) {
        free(s);
        *out = NULL;
        return st;
    }
    s->world_live = true;
    s->n = n;
    s->entities = ecsb_array_alloc(n, sizeof *s->entities);
    return s->entities ? ECSB_OK : ECSB_ERR_NOMEM;
}

/* order=shuffled: creation in a seeded order, then each type added in its own seeded order. */
static ecsb_status packed_prepare_shuffled(void **out, uint64_t n, uint32_t queried,
                                           const ecsb_params *p)
{
    packed_state *s;
    ecsb_world_order order = {0};
    uint32_t *perm = ecsb_array_alloc(n, sizeof *perm);
    ecsb_status st = packed_world(&s, n, queried);
    if (st == ECSB_OK && (!perm || !ecsb_world_order_make(&order, n, p, PACKED_SALT)))
        st = ECSB_ERR_NOMEM;
    for (uint64_t k = 0; k < n && st == ECSB_OK; k++)
        st = entity_create(&s->w, &s->entities[ecsb_serial_at(&order, k)]);
    for (uint32_t t = 0; t < PACKED_TYPES && st == ECSB_OK; t++) {
        ecsb_permutation(perm, n, PACKED_SALT * (t + 2));
        for (uint64_t k = 0; k < n && st == ECSB_OK; k++) {
            void *v;
            if ((st = component_add(&s->w, s->entities[perm[k]], t, &v)) == ECSB_OK)
                *(uint32_t *)v = ecsb_u32_start(t, perm[k]);
        }
    }
    ecsb_world_order_free(&order);
    free(perm);
    if (st != ECSB_OK) {
        packed_release(s);
        return st;
    }
    *out = s;
    return ECSB_OK;
}

/* The world, declaring one-type queries for the first `queried` types. */
static ecsb_status packed_prepare(void **out, uint64_t n, uint32_t queried,
                                  const ecsb_params *p)
{
    *out = NULL;
    if (p->v[ECSB_PARAM_ORDER] == ECSB_ORDER_SHUFFLED)
        return packed_prepare_shuffled(out, n, queried, p);
    packed_state *s;
    ecsb_status st = packed_world(&s, n, queried);
    for (uint64_t i = 0; i < n && st == ECSB_OK; i++) {
        if ((st = entity_create(&s->w, &s->entities[i])) != ECSB_OK)
            break;
        for (uint32_t t = 0; t < PACKED_TYPES && st == ECSB_OK; t++) {
            void *v;
            if ((st = component_add(&s->w, s->entities[i], t, &v)) == ECSB_OK)
                *(uint32_t *)v = ecsb_u32_start(t, i);
        }
    }
    if (st != ECSB_OK) {
        packed_release(s);
        return st;
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
