/*
 * entity_ids.h — entity slots with generations, the free list and retirement: the id part of
 * every strategy whose point is not a different id scheme (paged_sparse_set keeps EnTT's
 * 32-bit versioned ids, flat_map its never-reused ids; their headers say why).
 *
 * A handle has the shape of harness/strategy.h: slot index in the low 32 bits, generation
 * (never 0, so no handle is ECSB_ENTITY_NULL) in the high 32. Each slot is a record of
 * `stride` 64-bit words at word + i * stride: word 0 is the slot's id word, the rest belong to
 * the owning strategy (archetype keeps an entity's table and row there, object_pool its object
 * per type), so one cache line answers both "is it live" and "where is it". Id word of slot i:
 *   live     the entity's handle itself (generation << 32 | i);
 *   free     next generation << 32 | the next free slot (ECSB_IDS_NONE at the end);
 *   retired  ECSB_IDS_RETIRED (generation 0): the slot lived its last generation.
 * So "is this handle live" is one load and one 64-bit compare (word == handle; a free word's
 * low half is never its own index), and a live slot's handle is one load.
 *
 * Free list: LIFO, threaded through the free slots' id words. The slot destroyed last is
 * reused first, while its record and its lines in the strategy's per-slot arrays are still in
 * cache, and the list needs one head and no tail. (FIFO would spread generations over more
 * slots, postponing retirement, but 2^32 generations per slot make retirement rare anyway.)
 *
 * Retirement: a slot whose generation would wrap to 0 (whose next handle would alias the
 * oldest ones) is retired, never reused. Retired slots still count against max_entities, so
 * ECSB_ERR_CAPACITY also means "the id space is used up". config->first_generation (a testing
 * aid) starts fresh slots near the end of their generations.
 *
 * Growth: a fresh slot past the capacity grows the records by one realloc, then calls the
 * strategy's hook to grow its own per-slot arrays to the same capacity; on any failure the
 * ids are unchanged (the block may have grown, the capacity has not) and the create returns
 * ECSB_ERR_NOMEM. New records' extra words are left to the hook.
 *
 * Costs: create pops the head's id word or appends (1 line); destroy writes 1 word; alive and
 * handle_of 1 load. Memory: 8 * stride bytes per slot ever used (geometric growth: up to 2x).
 * The hot functions take `stride` as an argument: pass the constant the ids were initialised
 * with, so the compiler folds the multiply (object_pool passes its run-time stride).
 */
#ifndef ECSB_ENTITY_IDS_H
#define ECSB_ENTITY_IDS_H

#include "harness/strategy.h"

#define ECSB_IDS_NONE UINT32_MAX                     /* free-list end; empty free list */
#define ECSB_IDS_RETIRED ((uint64_t)ECSB_IDS_NONE)   /* id word of a retired slot */
#define ECSB_IDS_GEN_MASK 0xffffffff00000000ull      /* the generation half of an id word */
#define ECSB_IDS_CORRUPT_COUNT 3u                    /* damages ecsb_ids_corrupt knows */

typedef struct ecsb_ids {
    const ecsb_allocator *alloc;
    uint64_t *word;            /* per slot a record of `stride` words; word 0 is the id word */
    uint32_t stride;           /* 64-bit words per record, >= 1 */
    uint32_t slots;            /* slots ever used: [0, slots) */
    uint32_t cap;              /* records allocated */
    uint32_t live;             /* live entities */
    uint32_t free_head;        /* first free slot, ECSB_IDS_NONE when none */
    uint32_t max_entities;     /* live entities at most; also slots at most */
    uint32_t first_generation; /* of a fresh slot: 1, or config->first_generation (tests) */
} ecsb_ids;

/* Grows the owner's per-slot arrays from old_cap to cap slots (cap > old_cap); a failure
 * leaves the owner's contents as they were (its blocks may be larger). */
typedef ecsb_status (*ecsb_ids_grow_fn)(void *owner, size_t old_cap, size_t cap);

/* ---- set-up ---------------------------------------------------------------------------- */

/*
 * Check config (ecsb_config_check) and set up empty ids with records of `stride` words.
 * Reserves nothing: the owner calls ecsb_ids_reserve for config->initial_capacity.
 */
static inline ecsb_status ecsb_ids_init(ecsb_ids *ids, const ecsb_world_config *config,
                                        uint32_t stride)
{
    ecsb_status st = ecsb_config_check(config);
    if (st != ECSB_OK)
        return st;
    memset(ids, 0, sizeof *ids);
    ids->alloc = ecsb_allocator_or_default(config->allocator);
    ids->stride = stride;
    ids->free_head = ECSB_IDS_NONE;
    ids->max_entities = config->max_entities ? config->max_entities : ECSB_MAX_ENTITIES;
    ids->first_generation = config->first_generation ? config->first_generation : 1;
    return ECSB_OK;
}

/*
 * The opening of world_init for a world built on these ids (a struct with members `ids`,
 * `alloc` and `type_count`): the world zeroed, its ids set up with records of `stride` words,
 * its allocator and type count taken from config; returns from world_init on a bad config.
 * A macro because every strategy's world is a type of its own.
 */
#define ECSB_IDS_WORLD_INIT(w, config, stride)                                                 \
    do {                                                                                       \
        memset((w), 0, sizeof *(w));                                                           \
        ecsb_status ids_status_ = ecsb_ids_init(&(w)->ids, (config), (stride));                \
        if (ids_status_ != ECSB_OK)                                                            \
            return ids_status_;                                                                \
        (w)->alloc = (w)->ids.alloc;                                                           \
        (w)->type_count = (config)->type_count;                                                \
    } while (0)

/* The closing of world_fini for such a world, after it has released its own blocks: the ids
 * released, the world zeroed. */
#define ECSB_IDS_WORLD_FINI(w)                                                                 \
    do {                                                                                       \
        ecsb_ids_fini(&(w)->ids);                                                              \
        memset((w), 0, sizeof *(w));                                                           \
    } while (0)

static inline void ecsb_ids_fini(ecsb_ids *ids)
{
    ecsb_release(ids->alloc, ids->word, (size_t)ids->cap * ids->stride * sizeof(uint64_t));
    ids->word = NULL;
    ids->cap = ids->slots = ids->live = 0;
    ids->free_head = ECSB_IDS_NONE;
}

/* Grow to `cap` records (the owner's arrays through grow, may be NULL); see the header. */
static inline ecsb_status ecsb_ids_grow_to(ecsb_ids *ids, size_t cap, ecsb_ids_grow_fn grow,
                                           void *owner)
{
    if (cap <= ids->cap)
        return ECSB_OK;
    if (cap > ids->max_entities)
        return ECSB_ERR_CAPACITY;
    void *block = ids->word;
    ecsb_status st = ecsb_resize(ids->alloc, &block, (size_t)ids->stride * sizeof(uint64_t),
                                 ids->cap, cap);
    if (st != ECSB_OK)
        return st;
    ids->word = block;
    if (grow && (st = grow(owner, ids->cap, cap)) != ECSB_OK)
        return st;
    ids->cap = (uint32_t)cap;
    return ECSB_OK;
}

/* Reserve config->initial_capacity (capped at max_entities) records, when it asks for any. */
static inline ecsb_status ecsb_ids_reserve(ecsb_ids *ids, const ecsb_world_config *config,
                                           ecsb_ids_grow_fn grow, void *owner)
{
    size_t cap = config->initial_capacity;
    return ecsb_ids_grow_to(ids, cap < ids->max_entities ? cap : ids->max_entities, grow,
                            owner);
}

/* ---- the hot functions ----------------------------------------------------------------- */

/* Slot i's record: its id word, then the owner's stride - 1 words. */
ECSB_INLINE uint64_t *ecsb_ids_record(const ecsb_ids *ids, uint32_t stride, uint32_t i)
{
    return ids->word + (size_t)i * stride;
}

/* True when e names a live entity. */
ECSB_INLINE bool ecsb_ids_alive(const ecsb_ids *ids, uint32_t stride, ecsb_entity e)
{
    uint32_t i = ecsb_handle_index(e);
    return i < ids->slots && *ecsb_ids_record(ids, stride, i) == e;
}

/* The handle of live slot i. */
ECSB_INLINE ecsb_entity ecsb_ids_handle(const ecsb_ids *ids, uint32_t stride, uint32_t i)
{
    return *ecsb_ids_record(ids, stride, i);
}

/* create's slow path: out of line, so create stays small where it is inlined. */
static __attribute__((noinline, unused)) ecsb_status ecsb_ids_grow(ecsb_ids *ids,
                                                                   ecsb_ids_grow_fn grow,
                                                                   void *owner)
{
    size_t cap = ecsb_grow_capacity(ids->cap, (size_t)ids->slots + 1, ids->max_entities);
    return cap ? ecsb_ids_grow_to(ids, cap, grow, owner) : ECSB_ERR_CAPACITY;
}

/*
 * A new live entity into *out (ECSB_ENTITY_NULL on failure): the free list's head, or a fresh
 * slot (growing through `grow` when the records are full). ECSB_ERR_CAPACITY when
 * max_entities live or every slot is live or retired; ECSB_ERR_NOMEM; the ids unchanged.
 */
ECSB_INLINE ecsb_status ecsb_ids_create(ecsb_ids *ids, uint32_t stride, ecsb_ids_grow_fn grow,
                                        void *owner, ecsb_entity *out)
{
    *out = ECSB_ENTITY_NULL;
    if (ECSB_UNLIKELY(ids->live >= ids->max_entities))
        return ECSB_ERR_CAPACITY;
    uint32_t i = ids->free_head;
    uint64_t gen;
    if (i != ECSB_IDS_NONE) {
        uint64_t word = *ecsb_ids_record(ids, stride, i);
        ids->free_head = (uint32_t)word;
        gen = word & ECSB_IDS_GEN_MASK;
    } else {
        if (ECSB_UNLIKELY(ids->slots == ids->cap)) {
            ecsb_status st = ecsb_ids_grow(ids, grow, owner);
            if (st != ECSB_OK)
                return st;
        }
        i = ids->slots++;
        gen = (uint64_t)ids->first_generation << 32;
    }
    *ecsb_ids_record(ids, stride, i) = gen | i;
    ids->live++;
    *out = gen | i;
    return ECSB_OK;
}

/* Free live entity e's slot (the caller has checked ecsb_ids_alive): onto the free list with
 * the next generation, or retired when its generations are used up. */
ECSB_INLINE void ecsb_ids_free(ecsb_ids *ids, uint32_t stride, ecsb_entity e)
{
    uint32_t i = ecsb_handle_index(e), gen = ecsb_handle_generation(e);
    uint64_t *word = ecsb_ids_record(ids, stride, i);
    if (ECSB_UNLIKELY(gen == UINT32_MAX)) {
        *word = ECSB_IDS_RETIRED; /* the next generation would wrap to 0: never reuse */
    } else {
        *word = (uint64_t)(gen + 1) << 32 | ids->free_head;
        ids->free_head = i;
    }
    ids->live--;
}

/*
 * Undo the create that issued e, the last create or free of these ids (spawn's rollback): the
 * slot goes back where it came from, so the next create issues e again. A fresh slot is the
 * last one and at first_generation (a freed slot's generation is always above it); else e
 * was the free list's head.
 */
ECSB_INLINE void ecsb_ids_uncreate(ecsb_ids *ids, uint32_t stride, ecsb_entity e)
{
    uint32_t i = ecsb_handle_index(e);
    if (i + 1 == ids->slots && ecsb_handle_generation(e) == ids->first_generation) {
        ids->slots--;
    } else {
        *ecsb_ids_record(ids, stride, i) = (e & ECSB_IDS_GEN_MASK) | ids->free_head;
        ids->free_head = i;
    }
    ids->live--;
}

static inline size_t ecsb_ids_count(const ecsb_ids *ids) { return ids->live; }

/* Bytes of the records (the owner adds its own and sizeof its world). */
static inline size_t ecsb_ids_bytes(const ecsb_ids *ids)
{
    return (size_t)ids->cap * ids->stride * sizeof(uint64_t);
}

/* ---- checks ---------------------------------------------------------------------------- */

/* True when slot i (< slots) is live; for the owner's world_valid. */
static inline bool ecsb_ids_slot_live(const ecsb_ids *ids, uint32_t i)
{
    return (uint32_t)*ecsb_ids_record(ids, ids->stride, i) == i; /* retired: low NONE */
}

/*
 * Every invariant of the ids, O(slots): counts within bounds; each id word live (generation
 * >= first_generation), free (generation > first_generation, link in range) or retired;
 * the live count agrees; the free list reaches exactly the free slots, without a cycle.
 */
static inline bool ecsb_ids_valid(const ecsb_ids *ids)
{
    if (ids->stride == 0 || ids->first_generation == 0 || ids->max_entities == 0 ||
        ids->max_entities > ECSB_MAX_ENTITIES || ids->cap > ids->max_entities ||
        ids->slots > ids->cap || ids->live > ids->slots || (ids->cap && !ids->word))
        return false;
    size_t live = 0, free_slots = 0;
    for (uint32_t i = 0; i < ids->slots; i++) {
        uint64_t word = *ecsb_ids_record(ids, ids->stride, i);
        uint32_t gen = (uint32_t)(word >> 32), low = (uint32_t)word;
        if (word == ECSB_IDS_RETIRED)
            continue;
        if (low == i) {
            if (gen < ids->first_generation)
                return false;
            live++;
        } else {
            if (gen <= ids->first_generation || (low != ECSB_IDS_NONE && low >= ids->slots))
                return false;
            free_slots++;
        }
    }
    if (live != ids->live)
        return false;
    size_t listed = 0;
    for (uint32_t i = ids->free_head; i != ECSB_IDS_NONE; listed++) {
        if (i >= ids->slots || listed == free_slots)
            return false; /* out of range, or a cycle / a slot listed twice */
        uint64_t word = *ecsb_ids_record(ids, ids->stride, i);
        if ((uint32_t)word == i || word == ECSB_IDS_RETIRED)
            return false; /* a live or retired slot on the free list */
        i = (uint32_t)word;
    }
    return listed == free_slots;
}

/*
 * Testing aid for the owner's world_corrupt: reversible damage number `which` (0 ..
 * ECSB_IDS_CORRUPT_COUNT - 1) that ecsb_ids_valid catches. 1 applied, 0 nothing to damage.
 *   0  the live count;  1  the last slot's id word (low half out of range or not its index);
 *   2  the free list's first link (out of range).
 */
static inline int ecsb_ids_corrupt(ecsb_ids *ids, unsigned which)
{
    switch (which) {
    case 0:
        ids->live ^= 1;
        return 1;
    case 1:
        if (!ids->slots)
            return 0;
        *ecsb_ids_record(ids, ids->stride, ids->slots - 1) ^= 0x80000000u;
        return 1;
    case 2:
        if (ids->free_head == ECSB_IDS_NONE)
            return 0;
        *ecsb_ids_record(ids, ids->stride, ids->free_head) ^= 0x80000000u;
        return 1;
    default:
        return -1;
    }
}

#endif /* ECSB_ENTITY_IDS_H */
