/*
 * platformer — article 002's Test 1, compiled against one strategy's static functions.
 *
 * Untimed set-up: N original entities (serials 0 .. N-1), each with `hp` (int32); order=regular
 * creates them in serial order, order=shuffled in an order drawn from a fixed seed. Timed pass,
 * N rounds, until no hp is left: (1) create e1 and add hp; (2) create e2 and add hp; (3) remove
 * hp from the round's original and destroy it: order=regular, the newest remaining one (the one
 * at the end before e1 and e2 arrived: the article's game); order=shuffled, the original of
 * another drawn order (from the middle of every array; flat_map is capped there); (4) remove
 * hp from e1 and destroy it; (5) the same for e2. 5N component operations. Each removed value is read first and added, times the weight of its kill's
 * position (3 per round), into a sum: no serial chain of mixes in the timed loop, and a lost
 * or misplaced component still changes it; the kills are counted. checksum() mixes the sum,
 * the count and what is left in the world. The pass empties the world: prepare again before
 * the next.
 */
#include "scenarios/defs/platformer.h"
enum { PLATFORMER_HP = 0 };

typedef struct platformer_state {
    world w;
    ecsb_entity *originals; /* by serial */
    uint32_t *kill_at;      /* round -> the serial it kills; NULL: N-1-round */
    uint64_t n;
    uint64_t sum;   /* each killed entity's hp (as uint32) times ecsb_weight(kill number) */
    uint64_t kills;
    bool world_live;
} platformer_state;

static void platformer_release(void *state)
{
    platformer_state *s = state;
    if (!s)
        return;
    if (s->world_live)
        world_fini(&s->w);
    ecsb_array_free(s->originals);
    ecsb_array_free(s->kill_at);
    ecsb_array_free(s);
}

static uint32_t platformer_types(const void *ctx, uint64_t serial, uint64_t rank)
{
    (void)ctx, (void)serial, (void)rank;
    return 1u << PLATFORMER_HP;
}

static void platformer_init(const void *ctx, uint64_t serial, ecsb_type type, void *value)
{
    (void)ctx, (void)type;
    *(int32_t *)value = platformer_original_hp(serial);
}

static ecsb_status platformer_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    *out = NULL;
    platformer_state *s = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    ecsb_world_config config = {
        .type_count = 1,
        .type_size = {sizeof(int32_t)},
        .initial_capacity = ecsb_capacity_hint(n + 2),
        .allocator = ecsb_scenario_allocator,
        .query_count = ecsb_declared_queries(p, 1), /* the game's system over hp */
        .queries = {{1, {0}, false, 0, {0}}},
    };
    ecsb_status st = scenario_world_open(&s->w, &s->world_live, &config);
    s->n = n;
    s->originals = ecsb_array_alloc(n, sizeof *s->originals);
    ecsb_world_order order = {0};
    if (st == ECSB_OK && (!s->originals || !ecsb_world_order_make(&order, n, p, PLATFORMER_SALT)))
        st = ECSB_ERR_NOMEM;
    s->kill_at = order.rank; /* a second drawn permutation, read as round -> serial */
    order.rank = NULL;
    const scenario_population originals = {1, 0, platformer_types, platformer_init, NULL, false};
    if (st == ECSB_OK)
        st = scenario_populate(&s->w, &order, n, s->originals, &originals);
    ecsb_world_order_free(&order);
    if (st != ECSB_OK) {
        platformer_release(s);
        return st;
    }
    *out = s;
    return ECSB_OK;
}

ECSB_SCENARIO_MEMORY(platformer, platformer_state)

/* Spawn one entity with hp; its handle into *out. */
ECSB_INLINE ecsb_status platformer_spawn(world *w, int32_t hp, ecsb_entity *out)
{
    void *value;
    ecsb_status st = entity_create(w, out);
    if (ECSB_LIKELY(st == ECSB_OK))
        st = component_add(w, *out, PLATFORMER_HP, &value);
    if (ECSB_LIKELY(st == ECSB_OK))
        *(int32_t *)value = hp;
    return st;
}

/* Add an entity's hp times `weight` to *sum, remove the hp, destroy the entity. */
ECSB_INLINE ecsb_status platformer_kill(world *w, ecsb_entity e, uint64_t weight, uint64_t *sum)
{
    const int32_t *hp = component_get(w, e, PLATFORMER_HP);
    if (ECSB_UNLIKELY(!hp))
        return ECSB_ERR_ABSENT;
    *sum += (uint32_t)*hp * weight;
    ecsb_status st = component_remove(w, e, PLATFORMER_HP);
    if (ECSB_LIKELY(st == ECSB_OK))
        st = entity_destroy(w, e);
    return st;
}

static ecsb_status platformer_pass(void *state)
{
    platformer_state *s = state;
    world *w = &s->w;
    const uint32_t *kill_at = s->kill_at;
    uint64_t sum = s->sum, round = 0;
    ecsb_status st = ECSB_OK;
    for (; round < s->n; round++) {
        ecsb_entity e1, e2;
        if (ECSB_UNLIKELY(
                (st = platformer_spawn(w, platformer_spawn_hp(round, 0), &e1)) ||
                (st = platformer_spawn(w, platformer_spawn_hp(round, 1), &e2)) ||
                (st = platformer_kill(w, s->originals[kill_at ? kill_at[round] : s->n - 1 - round],
                                      ecsb_weight(3 * round), &sum)) ||
                (st = platformer_kill(w, e1, ecsb_weight(3 * round + 1), &sum)) ||
                (st = platformer_kill(w, e2, ecsb_weight(3 * round + 2), &sum))))
            break;
    }
    s->sum = sum;
    s->kills += 3 * round;
    return st;
}

static uint64_t platformer_checksum(void *state)
{
    platformer_state *s = state;
    uint64_t h = ecsb_mix(ecsb_mix(ECSB_CHECKSUM_SEED, s->sum), s->kills);
    /* A correct pass leaves nothing behind: fold the leftovers in so leaks show. */
    return ecsb_mix(h, entity_count(&s->w) * 1000003u + component_count(&s->w, PLATFORMER_HP));
}
