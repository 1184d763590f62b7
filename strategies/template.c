/*
 * template — the simplest correct strategy: copy this file to start a new one.
 *
 * Idea: entity slots with a generation each (handle = slot index + generation); per component
 * type, a value array indexed by slot and a byte per slot saying "present". Destroyed slots go
 * on a LIFO free list threaded through `next_free`.
 *
 * Costs: create/destroy O(1) (destroy also clears K presence bytes); add/remove/get/has O(1),
 * one generation check plus one presence byte; each/join walk every slot ever used,
 * O(highest slot), whether or not it holds the type.
 * Memory per entity: 8 B (generation + free link) + per type (size + 1) B, for every slot ever
 * used, live or not.
 * Wins: nothing in particular, it is the readable baseline. Loses: sparse types and joins over
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
 */
#include "harness/strategy.h"

#define TEMPLATE_RETIRED UINT32_MAX /* a slot whose generation is used up is never reused */
#define TEMPLATE_NO_SLOT UINT32_MAX

typedef struct world {
    const ecsb_allocator *alloc;
    uint32_t type_count;
    uint32_t type_size[ECSB_MAX_TYPES];
    uint32_t max_entities;
    uint32_t slots;       /* slots ever used: [0, slots) */
    uint32_t capacity;    /* slots allocated */
    uint32_t live;        /* live entities */
    uint32_t free_head;   /* first free slot, TEMPLATE_NO_SLOT if none */
    uint32_t first_generation; /* of a fresh slot: 1, or config->first_generation (tests) */
    uint32_t *generation; /* per slot; the live entity's generation, bumped on destroy */
    uint32_t *next_free;  /* per slot: next free slot while free */
    uint8_t *present[ECSB_MAX_TYPES]; /* per type, per slot: 1 when held */
    unsigned char *values[ECSB_MAX_TYPES]; /* per type, per slot: the value */
    size_t held[ECSB_MAX_TYPES];          /* per type: holders */
} world;

/* The slot a handle names, or TEMPLATE_NO_SLOT when it is not a live entity. */
ECSB_INLINE uint32_t live_slot(const world *w, ecsb_entity e)
{
    uint32_t i = ecsb_handle_index(e);
    if (i >= w->slots || w->generation[i] != ecsb_handle_generation(e) || w->next_free[i] != 0)
        return TEMPLATE_NO_SLOT;
    return i;
}

static ecsb_status grow(world *w, size_t needed)
{
    size_t cap = ecsb_grow_capacity(w->capacity, needed, w->max_entities);
    if (cap == 0)
        return ECSB_ERR_CAPACITY;
    /* Grow every array; a failure part-way leaves larger blocks but capacity unchanged. */
    if (ecsb_resize(w->alloc, (void **)&w->generation, 4, w->capacity, cap) ||
        ecsb_resize(w->alloc, (void **)&w->next_free, 4, w->capacity, cap))
        return ECSB_ERR_NOMEM;
    for (uint32_t t = 0; t < w->type_count; t++)
        if (ecsb_resize(w->alloc, (void **)&w->present[t], 1, w->capacity, cap) ||
            ecsb_resize(w->alloc, (void **)&w->values[t], w->type_size[t], w->capacity, cap))
            return ECSB_ERR_NOMEM;
    w->capacity = (uint32_t)cap;
    return ECSB_OK;
}

static void world_fini(world *w)
{
    /* The blocks may be larger than capacity after a failed grow; free needs no exact size. */
    ecsb_release(w->alloc, w->generation, (size_t)w->capacity * 4);
    ecsb_release(w->alloc, w->next_free, (size_t)w->capacity * 4);
    for (uint32_t t = 0; t < w->type_count; t++) {
        ecsb_release(w->alloc, w->present[t], w->capacity);
        ecsb_release(w->alloc, w->values[t], (size_t)w->capacity * w->type_size[t]);
    }
    memset(w, 0, sizeof *w);
}

static ecsb_status world_init(world *w, const ecsb_world_config *config)
{
    ecsb_status st = ecsb_config_check(config);
    if (st != ECSB_OK)
        return st;
    memset(w, 0, sizeof *w);
    w->alloc = ecsb_allocator_or_default(config->allocator);
    w->type_count = config->type_count;
    memcpy(w->type_size, config->type_size, sizeof w->type_size);
    w->max_entities = config->max_entities ? config->max_entities : ECSB_MAX_ENTITIES;
    w->free_head = TEMPLATE_NO_SLOT;
    w->first_generation = config->first_generation ? config->first_generation : 1;
    if (config->initial_capacity && (st = grow(w, config->initial_capacity)) != ECSB_OK) {
        world_fini(w);
        return st;
    }
    return ECSB_OK;
}

ECSB_INLINE ecsb_status entity_create(world *w, ecsb_entity *out)
{
    *out = ECSB_ENTITY_NULL;
    if (w->live >= w->max_entities)
        return ECSB_ERR_CAPACITY;
    uint32_t i = w->free_head;
    if (i != TEMPLATE_NO_SLOT) {
        w->free_head = w->next_free[i] == TEMPLATE_NO_SLOT - 1 ? TEMPLATE_NO_SLOT
                                                                : w->next_free[i] - 1;
    } else {
        if (w->slots == w->capacity) {
            ecsb_status st = grow(w, (size_t)w->slots + 1);
            if (st != ECSB_OK)
                return st;
        }
        i = w->slots++;
        w->generation[i] = w->first_generation; /* never 0, so no handle is null */
        for (uint32_t t = 0; t < w->type_count; t++)
            w->present[t][i] = 0;
    }
    w->next_free[i] = 0; /* 0 = live; a free slot stores (next free + 1) */
    w->live++;
    *out = ecsb_handle_make(i, w->generation[i]);
    return ECSB_OK;
}

ECSB_INLINE ecsb_status entity_destroy(world *w, ecsb_entity e)
{
    uint32_t i = live_slot(w, e);
    if (i == TEMPLATE_NO_SLOT)
        return ECSB_ERR_STALE;
    for (uint32_t t = 0; t < w->type_count; t++) {
        w->held[t] -= w->present[t][i];
        w->present[t][i] = 0;
    }
    w->live--;
    if (w->generation[i] == UINT32_MAX) { /* the next would wrap to 0 */
        w->next_free[i] = TEMPLATE_RETIRED; /* not live, never reused */
        return ECSB_OK;
    }
    w->generation[i]++;
    w->next_free[i] = w->free_head == TEMPLATE_NO_SLOT ? TEMPLATE_NO_SLOT - 1 : w->free_head + 1;
    w->free_head = i;
    return ECSB_OK;
}

static bool entity_alive(const world *w, ecsb_entity e)
{
    return live_slot(w, e) != TEMPLATE_NO_SLOT;
}

static size_t entity_count(const world *w) { return w->live; }

ECSB_INLINE ecsb_status component_add(world *w, ecsb_entity e, ecsb_type t, void **value_out)
{
    *value_out = NULL;
    if (t >= w->type_count)
        return ECSB_ERR_TYPE;
    uint32_t i = live_slot(w, e);
    if (i == TEMPLATE_NO_SLOT)
        return ECSB_ERR_STALE;
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
    uint32_t i = live_slot(w, e);
    if (i == TEMPLATE_NO_SLOT)
        return ECSB_ERR_STALE;
    if (!w->present[t][i])
        return ECSB_ERR_ABSENT;
    w->present[t][i] = 0;
    w->held[t]--;
    return ECSB_OK;
}

ECSB_INLINE void *component_get(world *w, ecsb_entity e, ecsb_type t)
{
    if (t >= w->type_count)
        return NULL;
    uint32_t i = live_slot(w, e);
    if (i == TEMPLATE_NO_SLOT || !w->present[t][i])
        return NULL;
    return w->values[t] + (size_t)i * w->type_size[t];
}

ECSB_INLINE bool component_has(const world *w, ecsb_entity e, ecsb_type t)
{
    if (t >= w->type_count)
        return false;
    uint32_t i = live_slot(w, e);
    return i != TEMPLATE_NO_SLOT && w->present[t][i];
}

static size_t component_count(const world *w, ecsb_type t)
{
    return t < w->type_count ? w->held[t] : 0;
}

ECSB_INLINE void each(world *w, ecsb_type t, ecsb_each_fn fn, void *ctx)
{
    if (t >= w->type_count)
        return;
    const uint8_t *present = w->present[t];
    unsigned char *values = w->values[t];
    size_t size = w->type_size[t];
    for (uint32_t i = 0; i < w->slots; i++)
        if (present[i])
            fn(ctx, ecsb_handle_make(i, w->generation[i]), values + i * size);
}

ECSB_INLINE void join(world *w, ecsb_type a, ecsb_type b, ecsb_join_fn fn, void *ctx)
{
    if (a >= w->type_count || b >= w->type_count)
        return;
    const uint8_t *pa = w->present[a], *pb = w->present[b];
    unsigned char *va = w->values[a], *vb = w->values[b];
    size_t sa = w->type_size[a], sb = w->type_size[b];
    for (uint32_t i = 0; i < w->slots; i++)
        if (pa[i] & pb[i])
            fn(ctx, ecsb_handle_make(i, w->generation[i]), va + i * sa, vb + i * sb);
}

/* Every slot in order; an entity holding every type of q is a run of one. */
ECSB_INLINE ecsb_status query(world *w, const ecsb_query *q, ecsb_query_fn fn, void *ctx)
{
    uint32_t mask;
    ecsb_status st = ecsb_query_check(q, w->type_count, &mask);
    if (st != ECSB_OK)
        return st;
    void *columns[ECSB_MAX_QUERY_TYPES];
    for (uint32_t i = 0; i < w->slots; i++) {
        bool all = true;
        for (uint32_t j = 0; j < q->count; j++)
            all = all && w->present[q->types[j]][i];
        if (!all)
            continue;
        for (uint32_t j = 0; j < q->count; j++)
            columns[j] = w->values[q->types[j]] + (size_t)i * w->type_size[q->types[j]];
        fn(ctx, 1, columns);
    }
    return ECSB_OK;
}

static bool world_valid(const world *w)
{
    if (w->slots > w->capacity || w->live > w->slots || w->live > w->max_entities)
        return false;
    size_t live = 0, free_count = 0, held[ECSB_MAX_TYPES] = {0};
    for (uint32_t i = 0; i < w->slots; i++) {
        bool is_live = w->next_free[i] == 0;
        live += is_live;
        for (uint32_t t = 0; t < w->type_count; t++) {
            if (w->present[t][i] > 1 || (w->present[t][i] && !is_live))
                return false;
            held[t] += w->present[t][i];
        }
    }
    for (uint32_t i = w->free_head; i != TEMPLATE_NO_SLOT; free_count++) {
        if (i >= w->slots || w->next_free[i] == 0 || w->next_free[i] == TEMPLATE_RETIRED ||
            free_count > w->slots)
            return false;
        i = w->next_free[i] == TEMPLATE_NO_SLOT - 1 ? TEMPLATE_NO_SLOT : w->next_free[i] - 1;
    }
    for (uint32_t t = 0; t < w->type_count; t++)
        if (held[t] != w->held[t])
            return false;
    return live == w->live;
}

static size_t world_bytes(const world *w)
{
    size_t per_slot = 8;
    for (uint32_t t = 0; t < w->type_count; t++)
        per_slot += 1 + w->type_size[t];
    return sizeof *w + per_slot * w->capacity;
}

/*
 * Testing aid (ecsb.h): damage invariant `which` so that world_valid sees it; each damage is
 * an XOR, so applying it twice restores the world. Returns 1 when applied, 0 when this world
 * has nothing to damage that way, -1 past the last number.
 *   0  the live count;  1  type 0's holder count;  2  type 0's presence byte of the last
 *   slot (2 or 3: not a flag);  3  the free list's first link (out of range).
 */
static int world_corrupt(world *w, unsigned which)
{
    switch (which) {
    case 0:
        w->live ^= 1;
        return 1;
    case 1:
        w->held[0] ^= 1;
        return 1;
    case 2:
        if (!w->slots)
            return 0;
        w->present[0][w->slots - 1] ^= 2;
        return 1;
    case 3:
        if (w->free_head == TEMPLATE_NO_SLOT)
            return 0;
        w->next_free[w->free_head] ^= 0x80000000u;
        return 1;
    default:
        return -1;
    }
}

#define ECSB_STRATEGY_NAME template
#define ECSB_STRATEGY_SUMMARY "readable baseline to copy: per-type arrays indexed by slot, a presence byte per slot"
#include "harness/strategy_impl.h"
