/*
 * paged/storage.h — ids, pages, pools and groups: the world, entities and components (create, destroy, add, remove, get, has, counts), and the group upkeep that add, remove and destroy do.
 * One part of strategies/paged_sparse_set.h, which includes the parts in order (storage.h,
 * views.h, checks.h) after setting PAGED_OWNING_GROUPS; include that header, not this one.
 */

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
                             * owned or excluded by a group (the slow path keeps the group) */
    uint8_t group;          /* the group owning this type, or NO_GROUP */
    uint32_t excluded_by;   /* the groups excluding this type, bit g for group g */
    size_t bytes;           /* bytes of the block */
} pool;

/* An owning group: dense[0..size) of each owned pool hold the same entities in the same order. */
typedef struct group {
    uint32_t mask;                         /* owned types, bit t for type t */
    uint32_t without;                      /* excluded types: no member holds one */
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
    void *block = p->dense;
    ecsb_status st = ecsb_pool_block_grow(w->alloc, &block, &p->bytes, &p->values, p->cap, cap,
                                          p->count, p->size);
    if (st != ECSB_OK)
        return st;
    p->dense = block;
    p->cap = (uint32_t)cap;
    p->room = p->group == NO_GROUP && !p->excluded_by ? p->cap : 0;
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
 * of which an earlier group owns gets a group (with its exclusions: EnTT's group<A, B>(
 * exclude<C>)); the same sets again share it; any other query naming an owned type gets none
 * (the view path answers it).
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
        g->without = ecsb_query_without(query);
        g->count = query->count;
        memcpy(g->types, query->types, query->count * sizeof *g->types);
        for (uint32_t j = 0; j < g->count; j++)
            w->pools[g->types[j]].group = (uint8_t)w->group_count;
        for (uint32_t x = g->without; x; x &= x - 1)
            w->pools[__builtin_ctz(x)].excluded_by |= 1u << w->group_count;
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
        if (w->pools[t].size == 0)
            w->pools[t].values = ECSB_TAG; /* a tag: values ECSB_TAG, stride 0 */
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

/* True when live id `id` holds every type of g and none it excludes: it belongs in g. */
static bool group_complete(const world *w, const group *g, uint32_t id)
{
    uint32_t pos;
    for (uint32_t j = 0; j < g->count; j++)
        if (!pool_find(&w->pools[g->types[j]], id, &pos))
            return false;
    for (uint32_t x = g->without; x; x &= x - 1)
        if (pool_find(&w->pools[__builtin_ctz(x)], id, &pos))
            return false;
    return true;
}

/* True when live id `id` is a member of g (in the front of its first owned pool). */
static bool group_member(const world *w, const group *g, uint32_t id)
{
    uint32_t pos;
    return pool_find(&w->pools[g->types[0]], id, &pos) && pos < g->size;
}

/*
 * Live id `id` just gained (gained = true) or lost a type that the groups in `groups` exclude:
 * it leaves those it was a member of, or joins those it now completes.
 */
static __attribute__((noinline)) void groups_excluded_changed(world *w, uint32_t groups,
                                                              uint32_t id, bool gained)
{
    for (; groups; groups &= groups - 1) {
        group *g = &w->groups[__builtin_ctz(groups)];
        if (gained && group_member(w, g, id))
            group_leave(w, g, id);
        else if (!gained && group_complete(w, g, id))
            group_enter(w, g, id);
    }
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
    if (PAGED_OWNING_GROUPS && ECSB_UNLIKELY(p->excluded_by))
        groups_excluded_changed(w, p->excluded_by, id, false);
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
    if (PAGED_OWNING_GROUPS && p->excluded_by)
        groups_excluded_changed(w, p->excluded_by, id, true); /* moves no value of p */
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

/*
 * spawn: the id, then for each type its page and room for one more holder (on failure the
 * pages made here are freed and the id goes back where it came from: the next create issues
 * it again), then one append per pool and, with owning groups, one entry into each group the
 * set completes, after all the appends (never a group entered per add).
 */
ECSB_INLINE ecsb_status spawn(world *w, const ecsb_type *types, uint32_t count,
                              ecsb_entity *out, void **values_out)
{
    uint32_t mask, made = 0;
    ecsb_status st = ecsb_spawn_check(types, count, w->type_count, out, values_out, &mask);
    const bool fresh = w->free_head == INDEX_NONE; /* create appends a slot, else pops it */
    if (ECSB_UNLIKELY(st != ECSB_OK) || (st = entity_create(w, out)) != ECSB_OK)
        return st;
    const uint32_t id = (uint32_t)*out, i = id_index(id), page = i >> PAGE_BITS;
    for (uint32_t j = 0; j < count && st == ECSB_OK; j++) {
        pool *p = &w->pools[types[j]];
        if (p->pages[page] == ZERO_PAGE && (st = page_alloc(w, &p->pages[page])) == ECSB_OK)
            made |= 1u << types[j];
        if (st == ECSB_OK && p->count == p->cap)
            st = grow_pool(w, p, ecsb_grow_capacity(p->cap, (size_t)p->count + 1, w->max_entities));
    }
    if (ECSB_UNLIKELY(st != ECSB_OK)) {
        for (; made; made &= made - 1)
            page_free(w, &w->pools[__builtin_ctz(made)].pages[page]);
        if (fresh) {
            w->slots--;
        } else {
            w->ids[i] = (id & ~ID_INDEX_MASK) | w->free_head;
            w->free_head = i;
        }
        w->live--;
        *out = ECSB_ENTITY_NULL;
        return st;
    }
    for (uint32_t j = 0; j < count; j++) {
        pool *p = &w->pools[types[j]];
        pool_append(p, id, &p->pages[page][i & PAGE_MASK]);
    }
    for (uint32_t k = 0; PAGED_OWNING_GROUPS && k < w->group_count; k++)
        if ((w->groups[k].mask & mask) == w->groups[k].mask && !(w->groups[k].without & mask))
            group_enter(w, &w->groups[k], id);
    for (uint32_t j = 0; j < count; j++) {
        pool *p = &w->pools[types[j]];
        values_out[j] = p->values + (size_t)id_index(p->pages[page][i & PAGE_MASK]) * p->size;
    }
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
