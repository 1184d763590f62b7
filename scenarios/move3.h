/*
 * move3 — three components, a quarter of the entities matching.
 *
 * Untimed set-up: N entities, each with `pos` and `vel` (float[3] at the start of a value of
 * `size` bytes, parameter size, default 12: the rest cold bytes the pass never reads), every
 * 4th (i % 4 == 0) also with `mass` (float); the world declares the query (pos, vel, mass). Timed pass: for
 * every entity holding all three, pos += vel * mass componentwise (move3_step), counting the
 * visits. Item: matched entity (N/4 per pass). The checksum reads pos, vel and mass of every
 * entity in serial order, then the visit count. order=shuffled: the entity of serial s holds
 * mass when its rank is a multiple of 4, ranks and creation order drawn from fixed seeds
 * (ecsb_world_order): the same quarter's worth of holders, scattered.
 * Limit: yes. The floor keeps pos and vel for every entity and walks every 4th: at 12 B per
 * value and a stride of 48 B it moves nearly every cache line of both for a quarter of the
 * values; a table or group holding only the matched entities moves just their pos, vel and
 * mass, packed.
 */
enum { MOVE3_POS = 0, MOVE3_VEL = 1, MOVE3_MASS = 2 };

typedef struct move3_state {
    world w;
    ecsb_entity *entities;
    uint64_t n;
    uint64_t visits;
    size_t size; /* bytes per pos and vel value */
    bool world_live;
} move3_state;

static void move3_release(void *state)
{
    move3_state *s = state;
    if (!s)
        return;
    if (s->world_live)
        world_fini(&s->w);
    free(s->entities);
    free(s);
}

static ecsb_status move3_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    *out = NULL;
    ecsb_world_order order;
    if (!ecsb_world_order_make(&order, n, p, MOVE3_SALT))
        return ECSB_ERR_NOMEM;
    move3_state *s = ecsb_state_alloc(sizeof *s);
    if (!s) {
        ecsb_world_order_free(&order);
        return ECSB_ERR_NOMEM;
    }
    ecsb_world_config config = {
        .type_count = 3,
        .type_size = {(uint32_t)move3_size(p), (uint32_t)move3_size(p), sizeof(float)},
        .initial_capacity = ecsb_capacity_hint(n),
        .allocator = ecsb_scenario_allocator,
        .query_count = 1,
        .queries = {{3, {MOVE3_POS, MOVE3_VEL, MOVE3_MASS}}},
    };
    ecsb_status st = world_init(&s->w, &config);
    if (st != ECSB_OK) {
        free(s);
        ecsb_world_order_free(&order);
        return st;
    }
    s->world_live = true;
    s->n = n;
    s->size = move3_size(p);
    s->entities = ecsb_array_alloc(n, sizeof *s->entities);
    st = s->entities ? ECSB_OK : ECSB_ERR_NOMEM;
    for (uint64_t k = 0; k < n && st == ECSB_OK; k++) {
        uint64_t i = ecsb_serial_at(&order, k);
        void *pos, *vel, *mass;
        const size_t cold = s->size - sizeof(move3_vec);
        if ((st = entity_create(&s->w, &s->entities[i])) != ECSB_OK ||
            (st = component_add(&s->w, s->entities[i], MOVE3_POS, &pos)) != ECSB_OK)
            break;
        /* Written before the next add: a value pointer lasts until the next structural change. */
        *(move3_vec *)pos = move3_pos0(i);
        memset((unsigned char *)pos + sizeof(move3_vec), 0, cold);
        if ((st = component_add(&s->w, s->entities[i], MOVE3_VEL, &vel)) != ECSB_OK)
            break;
        *(move3_vec *)vel = move3_vel0(i);
        memset((unsigned char *)vel + sizeof(move3_vec), 0, cold);
        if (ecsb_rank_of(&order, i) % 4 == 0 &&
            (st = component_add(&s->w, s->entities[i], MOVE3_MASS, &mass)) == ECSB_OK)
            *(float *)mass = move3_mass0(i);
    }
    ecsb_world_order_free(&order);
    if (st != ECSB_OK) {
        move3_release(s);
        return st;
    }
    *out = s;
    return ECSB_OK;
}

ECSB_SCENARIO_MEMORY(move3, move3_state)

ECSB_INLINE void move3_run(void *ctx, size_t count, void *const *columns)
{
    move3_vec *restrict pos = columns[0];
    const move3_vec *restrict vel = columns[1];
    const float *restrict mass = columns[2];
    for (size_t i = 0; i < count; i++)
        move3_step(&pos[i], &vel[i], mass[i]);
    *(uint64_t *)ctx += count;
}

/* size > 12: pos and vel values are `size` bytes apart. */
typedef struct move3_wide {
    uint64_t visits;
    size_t size;
} move3_wide;

ECSB_INLINE void move3_wide_run(void *ctx, size_t count, void *const *columns)
{
    move3_wide *c = ctx;
    const float *restrict mass = columns[2];
    for (size_t i = 0; i < count; i++)
        move3_step(move3_at(columns[0], i, c->size), move3_at(columns[1], i, c->size), mass[i]);
    c->visits += count;
}

static const ecsb_query move3_query = {.count = 3, .types = {MOVE3_POS, MOVE3_VEL, MOVE3_MASS}};

static ecsb_status move3_pass(void *state)
{
    move3_state *s = state;
    ecsb_status st;
    if (s->size == sizeof(move3_vec)) {
        uint64_t visits = 0; /* a register: see scenarios/body.h */
        st = query(&s->w, &move3_query, move3_run, &visits);
        s->visits += visits;
    } else {
        move3_wide c = {0, s->size}; /* registers too, once query is inlined */
        st = query(&s->w, &move3_query, move3_wide_run, &c);
        s->visits += c.visits;
    }
    return st;
}

static uint64_t move3_checksum(void *state)
{
    move3_state *s = state;
    uint64_t h = ECSB_CHECKSUM_SEED;
    for (uint64_t i = 0; i < s->n; i++)
        for (ecsb_type t = MOVE3_POS; t <= MOVE3_MASS; t++) {
            const float *v = component_get(&s->w, s->entities[i], t);
            for (int c = 0; c < (t == MOVE3_MASS ? 1 : 3); c++)
                h = ecsb_mix(h, v ? ecsb_float_bits(v[c]) : ECSB_ABSENT);
        }
    return ecsb_mix(h, s->visits);
}
