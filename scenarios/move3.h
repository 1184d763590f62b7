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
#include "scenarios/defs/move3.h"
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
    ecsb_array_free(s->entities);
    ecsb_array_free(s);
}

/* pos and vel for everyone, mass for the entity of every 4th rank. */
static uint32_t move3_types(const void *ctx, uint64_t serial, uint64_t rank)
{
    (void)ctx, (void)serial;
    return 1u << MOVE3_POS | 1u << MOVE3_VEL | (uint32_t)(rank % 4 == 0) << MOVE3_MASS;
}

/* ctx: the size of pos and vel values (their cold bytes after the vector are zero). */
static void move3_init(const void *ctx, uint64_t serial, ecsb_type type, void *value)
{
    const size_t size = *(const size_t *)ctx;
    if (type == MOVE3_MASS) {
        *(float *)value = move3_mass0(serial);
        return;
    }
    *(move3_vec *)value = type == MOVE3_POS ? move3_pos0(serial) : move3_vel0(serial);
    memset((unsigned char *)value + sizeof(move3_vec), 0, size - sizeof(move3_vec));
}

static ecsb_status move3_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    *out = NULL;
    move3_state *s = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    ecsb_world_config config = {
        .type_count = 3,
        .type_size = {(uint32_t)move3_size(p), (uint32_t)move3_size(p), sizeof(float)},
        .initial_capacity = ecsb_capacity_hint(n),
        .allocator = ecsb_scenario_allocator,
        .query_count = 1,
        .queries = {{3, {MOVE3_POS, MOVE3_VEL, MOVE3_MASS}, false, 0, {0}}},
    };
    ecsb_status st = scenario_world_open(&s->w, &s->world_live, &config);
    s->n = n;
    s->size = move3_size(p);
    s->entities = ecsb_array_alloc(n, sizeof *s->entities);
    ecsb_world_order order = {0};
    if (st == ECSB_OK && (!s->entities || !ecsb_world_order_make(&order, n, p, MOVE3_SALT)))
        st = ECSB_ERR_NOMEM;
    const scenario_population bodies = {3, 0, move3_types, move3_init, &s->size, false};
    if (st == ECSB_OK)
        st = scenario_populate(&s->w, &order, n, s->entities, &bodies);
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
