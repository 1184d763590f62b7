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

typedef u32_world_state packed_state;

static uint32_t packed_all_types(const void *ctx, uint64_t serial, uint64_t rank)
{
    (void)ctx, (void)serial, (void)rank;
    return (1u << PACKED_TYPES) - 1;
}

static uint32_t packed_no_types(const void *ctx, uint64_t serial, uint64_t rank)
{
    (void)ctx, (void)serial, (void)rank;
    return 0;
}

/*
 * The world, declaring one-type queries for the first `queried` types. order=regular: each
 * entity created with its five types; shuffled: the entities created in a seeded order, then
 * each type added to all of them in its own seeded order.
 */
static ecsb_status packed_prepare(void **out, uint64_t n, uint32_t queried,
                                  const ecsb_params *p)
{
    const bool shuffled = p->v[ECSB_PARAM_ORDER] == ECSB_ORDER_SHUFFLED;
    ecsb_world_config config = {.type_count = PACKED_TYPES, .query_count = queried};
    for (uint32_t t = 0; t < queried; t++)
        config.queries[t] = (ecsb_query){.count = 1, .types = {t}};
    ecsb_status st = u32_world_prepare(out, n, p, &config, PACKED_SALT, 0,
                                       shuffled ? packed_no_types : packed_all_types, NULL);
    packed_state *s = *out;
    uint32_t *perm = shuffled && st == ECSB_OK ? ecsb_array_alloc(n, sizeof *perm) : NULL;
    if (shuffled && st == ECSB_OK && !perm)
        st = ECSB_ERR_NOMEM;
    for (uint32_t t = 0; shuffled && t < PACKED_TYPES && st == ECSB_OK; t++) {
        ecsb_permutation(perm, n, PACKED_SALT * (t + 2));
        for (uint64_t k = 0; k < n && st == ECSB_OK; k++) {
            void *v;
            if ((st = component_add(&s->w, s->entities[perm[k]], t, &v)) == ECSB_OK)
                scenario_u32_init(NULL, perm[k], t, v);
        }
    }
    ecsb_array_free(perm);
    if (st != ECSB_OK && *out) {
        u32_world_release(s);
        *out = NULL;
    }
    return st;
}

static void packed_release(void *state) { u32_world_release(state); }

static uint64_t packed_checksum(void *state) { return u32_world_checksum(state); }
