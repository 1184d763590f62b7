/*
 * body.h — what the scenario bodies share (never the floor or limit): they are compiled
 * against one strategy's static functions, after harness/strategy.h.
 */
#ifndef ECSB_SCENARIOS_BODY_H
#define ECSB_SCENARIOS_BODY_H

#include "scenarios/aging.h"
#include "scenarios/common.h"

/* What one type's walk has seen so far (scenario_look). */
typedef struct scenario_look_walk {
    world *w;
    uint32_t type, handles, last_id; /* handles: the handle column's index */
    bool first;
    uint64_t pairs, increasing, fingerprint;
} scenario_look_walk;

static void scenario_look_run(void *ctx, size_t count, void *const *columns)
{
    scenario_look_walk *k = ctx;
    const ecsb_entity *handles = columns[k->handles];
    for (size_t i = 0; i < count; i++) {
        const uint32_t id = (uint32_t)handles[i];
        const void *value = component_get(k->w, handles[i], k->type);
        uint32_t bytes = 0;
        if (value)
            memcpy(&bytes, value, sizeof bytes);
        if (!k->first) {
            k->pairs++;
            k->increasing += id > k->last_id;
        }
        k->first = false;
        k->last_id = id;
        k->fingerprint = ecsb_mix(ecsb_mix(k->fingerprint, (uint64_t)k->type << 32 | id), bytes);
    }
}

/*
 * The look of a scenario's world (ecsb_world_look): each type's query with handles, in turn,
 * until the world has no more types, then, in a world of at most 8 types, each pair's (the
 * order a join or a declared query's roster or group walks). The fingerprint reads each
 * value's first 4 bytes (every scenario type has at least 4) through get, whatever its size.
 */
static void scenario_look(world *w, ecsb_world_look *out)
{
    scenario_look_walk k = {.w = w, .fingerprint = ECSB_CHECKSUM_SEED};
    uint32_t types = 0;
    for (; types < ECSB_MAX_TYPES; types++) {
        const ecsb_query q = {.count = 1, .types = {types}, .entities = true};
        k.type = types;
        k.handles = 1;
        k.first = true;
        if (query(w, &q, scenario_look_run, &k) != ECSB_OK)
            break;
    }
    for (uint32_t t = 0; types <= 8 && t < types; t++)
        for (uint32_t u = t + 1; u < types; u++) {
            const ecsb_query q = {.count = 2, .types = {t, u}, .entities = true};
            k.type = t;
            k.handles = 2;
            k.first = true;
            query(w, &q, scenario_look_run, &k);
        }
    *out = (ecsb_world_look){k.pairs ? (double)k.increasing / (double)k.pairs : 1.0, k.pairs,
                             k.fingerprint};
}

/*
 * Every scenario body defines <name>_memory as this: the world's bytes and live entities,
 * read after prepare; and <name>_look, how its world looks (scenario_look).
 */
#define ECSB_SCENARIO_MEMORY(name, state_type)                                                 \
    static void name##_memory(void *state, uint64_t *bytes, uint64_t *entities)               \
    {                                                                                         \
        state_type *s_ = state;                                                               \
        *bytes = world_bytes(&s_->w);                                                         \
        *entities = entity_count(&s_->w);                                                     \
    }                                                                                         \
    static void name##_look(void *state, ecsb_world_look *out)                                \
    {                                                                                         \
        scenario_look(&((state_type *)state)->w, out);                                       \
    }

/*
 * Visits are counted into a local of the pass (ctx points to it) and added to the state once
 * per pass: with the strategy's query and the run callback inlined into the pass, the local
 * lives in a register, so a run costs one add whether runs are long (tables, groups) or one
 * entity each (lookups). A counter in the state would be a memory read-modify-write per run,
 * which charges the runs-of-one layouts more than the others.
 */

/* A query run over one u32 column: every value updated; ctx counts the visits (uint64_t). */
ECSB_INLINE void u32_step_run(void *ctx, size_t count, void *const *columns)
{
    uint32_t *restrict v = columns[0];
    for (size_t i = 0; i < count; i++)
        v[i] = ecsb_u32_step(v[i]);
    *(uint64_t *)ctx += count;
}

/* A query run over two u32 columns: each entity's two values swap places, both updated. */
ECSB_INLINE void u32_swap_run(void *ctx, size_t count, void *const *columns)
{
    uint32_t *restrict x = columns[0];
    uint32_t *restrict y = columns[1];
    for (size_t i = 0; i < count; i++) {
        uint32_t t = x[i];
        x[i] = ecsb_u32_step(y[i]);
        y[i] = ecsb_u32_step(t);
    }
    *(uint64_t *)ctx += count;
}

/*
 * Fold every u32 value of types 0 .. type_count-1 of the given entities, in order, into h
 * (ECSB_ABSENT for a component an entity does not hold): untimed, for checksum().
 */
static uint64_t u32_world_fold(world *w, const ecsb_entity *entities, uint64_t n,
                               uint32_t type_count, uint64_t h)
{
    for (uint64_t i = 0; i < n; i++)
        for (uint32_t t = 0; t < type_count; t++) {
            const uint32_t *v = component_get(w, entities[i], t);
            h = ecsb_mix(h, v ? *v : ECSB_ABSENT);
        }
    return h;
}

/* ---- set-up ------------------------------------------------------------------------------ */

/* Opens a scenario's world; *live says whether world_init succeeded (release owes world_fini). */
static ecsb_status scenario_world_open(world *w, bool *live, const ecsb_world_config *config)
{
    ecsb_status st = world_init(w, config);
    *live = st == ECSB_OK;
    return st;
}

/*
 * Who holds what in a scenario's starting world and the values they start with: serial i, of
 * rank r in the world order, holds type t when bit t of types_of(ctx, i, r) is set, and
 * init(ctx, i, t, value) writes that value (for any type: an aged world's entities gain types
 * their serial does not hold, with the value init gives).
 */
typedef struct scenario_population {
    uint32_t type_count; /* the world's types */
    uint32_t first_type; /* an entity's adds go first_type, first_type + 1, ... mod type_count */
    uint32_t (*types_of)(const void *ctx, uint64_t serial, uint64_t rank);
    void (*init)(const void *ctx, uint64_t serial, ecsb_type type, void *value);
    const void *ctx;
    bool one_spawn; /* entities are made by one spawn with all their types (level_load) */
} scenario_population;

/* Serial `serial`'s types, by its rank in `order`. */
static uint32_t scenario_types(const scenario_population *pop, const ecsb_world_order *order,
                               uint64_t serial)
{
    return pop->types_of(pop->ctx, serial, ecsb_rank_of(order, serial));
}

/* An entity with serial `serial`'s types and starting values, its handle into *out: created,
 * given its types one add at a time, as a game builds an entity (so a table layout passes
 * through the intermediate sets), each value written before the next add (a value pointer
 * lasts until the next structural change); or, with one_spawn, made by one spawn. */
static ecsb_status scenario_spawn(world *w, const scenario_population *pop, uint64_t serial,
                                  uint32_t types, ecsb_entity *out)
{
    if (pop->one_spawn) {
        ecsb_type list[ECSB_MAX_TYPES] = {0}; /* gcc -O1 (test build) thought it unset */
        void *values[ECSB_MAX_TYPES];
        uint32_t count = 0;
        for (uint32_t j = 0; j < pop->type_count; j++)
            if (types >> (pop->first_type + j) % pop->type_count & 1)
                list[count++] = (pop->first_type + j) % pop->type_count;
        ecsb_status st = spawn(w, list, count, out, values);
        for (uint32_t j = 0; j < count && st == ECSB_OK; j++)
            pop->init(pop->ctx, serial, list[j], values[j]);
        return st;
    }
    ecsb_status st = entity_create(w, out);
    for (uint32_t j = 0; j < pop->type_count && st == ECSB_OK; j++) {
        const ecsb_type t = (pop->first_type + j) % pop->type_count;
        void *value;
        if ((types >> t & 1) && (st = component_add(w, *out, t, &value)) == ECSB_OK)
            pop->init(pop->ctx, serial, t, value);
    }
    return st;
}

typedef struct scenario_age_ctx {
    const scenario_population *pop;
    const ecsb_world_order *order;
} scenario_age_ctx;

static uint32_t scenario_age_types(const void *ctx, uint64_t serial)
{
    const scenario_age_ctx *c = ctx;
    return scenario_types(c->pop, c->order, serial);
}

/*
 * An aged world's life (untimed; nothing when order is not aged): the events of
 * scenarios/aging.h played on the world, entities[serial] holding each serial's handle and
 * newcomers their own. It ends with the n entities alive, each with its serial's types and
 * starting values (pop), the newcomers all dead.
 */
static ecsb_status scenario_age(world *w, const ecsb_world_order *order, uint64_t n,
                                ecsb_entity *entities, const scenario_population *pop)
{
    if (!order->aged_salt)
        return ECSB_OK;
    const scenario_age_ctx ctx = {pop, order};
    ecsb_aging a;
    if (!ecsb_aging_start(&a, n, order->aged_salt, pop->type_count, scenario_age_types, &ctx))
        return ECSB_ERR_NOMEM;
    ecsb_entity *newcomers = ecsb_array_alloc(a.wave, sizeof *newcomers);
    ecsb_status st = newcomers ? ECSB_OK : ECSB_ERR_NOMEM;
    ecsb_aging_event e;
    while (st == ECSB_OK && ecsb_aging_next(&a, &e)) {
        ecsb_entity *h = e.id < n ? &entities[e.id] : &newcomers[e.id - n];
        void *value;
        switch (e.kind) {
        case ECSB_AGING_DIE:
            st = entity_destroy(w, *h);
            break;
        case ECSB_AGING_BORN:
            st = scenario_spawn(w, pop, e.of, scenario_types(pop, order, e.of), h);
            break;
        case ECSB_AGING_ADD:
            if ((st = component_add(w, *h, e.type, &value)) == ECSB_OK)
                pop->init(pop->ctx, e.of, e.type, value);
            break;
        case ECSB_AGING_REMOVE:
            st = component_remove(w, *h, e.type);
            break;
        }
    }
    ecsb_array_free(newcomers);
    ecsb_aging_end(&a);
    return st;
}

/*
 * The set-up the scenarios share (untimed): the n entities of `order`, created in its creation
 * order by scenario_spawn (entities[serial] gets each handle), then, in an aged world, its
 * life (scenario_age).
 */
static ecsb_status scenario_populate(world *w, const ecsb_world_order *order, uint64_t n,
                                     ecsb_entity *entities, const scenario_population *pop)
{
    for (uint64_t k = 0; k < n; k++) {
        const uint64_t serial = ecsb_serial_at(order, k);
        ecsb_status st = scenario_spawn(w, pop, serial, scenario_types(pop, order, serial),
                                        &entities[serial]);
        if (st != ECSB_OK)
            return st;
    }
    return scenario_age(w, order, n, entities, pop);
}

/* A population's init for u32 types: ecsb_u32_start(type, serial). */
static void scenario_u32_init(const void *ctx, uint64_t serial, ecsb_type type, void *value)
{
    (void)ctx;
    *(uint32_t *)value = ecsb_u32_start(type, serial);
}

/* ---- worlds of u32 types ------------------------------------------------------------------ */

/*
 * The state of the scenarios whose world is n entities of u32 types counted in visits
 * (packed_1, packed_5, simple_iter, frag_iter).
 */
typedef struct u32_world_state {
    world w;
    ecsb_entity *entities; /* by serial */
    uint64_t n, visits;
    uint32_t types;        /* the world's types, each a u32 */
    bool world_live;
} u32_world_state;

static void u32_world_release(void *state)
{
    u32_world_state *s = state;
    if (!s)
        return;
    if (s->world_live)
        world_fini(&s->w);
    ecsb_array_free(s->entities);
    ecsb_array_free(s);
}

/*
 * Their prepare: a world of config->type_count u32 types (config names the queries; the sizes,
 * capacity hint and allocator are filled in here), populated by scenario_populate in the world
 * order of (p, salt), each entity's adds starting at type first_type, with types_of(ctx,
 * serial, rank) and ecsb_u32_start values.
 */
static ecsb_status u32_world_prepare(void **out, uint64_t n, const ecsb_params *p,
                                     ecsb_world_config *config, uint64_t salt, uint32_t first_type,
                                     uint32_t (*types_of)(const void *, uint64_t, uint64_t),
                                     const void *ctx)
{
    *out = NULL;
    u32_world_state *s = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    for (uint32_t t = 0; t < config->type_count; t++)
        config->type_size[t] = sizeof(uint32_t);
    config->initial_capacity = ecsb_capacity_hint(n);
    config->allocator = ecsb_scenario_allocator;
    ecsb_status st = scenario_world_open(&s->w, &s->world_live, config);
    s->n = n;
    s->types = config->type_count;
    s->entities = ecsb_array_alloc(n, sizeof *s->entities);
    ecsb_world_order order = {0};
    if (st == ECSB_OK && (!s->entities || !ecsb_world_order_make(&order, n, p, salt)))
        st = ECSB_ERR_NOMEM;
    const scenario_population pop = {s->types, first_type, types_of, scenario_u32_init, ctx,
                                     false};
    if (st == ECSB_OK)
        st = scenario_populate(&s->w, &order, n, s->entities, &pop);
    ecsb_world_order_free(&order);
    if (st != ECSB_OK) {
        u32_world_release(s);
        return st;
    }
    *out = s;
    return ECSB_OK;
}

/* Their checksum: every value of every entity in serial order, then the visit count. */
static uint64_t u32_world_checksum(void *state)
{
    u32_world_state *s = state;
    uint64_t h = u32_world_fold(&s->w, s->entities, s->n, s->types, ECSB_CHECKSUM_SEED);
    return ecsb_mix(h, s->visits);
}

#endif
