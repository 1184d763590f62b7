/*
 * template — the simplest correct strategy: copy this file to start a new one.
 *
 * Idea: entity slots with a generation each (handle = slot index + generation), from the shared
 * id unit harness/entity_ids.h (its free list, retirement and checks); per component type, a
 * value array indexed by slot and a byte per slot saying "present", grown with the slots by
 * the ids' grow hook.
 *
 * Costs: create/destroy O(1) (destroy also clears K presence bytes); add/remove/get/has O(1),
 * one generation check plus one presence byte; query walks every slot ever used,
 * O(highest slot), whether or not it holds the types, and hands out each match as a run of
 * one (with its handle in a local when asked).
 * Memory per entity: 8 B (the id word) + per type (size + 1) B, for every slot ever
 * used, live or not.
 * Tags (size 0, ecsb.h): the presence byte only; the tag's value array is never allocated,
 * its base is ECSB_TAG and its stride 0, so add/get/query hand out ECSB_TAG with no branch.
 * Exclusion: a query also skips slots whose presence byte of an excluded type is set, one
 * byte per excluded type per slot.
 * Wins: nothing in particular, it is the readable baseline. Loses: sparse types and queries over
 * few holders, since it scans every slot.
 *
 * To add your strategy (README "Add a strategy" has the whole path):
 *   1. cp strategies/template.c strategies/<name>.c; replace this comment with yours.
 *   2. Change the data layout and the functions below; keep their names and signatures
 *      (harness/strategy.h lists them with the statuses each must return).
 *   3. Set ECSB_STRATEGY_NAME to <name> at the bottom; add ECSB_STRATEGY(<name>) to
 *      strategies/strategies.def.
 *   4. make test (the conformance and differential suites run on it), then make bench.
 * This file itself is compiled and tested by make test (as strategy "template") but is not
 * in the benchmark registry.
 * Tuning: none (every match is a run of one; the other lookup layouts gather consecutive
 * matches into runs with ecsb_runs, harness/strategy.h).
 */
#include "harness/entity_ids.h"

typedef struct world {
    ecsb_ids ids;         /* entity slots, generations, free list (harness/entity_ids.h) */
    const ecsb_allocator *alloc;
    uint32_t type_count;
    uint32_t type_size[ECSB_MAX_TYPES];
    uint8_t *present[ECSB_MAX_TYPES]; /* per type, per slot: 1 when held */
    unsigned char *values[ECSB_MAX_TYPES]; /* per type, per slot: the value */
    size_t held[ECSB_MAX_TYPES];          /* per type: holders */
} world;

#define ID_STRIDE 1 /* words per id record: the id word only (the per-slot data is below) */

ECSB_INLINE bool live(const world *w, ecsb_entity e)
{
    return ecsb_ids_alive(&w->ids, ID_STRIDE, e);
}

/* The ids' grow hook: every per-slot array to cap slots; new slots hold nothing. */
static ecsb_status grow(void *owner, size_t old_cap, size_t cap)
{
    world *w = owner;
    /* A failure part-way leaves larger blocks but the capacity unchanged. */
    for (uint32_t t = 0; t < w->type_count; t++) {
        if (ecsb_resize(w->alloc, (void **)&w->present[t], 1, old_cap, cap) ||
            (w->type_size[t] && /* a tag has no values to grow */
             ecsb_resize(w->alloc, (void **)&w->values[t], w->type_size[t], old_cap, cap)))
            return ECSB_ERR_NOMEM;
        memset(w->present[t] + old_cap, 0, cap - old_cap);
    }
    return ECSB_OK;
}

static void world_fini(world *w)
{
    /* The blocks may be larger than capacity after a failed grow; free needs no exact size. */
    for (uint32_t t = 0; t < w->type_count; t++) {
        ecsb_release(w->alloc, w->present[t], w->ids.cap);
        if (w->type_size[t])
            ecsb_release(w->alloc, w->values[t], (size_t)w->ids.cap * w->type_size[t]);
    }
    ECSB_IDS_WORLD_FINI(w);
}

static ecsb_status world_init(world *w, const ecsb_world_config *config)
{
    ECSB_IDS_WORLD_INIT(w, config, ID_STRIDE);
    ecsb_status st = ECSB_OK;
    memcpy(w->type_size, config->type_size, sizeof w->type_size);
    for (uint32_t t = 0; t < w->type_count; t++)
        if (w->type_size[t] == 0)
            w->values[t] = ECSB_TAG; /* a tag: base ECSB_TAG, stride 0 */
    if ((st = ecsb_ids_reserve(&w->ids, config, grow, w)) != ECSB_OK) {
        world_fini(w);
        return st;
    }
    return ECSB_OK;
}

ECSB_INLINE ecsb_status entity_create(world *w, ecsb_entity *out)
{
    return ecsb_ids_create(&w->ids, ID_STRIDE, grow, w, out);
}

ECSB_INLINE ecsb_status entity_destroy(world *w, ecsb_entity e)
{
    if (!live(w, e))
        return ECSB_ERR_STALE;
    uint32_t i = ecsb_handle_index(e);
    for (uint32_t t = 0; t < w->type_count; t++) {
        w->held[t] -= w->present[t][i];
        w->present[t][i] = 0;
    }
    ecsb_ids_free(&w->ids, ID_STRIDE, e);
    return ECSB_OK;
}

static bool entity_alive(const world *w, ecsb_entity e) { return live(w, e); }

static size_t entity_count(const world *w) { return ecsb_ids_count(&w->ids); }

ECSB_INLINE ecsb_status component_add(world *w, ecsb_entity e, ecsb_type t, void **value_out)
{
    *value_out = NULL;
    if (t >= w->type_count)
        return ECSB_ERR_TYPE;
    if (!live(w, e))
        return ECSB_ERR_STALE;
    uint32_t i = ecsb_handle_index(e);
    if (w->present[t][i])
        return ECSB_ERR_PRESENT;
    w->present[t][i] = 1;
    w->held[t]++;
    *value_out = w->values[t] + (size_t)i * w->type_size[t];
    return ECSB_OK;
}

ECSB_INLINE ecsb_status component_remove(world *w, ecsb_entity e, ecsb_type t)
{
    if (t >= w->type_count)
        return ECSB_ERR_TYPE;
    if (!live(w, e))
        return ECSB_ERR_STALE;
    uint32_t i = ecsb_handle_index(e);
    if (!w->present[t][i])
        return ECSB_ERR_ABSENT;
    w->present[t][i] = 0;
    w->held[t]--;
    return ECSB_OK;
}

/*
 * spawn: a new entity with a whole set of components at once. Here, where each type's values
 * live apart, it is create plus one add per type (ECSB_SPAWN_BY_ADDS, harness/strategy.h:
 * the list checked once up front, and on NOMEM the adds made so far removed and the create
 * undone by entity_uncreate, so a failure changes nothing). A layout that keeps an entity's
 * values together (archetype) writes its own: find the set's table once and append one row.
 */
ECSB_INLINE void entity_uncreate(world *w, ecsb_entity e)
{
    ecsb_ids_uncreate(&w->ids, ID_STRIDE, e);
}

ECSB_SPAWN_BY_ADDS(entity_uncreate)

ECSB_INLINE void *component_get(world *w, ecsb_entity e, ecsb_type t)
{
    if (t >= w->type_count)
        return NULL;
    uint32_t i = ecsb_handle_index(e);
    if (!live(w, e) || !w->present[t][i])
        return NULL;
    return w->values[t] + (size_t)i * w->type_size[t];
}

ECSB_INLINE bool component_has(const world *w, ecsb_entity e, ecsb_type t)
{
    if (t >= w->type_count)
        return false;
    return live(w, e) && w->present[t][ecsb_handle_index(e)];
}

static size_t component_count(const world *w, ecsb_type t)
{
    return t < w->type_count ? w->held[t] : 0;
}

/*
 * Every slot in order; an entity holding every type of q and none it excludes is a run of
 * one. Its handle, when q asks for it, is a local the handle column points to.
 */
ECSB_INLINE ecsb_status query(world *w, const ecsb_query *q, ecsb_query_fn fn, void *ctx)
{
    uint32_t mask;
    ecsb_status st = ecsb_query_check(q, w->type_count, &mask);
    if (st != ECSB_OK)
        return st;
    void *columns[ECSB_MAX_QUERY_COLUMNS];
    ecsb_entity handle;
    for (uint32_t i = 0; i < w->ids.slots; i++) {
        bool all = true;
        for (uint32_t j = 0; j < q->count; j++)
            all = all && w->present[q->types[j]][i];
        for (uint32_t j = 0; j < q->exclude_count; j++)
            all = all && !w->present[q->exclude[j]][i];
        if (!all)
            continue;
        for (uint32_t j = 0; j < q->count; j++)
            columns[j] = w->values[q->types[j]] + (size_t)i * w->type_size[q->types[j]];
        if (q->entities) {
            handle = ecsb_ids_handle(&w->ids, ID_STRIDE, i);
            columns[q->count] = &handle;
        }
        fn(ctx, 1, columns);
    }
    return ECSB_OK;
}

static bool world_valid(const world *w)
{
    if (!ecsb_ids_valid(&w->ids))
        return false;
    size_t held[ECSB_MAX_TYPES] = {0};
    for (uint32_t i = 0; i < w->ids.slots; i++)
        for (uint32_t t = 0; t < w->type_count; t++) {
            uint8_t p = w->present[t][i];
            if (p > 1 || (p && !ecsb_ids_slot_live(&w->ids, i)))
                return false;
            held[t] += p;
        }
    for (uint32_t t = 0; t < w->type_count; t++)
        if (held[t] != w->held[t])
            return false;
    return true;
}

static size_t world_bytes(const world *w)
{
    size_t per_slot = 0;
    for (uint32_t t = 0; t < w->type_count; t++)
        per_slot += 1 + w->type_size[t];
    return sizeof *w + ecsb_ids_bytes(&w->ids) + per_slot * w->ids.cap;
}

/*
 * Testing aid (ecsb.h): damage invariant `which` so that world_valid sees it; each damage is
 * an XOR, so applying it twice restores the world. Returns 1 when applied, 0 when this world
 * has nothing to damage that way, -1 past the last number.
 *   0 .. 2  the ids' (ecsb_ids_corrupt);  3  type 0's holder count;  4  type 0's presence
 *   byte of the last slot (2 or 3: not a flag).
 */
static int world_corrupt(world *w, unsigned which)
{
    if (which < ECSB_IDS_CORRUPT_COUNT)
        return ecsb_ids_corrupt(&w->ids, which);
    switch (which - ECSB_IDS_CORRUPT_COUNT) {
    case 0:
        w->held[0] ^= 1;
        return 1;
    case 1:
        if (!w->ids.slots)
            return 0;
        w->present[0][w->ids.slots - 1] ^= 2;
        return 1;
    default:
        return -1;
    }
}

#define ECSB_STRATEGY_NAME template
#define ECSB_STRATEGY_SUMMARY "readable baseline to copy: per-type arrays indexed by slot, a presence byte per slot"
#include "harness/strategy_impl.h"
