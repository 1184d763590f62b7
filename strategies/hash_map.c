/*
 * hash_map — the baseline: per component type an open-addressing hash table from entity to
 * value, what a program without an ECS keeps (one map per component), written as well as a
 * flat hash map can be.
 *
 * Idea: an entity is a slot index plus a 32-bit generation (handle = ecsb_handle_make(slot,
 * generation)), from the shared id unit harness/entity_ids.h (one 64-bit id word per slot, a
 * LIFO free list, retirement of a slot whose generation would wrap).
 * Per type t a table of cap = 2^b positions (16 at least; none before the first add): keys[cap],
 * the full 64-bit handle of the holder stored there (0, never a live handle, = free), and
 * values[cap * size] after them in the same block (cap * 8 is a multiple of 64, so every value
 * is aligned for its type). Home of the entity in slot i: the top log2(cap) bits of
 * i * 2^64/phi (Fibonacci hashing), so holders whose slots follow a stride (every 1024th
 * entity) spread over the table as any others do. Robin Hood linear probing: every cluster is
 * kept sorted by home (an insert goes before the first key homed after it and moves the rest
 * of the cluster on; an erase shifts the keys after it back until a free position or a key at
 * its home: no tombstones), so a miss stops at the first key further from home than it would
 * be, not at the end of a cluster. The load stays at most 3/4 (an add that would pass it
 * doubles the table and rehashes first, so a failed allocation changes nothing) and at least
 * 3/8 after a doubling. Keys are full handles, so tables hold only live entities: get, has
 * and a successful remove never read the slot word, and a stale handle simply misses.
 *
 * Costs, in cache lines touched (steady state; K = type count; "probe" = the home line of
 * keys, and the next one in the few clusters that cross it):
 *   create  1: the free-list head's slot word, or the next fresh one.
 *   destroy the slot word + a probe per type (K), each hit erased as by remove.
 *   add     slot word + probe + the value's line; when the table is full, a rehash of all of
 *           it (amortised O(1); it streams: old and new tables keep the same order).
 *   remove  probe + the value's line, plus the keys and values backward shift moves (the rest
 *           of the cluster, usually in the same line); a miss also reads the slot word.
 *   get     probe, then the value: 2 lines (issued together when the key sits at home: the
 *           value's address is known before the key is compared). has: the probe.
 *   query   walks the table with the fewest keys, one probe per other type per key. Every
 *           table orders entities by the same hash (its top bits), so a walk's probes climb
 *           through the other tables in address order (the hardware prefetcher follows);
 *           tables of equal size filled alike have identical layouts and their matches
 *           coalesce into long runs. A one-type query hands out runs of occupied positions
 *           whole: every position of the table, 8 B of keys each, then the holders' values.
 *           Handles, when asked: the keys the walk reads anyway (copied to a buffer of
 *           ECSB_RUN_HANDLES for more than one type).
 * Memory per entity slot: 8 B, nothing per type: one more type costs an entity nothing until
 * it holds one. Per held component (8 + size) / load, 1.33x to 2.67x (8 + size) bytes.
 * Wins: types held by few entities cost nothing per entity (sparse maps cost 4 B per slot per
 * type); get is 2 lines to sparse_set's 3 (slot word, sparse entry, value); a destroy-and-create
 * churn reuses the dead entity's slot, so its position stays put and a walk never decays;
 * no pattern of slots (strides included) piles keys onto one home.
 * Loses: walks scan free positions and probe the other types per key, where the packed
 * layouts read a column; tables run 3/8 to 3/4 full, so each held value costs 1.3-2.7x
 * its bytes plus 8 B of key; a pass over entities in slot order (platformer, random_get's
 * lookups) jumps around every table, one line per lookup, where slot-ordered layouts stream.
 * Tags (size 0): a table of keys alone (a hash set: 8 B / load per holder, no values); the
 * values pointer is ECSB_TAG, stride 0. Exclusion: one more probe per visited key per
 * excluded type (a hit skips the key); a one-type query that excludes something goes key by
 * key instead of handing out runs of positions.
 * Tuning: none. The hash is a general one on purpose: an identity hash of the slot makes
 * slot-ordered passes stream on worlds created in order, but piles strided holders onto one
 * home (a type held by every 1024th entity: every add probes one long cluster): a fast path
 * for regular worlds, which the suite does not give one layout alone.
 */
#include "harness/entity_ids.h"

#define ID_STRIDE 1                     /* words per id record: the id word only */

#define KEY_EMPTY ECSB_ENTITY_NULL      /* a free table position: no live handle is 0 */
#define TABLE_MIN_LOG2 4u               /* the smallest table: 16 positions */
#define NOT_FOUND SIZE_MAX

/*
 * One component type: an open-addressing table of cap = 2^bits positions (none before the
 * first add). One block: [keys: cap handles][values: cap * size]; cap * 8 is a multiple of
 * 64, so the values start on a cache line and every value is aligned for its type.
 */
typedef struct table {
    ecsb_entity *keys;     /* position -> the live handle stored there, or KEY_EMPTY; = block */
    unsigned char *values; /* position -> value */
    size_t mask;           /* cap - 1 */
    uint32_t shift;        /* 64 - log2(cap): a home is the top log2(cap) bits of the hash */
    uint32_t count;        /* keys stored */
    uint32_t limit;        /* keys allowed before growing: 3/4 of cap (0 without a block) */
    uint32_t size;         /* bytes per value */
} table;

typedef struct world {
    ecsb_ids ids;              /* entity slots, generations, free list (harness/entity_ids.h) */
    const ecsb_allocator *alloc;
    uint32_t type_count;
    table tables[ECSB_MAX_TYPES];
} world;

/* ---- tables ------------------------------------------------------------------------------ */

ECSB_INLINE size_t table_cap(const table *t) { return t->limit ? t->mask + 1 : 0; }

static size_t table_bytes(const table *t) { return table_cap(t) * (sizeof(ecsb_entity) + t->size); }

/*
 * Fibonacci hashing: the slot index times 2^64 / phi, and the top log2(cap) bits of the product
 * pick the home. Strided slots (every 1024th entity holding a type) spread over the table
 * instead of sharing one home, as they would with the slot's low bits. Every table takes the
 * top bits of the same product, so a walk over one table in position order looks the other
 * tables up in ascending position order too, and a doubling keeps the order (the new home is
 * the old one with one more bit).
 */
#define FIBONACCI_MULTIPLIER 0x9e3779b97f4a7c15ull /* 2^64 / the golden ratio, odd */

ECSB_INLINE size_t table_home(const table *t, ecsb_entity e)
{
    return (size_t)(((uint64_t)ecsb_handle_index(e) * FIBONACCI_MULTIPLIER) >> t->shift);
}

ECSB_INLINE void *table_value(const table *t, size_t p) { return t->values + p * t->size; }

/* Distance of the key at position p from its home: how far its probe went. */
ECSB_INLINE size_t table_distance(const table *t, ecsb_entity k, size_t p)
{
    return (p - table_home(t, k)) & t->mask;
}

/*
 * Position of handle e in t, or NOT_FOUND. Tables hold live handles only: a stale one misses.
 * Robin Hood order: a key further from its home than e would be at that position sits past
 * every place e could be, so a miss stops there, inside a cluster, not at its end.
 */
ECSB_INLINE size_t table_find(const table *t, ecsb_entity e)
{
    if (t->count == 0)
        return NOT_FOUND;
    const ecsb_entity *keys = t->keys;
    for (size_t p = table_home(t, e), d = 0;; p = (p + 1) & t->mask, d++) {
        ecsb_entity k = keys[p];
        if (k == KEY_EMPTY || table_distance(t, k, p) < d)
            return NOT_FOUND;
        if (k == e)
            return p;
    }
}

ECSB_INLINE void copy_value(unsigned char *dst, const unsigned char *src, size_t size)
{
    /* Constant sizes become plain loads and stores. */
    switch (size) {
    case 4: memcpy(dst, src, 4); break;
    case 8: memcpy(dst, src, 8); break;
    default: memcpy(dst, src, size); break;
    }
}

/*
 * Store absent handle e (room guaranteed: count < limit); returns its position, its value
 * not yet written. Robin Hood insertion: e goes before the first key homed after its own
 * home, and the keys from there to the next free position move one on (values with them), so
 * every cluster stays sorted by home.
 */
ECSB_INLINE size_t table_insert(table *t, ecsb_entity e)
{
    size_t mask = t->mask, p = table_home(t, e);
    for (size_t d = 0; t->keys[p] != KEY_EMPTY && table_distance(t, t->keys[p], p) >= d; d++)
        p = (p + 1) & mask;
    size_t free_at = p;
    while (t->keys[free_at] != KEY_EMPTY)
        free_at = (free_at + 1) & mask;
    for (size_t q = free_at; q != p; q = (q - 1) & mask) {
        size_t from = (q - 1) & mask;
        t->keys[q] = t->keys[from];
        copy_value(t->values + q * t->size, t->values + from * t->size, t->size);
    }
    t->keys[p] = e;
    t->count++;
    return p;
}

/*
 * Erase position p by backward shift: the keys after it move back one (values with them) up
 * to the first free position or key at its home, so no tombstone is left and every cluster
 * stays sorted by home.
 */
ECSB_INLINE void table_erase(table *t, size_t p)
{
    size_t hole = p, mask = t->mask;
    for (size_t q = (p + 1) & mask;; q = (q + 1) & mask) {
        ecsb_entity k = t->keys[q];
        if (k == KEY_EMPTY || table_distance(t, k, q) == 0)
            break;
        t->keys[hole] = k;
        copy_value(t->values + hole * t->size, t->values + q * t->size, t->size);
        hole = q;
    }
    t->keys[hole] = KEY_EMPTY;
    t->count--;
}

/*
 * Rehash t into a table of 2^bits positions. The new block is allocated before anything
 * changes, so a failure leaves t untouched. Walking the old table in position order inserts
 * in near-ascending order of home in the new one (the new home is the old one and one more
 * bit of the same hash), so the rehash streams through memory.
 */
static ecsb_status table_resize(world *w, table *t, uint32_t bits)
{
    size_t cap = (size_t)1 << bits;
    void *block = NULL;
    ecsb_status st = ecsb_resize(w->alloc, &block, sizeof(ecsb_entity) + t->size, 0, cap);
    if (st != ECSB_OK)
        return st;
    table old = *t;
    t->keys = block;
    t->values = t->size ? (unsigned char *)block + cap * sizeof(ecsb_entity)
                        : (unsigned char *)ECSB_TAG; /* a tag: keys only */
    t->mask = cap - 1;
    t->shift = 64u - bits;
    t->limit = (uint32_t)(cap / 4 * 3);
    t->count = 0;
    memset(t->keys, 0, cap * sizeof(ecsb_entity)); /* = KEY_EMPTY */
    for (size_t p = 0, n = table_cap(&old); p < n; p++)
        if (old.keys[p] != KEY_EMPTY)
            copy_value(table_value(t, table_insert(t, old.keys[p])), table_value(&old, p),
                       t->size);
    ecsb_release(w->alloc, old.keys, table_bytes(&old));
    return ECSB_OK;
}

/* log2 of the smallest table that holds n keys within the load limit. */
static uint32_t table_bits_for(size_t n)
{
    uint32_t bits = TABLE_MIN_LOG2;
    while (((size_t)1 << bits) / 4 * 3 < n)
        bits++;
    return bits;
}

/* ---- memory ------------------------------------------------------------------------------ */

static void world_fini(world *w)
{
    for (uint32_t t = 0; t < w->type_count; t++)
        ecsb_release(w->alloc, w->tables[t].keys, table_bytes(&w->tables[t]));
    ECSB_IDS_WORLD_FINI(w);
}

/*
 * initial_capacity reserves that many slot words. Tables grow with their own holders: one
 * reserved for every entity would leave a type held by few of them sparse, and every walk of
 * it longer.
 */
static ecsb_status world_init(world *w, const ecsb_world_config *config)
{
    ECSB_IDS_WORLD_INIT(w, config, ID_STRIDE);
    ecsb_status st = ECSB_OK;
    for (uint32_t t = 0; t < w->type_count; t++)
        w->tables[t].size = config->type_size[t];
    if ((st = ecsb_ids_reserve(&w->ids, config, NULL, NULL)) != ECSB_OK) {
        world_fini(w);
        return st;
    }
    return ECSB_OK;
}

/* ---- entities ---------------------------------------------------------------------------- */

/* True when the handle names a live entity; its slot index into *slot. */
ECSB_INLINE bool live_slot(const world *w, ecsb_entity e, uint32_t *slot)
{
    *slot = ecsb_handle_index(e);
    return ecsb_ids_alive(&w->ids, ID_STRIDE, e);
}

ECSB_INLINE ecsb_status entity_create(world *w, ecsb_entity *out)
{
    return ecsb_ids_create(&w->ids, ID_STRIDE, NULL, NULL, out);
}

ECSB_INLINE ecsb_status entity_destroy(world *w, ecsb_entity e)
{
    uint32_t i;
    if (!live_slot(w, e, &i))
        return ECSB_ERR_STALE;
    for (uint32_t t = 0; t < w->type_count; t++) {
        size_t p = table_find(&w->tables[t], e);
        if (p != NOT_FOUND)
            table_erase(&w->tables[t], p);
    }
    ecsb_ids_free(&w->ids, ID_STRIDE, e);
    return ECSB_OK;
}

static bool entity_alive(const world *w, ecsb_entity e)
{
    return ecsb_ids_alive(&w->ids, ID_STRIDE, e);
}

static size_t entity_count(const world *w) { return ecsb_ids_count(&w->ids); }

/* ---- components -------------------------------------------------------------------------- */

ECSB_INLINE ecsb_status component_add(world *w, ecsb_entity e, ecsb_type t, void **value_out)
{
    *value_out = NULL;
    uint32_t i;
    ECSB_CHECK_TYPE_AND_LIVE(w, t, live_slot(w, e, &i));
    table *tb = &w->tables[t];
    if (ECSB_UNLIKELY(table_find(tb, e) != NOT_FOUND))
        return ECSB_ERR_PRESENT;
    if (ECSB_UNLIKELY(tb->count == tb->limit)) {
        /* Holders <= live entities < 2^31, so the table never needs more than 2^32 positions. */
        ecsb_status st = table_resize(w, tb, table_bits_for((size_t)tb->count + 1));
        if (st != ECSB_OK)
            return st;
    }
    *value_out = table_value(tb, table_insert(tb, e));
    return ECSB_OK;
}

/* A handle found in a table is live, so only a miss reads the slot word (stale or absent?). */
ECSB_INLINE ecsb_status component_remove(world *w, ecsb_entity e, ecsb_type t)
{
    if (ECSB_UNLIKELY(t >= w->type_count))
        return ECSB_ERR_TYPE;
    table *tb = &w->tables[t];
    size_t p = table_find(tb, e);
    if (ECSB_LIKELY(p != NOT_FOUND)) {
        table_erase(tb, p);
        return ECSB_OK;
    }
    uint32_t i;
    return live_slot(w, e, &i) ? ECSB_ERR_ABSENT : ECSB_ERR_STALE;
}

/* Undo the create of e, which holds nothing: spawn's rollback (harness/strategy.h). */
ECSB_INLINE void entity_uncreate(world *w, ecsb_entity e)
{
    ecsb_ids_uncreate(&w->ids, ID_STRIDE, e);
}

/* spawn: create, then one add per type (values apart: nothing moves); rollback on NOMEM. */
ECSB_SPAWN_BY_ADDS(entity_uncreate)

ECSB_INLINE void *component_get(world *w, ecsb_entity e, ecsb_type t)
{
    if (ECSB_UNLIKELY(t >= w->type_count))
        return NULL;
    const table *tb = &w->tables[t];
    size_t p = table_find(tb, e);
    return ECSB_LIKELY(p != NOT_FOUND) ? table_value(tb, p) : NULL;
}

ECSB_INLINE bool component_has(const world *w, ecsb_entity e, ecsb_type t)
{
    return t < w->type_count && table_find(&w->tables[t], e) != NOT_FOUND;
}

static size_t component_count(const world *w, ecsb_type t)
{
    return t < w->type_count ? w->tables[t].count : 0;
}

/* ---- iteration --------------------------------------------------------------------------- */

/*
 * The lead table: the one with fewer keys (then the smaller one). Walking a table in position
 * order visits entities in ascending order of their hash, and every table's home is the top
 * bits of that same hash, so the lookups into the other tables climb through them in near
 * position order too: the hardware prefetcher follows.
 */
ECSB_INLINE bool table_leads(const table *a, const table *b)
{
    return a->count < b->count || (a->count == b->count && a->mask < b->mask);
}

/*
 * Walk the lead table; look each key up in the other tables. A one-type query hands out each
 * run of occupied positions whole (its handle column: the keys themselves); otherwise matches whose values follow each other in every
 * table (tables of equal size filled in the same order have identical layouts) coalesce.
 */
ECSB_INLINE ecsb_status query(world *w, const ecsb_query *q, ecsb_query_fn fn, void *ctx)
{
    uint32_t mask;
    ecsb_status st = ecsb_query_check(q, w->type_count, &mask);
    if (st != ECSB_OK)
        return st;
    const uint32_t k = q->count;
    const table *tables[ECSB_MAX_QUERY_TYPES];
    size_t sizes[ECSB_MAX_QUERY_TYPES];
    uint32_t lead = 0;
    const table *lt = &w->tables[q->types[0]];
    for (uint32_t j = 0; j < k; j++) {
        tables[j] = &w->tables[q->types[j]];
        sizes[j] = tables[j]->size;
        if (table_leads(tables[j], lt)) {
            lead = j;
            lt = tables[j];
        }
    }
    const ecsb_entity *restrict keys = lt->keys;
    const size_t n = table_cap(lt);
    const uint32_t x = q->exclude_count; /* 0 where q is a constant without exclusions */
    if (k == 1 && x == 0) {
        /* one or two used (the handles: the keys themselves); sized for any query's callback */
        void *column[ECSB_MAX_QUERY_COLUMNS] = {0};
        for (size_t p = 0; p < n; p++) {
            if (keys[p] == KEY_EMPTY)
                continue;
            size_t end = p + 1;
            while (end < n && keys[end] != KEY_EMPTY)
                end++;
            column[0] = table_value(lt, p);
            if (q->entities)
                column[1] = (ecsb_entity *)keys + p;
            fn(ctx, end - p, column);
            p = end;
        }
        return ECSB_OK;
    }
    /* The other tables, copied into locals: the loop reads no world memory but the tables. */
    uint32_t others = 0, column[ECSB_MAX_QUERY_TYPES];
    table other[ECSB_MAX_QUERY_TYPES];
    for (uint32_t j = 0; j < k; j++)
        if (j != lead) {
            column[others] = j;
            other[others++] = *tables[j];
        }
    void *values[ECSB_MAX_QUERY_TYPES];
    ecsb_runs runs = {0};
    ecsb_entity buffer[ECSB_RUN_HANDLES], *handles = q->entities ? buffer : NULL;
    for (size_t p = 0; p < n; p++) {
        ecsb_entity e = keys[p];
        if (e == KEY_EMPTY)
            continue;
        uint32_t j = 0;
        for (; j < others; j++) {
            size_t at = table_find(&other[j], e);
            if (at == NOT_FOUND)
                break;
            values[column[j]] = table_value(&other[j], at);
        }
        if (j < others)
            continue;
        bool excluded = false;
        for (uint32_t i = 0; i < x && !excluded; i++)
            excluded = table_find(&w->tables[q->exclude[i]], e) != NOT_FOUND;
        if (excluded)
            continue;
        values[lead] = table_value(lt, p);
        ecsb_runs_add(&runs, k, values, sizes, handles, e, fn, ctx);
    }
    ecsb_runs_flush(&runs, k, handles, fn, ctx);
    return ECSB_OK;
}

/* ---- checks ------------------------------------------------------------------------------ */

/* One table: its shape, its count, and every key live, unique and reachable from its home. */
static bool table_valid(const world *w, const table *t)
{
    if (t->size > ECSB_MAX_TYPE_SIZE || t->count > w->ids.live)
        return false;
    if (t->limit == 0)
        return t->count == 0 && !t->keys;
    size_t cap = t->mask + 1;
    if (!t->keys || (cap & t->mask) != 0 || cap < ((size_t)1 << TABLE_MIN_LOG2) ||
        t->limit != cap / 4 * 3 ||
        t->count > t->limit ||
        t->values != (t->size ? (const unsigned char *)(t->keys + cap)
                              : (const unsigned char *)ECSB_TAG))
        return false;
    size_t stored = 0;
    for (size_t p = 0; p < cap; p++) {
        uint32_t i;
        if (t->keys[p] != KEY_EMPTY && (++stored > t->count || !live_slot(w, t->keys[p], &i)))
            return false;
    }
    if (stored != t->count)
        return false;
    /* Robin Hood order (each key at most one further from home than the one before it, at
     * home after a free position), and found where it sits: no copy before it. */
    for (size_t p = 0; p < cap; p++) {
        ecsb_entity k = t->keys[p], before = t->keys[(p - 1) & t->mask];
        if (k == KEY_EMPTY)
            continue;
        size_t most = before == KEY_EMPTY ? 0 : table_distance(t, before, (p - 1) & t->mask) + 1;
        if (table_distance(t, k, p) > most || table_find(t, k) != p)
            return false;
    }
    return true;
}

static bool world_valid(const world *w)
{
    if (!ecsb_ids_valid(&w->ids) || w->type_count == 0 || w->type_count > ECSB_MAX_TYPES)
        return false;
    for (uint32_t t = 0; t < w->type_count; t++)
        if (!table_valid(w, &w->tables[t]))
            return false;
    return true;
}

static size_t world_bytes(const world *w)
{
    size_t bytes = sizeof *w + ecsb_ids_bytes(&w->ids);
    for (uint32_t t = 0; t < w->type_count; t++)
        bytes += table_bytes(&w->tables[t]);
    return bytes;
}

/* Swap positions a and b of t, keys and values. */
static void table_swap(table *t, size_t a, size_t b)
{
    unsigned char tmp[ECSB_MAX_TYPE_SIZE];
    ecsb_entity k = t->keys[a];
    t->keys[a] = t->keys[b];
    t->keys[b] = k;
    memcpy(tmp, table_value(t, a), t->size);
    memcpy(table_value(t, a), table_value(t, b), t->size);
    memcpy(table_value(t, b), tmp, t->size);
}

/*
 * Damage, each its own inverse (world_valid catches every one):
 *   0 .. 2 the ids' (ecsb_ids_corrupt); then
 *   3 a key's generation: the first key of the first filled table names no live entity;
 *   4 reachability: the first key sitting at its home with a free position just before it
 *     moves there, before its home, where a lookup from the home never reaches it;
 *   5 type 0's key count, off by one;
 *   6 order: the first cluster opening with two keys each at its own home (a free position,
 *     then keys homed at p - 1 and p) has them trade places; either order of the two is
 *     found first, so a second call swaps back.
 */
static int world_corrupt(world *w, unsigned which)
{
    if (which < ECSB_IDS_CORRUPT_COUNT)
        return ecsb_ids_corrupt(&w->ids, which);
    switch (which - ECSB_IDS_CORRUPT_COUNT) {
    case 0:
        for (uint32_t j = 0; j < w->type_count; j++) {
            table *t = &w->tables[j];
            if (t->count == 0)
                continue;
            size_t p = 0;
            while (t->keys[p] == KEY_EMPTY)
                p++;
            /* Generation bit 1: turns no generation into 0 but 2 (then nothing to do). */
            if (ecsb_handle_generation(t->keys[p]) == 2)
                return 0;
            t->keys[p] ^= (uint64_t)2 << 32;
            return 1;
        }
        return 0;
    case 1:
        /* The first p with exactly one of p - 1 and p free and the other's key homed at p:
         * the same p before and after the swap, so a second call swaps back. */
        for (uint32_t j = 0; j < w->type_count; j++) {
            table *t = &w->tables[j];
            for (size_t p = 1; p < table_cap(t); p++) {
                ecsb_entity a = t->keys[p - 1], b = t->keys[p];
                if ((a == KEY_EMPTY) != (b == KEY_EMPTY) &&
                    table_home(t, a == KEY_EMPTY ? b : a) == p) {
                    table_swap(t, p - 1, p);
                    return 1;
                }
            }
        }
        return 0;
    case 2:
        w->tables[0].count ^= 1;
        return 1;
    case 3:
        for (uint32_t j = 0; j < w->type_count; j++) {
            table *t = &w->tables[j];
            for (size_t p = 2; p < table_cap(t); p++) {
                ecsb_entity a = t->keys[p - 1], b = t->keys[p];
                if (t->keys[p - 2] != KEY_EMPTY || a == KEY_EMPTY || b == KEY_EMPTY)
                    continue;
                size_t ha = table_home(t, a), hb = table_home(t, b);
                if ((ha == p - 1 && hb == p) || (ha == p && hb == p - 1)) {
                    table_swap(t, p - 1, p);
                    return 1;
                }
            }
        }
        return 0;
    default:
        return -1;
    }
}

#define ECSB_STRATEGY_NAME hash_map
#define ECSB_STRATEGY_SUMMARY "per type an open-addressing table entity -> value (Robin Hood linear probing, Fibonacci hash of the slot, backward-shift delete); free-list ids with generations"
#include "harness/strategy_impl.h"
