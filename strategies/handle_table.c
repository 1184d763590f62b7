/*
 * handle_table — article 002's "Approach 2: Handles", sokol style.
 *
 * Idea: per component type, the values live in a dense array kept packed by swap-remove, with
 * a parallel dense array of owners (the entity record each value belongs to). A value moves
 * whenever a hole is filled, so nobody points at it directly: a component handle names a slot
 * in the type's lookup table, and the slot says where the value is now. Slot and handle are
 * both {index, generation}; freeing a slot bumps its generation, so a stale handle no longer
 * matches. Free slots form a LIFO list threaded through the slots themselves; slot 0 is
 * reserved (generation never 0) so the all-zero handle means "no component" and fails the
 * generation check without a branch of its own. An entity is a record holding its id word
 * and one component handle per type: the record is the entity's id record in the shared id
 * unit harness/entity_ids.h (entity handle = record index + generation; free list and
 * retirement of a record whose generation would wrap: see there). A component slot's
 * generation wraps past 0 to 1: component
 * handles live only in their owner's record, which forgets a handle when it lets it go, so no
 * stale component handle exists to match, and slots are never retired (add never runs out).
 *
 *   record r:   [id word (entity_ids.h)] [handle type 0] ... [handle type K-1]
 *   type t:     slots[h.index] = {dense position, generation}  (free: {next free, generation})
 *               values[pos], owners[pos] = r                   (packed, count of them)
 *
 * Costs (cache lines; "->" is a dependent load, a miss each when the order is random):
 *   create   the free-list head record (LIFO; its link gives the next), or a fresh record.
 *   destroy  record (K handles in its 8 + 8K bytes), then a remove per type it holds.
 *   add      record; the popped free slot (LIFO, its link gives the next); value and owner at
 *            the dense tails: 4 lines, none waiting on another.
 *   remove   record -> slot (gives pos); beside it the tail's owner -> its record -> its slot
 *            (repointed to pos); writes at values/owners[pos] and the freed slot: about 6
 *            lines, dependent chains of 2 and 3.
 *   get      record -> slot -> value (3 dependent).   has: record -> slot (2 dependent).
 *   query    walks the query type with the fewest holders densely: owner (sequential) ->
 *            record -> per other type one handle -> slot -> value chain, 3 dependent loads
 *            per visited element; a block of HT_BLOCK lead elements in step with every other
 *            type (filled in the same order) is one run; runs of one otherwise. One type:
 *            sequential over its values. Handles, when asked: the owner's record per match
 *            (already read when the query has other types), copied to a buffer.
 * Memory per entity: 8 + 8K bytes of record for every record ever used (K = type count), plus
 * per component held: value + 4 (owner) + 8 (slot), with capacities grown by doubling.
 * E.g. platformer (K = 1, int32): 32 B; dual_iterate (K = 2, double on all, int32 on half):
 * 52 B in use, 60 B allocated (initial_capacity reserves every type for every entity).
 * Wins: add/remove are O(1) with no search or shifting; values are packed, so a one-type query
 * is a plain dense walk; handles survive any reshuffling and stale ones are caught. Loses: get
 * and multi-type queries pay one more dependent load than sparse_set (record, then slot, then
 * value), a record costs 8 + 8K bytes where sparse_set's sparse entries cost 4 per type, and
 * queries over randomly ordered entities are bounded by those misses.
 * Tags (size 0): owners and slots as any type (membership needs the handle and the dense
 * owner list a query can lead with), no value array: 12 B per holder instead of size + 12;
 * the values pointer is ECSB_TAG, stride 0. Exclusion: per visited lead element, one more
 * record handle -> slot check per excluded type (the record is already in cache: it is read
 * for the other types); a block in step holds no excluded type, else it goes one by one.
 * Tuning: none by software prefetch (the suite shows prefetching as a separately named line,
 * sparse_set_prefetch, never inside a layout's name). Blocks of HT_BLOCK lead elements found
 * in step with every other type go out as one run: the gathering of consecutive matches that
 * every layout finding matches one by one does (ecsb_runs, harness/strategy.h).
 */
#include "harness/entity_ids.h"

#define HT_RESERVED_GENERATION UINT32_MAX /* slot 0's: no handle carries it with index 0 */

/*
 * The one shape of this file: an index and a generation. As a component handle: {slot,
 * generation}, all zero = none. As a slot: {dense position, generation} while live, {next free
 * slot or 0, generation} while free.
 */
typedef struct ht_ref {
    uint32_t index;
    uint32_t generation;
} ht_ref;

/* One component type's storage. */
typedef struct ht_type {
    unsigned char *values; /* dense values, `count` of them, `size` bytes each */
    uint32_t *owners;      /* dense: the record index of each value's entity */
    ht_ref *slots;         /* lookup table, [0, slots_used); slot 0 reserved */
    uint32_t size;         /* bytes per value */
    uint32_t count;        /* values held */
    uint32_t dense_cap;    /* min(value_cap, owner_cap): values that fit */
    uint32_t value_cap;    /* values allocated */
    uint32_t owner_cap;    /* owners allocated */
    uint32_t slots_used;   /* slots ever handed out, plus the reserved slot 0 */
    uint32_t slot_cap;     /* slots allocated */
    uint32_t free_slot;    /* first free slot, 0 when none */
} ht_type;

typedef struct world {
    ecsb_ids ids;             /* entity records: id word + K handles (harness/entity_ids.h) */
    const ecsb_allocator *alloc;
    ht_ref *records;          /* = ids.word: record i at records + i * stride, its handles at 1.. */
    uint32_t stride;          /* ht_refs per record: 1 + type_count (= ids.stride) */
    uint32_t type_count;
    ht_type types[ECSB_MAX_TYPES];
} world;

ECSB_INLINE uint64_t ht_bits(ht_ref r)
{
    uint64_t u;
    memcpy(&u, &r, sizeof u);
    return u;
}

ECSB_INLINE ht_ref *record_at(const world *w, uint32_t r)
{
    return w->records + (size_t)r * w->stride;
}

/* The handle of record r's live entity: its id word (read as the ids write it). */
ECSB_INLINE ecsb_entity record_handle(const ht_ref *records, size_t stride, uint32_t r)
{
    return *(const uint64_t *)(const void *)(records + (size_t)r * stride);
}

/* The record a handle names, or NULL when it is not a live entity: one load, one compare. */
ECSB_INLINE ht_ref *live_record(const world *w, ecsb_entity e)
{
    return ecsb_ids_alive(&w->ids, w->stride, e) ? record_at(w, ecsb_handle_index(e)) : NULL;
}

/* ---- growth: every array an operation needs is grown before anything changes -------------- */

/* The ids' grow hook: the records moved; the new ones hold no component handle. */
static ecsb_status grow_records(void *owner, size_t old_cap, size_t cap)
{
    world *w = owner;
    w->records = (ht_ref *)(void *)w->ids.word;
    memset(record_at(w, (uint32_t)old_cap), 0, (cap - old_cap) * w->stride * sizeof(ht_ref));
    return ECSB_OK;
}

/* Slots in use never exceed the holders plus slot 0, so `needed` is always within the limit. */
static ecsb_status grow_slots(world *w, ht_type *ty, size_t needed)
{
    size_t cap = ecsb_grow_capacity(ty->slot_cap, needed, (size_t)w->ids.max_entities + 1);
    if (ecsb_resize(w->alloc, (void **)&ty->slots, sizeof(ht_ref), ty->slot_cap, cap))
        return ECSB_ERR_NOMEM;
    ty->slot_cap = (uint32_t)cap;
    return ECSB_OK;
}

/* Values and owners grow separately so each block's size stays exact when one fails. */
static ecsb_status grow_dense(world *w, ht_type *ty, size_t needed)
{
    size_t cap = ecsb_grow_capacity(ty->dense_cap, needed, w->ids.max_entities);
    if (cap == 0)
        return ECSB_ERR_CAPACITY;
    if (ty->value_cap < cap) {
        if (ty->size && /* a tag's values: ECSB_TAG, nothing to grow */
            ecsb_resize(w->alloc, (void **)&ty->values, ty->size, ty->value_cap, cap))
            return ECSB_ERR_NOMEM;
        ty->value_cap = (uint32_t)cap;
    }
    if (ty->owner_cap < cap) {
        if (ecsb_resize(w->alloc, (void **)&ty->owners, sizeof(uint32_t), ty->owner_cap, cap))
            return ECSB_ERR_NOMEM;
        ty->owner_cap = (uint32_t)cap;
    }
    ty->dense_cap = (uint32_t)cap;
    return ECSB_OK;
}

/* ---- world ------------------------------------------------------------------------------- */

static void world_fini(world *w)
{
    for (uint32_t t = 0; t < w->type_count; t++) {
        ht_type *ty = &w->types[t];
        if (ty->size)
            ecsb_release(w->alloc, ty->values, (size_t)ty->value_cap * ty->size);
        ecsb_release(w->alloc, ty->owners, (size_t)ty->owner_cap * sizeof(uint32_t));
        ecsb_release(w->alloc, ty->slots, (size_t)ty->slot_cap * sizeof(ht_ref));
    }
    ECSB_IDS_WORLD_FINI(w);
}

static ecsb_status world_init(world *w, const ecsb_world_config *config)
{
    memset(w, 0, sizeof *w);
    ecsb_status st = ecsb_ids_init(&w->ids, config, 1 + config->type_count);
    if (st != ECSB_OK)
        return st;
    w->alloc = w->ids.alloc;
    w->type_count = config->type_count;
    w->stride = w->ids.stride;
    st = ecsb_ids_reserve(&w->ids, config, grow_records, w);
    size_t reserve = w->ids.cap;
    for (uint32_t t = 0; t < w->type_count && st == ECSB_OK; t++) {
        ht_type *ty = &w->types[t];
        ty->size = config->type_size[t];
        if (ty->size == 0)
            ty->values = ECSB_TAG; /* a tag: every value pointer is ECSB_TAG (stride 0) */
        /* Slot 0 always exists, so the empty handle can be checked like any other. */
        if ((st = grow_slots(w, ty, reserve + 1)) != ECSB_OK)
            break;
        ty->slots[0] = (ht_ref){0, HT_RESERVED_GENERATION};
        ty->slots_used = 1;
        if (reserve)
            st = grow_dense(w, ty, reserve);
    }
    if (st != ECSB_OK)
        world_fini(w);
    return st;
}

/* ---- entities ---------------------------------------------------------------------------- */

ECSB_INLINE ecsb_status entity_create(world *w, ecsb_entity *out)
{
    return ecsb_ids_create(&w->ids, w->stride, grow_records, w, out);
}

/*
 * The hot functions below read the world's fields into locals before their first store: a
 * store through a uint32_t or ht_ref pointer may alias those fields as far as the compiler
 * knows, and would otherwise force every later field to be loaded again.
 */

/* Copy one value; the usual sizes become plain moves instead of a memcpy call. */
ECSB_INLINE void copy_value(unsigned char *restrict dst, const unsigned char *restrict src,
                            size_t size)
{
    switch (size) {
    case 4: memcpy(dst, src, 4); break;
    case 8: memcpy(dst, src, 8); break;
    case 16: memcpy(dst, src, 16); break;
    default: memcpy(dst, src, size); break;
    }
}

/* Detach the component `h` (valid, held by record `rec`) of type t: swap-remove, free slot. */
ECSB_INLINE void detach(world *w, uint32_t t, ht_ref *rec, ht_ref h)
{
    ht_type *ty = &w->types[t];
    ht_ref *slots = ty->slots;
    uint32_t *owners = ty->owners;
    unsigned char *values = ty->values;
    size_t size = ty->size;
    uint32_t last = ty->count - 1, free_slot = ty->free_slot;
    uint32_t pos = slots[h.index].index;
    if (pos != last) {
        /* Fill the hole with the tail value and point the tail's slot at its new place. */
        uint32_t mover = owners[last];
        uint32_t mover_slot = record_at(w, mover)[1 + t].index;
        copy_value(values + (size_t)pos * size, values + (size_t)last * size, size);
        owners[pos] = mover;
        slots[mover_slot].index = pos;
    }
    ty->count = last;
    uint32_t next = h.generation + 1;
    slots[h.index] = (ht_ref){free_slot, next ? next : 1}; /* 0 means "no component" */
    ty->free_slot = h.index;
    rec[1 + t] = (ht_ref){0, 0};
}

ECSB_INLINE ecsb_status entity_destroy(world *w, ecsb_entity e)
{
    ht_ref *rec = live_record(w, e);
    if (ECSB_UNLIKELY(!rec))
        return ECSB_ERR_STALE;
    for (uint32_t t = 0, k = w->type_count; t < k; t++) {
        ht_ref h = rec[1 + t];
        if (h.generation)
            detach(w, t, rec, h);
    }
    ecsb_ids_free(&w->ids, w->stride, e);
    return ECSB_OK;
}

static bool entity_alive(const world *w, ecsb_entity e) { return live_record(w, e) != NULL; }

static size_t entity_count(const world *w) { return ecsb_ids_count(&w->ids); }

/* ---- components -------------------------------------------------------------------------- */

/* True when the handle names a live component (the empty handle fails on slot 0). */
ECSB_INLINE bool handle_valid(const ht_type *ty, ht_ref h)
{
    return ty->slots[h.index].generation == h.generation;
}

ECSB_INLINE ecsb_status component_add(world *w, ecsb_entity e, ecsb_type t, void **value_out)
{
    *value_out = NULL;
    if (ECSB_UNLIKELY(t >= w->type_count))
        return ECSB_ERR_TYPE;
    ht_ref *rec = live_record(w, e);
    if (ECSB_UNLIKELY(!rec))
        return ECSB_ERR_STALE;
    if (ECSB_UNLIKELY(rec[1 + t].generation))
        return ECSB_ERR_PRESENT;
    ht_type *ty = &w->types[t];
    ecsb_status st;
    if (ECSB_UNLIKELY(ty->count == ty->dense_cap) &&
        (st = grow_dense(w, ty, (size_t)ty->count + 1)) != ECSB_OK)
        return st;
    uint32_t s = ty->free_slot, pos = ty->count, generation;
    ht_ref *slots = ty->slots;
    if (ECSB_LIKELY(s != 0)) {
        ht_ref free = slots[s];
        ty->free_slot = free.index;
        generation = free.generation;
    } else {
        if (ECSB_UNLIKELY(ty->slots_used == ty->slot_cap)) {
            if ((st = grow_slots(w, ty, (size_t)ty->slots_used + 1)) != ECSB_OK)
                return st;
            slots = ty->slots;
        }
        s = ty->slots_used++;
        generation = w->ids.first_generation; /* of a fresh slot too */
    }
    uint32_t *owners = ty->owners;
    unsigned char *value = ty->values + (size_t)pos * ty->size;
    ty->count = pos + 1;
    slots[s] = (ht_ref){pos, generation};
    owners[pos] = ecsb_handle_index(e);
    rec[1 + t] = (ht_ref){s, generation};
    *value_out = value;
    return ECSB_OK;
}

ECSB_INLINE ecsb_status component_remove(world *w, ecsb_entity e, ecsb_type t)
{
    if (ECSB_UNLIKELY(t >= w->type_count))
        return ECSB_ERR_TYPE;
    ht_ref *rec = live_record(w, e);
    if (ECSB_UNLIKELY(!rec))
        return ECSB_ERR_STALE;
    ht_ref h = rec[1 + t];
    if (ECSB_UNLIKELY(!handle_valid(&w->types[t], h)))
        return ECSB_ERR_ABSENT;
    detach(w, t, rec, h);
    return ECSB_OK;
}

/* Undo the create of e, which holds nothing: spawn's rollback (harness/strategy.h). */
ECSB_INLINE void entity_uncreate(world *w, ecsb_entity e)
{
    ecsb_ids_uncreate(&w->ids, w->stride, e);
}

/* spawn: create, then one add per type (values apart: nothing moves); rollback on NOMEM. */
ECSB_SPAWN_BY_ADDS(entity_uncreate)

ECSB_INLINE void *component_get(world *w, ecsb_entity e, ecsb_type t)
{
    if (ECSB_UNLIKELY(t >= w->type_count))
        return NULL;
    const ht_ref *rec = live_record(w, e);
    if (ECSB_UNLIKELY(!rec))
        return NULL;
    const ht_type *ty = &w->types[t];
    ht_ref h = rec[1 + t];
    ht_ref slot = ty->slots[h.index];
    if (ECSB_UNLIKELY(slot.generation != h.generation))
        return NULL;
    return ty->values + (size_t)slot.index * ty->size;
}

ECSB_INLINE bool component_has(const world *w, ecsb_entity e, ecsb_type t)
{
    if (t >= w->type_count)
        return false;
    const ht_ref *rec = live_record(w, e);
    return rec && handle_valid(&w->types[t], rec[1 + t]);
}

static size_t component_count(const world *w, ecsb_type t)
{
    return t < w->type_count ? w->types[t].count : 0;
}

/* ---- iteration --------------------------------------------------------------------------- */

/*
 * A query leads with its type held by the fewest entities: owner -> record -> each other type's
 * handle -> its slot (validated) -> its position. The lead is walked in blocks of HT_BLOCK: a
 * block whose entities sit at consecutive positions, in the same order, in every other type
 * ("in step": types filled in the same order) is one run, and consecutive such blocks join,
 * so a packed world is handed out whole; any other block is walked entity by entity, every
 * match a run of one. Handles, when asked, come from the owners' records. In the arrays indexed by j,
 * entry j is query type j (the query's order).
 * Loops over j carry "#pragma GCC unroll 8" (ECSB_MAX_QUERY_TYPES): where q is a constant they
 * unroll before scalar replacement, so these arrays live in registers.
 */
#define HT_BLOCK 256u /* lead elements per in-step check */

typedef struct query_cols {
    const ht_ref *slots[ECSB_MAX_QUERY_TYPES];
    unsigned char *values[ECSB_MAX_QUERY_TYPES];
    size_t size[ECSB_MAX_QUERY_TYPES];
    uint32_t field[ECSB_MAX_QUERY_TYPES]; /* where a record holds the type's handle */
    const ht_ref *xslots[ECSB_MAX_QUERY_EXCLUDES]; /* excluded type j's slots */
    uint32_t xfield[ECSB_MAX_QUERY_EXCLUDES];      /* and where a record holds its handle */
    uint32_t x;                                    /* excluded types */
} query_cols;

/* Where a query asking for handles finds them (NULL for one that does not ask). */
typedef struct query_handles {
    uint32_t lead;          /* the lead's j */
    const uint32_t *owners; /* the lead's owners */
    const ht_ref *records;
    size_t stride;
} query_handles;

/* The handle of the entity at lead position pos (ecsb_emit_handles). */
ECSB_INLINE ecsb_entity query_handle_at(void *src, size_t pos)
{
    const query_handles *h = src;
    return record_handle(h->records, h->stride, h->owners[pos]);
}

/* Query type j's position of the entity whose record is rec; false when it does not hold it. */
ECSB_INLINE bool query_find(const query_cols *c, const ht_ref *rec, uint32_t j, uint32_t *pos)
{
    ht_ref h = rec[c->field[j]];
    ht_ref slot = c->slots[j][h.index];
    *pos = slot.index;
    return slot.generation == h.generation;
}

/* True when the entity whose record is rec holds one of the query's excluded types. */
ECSB_INLINE bool query_excluded(const query_cols *c, const ht_ref *rec)
{
    bool held = false;
#pragma GCC unroll 4
    for (uint32_t j = 0; j < c->x; j++) {
        ht_ref h = rec[c->xfield[j]];
        held |= c->xslots[j][h.index].generation == h.generation;
    }
    return held;
}

/* Hand fn the run of `count` entities at positions at[j], at[j] + 1, ... of each type. */
ECSB_INLINE void query_emit(const query_cols *c, uint32_t k, const size_t *at, size_t count,
                            const query_handles *h, ecsb_query_fn fn, void *ctx)
{
    void *columns[ECSB_MAX_QUERY_COLUMNS] = {0}; /* (no warning where q is not a constant) */
#pragma GCC unroll 8
    for (uint32_t j = 0; j < k; j++)
        columns[j] = c->values[j] + at[j] * c->size[j];
    if (h)
        ecsb_emit_handles(k, columns, c->size, count, query_handle_at, (void *)h, at[h->lead],
                          fn, ctx);
    else
        fn(ctx, count, columns);
}

/*
 * True when lead positions [d, d + count) are in step with every other query type; then at[j]
 * is type j's position of the entity at lead position d. The ends are compared first.
 */
ECSB_INLINE bool query_block_in_step(const query_cols *c, const ht_ref *restrict records,
                                     size_t stride, const uint32_t *restrict owners, uint32_t k,
                                     uint32_t lead, size_t d, size_t count, size_t *at)
{
    const ht_ref *head = records + (size_t)owners[d] * stride;
    const ht_ref *tail = records + (size_t)owners[d + count - 1] * stride;
#pragma GCC unroll 8
    for (uint32_t j = 0; j < k; j++) {
        uint32_t first, last;
        if (j == lead)
            at[j] = d;
        else if (!query_find(c, head, j, &first) || !query_find(c, tail, j, &last) ||
                 last - first != count - 1)
            return false;
        else
            at[j] = first;
    }
    bool in_step = true;
    for (size_t e = 0; c->x && e < count; e++) /* none of them excluded */
        in_step &= !query_excluded(c, records + (size_t)owners[d + e] * stride);
    for (size_t e = 1; e + 1 < count; e++) {
        const ht_ref *rec = records + (size_t)owners[d + e] * stride;
#pragma GCC unroll 8
        for (uint32_t j = 0; j < k; j++) {
            uint32_t pos;
            if (j != lead)
                in_step &= query_find(c, rec, j, &pos) & (pos == at[j] + e);
        }
    }
    return in_step;
}

/* Lead positions [from, from + count) one by one. */
ECSB_INLINE void query_entities(const query_cols *c, const ht_ref *restrict records,
                                size_t stride, const uint32_t *restrict owners, uint32_t k,
                                uint32_t lead, size_t from, size_t count, bool entities,
                                ecsb_query_fn fn, void *ctx)
{
    const size_t lead_size = c->size[lead];
    unsigned char *lead_value = c->values[lead] + from * lead_size;
    for (size_t pos = from; pos < from + count; pos++, lead_value += lead_size) {
        const ht_ref *rec = records + (size_t)owners[pos] * stride;
        void *columns[ECSB_MAX_QUERY_COLUMNS] = {0}; /* (no warning where q is not a constant) */
        ecsb_entity handle;
        bool all = true;
#pragma GCC unroll 8
        for (uint32_t j = 0; j < k; j++) {
            uint32_t at;
            if (j == lead) {
                columns[j] = lead_value;
                continue;
            }
            if (!query_find(c, rec, j, &at)) {
                all = false;
                break;
            }
            columns[j] = c->values[j] + (size_t)at * c->size[j];
        }
        if (!all || query_excluded(c, rec))
            continue;
        if (entities) {
            handle = record_handle(records, stride, owners[pos]);
            columns[k] = &handle;
        }
        fn(ctx, 1, columns); /* a constant count: the caller's loop becomes straight code */
    }
}

/* The query led by its type `lead` (a constant: see ECSB_QUERY_BY_LEAD). */
ECSB_INLINE void query_lead(world *w, const ecsb_query *q, uint32_t lead, ecsb_query_fn fn,
                            void *ctx)
{
    const uint32_t k = q->count;
    query_cols c = {0};
#pragma GCC unroll 8
    for (uint32_t j = 0; j < k; j++) {
        const ht_type *ty = &w->types[q->types[j]];
        c.slots[j] = ty->slots;
        c.values[j] = ty->values;
        c.size[j] = ty->size;
        c.field[j] = 1 + q->types[j];
    }
    c.x = q->exclude_count; /* 0 where q is a constant without exclusions */
#pragma GCC unroll 4
    for (uint32_t j = 0; j < c.x; j++) {
        c.xslots[j] = w->types[q->exclude[j]].slots;
        c.xfield[j] = 1 + q->exclude[j];
    }
    const ht_type *lt = &w->types[q->types[lead]];
    const uint32_t *owners = lt->owners;
    const ht_ref *records = w->records;
    const size_t n = lt->count, stride = w->stride;
    const query_handles handles = {lead, owners, records, stride};
    const query_handles *h = q->entities ? &handles : NULL;
    size_t first[ECSB_MAX_QUERY_TYPES] = {0}, run = 0; /* the pending run: start, length */
    for (size_t d = 0; d < n; d += HT_BLOCK) {
        const size_t count = n - d < HT_BLOCK ? n - d : HT_BLOCK;
        size_t at[ECSB_MAX_QUERY_TYPES] = {0};
        if (query_block_in_step(&c, records, stride, owners, k, lead, d, count, at)) {
            bool follows = run != 0;
#pragma GCC unroll 8
            for (uint32_t j = 0; j < k; j++)
                follows &= at[j] == first[j] + run;
            if (!follows) {
                if (run)
                    query_emit(&c, k, first, run, h, fn, ctx);
#pragma GCC unroll 8
                for (uint32_t j = 0; j < k; j++)
                    first[j] = at[j];
                run = 0;
            }
            run += count;
            continue;
        }
        if (run)
            query_emit(&c, k, first, run, h, fn, ctx);
        run = 0;
        query_entities(&c, records, stride, owners, k, lead, d, count, h != NULL, fn, ctx);
    }
    if (run)
        query_emit(&c, k, first, run, h, fn, ctx);
}

/* Entities holding type t: the query leads with the query's type held by the fewest. */
#define HELD_BY(w, t) ((w)->types[t].count)
ECSB_QUERY_BY_LEAD(query_lead, HELD_BY)

/* ---- checks ------------------------------------------------------------------------------ */

static bool type_valid(const world *w, uint32_t t)
{
    const ht_type *ty = &w->types[t];
    if (ty->slots_used < 1 || ty->slots_used > ty->slot_cap || ty->count > ty->dense_cap ||
        ty->dense_cap != (ty->value_cap < ty->owner_cap ? ty->value_cap : ty->owner_cap) ||
        ty->count > w->ids.live || (size_t)ty->count + 1 > ty->slots_used)
        return false;
    if (ht_bits(ty->slots[0]) != ht_bits((ht_ref){0, HT_RESERVED_GENERATION}))
        return false;
    /* Dense -> owner record -> handle -> slot -> back to the same position. */
    for (uint32_t pos = 0; pos < ty->count; pos++) {
        uint32_t r = ty->owners[pos];
        if (r >= w->ids.slots || !ecsb_ids_slot_live(&w->ids, r))
            return false;
        const ht_ref *rec = record_at(w, r);
        ht_ref h = rec[1 + t];
        if (h.index == 0 ||
            h.index >= ty->slots_used || h.generation == 0 ||
            ty->slots[h.index].generation != h.generation || ty->slots[h.index].index != pos)
            return false;
    }
    /* Generation 0 means "no component" in a handle: no slot has it. */
    for (uint32_t s = 1; s < ty->slots_used; s++)
        if (ty->slots[s].generation == 0)
            return false;
    /*
     * Free list: in range, no cycle, and not live: a live slot's position leads back to it
     * through the owner's record, so a free slot's link must not. Together with the live
     * slots, it must account for every slot.
     */
    size_t free_count = 0;
    for (uint32_t s = ty->free_slot; s != 0; s = ty->slots[s].index) {
        if (s >= ty->slots_used || ++free_count > ty->slots_used)
            return false;
        uint32_t pos = ty->slots[s].index;
        if (pos < ty->count && record_at(w, ty->owners[pos])[1 + t].index == s)
            return false;
    }
    return 1 + ty->count + free_count == ty->slots_used;
}

static bool world_valid(const world *w)
{
    if (!ecsb_ids_valid(&w->ids) || w->stride != 1 + w->type_count ||
        w->stride != w->ids.stride || w->records != (const ht_ref *)(const void *)w->ids.word ||
        w->type_count == 0 || w->type_count > ECSB_MAX_TYPES)
        return false;
    /* Handles only on live records, each naming a slot that points back here. */
    size_t held[ECSB_MAX_TYPES] = {0};
    for (uint32_t r = 0; r < w->ids.slots; r++) {
        const ht_ref *rec = record_at(w, r);
        bool is_live = ecsb_ids_slot_live(&w->ids, r);
        for (uint32_t t = 0; t < w->type_count; t++) {
            ht_ref h = rec[1 + t];
            if (h.generation == 0 && h.index == 0)
                continue;
            const ht_type *ty = &w->types[t];
            if (!is_live || h.generation == 0 || h.index == 0 || h.index >= ty->slots_used ||
                ty->slots[h.index].generation != h.generation ||
                ty->slots[h.index].index >= ty->count || ty->owners[ty->slots[h.index].index] != r)
                return false;
            held[t]++;
        }
    }
    for (uint32_t t = 0; t < w->type_count; t++)
        if (held[t] != w->types[t].count || !type_valid(w, t))
            return false;
    return true;
}

static size_t world_bytes(const world *w)
{
    size_t bytes = sizeof *w + ecsb_ids_bytes(&w->ids);
    for (uint32_t t = 0; t < w->type_count; t++) {
        const ht_type *ty = &w->types[t];
        bytes += (size_t)ty->value_cap * ty->size + (size_t)ty->owner_cap * sizeof(uint32_t) +
                 (size_t)ty->slot_cap * sizeof(ht_ref);
    }
    return bytes;
}

/*
 * Testing aid (ecsb.h): each damage is an XOR, so applying it twice restores the world.
 *   0 .. 2  the ids' (ecsb_ids_corrupt);  3  type 0's reserved slot 0;  4  the first held
 *   type's first owner;  5  type 0's value count;  6  type 0's free-slot list head.
 */
static int world_corrupt(world *w, unsigned which)
{
    if (which < ECSB_IDS_CORRUPT_COUNT)
        return ecsb_ids_corrupt(&w->ids, which);
    ht_type *held = NULL;
    for (uint32_t t = 0; t < w->type_count && !held; t++)
        held = w->types[t].count ? &w->types[t] : NULL;
    switch (which) {
    case 3:
        w->types[0].slots[0].generation ^= 1;
        return 1;
    case 4:
        if (!held)
            return 0;
        held->owners[0] ^= 0x80000000u;
        return 1;
    case 5:
        w->types[0].count ^= 1;
        return 1;
    case 6:
        if (!w->types[0].free_slot)
            return 0;
        w->types[0].free_slot ^= 0x80000000u;
        return 1;
    default:
        return -1;
    }
}

#define ECSB_STRATEGY_NAME handle_table
#define ECSB_STRATEGY_SUMMARY "per type a dense swap-remove array behind a {index, generation} slot table; entity records hold one handle per type"
#include "harness/strategy_impl.h"
