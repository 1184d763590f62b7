/*
 * object_pool — article 001's managers and pools: per component type a pool of fixed-size
 * chunks whose objects never move; per entity a record naming its object of each type.
 *
 * Idea: a component is an object in its type's pool. A pool is a list of chunks of 2^c objects
 * (64 to 1024: about 16 KiB of values), each one block: an occupancy bitmap (a bit per
 * object), an owner array and the values. A live object's owner is its entity's slot; a free
 * object's owner entry is the next free object: the pool's LIFO free list is threaded through
 * the free objects themselves. When the free list is empty, add allocates one more chunk and
 * threads it in address order. Chunks are never moved, resized or freed before world_fini, and
 * the chunk table (a pointer per chunk) grows without moving them. So:
 *
 *   POINTER STABILITY: the pointer component_add hands out (and component_get returns) stays
 *   valid, at the same address, until that component is removed or its entity destroyed,
 *   across every other operation, growth included. ecsb.h promises every strategy's pointers
 *   only until the next structural change; this one promises more.
 *
 * An entity is a slot index plus a 32-bit generation (handle = ecsb_handle_make), from the
 * shared id unit harness/entity_ids.h; slot i has an id record of 8 + 4K bytes (rounded up to
 * 8): its id word (free list, retirement: see there) and, per type, the index of the object
 * holding its value or OBJ_NONE: article 001's entity with a lookup table type -> component.
 * Destroy clears the entries it releases, so a free record names nothing.
 *
 * Costs, in cache lines touched (steady state; K = type count):
 *   create  1: the record (free-list head, or the next fresh one).
 *   destroy the record + per held type the object's bitmap word and owner entry: no value is
 *           copied, no other entity's data is touched.
 *   add     record + the free-list head's owner entry and bitmap word + the value's line (the
 *           free-list head is the last object given back: hot under churn); one allocation
 *           per 2^c adds while the pool grows.
 *   remove  record + bitmap word + owner entry. Nothing moves.
 *   get     record, then the value (through the chunk table, a pointer per 2^c objects: hot):
 *           2 dependent lines. has: the record.
 *   query   walks the pool with the fewest live objects chunk by chunk in address order;
 *           per live object the owner's record (one line names every type's object) and per
 *           other type that object's value. Matches whose objects follow each other in every
 *           pool (pools filled in the same order) coalesce into runs; a one-type query hands
 *           out each chunk's runs of live objects whole: 2^c values at once in a full chunk.
 *           Handles, when asked: per match its owner entry and the owner's record (a random
 *           line once churn has shuffled the slots), copied to a buffer of ECSB_RUN_HANDLES.
 * Memory per entity slot: the record, 8 + 4K B rounded up to 8: one more type costs 4 B per
 * slot, held or not. Per live component: size + 4 B (owner) + 1 bit; a pool keeps its peak (no
 * chunk is freed) plus at most one partly used chunk.
 * Wins: pointers stay valid (article 001's reason for pools); remove and destroy copy no value
 * and touch no other entity (sparse_set moves the last value into the hole and re-points its
 * sparse entry: two more lines, both another entity's); a one-type query hands out whole
 * chunks, 2^c values a run with no lookup per value; a destroy-and-create churn reuses the
 * dead entity's record and objects in place, so walks never decay.
 * Loses: iteration. The cost of never moving an object: a pool cannot stay packed, so walks
 * read the bitmap words of free objects too and pools stay as sparse as their peak after
 * removals; and a query of several types finds the other types through the owner's record,
 * 8 + 4K bytes per entity read where sparse_set reads a 4-byte sparse entry: dual_iterate 62
 * instructions per pair to sparse_set's 40 and about 56 bytes moved per pair to its 32.
 * Tags (size 0): chunks of 1024 objects that are the occupancy bits and owners alone (4 B +
 * 1 bit per object, no values), and the record's entry as for any type; every pointer handed
 * out for a tag is ECSB_TAG (object_value tests the size: one compare). Exclusion: the owner's
 * record, already read, says whether it holds an excluded type: one more entry compare per
 * visited object and excluded type; a one-type query excluding something goes object by object
 * instead of handing out whole chunks.
 * Tuning: none beyond gathering consecutive matches into runs (ecsb_runs, harness/strategy.h),
 * as every layout that finds matches one by one does.
 */
#include "harness/entity_ids.h"

#define OBJ_NONE UINT32_MAX /* a record's entry for a type it does not hold; free-list end */

#define CHUNK_BYTES 16384u   /* values per chunk: about this many bytes... */
#define CHUNK_MIN_LOG2 6u    /* ...but at least 64 objects */
#define CHUNK_MAX_LOG2 10u   /* ...and at most 1024 */

/*
 * One component type: chunks of 2^log2 objects, never moved nor freed before world_fini.
 * Object o lives in chunk o >> log2 at index o & (2^log2 - 1). A chunk is one block:
 * [occupancy: 2^log2 bits][owner: 2^log2 uint32][pad to 64][values: 2^log2 * size]. A live
 * object's owner is its entity's slot; a free object's owner is the next free object (the
 * pool's free list, LIFO, threaded through the free objects).
 */
typedef struct pool {
    unsigned char **chunks; /* per chunk its values (the block starts values_off before) */
    uint32_t chunk_count;   /* chunks allocated */
    uint32_t chunk_cap;     /* chunk pointers allocated */
    uint32_t count;         /* live objects */
    uint32_t free_head;     /* first free object, OBJ_NONE when every object is live */
    uint32_t size;          /* bytes per value */
    uint32_t log2;          /* objects per chunk = 1 << log2 */
    uint32_t mask;          /* objects per chunk - 1: an object's index in its chunk */
    uint32_t values_off;    /* bytes from a chunk's start to its values */
} pool;

/*
 * Entity slot i has an id record of ids.stride = 1 + ceil(type_count / 2) words: the id word,
 * then one uint32 per type: the object holding the entity's value of that type, or OBJ_NONE.
 */
typedef struct world {
    ecsb_ids ids;              /* entity slots and their records (harness/entity_ids.h) */
    const ecsb_allocator *alloc;
    uint32_t type_count;
    pool pools[ECSB_MAX_TYPES];
} world;

/* ---- records ----------------------------------------------------------------------------- */

ECSB_INLINE uint64_t *record(const world *w, uint32_t i)
{
    return ecsb_ids_record(&w->ids, w->ids.stride, i);
}
ECSB_INLINE uint32_t *record_objects(const world *w, uint32_t i)
{
    return (uint32_t *)(record(w, i) + 1);
}

/* The handle of live slot i. */
ECSB_INLINE ecsb_entity slot_handle(const world *w, uint32_t i)
{
    return ecsb_ids_handle(&w->ids, w->ids.stride, i);
}

/* ---- pools ------------------------------------------------------------------------------- */

ECSB_INLINE uint32_t chunk_objects(const pool *p) { return p->mask + 1; }
/* A chunk's occupancy bits and owners, from what the chunk table holds: its values. */
ECSB_INLINE uint64_t *chunk_bits(const pool *p, unsigned char *values)
{
    return (uint64_t *)(values - p->values_off);
}
ECSB_INLINE uint32_t *chunk_owner(const pool *p, unsigned char *values)
{
    return (uint32_t *)(values - p->values_off + chunk_objects(p) / 8);
}
ECSB_INLINE size_t chunk_bytes(const pool *p)
{
    return p->values_off + (size_t)chunk_objects(p) * p->size;
}

/* Where the values of a chunk whose values start at `values` are handed out from (a tag's
 * chunk has none: ECSB_TAG). */
ECSB_INLINE unsigned char *chunk_values_out(const pool *p, unsigned char *values)
{
    return ECSB_LIKELY(p->size) ? values : (unsigned char *)ECSB_TAG;
}

/* Where object o's value lives: forever, whatever else happens to the pool. */
ECSB_INLINE unsigned char *object_value(const pool *p, uint32_t o)
{
    return chunk_values_out(p, p->chunks[o >> p->log2]) + (size_t)(o & p->mask) * p->size;
}

/* log2 of the objects per chunk for values of `size` bytes. */
static uint32_t chunk_log2_for(uint32_t size)
{
    uint32_t log2 = CHUNK_MIN_LOG2;
    while (log2 < CHUNK_MAX_LOG2 && ((size_t)size << (log2 + 1)) <= CHUNK_BYTES)
        log2++;
    return log2;
}

/* Grow p's chunk table to hold `cap` (> chunk_cap) chunk pointers. */
static ecsb_status pool_reserve(world *w, pool *p, size_t cap)
{
    void *table = p->chunks;
    ecsb_status st = ecsb_resize(w->alloc, &table, sizeof *p->chunks, p->chunk_cap, cap);
    if (st != ECSB_OK)
        return st;
    p->chunks = table;
    p->chunk_cap = (uint32_t)cap;
    return ECSB_OK;
}

/*
 * Add an empty chunk to p, whose free list is empty: its objects become the free list, in
 * ascending order, so a pool fills in address order. Every allocation comes first: on failure
 * nothing observable changed (at most the chunk table grew).
 */
static ecsb_status pool_add_chunk(world *w, pool *p)
{
    if (p->chunk_count == p->chunk_cap) {
        size_t cap = ecsb_grow_capacity(p->chunk_cap, (size_t)p->chunk_count + 1, UINT32_MAX);
        ecsb_status st = pool_reserve(w, p, cap);
        if (st != ECSB_OK)
            return st;
    }
    void *block = NULL;
    ecsb_status st = ecsb_resize(w->alloc, &block, chunk_bytes(p), 0, 1);
    if (st != ECSB_OK)
        return st;
    unsigned char *values = (unsigned char *)block + p->values_off;
    uint32_t n = chunk_objects(p), base = p->chunk_count << p->log2;
    memset(chunk_bits(p, values), 0, n / 8);
    uint32_t *owner = chunk_owner(p, values);
    for (uint32_t i = 0; i + 1 < n; i++)
        owner[i] = base + i + 1;
    owner[n - 1] = OBJ_NONE;
    p->chunks[p->chunk_count++] = values;
    p->free_head = base;
    return ECSB_OK;
}

/* Take a free object (there is one) for slot i; returns it. */
ECSB_INLINE uint32_t pool_take(pool *p, uint32_t i)
{
    uint32_t o = p->free_head, at = o & p->mask;
    unsigned char *values = p->chunks[o >> p->log2];
    uint32_t *owner = chunk_owner(p, values);
    p->free_head = owner[at];
    owner[at] = i;
    chunk_bits(p, values)[at / 64] |= (uint64_t)1 << (at % 64);
    p->count++;
    return o;
}

/* Give live object o back: it heads the free list. Nothing moves. */
ECSB_INLINE void pool_give(pool *p, uint32_t o)
{
    uint32_t at = o & p->mask;
    unsigned char *values = p->chunks[o >> p->log2];
    chunk_bits(p, values)[at / 64] &= ~((uint64_t)1 << (at % 64));
    chunk_owner(p, values)[at] = p->free_head;
    p->free_head = o;
    p->count--;
}

/* ---- memory ------------------------------------------------------------------------------ */

/* The ids' grow hook: new records name no object (their id words are the ids' own). */
static ecsb_status clear_records(void *owner, size_t old_cap, size_t cap)
{
    world *w = owner;
    memset(record(w, (uint32_t)old_cap), 0xff,
           (cap - old_cap) * w->ids.stride * sizeof(uint64_t)); /* = OBJ_NONE */
    return ECSB_OK;
}

static void world_fini(world *w)
{
    for (uint32_t t = 0; t < w->type_count; t++) {
        pool *p = &w->pools[t];
        for (uint32_t c = 0; c < p->chunk_count; c++)
            ecsb_release(w->alloc, p->chunks[c] - p->values_off, chunk_bytes(p));
        ecsb_release(w->alloc, p->chunks, (size_t)p->chunk_cap * sizeof *p->chunks);
    }
    ECSB_IDS_WORLD_FINI(w);
}

/*
 * initial_capacity reserves that many records and, per type, the chunk table for that many
 * objects; chunks themselves come as the first add needs each (one allocation per 64 to
 * 1024 adds).
 */
static ecsb_status world_init(world *w, const ecsb_world_config *config)
{
    memset(w, 0, sizeof *w);
    ecsb_status st = ecsb_ids_init(&w->ids, config, 1 + (config->type_count + 1) / 2);
    if (st != ECSB_OK)
        return st;
    w->alloc = w->ids.alloc;
    w->type_count = config->type_count;
    for (uint32_t t = 0; t < w->type_count; t++) {
        pool *p = &w->pools[t];
        p->size = config->type_size[t];
        p->log2 = chunk_log2_for(p->size);
        p->mask = (1u << p->log2) - 1;
        p->values_off = (chunk_objects(p) / 8 + chunk_objects(p) * 4 + 63) & ~63u;
        p->free_head = OBJ_NONE;
    }
    if (config->initial_capacity) {
        st = ecsb_ids_reserve(&w->ids, config, clear_records, w);
        for (uint32_t t = 0; st == ECSB_OK && t < w->type_count; t++) {
            pool *p = &w->pools[t];
            size_t chunks = ((size_t)config->initial_capacity + p->mask) >> p->log2;
            st = pool_reserve(w, p, chunks);
        }
        if (st != ECSB_OK) {
            world_fini(w);
            return st;
        }
    }
    return ECSB_OK;
}

/* ---- entities ---------------------------------------------------------------------------- */

/* True when the handle names a live entity; its slot index into *slot. */
ECSB_INLINE bool live_slot(const world *w, ecsb_entity e, uint32_t *slot)
{
    *slot = ecsb_handle_index(e);
    return ecsb_ids_alive(&w->ids, w->ids.stride, e);
}

ECSB_INLINE ecsb_status entity_create(world *w, ecsb_entity *out)
{
    return ecsb_ids_create(&w->ids, w->ids.stride, clear_records, w, out);
}

ECSB_INLINE ecsb_status entity_destroy(world *w, ecsb_entity e)
{
    uint32_t i;
    if (!live_slot(w, e, &i))
        return ECSB_ERR_STALE;
    uint32_t *objects = record_objects(w, i);
    for (uint32_t t = 0; t < w->type_count; t++)
        if (objects[t] != OBJ_NONE) {
            pool_give(&w->pools[t], objects[t]);
            objects[t] = OBJ_NONE; /* a free record holds nothing: create needs not clear it */
        }
    ecsb_ids_free(&w->ids, w->ids.stride, e);
    return ECSB_OK;
}

static bool entity_alive(const world *w, ecsb_entity e)
{
    return ecsb_ids_alive(&w->ids, w->ids.stride, e);
}

static size_t entity_count(const world *w) { return ecsb_ids_count(&w->ids); }

/* ---- components -------------------------------------------------------------------------- */

ECSB_INLINE ecsb_status component_add(world *w, ecsb_entity e, ecsb_type t, void **value_out)
{
    *value_out = NULL;
    uint32_t i;
    ECSB_CHECK_TYPE_AND_LIVE(w, t, live_slot(w, e, &i));
    uint32_t *objects = record_objects(w, i);
    if (ECSB_UNLIKELY(objects[t] != OBJ_NONE))
        return ECSB_ERR_PRESENT;
    pool *p = &w->pools[t];
    if (ECSB_UNLIKELY(p->free_head == OBJ_NONE)) {
        ecsb_status st = pool_add_chunk(w, p);
        if (st != ECSB_OK)
            return st;
    }
    uint32_t o = pool_take(p, i);
    objects[t] = o;
    *value_out = object_value(p, o);
    return ECSB_OK;
}

ECSB_INLINE ecsb_status component_remove(world *w, ecsb_entity e, ecsb_type t)
{
    uint32_t i;
    ECSB_CHECK_TYPE_AND_LIVE(w, t, live_slot(w, e, &i));
    uint32_t *objects = record_objects(w, i);
    if (ECSB_UNLIKELY(objects[t] == OBJ_NONE))
        return ECSB_ERR_ABSENT;
    pool_give(&w->pools[t], objects[t]);
    objects[t] = OBJ_NONE;
    return ECSB_OK;
}

/* Undo the create of e, which holds nothing: spawn's rollback (harness/strategy.h). */
ECSB_INLINE void entity_uncreate(world *w, ecsb_entity e)
{
    ecsb_ids_uncreate(&w->ids, w->ids.stride, e);
}

/* spawn: create, then one add per type (values apart: nothing moves); rollback on NOMEM. */
ECSB_SPAWN_BY_ADDS(entity_uncreate)

ECSB_INLINE void *component_get(world *w, ecsb_entity e, ecsb_type t)
{
    uint32_t i;
    if (ECSB_UNLIKELY(t >= w->type_count) || ECSB_UNLIKELY(!live_slot(w, e, &i)))
        return NULL;
    uint32_t o = record_objects(w, i)[t];
    return ECSB_LIKELY(o != OBJ_NONE) ? object_value(&w->pools[t], o) : NULL;
}

ECSB_INLINE bool component_has(const world *w, ecsb_entity e, ecsb_type t)
{
    uint32_t i;
    return t < w->type_count && live_slot(w, e, &i) && record_objects(w, i)[t] != OBJ_NONE;
}

static size_t component_count(const world *w, ecsb_type t)
{
    return t < w->type_count ? w->pools[t].count : 0;
}

/* ---- iteration --------------------------------------------------------------------------- */

/*
 * The loops below walk a pool chunk by chunk and, in each, the occupancy words: a zero word
 * skips 64 free objects at once; set bits are taken lowest first (count trailing zeros, then
 * clear it), so live objects are visited in address order.
 */

/* Where ecsb_emit_handles finds a chunk's handles: object at's is its owner's. */
typedef struct chunk_owners {
    const world *w;
    const uint32_t *owner;
} chunk_owners;

ECSB_INLINE ecsb_entity chunk_handle_at(void *src, size_t at)
{
    const chunk_owners *o = src;
    return slot_handle(o->w, o->owner[at]);
}

/* The run of live objects [start, start + len) of one chunk, with handles when asked. */
ECSB_INLINE void chunk_run(const world *w, const pool *p, unsigned char *values, size_t start,
                           size_t len, bool entities, ecsb_query_fn fn, void *ctx)
{
    void *column[ECSB_MAX_QUERY_COLUMNS] = {0}; /* one used (two with handles) */
    column[0] = chunk_values_out(p, values) + start * p->size;
    if (!entities) {
        fn(ctx, len, column);
        return;
    }
    chunk_owners src = {w, chunk_owner(p, values)};
    const size_t size = p->size;
    ecsb_emit_handles(1, column, &size, len, chunk_handle_at, &src, start, fn, ctx);
}

/*
 * Hand out the live objects of one chunk as runs of consecutive ones: an all-ones word
 * extends the run by 64 at once.
 */
ECSB_INLINE void chunk_runs(const world *w, const pool *p, unsigned char *values, bool entities,
                            ecsb_query_fn fn, void *ctx)
{
    const uint64_t *bits = chunk_bits(p, values);
    size_t start = 0, len = 0;
    for (uint32_t k = 0, words = chunk_objects(p) / 64; k < words; k++) {
        uint64_t word = bits[k];
        while (word) {
            uint32_t b = (uint32_t)__builtin_ctzll(word);
            uint64_t rest = ~(word >> b);
            uint32_t n = rest ? (uint32_t)__builtin_ctzll(rest) : 64 - b;
            size_t at = (size_t)k * 64 + b;
            if (len && start + len == at) {
                len += n;
            } else {
                if (len)
                    chunk_run(w, p, values, start, len, entities, fn, ctx);
                start = at;
                len = n;
            }
            word = b + n >= 64 ? 0 : word & ~((((uint64_t)1 << n) - 1) << b);
        }
    }
    if (len)
        chunk_run(w, p, values, start, len, entities, fn, ctx);
}

/*
 * Lead with the query type held by the fewest entities; per live object of it, the owner's
 * record names the other types' objects (one line for all of them) and whether it holds an
 * excluded type. Matches whose objects follow each other in every pool (pools filled in the
 * same order) coalesce into one run; a one-type query that excludes nothing hands out each
 * chunk's runs of live objects directly.
 */
ECSB_INLINE ecsb_status query(world *w, const ecsb_query *q, ecsb_query_fn fn, void *ctx)
{
    uint32_t mask;
    ecsb_status st = ecsb_query_check(q, w->type_count, &mask);
    if (st != ECSB_OK)
        return st;
    const uint32_t k = q->count;
    const pool *pools[ECSB_MAX_QUERY_TYPES];
    size_t sizes[ECSB_MAX_QUERY_TYPES];
    uint32_t lead = 0;
    const pool *lp = &w->pools[q->types[0]];
    for (uint32_t j = 0; j < k; j++) {
        pools[j] = &w->pools[q->types[j]];
        sizes[j] = pools[j]->size;
        if (pools[j]->count < lp->count) {
            lead = j;
            lp = pools[j];
        }
    }
    const uint32_t x = q->exclude_count; /* 0 where q is a constant without exclusions */
    if (k == 1 && x == 0) {
        for (uint32_t c = 0; c < lp->chunk_count; c++)
            chunk_runs(w, lp, lp->chunks[c], q->entities, fn, ctx);
        return ECSB_OK;
    }
    /* The other types' pools, unpacked into locals: the loop reads no pool struct. */
    uint32_t others = 0, column[ECSB_MAX_QUERY_TYPES], type[ECSB_MAX_QUERY_TYPES];
    unsigned char *const *chunks[ECSB_MAX_QUERY_TYPES];
    uint32_t log2[ECSB_MAX_QUERY_TYPES], mask_of[ECSB_MAX_QUERY_TYPES];
    for (uint32_t j = 0; j < k; j++) {
        if (j == lead)
            continue;
        column[others] = j;
        type[others] = q->types[j];
        chunks[others] = pools[j]->chunks;
        log2[others] = pools[j]->log2;
        mask_of[others++] = pools[j]->mask;
    }
    const uint32_t words = chunk_objects(lp) / 64;
    const size_t lead_size = lp->size;
    void *values[ECSB_MAX_QUERY_TYPES];
    ecsb_runs runs = {0};
    ecsb_entity buffer[ECSB_RUN_HANDLES], *handles = q->entities ? buffer : NULL;
    for (uint32_t c = 0; c < lp->chunk_count; c++) {
        const uint32_t *owner = chunk_owner(lp, lp->chunks[c]);
        const uint64_t *bits = chunk_bits(lp, lp->chunks[c]);
        unsigned char *lead_values = chunk_values_out(lp, lp->chunks[c]);
        for (uint32_t b = 0; b < words; b++)
            for (uint64_t word = bits[b]; word; word &= word - 1) {
                uint32_t at = b * 64 + (uint32_t)__builtin_ctzll(word);
                const uint32_t *objects = record_objects(w, owner[at]);
                uint32_t j = 0;
                for (; j < others; j++) {
                    uint32_t o = objects[type[j]];
                    if (o == OBJ_NONE)
                        break;
                    values[column[j]] = sizes[column[j]] /* a tag: ECSB_TAG */
                        ? chunks[j][o >> log2[j]] + (size_t)(o & mask_of[j]) * sizes[column[j]]
                        : (unsigned char *)ECSB_TAG;
                }
                if (j < others)
                    continue;
                bool excluded = false;
                for (uint32_t i = 0; i < x; i++)
                    excluded |= objects[q->exclude[i]] != OBJ_NONE;
                if (excluded)
                    continue;
                values[lead] = lead_values + at * lead_size;
                ecsb_entity e = q->entities ? slot_handle(w, owner[at]) : ECSB_ENTITY_NULL;
                ecsb_runs_add(&runs, k, values, sizes, handles, e, fn, ctx);
            }
    }
    ecsb_runs_flush(&runs, k, handles, fn, ctx);
    return ECSB_OK;
}

/* ---- checks ------------------------------------------------------------------------------ */

/* True when object o of p is live (its occupancy bit is set). */
static bool object_live(const pool *p, uint32_t o)
{
    uint32_t at = o & p->mask;
    return (chunk_bits(p, p->chunks[o >> p->log2])[at / 64] >> (at % 64)) & 1;
}

/*
 * One pool: its shape; its count equals the occupancy bits set; every live object's owner is
 * a live entity whose record names it back; the free list reaches every free object once.
 */
static bool pool_valid(const world *w, const pool *p, ecsb_type t)
{
    if (p->size > ECSB_MAX_TYPE_SIZE || p->log2 != chunk_log2_for(p->size) ||
        p->mask != (1u << p->log2) - 1 ||
        p->values_off != ((chunk_objects(p) / 8 + chunk_objects(p) * 4 + 63) & ~63u) ||
        p->chunk_count > p->chunk_cap || (p->chunk_cap && !p->chunks) || p->count > w->ids.live)
        return false;
    size_t total = (size_t)p->chunk_count << p->log2, live = 0;
    for (uint32_t c = 0; c < p->chunk_count; c++) {
        if (!p->chunks[c])
            return false;
        const uint32_t *owner = chunk_owner(p, p->chunks[c]);
        for (uint32_t at = 0; at < chunk_objects(p); at++) {
            uint32_t o = (c << p->log2) | at, i = owner[at];
            if (!object_live(p, o))
                continue;
            live++;
            if (i >= w->ids.slots || !ecsb_ids_slot_live(&w->ids, i) ||
                record_objects(w, i)[t] != o)
                return false;
        }
    }
    if (live != p->count)
        return false;
    size_t reached = 0;
    for (uint32_t o = p->free_head; o != OBJ_NONE; reached++) {
        if (o >= total || reached == total - live || object_live(p, o))
            return false;
        o = chunk_owner(p, p->chunks[o >> p->log2])[o & p->mask];
    }
    return reached == total - live;
}

static bool world_valid(const world *w)
{
    if (!ecsb_ids_valid(&w->ids) || w->type_count == 0 || w->type_count > ECSB_MAX_TYPES ||
        w->ids.stride != 1 + (w->type_count + 1) / 2)
        return false;
    /* A live record names only live objects of which it is the owner, others name none. */
    for (uint32_t i = 0; i < w->ids.slots; i++) {
        bool live = ecsb_ids_slot_live(&w->ids, i);
        for (uint32_t t = 0; t < w->type_count; t++) {
            const pool *p = &w->pools[t];
            uint32_t o = record_objects(w, i)[t];
            if (o != OBJ_NONE &&
                (!live || o >= ((size_t)p->chunk_count << p->log2) || !object_live(p, o) ||
                 chunk_owner(p, p->chunks[o >> p->log2])[o & p->mask] != i))
                return false;
        }
    }
    for (uint32_t t = 0; t < w->type_count; t++)
        if (!pool_valid(w, &w->pools[t], t))
            return false;
    return true;
}

static size_t world_bytes(const world *w)
{
    size_t bytes = sizeof *w + ecsb_ids_bytes(&w->ids);
    for (uint32_t t = 0; t < w->type_count; t++) {
        const pool *p = &w->pools[t];
        bytes += (size_t)p->chunk_cap * sizeof *p->chunks + p->chunk_count * chunk_bytes(p);
    }
    return bytes;
}

/* The first pool with a chunk (with a live object when `live`), or NULL. */
static pool *first_pool(world *w, bool live)
{
    for (uint32_t t = 0; t < w->type_count; t++)
        if (live ? w->pools[t].count > 0 : w->pools[t].chunk_count > 0)
            return &w->pools[t];
    return NULL;
}

/*
 * Damage, each its own inverse (world_valid catches every one):
 *   0 .. 2 the ids' (ecsb_ids_corrupt); then
 *   3 records: the first two holders of the first type with two swap their objects;
 *   4 occupancy: the first object of the first pool with a chunk flips live/free;
 *   5 a pool's free list: its head points elsewhere;
 *   6 an owner: the first live object of the first non-empty pool names the next slot;
 *   7 type 0's live object count, off by one.
 */
static int world_corrupt(world *w, unsigned which)
{
    if (which < ECSB_IDS_CORRUPT_COUNT)
        return ecsb_ids_corrupt(&w->ids, which);
    which -= ECSB_IDS_CORRUPT_COUNT;
    pool *p = first_pool(w, which == 3);
    switch (which) {
    case 0:
        for (uint32_t t = 0; t < w->type_count; t++) {
            uint32_t *first = NULL;
            for (uint32_t i = 0; i < w->ids.slots; i++) {
                uint32_t *objects = record_objects(w, i);
                if (!ecsb_ids_slot_live(&w->ids, i) || objects[t] == OBJ_NONE)
                    continue;
                if (!first) {
                    first = &objects[t];
                    continue;
                }
                uint32_t o = *first;
                *first = objects[t];
                objects[t] = o;
                return 1;
            }
        }
        return 0;
    case 1:
        if (!p)
            return 0;
        chunk_bits(p, p->chunks[0])[0] ^= 1;
        return 1;
    case 2:
        if (!p)
            return 0;
        p->free_head ^= 1;
        return 1;
    case 3: {
        if (!p)
            return 0;
        uint32_t o = 0;
        while (!object_live(p, o))
            o++;
        chunk_owner(p, p->chunks[o >> p->log2])[o & p->mask] ^= 1;
        return 1;
    }
    case 4:
        w->pools[0].count ^= 1;
        return 1;
    default:
        return -1;
    }
}

#define ECSB_STRATEGY_STABLE_POINTERS /* see POINTER STABILITY above */
#define ECSB_STRATEGY_NAME object_pool
#define ECSB_STRATEGY_SUMMARY "per type a pool of fixed-size chunks with a free list, objects never move (stable pointers); per entity a record type -> object"
#include "harness/strategy_impl.h"
