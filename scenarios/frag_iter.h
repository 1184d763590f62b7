/*
 * frag_iter — noctjs/ecs-benchmark's frag_iter, scaled by N.
 *
 * Untimed set-up: 27 u32 types, T0 .. T25 and Data; N entities created as noctjs creates them,
 * the 26 kinds in turn: {T0, Data}, {T1, Data}, ..., {T25, Data}, {T0, Data}, ... (entity i
 * holds T(i % 26)); the world declares the queries (Data) and (T25). Timed pass: every Data
 * updated (v = 3v + 1), then every T25. Item: entity visited (N + N/26 per pass). The checksum
 * reads all 27 types of every entity, then the visit count.
 * Limit: none. The floor holds Data for every entity and T25 packed: exactly what is touched.
 * order=shuffled: the entity of serial s holds T(rank % 26), ranks and creation order drawn
 * from fixed seeds (ecsb_world_order): the same count of each kind.
 * Parameter kinds (1 .. 832, default 26; sweep 1, 4, 26, 104, 416, 832): the entity of rank r
 * is of kind r % kinds, holding Data, T(kind % 26) and the extra types X(j) of the bits of
 * kind / 26 (scenarios/common.h): the number of distinct component sets, at the same N. A
 * table layout gets one table per kind, the others one more type per entity at most.
 */
typedef struct frag_iter_state {
    world w;
    ecsb_entity *entities;
    uint64_t n;
    uint32_t types;
    uint64_t visits;
    bool world_live;
} frag_iter_state;

static void frag_iter_release(void *state)
{
    frag_iter_state *s = state;
    if (!s)
        return;
    if (s->world_live)
        world_fini(&s->w);
    free(s->entities);
    free(s);
}

static ecsb_status frag_iter_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    *out = NULL;
    const uint32_t kinds = frag_iter_kinds(p);
    ecsb_world_order order;
    if (!ecsb_world_order_make(&order, n, p, FRAG_ITER_SALT))
        return ECSB_ERR_NOMEM;
    frag_iter_state *s = ecsb_state_alloc(sizeof *s);
    if (!s) {
        ecsb_world_order_free(&order);
        return ECSB_ERR_NOMEM;
    }
    ecsb_world_config config = {
        .type_count = frag_iter_type_count(kinds),
        .initial_capacity = ecsb_capacity_hint(n),
        .allocator = ecsb_scenario_allocator,
        .query_count = 2,
        .queries = {{1, {FRAG_ITER_DATA}}, {1, {FRAG_ITER_LAST}}},
    };
    for (uint32_t t = 0; t < config.type_count; t++)
        config.type_size[t] = sizeof(uint32_t);
    ecsb_status st = world_init(&s->w, &config);
    if (st != ECSB_OK) {
        free(s);
        ecsb_world_order_free(&order);
        return st;
    }
    s->world_live = true;
    s->n = n;
    s->types = config.type_count;
    s->entities = ecsb_array_alloc(n, sizeof *s->entities);
    st = s->entities ? ECSB_OK : ECSB_ERR_NOMEM;
    for (uint64_t k = 0; k < n && st == ECSB_OK; k++) {
        uint64_t i = ecsb_serial_at(&order, k);
        uint32_t kind = (uint32_t)(ecsb_rank_of(&order, i) % kinds);
        void *v;
        if ((st = entity_create(&s->w, &s->entities[i])) != ECSB_OK)
            break;
        /* Data first, then the kind's types; each value written before the next add (a value
         * pointer lasts until the next structural change). */
        for (uint32_t t = FRAG_ITER_DATA; st == ECSB_OK && t < s->types + FRAG_ITER_DATA; t++) {
            uint32_t type = t % s->types; /* Data, the X types, then T0 .. T25 */
            if (type != FRAG_ITER_DATA && !frag_iter_holds(kind, type))
                continue;
            if ((st = component_add(&s->w, s->entities[i], type, &v)) == ECSB_OK)
                *(uint32_t *)v = ecsb_u32_start(type, i);
        }
    }
    ecsb_world_order_free(&order);
    if (st != ECSB_OK) {
        frag_iter_release(s);
        return st;
    }
    *out = s;
    return ECSB_OK;
}

ECSB_SCENARIO_MEMORY(frag_iter, frag_iter_state)

static const ecsb_query frag_iter_data_query = {.count = 1, .types = {FRAG_ITER_DATA}};
static const ecsb_query frag_iter_last_query = {.count = 1, .types = {FRAG_ITER_LAST}};

static ecsb_status frag_iter_pass(void *state)
{
    frag_iter_state *s = state;
    uint64_t visits = 0; /* a register: see scenarios/body.h */
    ecsb_status st = query(&s->w, &frag_iter_data_query, u32_step_run, &visits);
    if (st == ECSB_OK)
        st = query(&s->w, &frag_iter_last_query, u32_step_run, &visits);
    s->visits += visits;
    return st;
}

static uint64_t frag_iter_checksum(void *state)
{
    frag_iter_state *s = state;
    uint64_t h = u32_world_fold(&s->w, s->entities, s->n, s->types, ECSB_CHECKSUM_SEED);
    return ecsb_mix(h, s->visits);
}
