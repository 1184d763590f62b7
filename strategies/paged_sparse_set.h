/*
 * paged_sparse_set.h — the machinery strategies/paged_sparse_set.c and strategies/owning_group.c
 * share: EnTT's sparse sets (32-bit versioned ids, sparse arrays in pages allocated on demand,
 * the version in the sparse entry) and, switched on by PAGED_OWNING_GROUPS 1 before the
 * include, EnTT's owning groups. Each including file's header comment gives its costs.
 *
 * Ids. An entity is a 32-bit id: index in the low ID_INDEX_BITS (24) bits, version in the high
 * 8; the handle is the id itself (high 32 bits of ecsb_entity zero). EnTT splits 20 + 12; the
 * suite's sizes need more than 2^20 live entities (its sweep reaches 4,194,304 + 2, its growth
 * test 4,194,307). So 24 + 8: 16,777,215 live entities, and versions 1..255 that wrap, as
 * EnTT's do: after version 255 a slot lives again at version 1. Memory stays bounded however
 * many entities a world spawns and destroys (a slot is never retired, so churn reuses the
 * same slots), at EnTT's stated risk: a handle held across 255 lives of its slot aliases the
 * entity then living there (with 32-bit generations, harness/entity_ids.h, it would take 2^32
 * lives; this layout keeps its own ids because its point is the 32-bit id with the version in
 * every sparse entry). Versions start at config->first_generation when it is 1..255; a larger
 * one keeps its distance to the top of the 32-bit range when that is shorter than 255 lives
 * (UINT32_MAX - 3 gives four lives before the wrap), else starts at 1. Version 0 never lives:
 * it marks an absent sparse entry.
 * ids[index] is the live id (low bits = its own index), or for a free slot the next version
 * and the next free index (a LIFO free list).
 *
 * Pools. Per type: dense[0..count) the ids holding it and values[0..count) in one block
 * (values start on a 64-byte boundary, so every value is aligned to its type's alignment), and
 * a sparse array: per index, the entry version << 24 | dense position, or SPARSE_ABSENT (0).
 * The sparse array is a page table of PAGE_SIZE (4096) entries per page; pages are allocated on
 * the first add of the type to an index in them, and kept. A page never written points to one
 * shared read-only page of zeros, so a lookup never tests for a missing page. "Does id hold t"
 * is one entry load and one compare: (entry ^ id) < 2^24, i.e. same version (an absent entry
 * has version 0, which no id has). The entry alone proves liveness: destroy clears the entries
 * of what the entity held. Swap-remove: the last dense entry fills the hole. The type indexes
 * from type_count up to ECSB_MAX_TYPES have empty pools whose page table is one shared table
 * of zero pages, so add/remove/get/has test a type only against ECSB_MAX_TYPES (free for the
 * constant types of scenario code) and reject a type past type_count on their failure paths.
 *
 * Groups (owning_group). For each declared query of two or more types whose types no earlier
 * group owns (EnTT likewise refuses to let two owning groups share a type unless nested: we do
 * without nesting), a group owns those types: in every owned pool, dense[0..size) are the
 * entities holding all of them, in the same order. An add that completes the set swaps the
 * entity to position size in every owned pool and grows size; removing an owned type from a
 * member (or destroying it) first swaps it to size - 1 and shrinks size. A query for exactly a
 * group's set (any order) is then one run over the front. Declared queries naming an owned
 * type without being that set (overlapping ones), and undeclared queries, take the view path:
 * lead with the smallest pool (or a group front inside the query's set, if smaller), look the
 * rest up.
 *
 * Memory: the ids array, every pool's page table and the empty table live in one block grown by
 * one realloc;
 * each pool's dense ids and values in one block; pages one block each. Every grow is made
 * before anything is mutated, so a failed allocation leaves the world unchanged.
 */
#ifndef PAGED_SPARSE_SET_H
#define PAGED_SPARSE_SET_H

#include "harness/strategy.h"

#ifndef PAGED_OWNING_GROUPS
#error "define PAGED_OWNING_GROUPS (0 or 1) before including strategies/paged_sparse_set.h"
#endif

#define ID_INDEX_BITS 24u
#define ID_INDEX_MASK 0x00ffffffu            /* the index bits of an id or a sparse entry */
#define ID_VERSION_MAX 255u                  /* the last version before the wrap to 1 */
#define INDEX_NONE ID_INDEX_MASK             /* free-list end; indexes are below it */

/*
 * The 24-bit index holds at most 16,777,215 live entities (INDEX_NONE is reserved), so each
 * scenario's largest N is that divided by the entities it keeps alive per N (entity_cycle:
 * 3 per N at its peak; platformer: N + 2). ECSB_STRATEGY_CAPS of both strategies.
 */
#define PAGED_WHY_CAPPED "24-bit entity index: at most 16,777,215 live entities"
#define PAGED_CAPS                                                                             \
    ECSB_CAP(platformer, INDEX_NONE - 2, PAGED_WHY_CAPPED)                                     \
    ECSB_CAP(dual_iterate, INDEX_NONE, PAGED_WHY_CAPPED)                                       \
    ECSB_CAP(packed_1, INDEX_NONE, PAGED_WHY_CAPPED)                                           \
    ECSB_CAP(packed_5, INDEX_NONE, PAGED_WHY_CAPPED)                                           \
    ECSB_CAP(simple_iter, INDEX_NONE, PAGED_WHY_CAPPED)                                        \
    ECSB_CAP(frag_iter, INDEX_NONE, PAGED_WHY_CAPPED)                                          \
    ECSB_CAP(entity_cycle, INDEX_NONE / 3, PAGED_WHY_CAPPED)                                   \
    ECSB_CAP(add_remove, INDEX_NONE, PAGED_WHY_CAPPED)                                         \
    ECSB_CAP(random_get, INDEX_NONE, PAGED_WHY_CAPPED)                                         \
    ECSB_CAP(move3, INDEX_NONE, PAGED_WHY_CAPPED)                                              \
    ECSB_CAP(churn_iterate, INDEX_NONE, PAGED_WHY_CAPPED)                                      \
    ECSB_CAP(level_load, INDEX_NONE, PAGED_WHY_CAPPED)
#define PAGE_BITS 12u
#define PAGE_SIZE (1u << PAGE_BITS)          /* sparse entries per page */
#define PAGE_MASK (PAGE_SIZE - 1)
#define SPARSE_ABSENT 0u                     /* entry of an index not holding the type */
#define NO_GROUP UINT8_MAX
#define VIEW_BLOCK 64u                       /* lead entries a two-type view judges at once */

/* Every page not yet written: all SPARSE_ABSENT, never written (read-only memory). */
static const uint32_t paged_zero_page[PAGE_SIZE];
#define ZERO_PAGE ((uint32_t *)paged_zero_page)

/* One component type: [dense: cap ids][pad to 64][values: cap * size] in one block. */
typedef struct pool {
    uint32_t **pages;       /* page table: page_count pages, in the world's entity block */
    uint32_t *dense;        /* dense position -> id; = the block */
    unsigned char *values;  /* dense position -> value */
    uint32_t count;         /* holders */
    uint32_t size;          /* bytes per value */
    uint32_t cap;           /* dense entries allocated */
    uint32_t room;          /* count below which an add takes the fast path: cap, or 0 when
                             * owned (the slow path keeps the group) */
    uint8_t group;          /* the group owning this type, or NO_GROUP */
    size_t bytes;           /* bytes of the block */
} pool;

/* An owning group: dense[0..size) of each owned pool hold the same entities in the same order. */
typedef struct group {
    uint32_t mask;                         /* owned types, bit t for type t */
    uint32_t count;                        /* owned types */
    uint32_t size;                         /* entities holding all of them */
    ecsb_type types[ECSB_MAX_QUERY_TYPES]; /* owned types */
} group;

typedef struct world {
    const ecsb_allocator *alloc;
    uint32_t **tables;        /* the entity block: type_count page tables, the empty table,
                               * then ids */
    uint32_t *ids;            /* per slot: the live id, or next version | next free */
    uint32_t slots;           /* slots ever used: [0, slots) */
    uint32_t cap;             /* slots allocated */
    uint32_t page_count;      /* pages per page table: cover [0, cap) */
    uint32_t live;            /* live entities */
    uint32_t free_head;       /* first free slot, INDEX_NONE when none */
    uint32_t max_entities;
    uint32_t type_count;
    uint32_t first_version;   /* version of a fresh slot */
    size_t pages_allocated;   /* pages not ZERO_PAGE, over all pools */
    uint32_t group_count;
    group groups[ECSB_MAX_QUERIES];
    pool pools[ECSB_MAX_TYPES];
} world;

ECSB_INLINE uint32_t id_index(uint32_t id) { return id & ID_INDEX_MASK; }
ECSB_INLINE uint32_t id_version(uint32_t id) { return id >> ID_INDEX_BITS; }

/* The sparse entry of index i; i must be below the world's page_count * PAGE_SIZE. */
ECSB_INLINE uint32_t *sparse_entry(const pool *p, uint32_t i)
{
    return &p->pages[i >> PAGE_BITS][i & PAGE_MASK];
}

/* True when a sparse entry says live id `id` holds the type: same version (absent: 0). */
ECSB_INLINE bool entry_holds(uint32_t entry, uint32_t id)
{
    return (entry ^ id) <= ID_INDEX_MASK;
}

/*
 * True when the live entity `id` holds p's type; its dense position into *pos. Any entry at a
 * live entity's index is its own (destroy clears an entity's entries), so being present says
 * it: one load, one test. Handles that may be stale go through entry_holds instead.
 */
ECSB_INLINE bool pool_find(const pool *p, uint32_t id, uint32_t *pos)
{
    uint32_t entry = *sparse_entry(p, id_index(id));
    *pos = id_index(entry);
    return entry != SPARSE_ABSENT;
}

/* ---- memory ------------------------------------------------------------------------------ */

static size_t pages_for(size_t slots) { return (slots + PAGE_MASK) >> PAGE_BITS; }

/*
 * Bytes of the entity block for cap slots: the page tables (one per type, then the empty
 * table: all zero pages, shared by the pools of the type indexes past type_count, so that a
 * get, has or remove of such a type finds nothing without testing the index first), then the
 * ids.
 */
static size_t entity_block_bytes(const world *w, size_t cap)
{
    return ((size_t)w->type_count + 1) * pages_for(cap) * sizeof(uint32_t *) +
           cap * sizeof(uint32_t);
}

/* Offset of a pool's values in its block: after the dense ids, rounded up to a cache line. */
static size_t pool_values_offset(size_t cap)
{
    return (cap * sizeof(uint32_t) + 63) & ~(size_t)63;
}

/*
 * Grow the entity block to `cap` (> w->cap) slots; 0 means the id space is used up. One
 * realloc, then every region moves up to its new offset (highest first: ids, then the tables
 * last to first) and the new page-table entries point to the zero page.
 */
static ecsb_status grow_entities(world *w, size_t cap)
{
    if (cap == 0)
        return ECSB_ERR_CAPACITY;
    size_t old = w->cap, old_pages = w->page_count, new_pages = pages_for(cap);
    void *block = w->tables;
    ecsb_status st = ecsb_resize(w->alloc, &block, 1, entity_block_bytes(w, old),
                                 entity_block_bytes(w, cap));
    if (st != ECSB_OK)
        return st;
    uint32_t **tables = block;
    uint32_t *ids = (uint32_t *)(tables + ((size_t)w->type_count + 1) * new_pages);
    memmove(ids, tables + ((size_t)w->type_count + 1) * old_pages, old * sizeof *ids);
    for (uint32_t t = w->type_count + 1; t-- > 0;) { /* the empty table (t = type_count) too */
        uint32_t **table = tables + t * new_pages;
        memmove(table, tables + t * old_pages, old_pages * sizeof *table);
        for (size_t k = old_pages; k < new_pages; k++)
            table[k] = ZERO_PAGE;
    }
    for (uint32_t t = 0; t < ECSB_MAX_TYPES; t++)
        w->pools[t].pages = tables + (size_t)(t < w->type_count ? t : w->type_count) * new_pages;
    w->tables = tables;
    w->ids = ids;
    w->cap = (uint32_t)cap;
    w->page_count = (uint32_t)new_pages;
    return ECSB_OK;
}

/* Grow a pool to `cap` (> p->cap) values; 0 means full. One realloc: on failure nothing changed. */
static ecsb_status grow_pool(world *w, pool *p, size_t cap)
{
    if (cap == 0)
        return ECSB_ERR_CAPACITY;
    if (cap > (SIZE_MAX - 64) / (sizeof(uint32_t) + p->size))
        return ECSB_ERR_NOMEM;
    size_t old_off = pool_values_offset(p->cap), off = pool_values_offset(cap);
    size_t bytes = off + cap * p->size;
    void *block = p->dense;
    ecsb_status st = ecsb_resize(w->alloc, &block, 1, p->bytes, bytes);
    if (st != ECSB_OK)
        return st;
    unsigned char *base = block;
    memmove(base + off, base + old_off, (size_t)p->count * p->size);
    p->dense = block;
    p->values = base + off;
    p->cap = (uint32_t)cap;
    p->room = p->group == NO_GROUP ? p->cap : 0;
    p->bytes = bytes;
    return ECSB_OK;
}

/* A fresh page of SPARSE_ABSENT entries in place of the zero page at *slot. */
static ecsb_status page_alloc(world *w, uint32_t **slot)
{
    void *page = NULL;
    ecsb_status st = ecsb_resize(w->alloc, &page, sizeof(uint32_t), 0, PAGE_SIZE);
    if (st != ECSB_OK)
        return st;
    memset(page, 0, PAGE_SIZE * sizeof(uint32_t));
    *slot = page;
    w->pages_allocated++;
    return ECSB_OK;
}

static void page_free(world *w, uint32_t **slot)
{
    ecsb_release(w->alloc, *slot, PAGE_SIZE * sizeof(uint32_t));
    *slot = ZERO_PAGE;
    w->pages_allocated--;
}

static void world_fini(world *w)
{
    for (uint32_t t = 0; t < w->type_count; t++) {
        pool *p = &w->pools[t];
        for (uint32_t k = 0; k < w->page_count; k++)
            if (p->pages[k] != ZERO_PAGE)
                page_free(w, &p->pages[k]);
        ecsb_release(w->alloc, p->dense, p->bytes);
    }
    ecsb_release(w->alloc, w->tables, entity_block_bytes(w, w->cap));
    memset(w, 0, sizeof *w);
}

/* The version a fresh slot starts at (see the header comment). */
static uint32_t first_version(uint32_t first_generation)
{
    if (first_generation == 0)
        return 1;
    if (first_generation <= ID_VERSION_MAX)
        return first_generation;
    uint32_t lives_left = UINT32_MAX - first_generation; /* after the first */
    return lives_left < ID_VERSION_MAX - 1 ? ID_VERSION_MAX - lives_left : 1;
}

/*
 * The groups of the declared queries, in declaration order: a query of two or more types none
 * of which an earlier group owns gets a group; the same set again shares it; any other query
 * naming an owned type gets none (the view path answers it).
 */
static void groups_init(world *w, const ecsb_world_config *config)
{
    uint32_t owned = 0;
    for (uint32_t q = 0; q < config->query_count; q++) {
        const ecsb_query *query = &config->queries[q];
        uint32_t mask;
        if (query->count < 2 || ecsb_query_check(query, w->type_count, &mask) != ECSB_OK ||
            (mask & owned))
            continue;
        group *g = &w->groups[w->group_count];
        g->mask = mask;
        g->count = query->count;
        memcpy(g->types, query->types, query->count * sizeof *g->types);
        for (uint32_t j = 0; j < g->count; j++)
            w->pools[g->types[j]].group = (uint8_t)w->group_count;
        owned |= mask;
        w->group_count++;
    }
}

/*
 * initial_capacity reserves that many slots (their page tables too) and dense entries per
 * type; pages come with the first add to them.
 */
static ecsb_status world_init(world *w, const ecsb_world_config *config)
{
    ecsb_status st = ecsb_config_check(config);
    if (st != ECSB_OK)
        return st;
    memset(w, 0, sizeof *w);
    w->alloc = ecsb_allocator_or_default(config->allocator);
    w->max_entities = config->max_entities ? config->max_entities : ECSB_MAX_ENTITIES;
    w->type_count = config->type_count;
    w->free_head = INDEX_NONE;
    w->first_version = first_version(config->first_generation);
    for (uint32_t t = 0; t < w->type_count; t++) {
        w->pools[t].size = config->type_size[t];
        w->pools[t].group = NO_GROUP;
    }
    if (PAGED_OWNING_GROUPS)
        groups_init(w, config);
    if (config->initial_capacity) {
        size_t cap = config->initial_capacity < w->max_entities ? config->initial_capacity
                                                                : w->max_entities;
        cap = cap < INDEX_NONE ? cap : INDEX_NONE;
        st = grow_entities(w, cap);
        for (uint32_t t = 0; st == ECSB_OK && t < w->type_count; t++)
            st = grow_pool(w, &w->pools[t], cap);
        if (st != ECSB_OK) {
            world_fini(w);
            return st;
        }
    }
    return ECSB_OK;
}

/* ---- entities ---------------------------------------------------------------------------- */

/* True when the handle names a live entity; its id into *id. */
ECSB_INLINE bool live_id(const world *w, ecsb_entity e, uint32_t *id)
{
    uint32_t i = id_index((uint32_t)e);
    *id = (uint32_t)e;
    return i < w->slots && w->ids[i] == e;
}

/*
 * True when the handle could be a live id (version 1..255, high bits 0) whose index lies in
 * the page tables: then its sparse entries say alone whether it lives and holds a type.
 */
ECSB_INLINE bool handle_in_range(const world *w, ecsb_entity e)
{
    return (e >> ID_INDEX_BITS) - 1 < ID_VERSION_MAX &&
           (id_index((uint32_t)e) >> PAGE_BITS) < w->page_count;
}

ECSB_INLINE ecsb_status entity_create(world *w, ecsb_entity *out)
{
    *out = ECSB_ENTITY_NULL;
    if (ECSB_UNLIKELY(w->live >= w->max_entities))
        return ECSB_ERR_CAPACITY;
    uint32_t i = w->free_head, id;
    if (i != INDEX_NONE) {
        uint32_t word = w->ids[i];
        w->free_head = id_index(word);
        id = (word & ~ID_INDEX_MASK) | i;
    } else {
        if (ECSB_UNLIKELY(w->slots == w->cap)) {
            ecsb_status st =
                grow_entities(w, ecsb_grow_capacity(w->cap, (size_t)w->slots + 1, INDEX_NONE));
            if (st != ECSB_OK)
                return st;
        }
        i = w->slots++;
        id = w->first_version << ID_INDEX_BITS | i;
    }
    w->ids[i] = id;
    w->live++;
    *out = id;
    return ECSB_OK;
}

/* Swap n bytes between x and y; the common value sizes as plain moves. */
static void swap_bytes(unsigned char *x, unsigned char *y, size_t n)
{
    unsigned char tmp[64];
    switch (n) {
    case 4: memcpy(tmp, x, 4), memcpy(x, y, 4), memcpy(y, tmp, 4); return;
    case 8: memcpy(tmp, x, 8), memcpy(x, y, 8), memcpy(y, tmp, 8); return;
    }
    for (size_t done = 0, k; done < n; done += k) {
        k = n - done < sizeof tmp ? n - done : sizeof tmp;
        memcpy(tmp, x + done, k);
        memcpy(x + done, y + done, k);
        memcpy(y + done, tmp, k);
    }
}

/* Swap dense entries x and y of p (ids, values, their sparse entries). */
static void pool_swap(pool *p, uint32_t x, uint32_t y)
{
    if (x == y)
        return;
    uint32_t idx = p->dense[x], idy = p->dense[y];
    p->dense[x] = idy;
    p->dense[y] = idx;
    *sparse_entry(p, id_index(idx)) = (idx & ~ID_INDEX_MASK) | y;
    *sparse_entry(p, id_index(idy)) = (idy & ~ID_INDEX_MASK) | x;
    swap_bytes(p->values + (size_t)x * p->size, p->values + (size_t)y * p->size, p->size);
}

/* Live id `id` holds every type of g: move it to position size of each owned pool, grow. */
static void group_enter(world *w, group *g, uint32_t id)
{
    for (uint32_t j = 0; j < g->count; j++) {
        pool *p = &w->pools[g->types[j]];
        uint32_t pos;
        pool_find(p, id, &pos);
        pool_swap(p, pos, g->size);
    }
    g->size++;
}

/* Member `id` of g is losing an owned type: move it to position size - 1 of each, shrink. */
static void group_leave(world *w, group *g, uint32_t id)
{
    g->size--;
    for (uint32_t j = 0; j < g->count; j++) {
        pool *p = &w->pools[g->types[j]];
        uint32_t pos;
        pool_find(p, id, &pos);
        pool_swap(p, pos, g->size);
    }
}

/* True when live id `id` holds every type of g. */
static bool group_complete(const world *w, const group *g, uint32_t id)
{
    for (uint32_t j = 0; j < g->count; j++) {
        uint32_t pos;
        if (!pool_find(&w->pools[g->types[j]], id, &pos))
            return false;
    }
    return true;
}

/*
 * Swap-remove the holder whose sparse entry is *entry from p: the last dense entry fills the
 * hole at the entry's position.
 */
ECSB_INLINE void pool_remove(pool *p, uint32_t *entry)
{
    uint32_t pos = id_index(*entry), last = --p->count;
    uint32_t moved = p->dense[last];
    size_t size = p->size;
    unsigned char *hole = p->values + (size_t)pos * size, *tail = p->values + (size_t)last * size;
    /* Constant sizes become plain loads and stores; memmove because hole may be tail. */
    switch (size) {
    case 4: memmove(hole, tail, 4); break;
    case 8: memmove(hole, tail, 8); break;
    default: memmove(hole, tail, size); break;
    }
    p->dense[pos] = moved;
    *sparse_entry(p, id_index(moved)) = (moved & ~ID_INDEX_MASK) | pos;
    *entry = SPARSE_ABSENT; /* after the line above: the moved one may be this one */
}

/* Remove p's type from holder `id` (sparse entry *entry), leaving its group first. */
ECSB_INLINE void component_drop(world *w, pool *p, uint32_t id, uint32_t *entry)
{
    if (PAGED_OWNING_GROUPS && p->group != NO_GROUP) {
        group *g = &w->groups[p->group];
        if (id_index(*entry) < g->size)
            group_leave(w, g, id); /* moves it to position size, *entry with it */
    }
    pool_remove(p, entry);
}

ECSB_INLINE ecsb_status entity_destroy(world *w, ecsb_entity e)
{
    uint32_t id;
    if (!live_id(w, e, &id))
        return ECSB_ERR_STALE;
    uint32_t i = id_index(id), version = id_version(id);
    /* The page tables lie back to back in the entity block: type t's page of i is
     * tables[t * page_count + (i >> PAGE_BITS)]. */
    uint32_t *const *table = w->tables + (i >> PAGE_BITS);
    const uint32_t types = w->type_count, slot = i & PAGE_MASK;
    const size_t stride = w->page_count;
    uint32_t t = 0;
    /* Up to the first type held, a loop with no call in it: an entity holding nothing (the
     * usual case where components are removed before the destroy) pays no register spills
     * around the removals. */
    for (; t < types && (*table)[slot] == SPARSE_ABSENT; t++)
        table += stride;
    for (; t < types; t++, table += stride)
        if ((*table)[slot] != SPARSE_ABSENT)
            component_drop(w, &w->pools[t], id, &(*table)[slot]);
    uint32_t next = ECSB_UNLIKELY(version == ID_VERSION_MAX) ? 1 : version + 1; /* wraps */
    w->ids[i] = next << ID_INDEX_BITS | w->free_head;
    w->free_head = i;
    w->live--;
    return ECSB_OK;
}

static bool entity_alive(const world *w, ecsb_entity e)
{
    uint32_t id;
    return live_id(w, e, &id);
}

static size_t entity_count(const world *w) { return w->live; }

/* ---- components -------------------------------------------------------------------------- */

/* Holder `id` (index i, sparse entry slot *entry) enters p at dense position p->count. */
ECSB_INLINE uint32_t pool_append(pool *p, uint32_t id, uint32_t *entry)
{
    uint32_t pos = p->count++;
    p->dense[pos] = id;
    *entry = (id & ~ID_INDEX_MASK) | pos;
    return pos;
}

/*
 * An add of type t off the fast path: of a type index past type_count (its pool is empty, its
 * pages the zero page), into the zero page (a page is allocated), into a full pool (it grows),
 * or into an owned pool (the entity may complete its group). Allocation comes first; on
 * failure nothing changed. Out of line: the fast path only tests for it.
 */
static __attribute__((noinline, cold)) ecsb_status component_add_slow(world *w, ecsb_type t,
                                                                uint32_t id, void **value_out)
{
    if (t >= w->type_count)
        return ECSB_ERR_TYPE;
    pool *p = &w->pools[t];
    uint32_t i = id_index(id);
    uint32_t **page = &p->pages[i >> PAGE_BITS];
    bool new_page = *page == ZERO_PAGE;
    if (new_page) {
        ecsb_status st = page_alloc(w, page);
        if (st != ECSB_OK)
            return st;
    }
    if (p->count == p->cap) {
        ecsb_status st =
            grow_pool(w, p, ecsb_grow_capacity(p->cap, (size_t)p->count + 1, w->max_entities));
        if (st != ECSB_OK) {
            if (new_page)
                page_free(w, page);
            return st;
        }
    }
    uint32_t pos = pool_append(p, id, &(*page)[i & PAGE_MASK]);
    if (PAGED_OWNING_GROUPS && p->group != NO_GROUP) {
        group *g = &w->groups[p->group];
        if (group_complete(w, g, id)) {
            group_enter(w, g, id);
            pos = g->size - 1;
        }
    }
    *value_out = p->values + (size_t)pos * p->size;
    return ECSB_OK;
}

/*
 * Type indexes from type_count up to ECSB_MAX_TYPES have empty pools on the empty page table
 * (entity_block_bytes), so the hot paths test only t < ECSB_MAX_TYPES (free for a constant t)
 * and meet a type past type_count where they fail anyway.
 */
ECSB_INLINE ecsb_status component_add(world *w, ecsb_entity e, ecsb_type t, void **value_out)
{
    *value_out = NULL;
    if (ECSB_UNLIKELY(t >= ECSB_MAX_TYPES))
        return ECSB_ERR_TYPE;
    uint32_t id;
    if (ECSB_UNLIKELY(!live_id(w, e, &id)))
        return t >= w->type_count ? ECSB_ERR_TYPE : ECSB_ERR_STALE;
    pool *p = &w->pools[t];
    uint32_t i = id_index(id);
    uint32_t *page = p->pages[i >> PAGE_BITS];
    if (ECSB_UNLIKELY(page[i & PAGE_MASK] != SPARSE_ABSENT)) /* live: absent or its own */
        return ECSB_ERR_PRESENT;
    /* One test sends the zero page, a full pool and an owned type (room 0) off the path. */
    if (ECSB_UNLIKELY(page == ZERO_PAGE || p->count >= p->room))
        return component_add_slow(w, t, id, value_out);
    uint32_t pos = pool_append(p, id, &page[i & PAGE_MASK]);
    *value_out = p->values + (size_t)pos * p->size;
    return ECSB_OK;
}

/* The sparse entry alone decides the hot path; the ids array only tells stale from absent. */
ECSB_INLINE ecsb_status component_remove(world *w, ecsb_entity e, ecsb_type t)
{
    if (ECSB_UNLIKELY(t >= ECSB_MAX_TYPES))
        return ECSB_ERR_TYPE;
    pool *p = &w->pools[t];
    uint32_t id = (uint32_t)e, *entry;
    if (ECSB_UNLIKELY(!handle_in_range(w, e) ||
                      !entry_holds(*(entry = sparse_entry(p, id_index(id))), id)))
        return t >= w->type_count ? ECSB_ERR_TYPE
               : live_id(w, e, &id) ? ECSB_ERR_ABSENT
                                    : ECSB_ERR_STALE;
    component_drop(w, p, id, entry);
    return ECSB_OK;
}

ECSB_INLINE void *component_get(world *w, ecsb_entity e, ecsb_type t)
{
    if (ECSB_UNLIKELY(t >= ECSB_MAX_TYPES) || ECSB_UNLIKELY(!handle_in_range(w, e)))
        return NULL;
    const pool *p = &w->pools[t];
    uint32_t entry = *sparse_entry(p, id_index((uint32_t)e));
    return ECSB_LIKELY(entry_holds(entry, (uint32_t)e))
               ? p->values + (size_t)id_index(entry) * p->size
               : NULL;
}

ECSB_INLINE bool component_has(const world *w, ecsb_entity e, ecsb_type t)
{
    return t < ECSB_MAX_TYPES && handle_in_range(w, e) &&
           entry_holds(*sparse_entry(&w->pools[t], id_index((uint32_t)e)), (uint32_t)e);
}

static size_t component_count(const world *w, ecsb_type t)
{
    return t < w->type_count ? w->pools[t].count : 0;
}

/* ---- iteration --------------------------------------------------------------------------- */

ECSB_INLINE void each(world *w, ecsb_type t, ecsb_each_fn fn, void *ctx)
{
    if (t >= w->type_count)
        return;
    const pool *p = &w->pools[t];
    unsigned char *value = p->values;
    size_t size = p->size;
    for (size_t k = 0, n = p->count; k < n; k++, value += size)
        fn(ctx, p->dense[k], value);
}

/* The group owning exactly the types in mask, or NULL. */
ECSB_INLINE const group *group_of(const world *w, uint32_t mask)
{
    for (uint32_t g = 0; PAGED_OWNING_GROUPS && g < w->group_count; g++)
        if (w->groups[g].mask == mask)
            return &w->groups[g];
    return NULL;
}

/*
 * Walk the smaller type (or, when a group owns exactly {a, b}, just its front: every entry
 * there matches at the same position), looking each entity up in the other.
 */
ECSB_INLINE void join(world *w, ecsb_type a, ecsb_type b, ecsb_join_fn fn, void *ctx)
{
    if (a >= w->type_count || b >= w->type_count)
        return;
    const pool *pa = &w->pools[a], *pb = &w->pools[b];
    size_t sa = pa->size, sb = pb->size;
    const group *g = a != b ? group_of(w, (1u << a) | (1u << b)) : NULL;
    if (g) {
        for (size_t d = 0; d < g->size; d++)
            fn(ctx, pa->dense[d], pa->values + d * sa, pb->values + d * sb);
        return;
    }
    bool lead_a = pa->count <= pb->count;
    const pool *lead = lead_a ? pa : pb, *other = lead_a ? pb : pa;
    const uint32_t *restrict dense = lead->dense;
    for (size_t d = 0, n = lead->count; d < n; d++) {
        uint32_t id = dense[d], pos;
        if (!pool_find(other, id, &pos))
            continue;
        void *lv = lead->values + d * lead->size, *ov = other->values + (size_t)pos * other->size;
        if (lead_a)
            fn(ctx, id, lv, ov);
        else
            fn(ctx, id, ov, lv);
    }
}

/* Hand out a run of two columns: the lead's at `lead_col`, the other's `off` entries on. */
ECSB_INLINE void view2_flush(const pool *lead, uint32_t lead_col, const pool *other,
                             size_t start, size_t off, size_t run, ecsb_query_fn fn, void *ctx)
{
    void *columns[2];
    columns[lead_col] = lead->values + start * lead->size;
    columns[!lead_col] = other->values + (start + off) * other->size;
    fn(ctx, run, columns);
}

/*
 * The two-type view, by blocks of at most VIEW_BLOCK lead entries: first the block's sparse
 * entries in the other pool are gathered (view2_gather), then the block is either one run (in
 * step) or visited entity by entity (view2_visit).
 */

/*
 * The page of other's sparse array holding the entries of all the VIEW_BLOCK lead ids at
 * `ids`, or NULL when they span pages. A branch-free pass over the ids (vectorized).
 */
ECSB_INLINE const uint32_t *view2_block_page(const pool *other, const uint32_t *restrict ids)
{
    uint32_t first = ids[0], spread = 0;
#pragma GCC unroll 4
    for (uint32_t e = 0; e < VIEW_BLOCK; e++)
        spread |= ids[e] ^ first;
    return id_index(spread) >> PAGE_BITS ? NULL : other->pages[id_index(first) >> PAGE_BITS];
}

/*
 * The sparse entries in `other` of the `count` lead ids at `ids`, into entries[0, count).
 * A full block whose ids share a page reads that page directly: no page-table load per id.
 */
ECSB_INLINE void view2_gather(const pool *other, const uint32_t *restrict ids, size_t count,
                              uint32_t *entries)
{
    const uint32_t *page = count == VIEW_BLOCK ? view2_block_page(other, ids) : NULL;
    if (page) {
#pragma GCC unroll 8
        for (uint32_t e = 0; e < VIEW_BLOCK; e++)
            entries[e] = page[ids[e] & PAGE_MASK];
    } else {
#pragma GCC unroll 4
        for (size_t e = 0; e < count; e++)
            entries[e] = *sparse_entry(other, id_index(ids[e]));
    }
}

/*
 * True when every one of the `count` entries is present at one distance from its lead
 * position `from` + e (other position - lead position, wrapping: it may be negative), which
 * goes to *off: then the block is one run. Branch-free.
 */
ECSB_INLINE bool view2_in_step(const uint32_t *restrict entries, size_t from, size_t count,
                               size_t *off)
{
    uint32_t first = id_index(entries[0]), bad = 0;
    for (uint32_t e = 0; e < count; e++)
        bad |= (uint32_t)(entries[e] == SPARSE_ABSENT) | ((id_index(entries[e]) - e) ^ first);
    *off = (size_t)first - from;
    return bad == 0;
}

/* True when none of the VIEW_BLOCK entries is absent (vectorized). */
ECSB_INLINE bool view2_all_held(const uint32_t *restrict entries)
{
    uint32_t absent = 0;
#pragma GCC unroll 4
    for (uint32_t e = 0; e < VIEW_BLOCK; e++)
        absent |= -(uint32_t)(entries[e] == SPARSE_ABSENT);
    return !absent;
}

/*
 * Visit the lead entries [from, from + count) whose sparse entries in other are entries[0,
 * count): each match is a run of one, with a constant count. With `held` (a constant at each
 * call) every entry is present: fn is called for each with no branch around it, so the
 * caller's per-run work (a visit count) stays in a register, not a load and a store per
 * entity (dual_iterate, N = 4000: 20.9 -> 18.9 instructions per pair).
 */
ECSB_INLINE void view2_visit(const pool *lead, size_t from, size_t count, uint32_t lead_col,
                             const pool *other, const uint32_t *restrict entries, bool held,
                             size_t other_size, ecsb_query_fn fn, void *ctx)
{
    unsigned char *lv = lead->values + from * lead->size, *other_values = other->values;
    size_t lead_size = lead->size;
#pragma GCC unroll 4
    for (size_t e = 0; e < count; e++, lv += lead_size) {
        uint32_t entry = entries[e];
        if (!held && entry == SPARSE_ABSENT) /* a live id's entry is its own: no version test */
            continue;
        void *columns[2];
        columns[lead_col] = lv;
        columns[!lead_col] = other_values + (size_t)id_index(entry) * other_size;
        fn(ctx, 1, columns);
    }
}

/* view2_visit with the value size a constant where it can be, branch-free where it can be. */
ECSB_INLINE void view2_walk(const pool *lead, size_t from, size_t count, uint32_t lead_col,
                            const pool *other, const uint32_t *restrict entries,
                            ecsb_query_fn fn, void *ctx)
{
    bool held = count == VIEW_BLOCK && view2_all_held(entries);
    size_t other_size = other->size;
    /* A constant value size makes the other's address one scaled load, not an imul on
     * each lookup's path. */
    if (held && other_size == 4)
        view2_visit(lead, from, count, lead_col, other, entries, true, 4, fn, ctx);
    else if (held && other_size == 8)
        view2_visit(lead, from, count, lead_col, other, entries, true, 8, fn, ctx);
    else if (held)
        view2_visit(lead, from, count, lead_col, other, entries, true, other_size, fn, ctx);
    else if (other_size == 4)
        view2_visit(lead, from, count, lead_col, other, entries, false, 4, fn, ctx);
    else if (other_size == 8)
        view2_visit(lead, from, count, lead_col, other, entries, false, 8, fn, ctx);
    else
        view2_visit(lead, from, count, lead_col, other, entries, false, other_size, fn, ctx);
}

/*
 * Two columns, the lead's (column `lead_col`) and one looked up in `other`. A block is first
 * tried as a whole (view2_in_step): in a world whose pools are in step, every block is one
 * run (runs of consecutive blocks merge), and the caller's loop vectorizes. Otherwise it is
 * visited entity by entity; the next block is tried whole again only when this one's first
 * and last entries sit at one distance. Measured (callgrind) on dual_iterate at N = 4000,
 * never in step: 49 instructions per pair when every match was tested for extending a run,
 * 20.8 with a lookup and a test per entity, 18.9 with the blocks gathered and visited
 * branch-free (the floor's loop: 9).
 */
ECSB_INLINE void query_view2(const pool *lead, size_t n, uint32_t lead_col, const pool *other,
                             ecsb_query_fn fn, void *ctx)
{
    const uint32_t *restrict dense = lead->dense;
    uint32_t entries[VIEW_BLOCK];
    size_t run = 0, start = 0, off = 0; /* the pending run of whole blocks */
    bool try_whole = true;
    for (size_t from = 0; from < n; from += VIEW_BLOCK) {
        size_t count = n - from < VIEW_BLOCK ? n - from : VIEW_BLOCK, block_off;
        view2_gather(other, dense + from, count, entries);
        if (try_whole && view2_in_step(entries, from, count, &block_off)) {
            if (run && start + run == from && off == block_off) {
                run += count;
                continue;
            }
            if (run)
                view2_flush(lead, lead_col, other, start, off, run, fn, ctx);
            start = from, off = block_off, run = count;
            continue;
        }
        if (run)
            view2_flush(lead, lead_col, other, start, off, run, fn, ctx);
        run = 0;
        view2_walk(lead, from, count, lead_col, other, entries, fn, ctx);
        uint32_t first = entries[0], last = entries[count - 1];
        try_whole = first != SPARSE_ABSENT && last != SPARSE_ABSENT &&
                    id_index(last) - id_index(first) == count - 1;
    }
    if (run)
        view2_flush(lead, lead_col, other, start, off, run, fn, ctx);
}

/*
 * Three or more columns, in blocks of VIEW_BLOCK lead entries, as query_view2 does for two:
 * a block whose entries all sit at one distance from their lead position in every looked-up
 * pool is one run (consecutive such blocks merge, so pools filled alike are handed out whole);
 * any other block is walked entity by entity, each match a run of one with a constant count.
 * The next block is tried whole again only when this one's ends sit at one distance in every
 * pool. Columns in `at_lead` (a bit per column) sit at the lead position itself. The loops
 * over columns carry "#pragma GCC unroll 8" (ECSB_MAX_QUERY_TYPES): a scenario's query count
 * is a constant, so they unroll into straight code. move3 at N = 4000 (callgrind, timed pass
 * only): 139 instructions per match with the per-entity run tracking this replaced, 56 so
 * (sparse_set 41).
 */
typedef struct view_cols {
    const pool *pools[ECSB_MAX_QUERY_TYPES];
    unsigned char *values[ECSB_MAX_QUERY_TYPES];
    size_t sizes[ECSB_MAX_QUERY_TYPES];
} view_cols;

/* True when lead entries [from, to) all sit at one distance per looked-up column (*off). */
ECSB_INLINE bool viewk_in_step(const view_cols *c, uint32_t k, uint32_t at_lead,
                               const uint32_t *restrict dense, size_t from, size_t to,
                               size_t *off)
{
    uint32_t first[ECSB_MAX_QUERY_TYPES] = {0}, bad = 0;
#pragma GCC unroll 8
    for (uint32_t j = 0; j < k; j++) {
        off[j] = 0;
        if (at_lead >> j & 1)
            continue;
        uint32_t entry = *sparse_entry(c->pools[j], id_index(dense[from]));
        if (entry == SPARSE_ABSENT)
            return false;
        first[j] = id_index(entry) - (uint32_t)from;
        off[j] = (size_t)(first[j] + (uint32_t)from) - from; /* may wrap: negative distance */
    }
    for (size_t e = from + 1; e < to; e++) {
        const uint32_t i = id_index(dense[e]);
#pragma GCC unroll 8
        for (uint32_t j = 0; j < k; j++) {
            if (at_lead >> j & 1)
                continue;
            /* An absent entry reads as position 0, which would put the block's first entry
             * at from - e < 0: it never passes for one in step. */
            bad |= (id_index(*sparse_entry(c->pools[j], i)) - (uint32_t)e) ^ first[j];
        }
    }
    return bad == 0;
}

/* Lead entries [from, to) one by one: each match is a run of one, with a constant count. */
ECSB_INLINE void viewk_walk(const view_cols *c, uint32_t k, uint32_t at_lead,
                            const uint32_t *restrict dense, size_t from, size_t to,
                            ecsb_query_fn fn, void *ctx)
{
    for (size_t d = from; d < to; d++) {
        const uint32_t i = id_index(dense[d]);
        void *columns[ECSB_MAX_QUERY_TYPES] = {0}; /* (no warning where k is not a constant) */
        bool all = true;
#pragma GCC unroll 8
        for (uint32_t j = 0; j < k; j++) {
            size_t at = d;
            if (!(at_lead >> j & 1)) {
                uint32_t entry = *sparse_entry(c->pools[j], i);
                if (entry == SPARSE_ABSENT) {
                    all = false;
                    break;
                }
                at = id_index(entry);
            }
            columns[j] = c->values[j] + at * c->sizes[j];
        }
        if (all)
            fn(ctx, 1, columns);
    }
}

/* Hand out the run of `run` lead entries from `start`, column j `off[j]` entries on. */
ECSB_INLINE void viewk_flush(const view_cols *c, uint32_t k, const size_t *off, size_t start,
                             size_t run, ecsb_query_fn fn, void *ctx)
{
    void *columns[ECSB_MAX_QUERY_TYPES] = {0};
#pragma GCC unroll 8
    for (uint32_t j = 0; j < k; j++)
        columns[j] = c->values[j] + (start + off[j]) * c->sizes[j];
    fn(ctx, run, columns);
}

/* The block walk over lead entries [0, n) (see view_cols). */
ECSB_INLINE void query_viewk(const view_cols *c, uint32_t k, uint32_t at_lead,
                             const uint32_t *restrict dense, size_t n, ecsb_query_fn fn,
                             void *ctx)
{
    size_t off[ECSB_MAX_QUERY_TYPES] = {0}, block_off[ECSB_MAX_QUERY_TYPES] = {0};
    size_t run = 0, start = 0; /* the pending run of whole blocks */
    bool try_whole = true;
    for (size_t from = 0; from < n; from += VIEW_BLOCK) {
        const size_t to = n - from < VIEW_BLOCK ? n : from + VIEW_BLOCK;
        if (try_whole && viewk_in_step(c, k, at_lead, dense, from, to, block_off)) {
            bool follows = run && start + run == from;
#pragma GCC unroll 8
            for (uint32_t j = 0; j < k; j++)
                follows &= off[j] == block_off[j];
            if (follows) {
                run += to - from;
                continue;
            }
            if (run)
                viewk_flush(c, k, off, start, run, fn, ctx);
#pragma GCC unroll 8
            for (uint32_t j = 0; j < k; j++)
                off[j] = block_off[j];
            start = from, run = to - from;
            continue;
        }
        if (run)
            viewk_flush(c, k, off, start, run, fn, ctx);
        run = 0;
        viewk_walk(c, k, at_lead, dense, from, to, fn, ctx);
        /* Tried whole again when the block's ends sit at one distance in every pool. */
        try_whole = true;
        const uint32_t head = id_index(dense[from]), tail = id_index(dense[to - 1]);
#pragma GCC unroll 8
        for (uint32_t j = 0; j < k; j++) {
            if (at_lead >> j & 1)
                continue;
            uint32_t x = *sparse_entry(c->pools[j], head), y = *sparse_entry(c->pools[j], tail);
            try_whole &= x != SPARSE_ABSENT && y != SPARSE_ABSENT &&
                         id_index(y) - id_index(x) == (uint32_t)(to - 1 - from);
        }
    }
    if (run)
        viewk_flush(c, k, off, start, run, fn, ctx);
}

/*
 * Two columns: query_view2; more: query_viewk. Where the query is a constant (a scenario's
 * static query), a single lead column is made a constant too, so the tests of at_lead in the
 * column loops fold away; other leads (a group front) and run-time queries take one walk.
 */
ECSB_INLINE void query_view(world *w, const ecsb_query *q, const pool *lead, size_t n,
                            uint32_t at_lead, ecsb_query_fn fn, void *ctx)
{
    const uint32_t k = q->count;
    view_cols c = {0};
#pragma GCC unroll 8
    for (uint32_t j = 0; j < k; j++) {
        c.pools[j] = &w->pools[q->types[j]];
        c.values[j] = c.pools[j]->values;
        c.sizes[j] = c.pools[j]->size;
    }
    if (k == 2) { /* at_lead is 1 or 2: a group owning both would have answered */
        /* A constant lead column keeps the columns in registers, not on the stack. */
        if (at_lead == 1)
            query_view2(lead, n, 0, c.pools[1], fn, ctx);
        else
            query_view2(lead, n, 1, c.pools[0], fn, ctx);
        return;
    }
    const uint32_t *restrict dense = lead->dense;
    if (!__builtin_constant_p(k)) {
        query_viewk(&c, k, at_lead, dense, n, fn, ctx);
        return;
    }
    switch (at_lead) {
    case 1u << 0: query_viewk(&c, k, 1u << 0, dense, n, fn, ctx); break;
    case 1u << 1: query_viewk(&c, k, 1u << 1, dense, n, fn, ctx); break;
    case 1u << 2: query_viewk(&c, k, 1u << 2, dense, n, fn, ctx); break;
    default: query_viewk(&c, k, at_lead, dense, n, fn, ctx); break;
    }
}

/*
 * A group's exact set: one run over its front. One type: its pool is one run. Otherwise the
 * view path, led by the smallest pool, or by the front of a group whose types the query names
 * when that front is smaller.
 */
ECSB_INLINE ecsb_status query(world *w, const ecsb_query *q, ecsb_query_fn fn, void *ctx)
{
    uint32_t mask;
    ecsb_status st = ecsb_query_check(q, w->type_count, &mask);
    if (st != ECSB_OK)
        return st;
    const uint32_t k = q->count;
    void *columns[ECSB_MAX_QUERY_TYPES];
    const group *g = group_of(w, mask);
    if (g || k == 1) {
        size_t n = g ? g->size : w->pools[q->types[0]].count;
        for (uint32_t j = 0; j < k; j++)
            columns[j] = w->pools[q->types[j]].values;
        if (n)
            fn(ctx, n, columns);
        return ECSB_OK;
    }
    uint32_t lead = 0;
    for (uint32_t j = 1; j < k; j++)
        if (w->pools[q->types[j]].count < w->pools[q->types[lead]].count)
            lead = j;
    const pool *lp = &w->pools[q->types[lead]];
    size_t n = lp->count;
    uint32_t at_lead = 1u << lead;
    for (uint32_t c = 0; PAGED_OWNING_GROUPS && c < w->group_count; c++) {
        const group *inner = &w->groups[c];
        if ((inner->mask & ~mask) || inner->size >= n)
            continue;
        n = inner->size;
        lp = &w->pools[inner->types[0]];
        at_lead = 0;
        for (uint32_t j = 0; j < k; j++)
            at_lead |= (uint32_t)(inner->mask >> q->types[j] & 1) << j;
    }
    query_view(w, q, lp, n, at_lead, fn, ctx);
    return ECSB_OK;
}

/* ---- checks ------------------------------------------------------------------------------ */

/* Slots: each live (its own index) or free (on the free list); versions 1..255 (wrapping). */
static bool slots_valid(const world *w)
{
    uint32_t live = 0, free_count = 0;
    for (uint32_t i = 0; i < w->slots; i++) {
        uint32_t word = w->ids[i], version = id_version(word), low = id_index(word);
        if (version == 0)
            return false;
        if (low == i) {
            live++;
        } else {
            if (low != INDEX_NONE && low >= w->slots)
                return false;
            free_count++;
        }
    }
    if (live != w->live)
        return false;
    /* The free list reaches every free slot exactly once (a cycle would exceed free_count). */
    uint32_t reached = 0;
    for (uint32_t i = w->free_head; i != INDEX_NONE; i = id_index(w->ids[i])) {
        if (i >= w->slots || reached == free_count || id_index(w->ids[i]) == i)
            return false;
        reached++;
    }
    return reached == free_count;
}

/*
 * A pool: dense -> sparse and sparse -> dense agree, holders are live with the same version;
 * the page table covers [0, cap), with pages allocated only below the slots in use.
 */
static bool pool_valid(const world *w, const pool *p, size_t *pages)
{
    if (p->size == 0 || p->size > ECSB_MAX_TYPE_SIZE || p->count > p->cap ||
        p->room != (p->group == NO_GROUP ? p->cap : 0) ||
        p->count > w->live || (p->cap && (!p->dense || p->bytes != pool_values_offset(p->cap) +
                                                                   (size_t)p->cap * p->size)))
        return false;
    for (uint32_t k = 0; k < p->count; k++) {
        uint32_t id = p->dense[k], i = id_index(id);
        if (i >= w->slots || w->ids[i] != id || *sparse_entry(p, i) != ((id & ~ID_INDEX_MASK) | k))
            return false;
    }
    for (uint32_t page = 0; page < w->page_count; page++) {
        const uint32_t *entries = p->pages[page];
        if (entries == ZERO_PAGE)
            continue;
        if (!entries || ((size_t)page << PAGE_BITS) >= w->slots)
            return false;
        ++*pages;
        for (uint32_t e = 0; e < PAGE_SIZE; e++) {
            uint32_t entry = entries[e], i = page << PAGE_BITS | e, pos = id_index(entry);
            if (entry != SPARSE_ABSENT &&
                (pos >= p->count || p->dense[pos] != ((entry & ~ID_INDEX_MASK) | i)))
                return false;
        }
    }
    return true;
}

/*
 * A group: it owns its types and no other group does; the first size entries of each owned
 * pool are the same entities in the same order, and no entity past them holds all the types.
 */
static bool group_valid(const world *w, const group *g, uint32_t index, uint32_t *owned)
{
    uint32_t mask = 0;
    if (g->count < 2 || g->count > ECSB_MAX_QUERY_TYPES)
        return false;
    for (uint32_t j = 0; j < g->count; j++) {
        ecsb_type t = g->types[j];
        if (t >= w->type_count || w->pools[t].group != index || g->size > w->pools[t].count)
            return false;
        mask |= 1u << t;
    }
    if (mask != g->mask || (mask & *owned))
        return false;
    *owned |= mask;
    const pool *first = &w->pools[g->types[0]];
    for (uint32_t j = 1; g->size && j < g->count; j++)
        if (memcmp(first->dense, w->pools[g->types[j]].dense, g->size * sizeof(uint32_t)))
            return false;
    for (uint32_t d = g->size; d < first->count; d++)
        if (group_complete(w, g, first->dense[d]))
            return false;
    return true;
}

static bool world_valid(const world *w)
{
    if (w->type_count == 0 || w->type_count > ECSB_MAX_TYPES || w->slots > w->cap ||
        w->cap > INDEX_NONE || w->live > w->slots || w->live > w->max_entities ||
        (w->cap && !w->tables) ||
        w->page_count != pages_for(w->cap) || w->first_version == 0 ||
        w->first_version > ID_VERSION_MAX || w->group_count > ECSB_MAX_QUERIES ||
        (!PAGED_OWNING_GROUPS && w->group_count) || !slots_valid(w))
        return false;
    size_t pages = 0;
    uint32_t owned = 0, grouped = 0;
    for (uint32_t t = 0; t < w->type_count; t++) {
        const pool *p = &w->pools[t];
        if ((w->cap && p->pages != w->tables + (size_t)t * w->page_count) ||
            !pool_valid(w, p, &pages))
            return false;
        if (p->group != NO_GROUP)
            grouped |= 1u << t;
    }
    /* The type indexes past type_count: empty pools on the empty table, all zero pages. */
    uint32_t *const *empty = w->cap ? w->tables + (size_t)w->type_count * w->page_count : NULL;
    for (uint32_t t = w->type_count; t < ECSB_MAX_TYPES; t++)
        if (w->pools[t].count || w->pools[t].room || (w->cap && w->pools[t].pages != empty))
            return false;
    for (uint32_t k = 0; w->cap && k < w->page_count; k++)
        if (empty[k] != ZERO_PAGE)
            return false;
    for (uint32_t g = 0; g < w->group_count; g++)
        if (!group_valid(w, &w->groups[g], g, &owned))
            return false;
    return pages == w->pages_allocated && owned == grouped;
}

static size_t world_bytes(const world *w)
{
    size_t bytes = sizeof *w + entity_block_bytes(w, w->cap) +
                   w->pages_allocated * PAGE_SIZE * sizeof(uint32_t);
    for (uint32_t t = 0; t < w->type_count; t++)
        bytes += w->pools[t].bytes;
    return bytes;
}

/* ---- testing aid: reversible damage, one number per invariant world_valid checks --------- */

/* The first holder of any type: its pool into *p, or false when nothing is held. */
static bool some_holder(world *w, pool **p)
{
    for (uint32_t t = 0; t < w->type_count; t++)
        if (w->pools[t].count) {
            *p = &w->pools[t];
            return true;
        }
    return false;
}

/*
 * At the first page index where two types have pages, swap the first two types' pages (the
 * same choice after the swap: it is undone by doing it again); 0 when their entries are equal.
 */
static int swap_pages(world *w)
{
    for (uint32_t page = 0; page < w->page_count; page++) {
        uint32_t **first = NULL;
        for (uint32_t t = 0; t < w->type_count; t++) {
            uint32_t **at = &w->pools[t].pages[page];
            if (*at == ZERO_PAGE)
                continue;
            if (!first) {
                first = at;
                continue;
            }
            if (!memcmp(*first, *at, PAGE_SIZE * sizeof(uint32_t)))
                return 0;
            uint32_t *tmp = *first;
            *first = *at;
            *at = tmp;
            return 1;
        }
    }
    return 0;
}

/* The first group with at least `size` members and `more` entries past them in its first pool. */
static group *some_group(world *w, uint32_t size, uint32_t more)
{
    for (uint32_t g = 0; g < w->group_count; g++)
        if (w->groups[g].size >= size &&
            w->pools[w->groups[g].types[0]].count >= w->groups[g].size + more)
            return &w->groups[g];
    return NULL;
}

enum {
    DAMAGE_LIVE_SLOT,     /* a live slot's word stops naming its index: live count, free list */
    DAMAGE_FREE_HEAD,     /* the free list starts elsewhere */
    DAMAGE_SLOT_VERSION,  /* a holder's slot word changes version: dense id vs live id */
    DAMAGE_ENTRY_VERSION, /* a holder's sparse entry changes version */
    DAMAGE_ENTRY_POS,     /* a holder's sparse entry points elsewhere */
    DAMAGE_DENSE_ORDER,   /* two dense ids swap without their sparse entries */
    DAMAGE_PAGE_COUNT,    /* the allocated-page count world_bytes reports */
    DAMAGE_PAGE_TABLE,    /* two types' pages at one page index swap */
    DAMAGE_GROUP_ORDER,   /* a group's front differs in order between owned pools */
    DAMAGE_GROUP_MEMBER,  /* a non-member enters one owned pool's front */
    DAMAGE_GROUP_SIZE,    /* the front is one too long or too short */
    DAMAGE_GROUP_OWNER,   /* an owned pool forgets its group */
    DAMAGE_COUNT
};

static int world_corrupt(world *w, unsigned which)
{
    pool *p;
    group *g;
    if (which >= (PAGED_OWNING_GROUPS ? (unsigned)DAMAGE_COUNT : (unsigned)DAMAGE_GROUP_ORDER))
        return -1;
    switch (which) {
    case DAMAGE_LIVE_SLOT:
        /* The first live slot, or one that was live before this damage (undoing it). */
        for (uint32_t i = 0; i < w->slots; i++)
            if (id_index(w->ids[i]) == i || id_index(w->ids[i]) == (i ^ 1)) {
                w->ids[i] ^= 1;
                return 1;
            }
        return 0;
    case DAMAGE_FREE_HEAD:
        if (w->free_head == INDEX_NONE || w->free_head == (INDEX_NONE ^ 1))
            return 0;
        w->free_head ^= 1;
        return 1;
    case DAMAGE_SLOT_VERSION:
        if (!some_holder(w, &p))
            return 0;
        w->ids[id_index(p->dense[0])] ^= 1u << ID_INDEX_BITS;
        return 1;
    case DAMAGE_ENTRY_VERSION:
    case DAMAGE_ENTRY_POS:
        if (!some_holder(w, &p))
            return 0;
        *sparse_entry(p, id_index(p->dense[0])) ^= which == DAMAGE_ENTRY_POS ? 1 : 1u << ID_INDEX_BITS;
        return 1;
    case DAMAGE_DENSE_ORDER:
        for (uint32_t t = 0; t < w->type_count; t++) {
            p = &w->pools[t];
            if (p->count >= 2) {
                uint32_t tmp = p->dense[0];
                p->dense[0] = p->dense[1];
                p->dense[1] = tmp;
                return 1;
            }
        }
        return 0;
    case DAMAGE_PAGE_COUNT:
        w->pages_allocated ^= 1;
        return 1;
    case DAMAGE_PAGE_TABLE:
        return swap_pages(w);
    case DAMAGE_GROUP_ORDER:
        if (!(g = some_group(w, 2, 0)))
            return 0;
        pool_swap(&w->pools[g->types[0]], 0, 1);
        return 1;
    case DAMAGE_GROUP_MEMBER:
        if (!(g = some_group(w, 1, 1)))
            return 0;
        pool_swap(&w->pools[g->types[0]], g->size - 1, g->size);
        return 1;
    case DAMAGE_GROUP_SIZE:
        if (!w->group_count)
            return 0;
        w->groups[0].size ^= 1;
        return 1;
    default: /* DAMAGE_GROUP_OWNER */
        if (!w->group_count)
            return 0;
        w->pools[w->groups[0].types[0]].group ^= NO_GROUP; /* group 0 <-> NO_GROUP */
        return 1;
    }
}

#endif /* PAGED_SPARSE_SET_H */
