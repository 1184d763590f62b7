/*
 * archetype — entities with the same component set share a table (flecs, Bevy, Unity DOTS);
 * adding or removing a component moves the entity's row to the table of its new set.
 *
 * Idea: a component set is a 32-bit mask (ECSB_MAX_TYPES is 32). Each set in use has a table:
 * a column of entity handles and one column per type of the set, in one block, each column
 * starting on a 64-byte boundary (so every value is aligned for any type whose alignment
 * divides its size: every ecsb_type_align); row r of every column belongs to one entity. A
 * record per entity slot says where its entity lives: {id word, table, row}. Each
 * table caches its edges: edge[t] = the table of its set with t toggled, found through a hash
 * map from set to table the first time it is taken and then cached both ways, so add and
 * remove are one edge load plus one row move: append a row to the new table, copy the values
 * of the types both sets hold, swap-remove the old row (the last row fills the hole, its
 * entity's record follows). Destroy swap-removes. The empty set's table (ROOT) stores no
 * rows: an entity with no components is just its record.
 * query hands out one run per non-empty matching table: its row count and raw column
 * pointers in the query's order, so the caller's loop runs over packed columns holding
 * exactly the queried types of exactly the matching entities (the limit's layout). A declared
 * query (config->queries) keeps the list of its matching tables, extended when add/remove
 * makes a table, with the non-empty ones first (a table crosses the boundary when its count
 * goes 0 <-> 1), so it never looks at an empty table; any other query compares each table's
 * set and count. Neither allocates. Slots, generations, the free list and retirement come from
 * the shared id unit harness/entity_ids.h; the record of slot i is its id record: the id word,
 * then the table and row holding the entity (16 B, one line for "live?" and "where?").
 * Every allocation an operation needs (a new table's entry, the map, the query caches, the
 * destination's rows) is made before anything moves, so a failure changes nothing.
 *
 * Costs, in cache lines (k = types the entity holds; the headers of a workload's few tables
 * stay cached; "tail" = the destination's last row, hot while a table fills):
 *   create  1: the free-list head's record (or the next fresh one).
 *   destroy the record, the hole's handle and k values, the last row's (hot) and the moved
 *           entity's record: 2 + (k + 1) random lines.
 *   add     the record, the source's edge, the k old values, the destination's tail (handle and
 *           k + 1 values), then the swap-remove as in destroy: about 2 + 2(k + 1) random lines,
 *           and 2k values copied (into the new row, and the last row into the hole).
 *   remove  the same with k - 1 values moving.
 *   get     record -> table header (column pointer) -> value: 3 dependent, 2 of them misses
 *           while the headers are cached.   has: 1 miss (the record), then the set in its
 *           table's (cached) header.
 *   query   per matching table its header; then per entity exactly the queried types' bytes,
 *           sequentially, and no handle: dual_iterate moves 12 B per pair, like the limit.
 *           Asked for handles, it hands out the table's handle column itself: 8 B per entity
 *           more, sequential, no copy.
 * Memory per entity slot: 16 B (record), live or not; per live entity 8 B (handle) + the sizes
 * of the types it holds, plus up to 2x slack from doubling, per table (tables never shrink).
 * One more type costs nothing per entity slot: only its holders pay its size. Per table in
 * use: a 480 B header (column pointers, edges, places in the caches) and 16 B of map.
 * Wins: iteration. A query walks packed columns holding nothing but the matched values, the
 * least memory any layout can move, and the caller's loop over them vectorizes (at -O3; gcc
 * 12 at -O2 vectorizes none of these loops). has is one record line; no per-type sparse
 * arrays.
 * Loses: structural changes. Every add/remove moves all k values of the entity and touches
 * two tables (k values copied per add or remove, where sparse_set copies one); remove may need memory
 * (ECSB_ERR_NOMEM) for the smaller set's table; a table grows by copying all of it at once;
 * and many distinct sets cut iteration into many short runs, one table header each.
 * Tags (size 0): part of the set (the mask), so they split tables as any type does, but a
 * table has no column for them (its col[t] is ECSB_TAG, stride 0) and a row move copies
 * nothing for them: a tag costs no bytes per entity, only the tables it adds. Exclusion: a
 * table matches when its set holds the query's and none of its excluded types, decided once
 * per table (a declared query's cache lists only those), so it costs nothing per entity.
 * Tuning: none. A matching table's columns are runs by construction (the layout itself).
 */
#include "harness/entity_ids.h"

#define ROOT 0u                      /* the table of the empty set: it never stores rows */
#define NO_TABLE UINT32_MAX          /* an edge not taken yet; an empty hash-map entry */
#define NO_ROW UINT32_MAX            /* the row of an entity in ROOT */
#define TABLES_MAX (UINT32_MAX - 1)  /* table indices stay below NO_TABLE */
#define ID_STRIDE 2                  /* words per id record: the id word, table and row */

/*
 * Per entity slot, its id record (harness/entity_ids.h): the id word (the ids' own), then
 * while live the table and row holding its values (meaningless while free or retired).
 */
typedef struct record {
    uint64_t id;
    uint32_t table;
    uint32_t row;
} record;
_Static_assert(sizeof(record) == ID_STRIDE * sizeof(uint64_t), "a record is an id record");

/*
 * One component set. Its block: the handle of each row, then one column per type in the set
 * (ascending type index), each starting on a 64-byte boundary; row r's value of type t is at
 * col[t] + r * size. Tables are never freed, so edges and query caches hold plain indices.
 */
typedef struct table {
    uint32_t mask;                       /* the set: bit t for type t */
    uint32_t count;                      /* rows in use */
    uint32_t cap;                        /* rows allocated */
    ecsb_entity *entities;               /* = the block; NULL while cap is 0 */
    size_t bytes;                        /* of the block */
    unsigned char *col[ECSB_MAX_TYPES];  /* type t's column; NULL when t is not in the set */
    uint32_t edge[ECSB_MAX_TYPES];       /* the table of mask ^ bit t, NO_TABLE until taken */
    uint32_t cached_at[ECSB_MAX_QUERIES]; /* its place in each matching declared query's cache */
} table;

/* The hash map from a component set to its table: open addressing, linear probing. */
typedef struct map_entry {
    uint32_t mask;
    uint32_t table; /* NO_TABLE: empty */
} map_entry;

/*
 * A declared query's cache: every table whose set includes the query's, the non-empty ones in
 * [0, filled) and the empty ones after, so a query never looks at an empty table.
 */
typedef struct cached_query {
    uint32_t mask;
    uint32_t without;  /* its excluded types: a listed table holds none */
    uint32_t count;
    uint32_t filled;
    uint32_t cap;
    uint32_t *tables;
} cached_query;

typedef struct world {
    ecsb_ids ids;           /* entity slots and their records (harness/entity_ids.h) */
    const ecsb_allocator *alloc;
    uint32_t type_count;
    uint32_t type_size[ECSB_MAX_TYPES];
    uint32_t valued;        /* the types that are not tags (size > 0): those with columns */
    table *tables;          /* [0, table_count); tables[ROOT] is the empty set */
    uint32_t table_count;
    uint32_t table_cap;
    map_entry *map;         /* map_cap entries, a power of two, at least twice table_count */
    uint32_t map_cap;
    uint32_t query_count;   /* distinct declared sets */
    cached_query queries[ECSB_MAX_QUERIES];
} world;

/* True when a table of set `mask` matches the declared query q (is in its cache). */
ECSB_INLINE bool cache_matches(const cached_query *q, uint32_t mask)
{
    return (mask & q->mask) == q->mask && !(mask & q->without);
}

/* Slot i's record. */
ECSB_INLINE record *record_of(const world *w, uint32_t i)
{
    return (record *)ecsb_ids_record(&w->ids, ID_STRIDE, i);
}

/* ---- tables and their memory ------------------------------------------------------------- */

static size_t round64(size_t bytes) { return (bytes + 63) & ~(size_t)63; }

/*
 * The layout of a block of `cap` rows for `mask`: its bytes into *bytes, each column's offset
 * into off[t]. False when the size would overflow.
 */
static bool table_layout(const world *w, uint32_t mask, size_t cap, size_t *bytes, size_t *off)
{
    size_t row_bytes = sizeof(ecsb_entity);
    for (uint32_t m = mask & w->valued; m; m &= m - 1)
        row_bytes += w->type_size[__builtin_ctz(m)];
    if (cap > (SIZE_MAX - 64 * (ECSB_MAX_TYPES + 1)) / row_bytes)
        return false;
    size_t at = round64(cap * sizeof(ecsb_entity));
    for (uint32_t m = mask & w->valued; m; m &= m - 1) { /* tags: no column */
        uint32_t t = (uint32_t)__builtin_ctz(m);
        off[t] = at;
        at += round64(cap * w->type_size[t]);
    }
    *bytes = cap ? at : 0;
    return true;
}

/*
 * Give table ti room for `cap` (> its cap) rows: a new block, the rows copied over, the old
 * block freed. 0 means the world is full. On failure nothing changed.
 */
static ecsb_status table_grow(world *w, uint32_t ti, size_t cap)
{
    table *tb = &w->tables[ti];
    size_t off[ECSB_MAX_TYPES], bytes;
    if (cap == 0)
        return ECSB_ERR_CAPACITY;
    if (!table_layout(w, tb->mask, cap, &bytes, off))
        return ECSB_ERR_NOMEM;
    void *block = NULL;
    if (ecsb_resize(w->alloc, &block, 1, 0, bytes) != ECSB_OK)
        return ECSB_ERR_NOMEM;
    unsigned char *base = block;
    if (tb->count)
        memcpy(base, tb->entities, tb->count * sizeof(ecsb_entity));
    for (uint32_t m = tb->mask & w->valued; m; m &= m - 1) {
        uint32_t t = (uint32_t)__builtin_ctz(m);
        if (tb->count)
            memcpy(base + off[t], tb->col[t], (size_t)tb->count * w->type_size[t]);
        tb->col[t] = base + off[t];
    }
    ecsb_release(w->alloc, tb->entities, tb->bytes);
    tb->entities = block;
    tb->bytes = bytes;
    tb->cap = (uint32_t)cap;
    return ECSB_OK;
}

ECSB_INLINE uint32_t map_slot(uint32_t mask, uint32_t map_cap)
{
    uint32_t h = mask * 0x9e3779b9u; /* Fibonacci hashing: the high bits mix every mask bit */
    return (h ^ (h >> 15)) & (map_cap - 1);
}

/* The table of `mask`, or NO_TABLE. */
static uint32_t map_find(const world *w, uint32_t mask)
{
    if (w->map_cap == 0)
        return NO_TABLE;
    for (uint32_t i = map_slot(mask, w->map_cap);; i = (i + 1) & (w->map_cap - 1))
        if (w->map[i].table == NO_TABLE || w->map[i].mask == mask)
            return w->map[i].table;
}

static void map_insert(map_entry *map, uint32_t map_cap, uint32_t mask, uint32_t table)
{
    uint32_t i = map_slot(mask, map_cap);
    while (map[i].table != NO_TABLE)
        i = (i + 1) & (map_cap - 1);
    map[i] = (map_entry){mask, table};
}

/* Rebuild the map with map_cap entries, from the tables. On failure nothing changed. */
static ecsb_status map_grow(world *w, uint32_t map_cap)
{
    void *block = NULL;
    if (ecsb_resize(w->alloc, &block, sizeof(map_entry), 0, map_cap) != ECSB_OK)
        return ECSB_ERR_NOMEM;
    map_entry *map = block;
    memset(map, 0xff, (size_t)map_cap * sizeof *map); /* every table NO_TABLE */
    for (uint32_t ti = 0; ti < w->table_count; ti++)
        map_insert(map, map_cap, w->tables[ti].mask, ti);
    ecsb_release(w->alloc, w->map, (size_t)w->map_cap * sizeof *w->map);
    w->map = map;
    w->map_cap = map_cap;
    return ECSB_OK;
}

/*
 * The table of `mask` into *out, made when missing: first every allocation it needs (a table
 * entry, the map, a place in each matching declared query's cache), then the new, empty table
 * is registered, with nothing left to fail. On failure nothing observable changed (some
 * arrays may have grown).
 */
static ecsb_status table_find_or_make(world *w, uint32_t mask, uint32_t *out)
{
    *out = map_find(w, mask);
    if (*out != NO_TABLE)
        return ECSB_OK;
    if (w->table_count == w->table_cap) {
        size_t cap = ecsb_grow_capacity(w->table_cap, (size_t)w->table_count + 1, TABLES_MAX);
        void *block = w->tables;
        if (cap == 0 || ecsb_resize(w->alloc, &block, sizeof(table), w->table_cap, cap) != ECSB_OK)
            return ECSB_ERR_NOMEM; /* (running out of table indices needs terabytes first) */
        w->tables = block;
        w->table_cap = (uint32_t)cap;
    }
    if ((size_t)(w->table_count + 1) * 2 > w->map_cap &&
        (w->map_cap > UINT32_MAX / 2 || map_grow(w, w->map_cap ? w->map_cap * 2 : 16) != ECSB_OK))
        return ECSB_ERR_NOMEM;
    for (uint32_t k = 0; k < w->query_count; k++) {
        cached_query *q = &w->queries[k];
        if (!cache_matches(q, mask) || q->count < q->cap)
            continue;
        size_t cap = ecsb_grow_capacity(q->cap, (size_t)q->count + 1, TABLES_MAX);
        void *block = q->tables;
        if (ecsb_resize(w->alloc, &block, sizeof(uint32_t), q->cap, cap) != ECSB_OK)
            return ECSB_ERR_NOMEM;
        q->tables = block;
        q->cap = (uint32_t)cap;
    }
    uint32_t ti = w->table_count++;
    table *tb = &w->tables[ti];
    memset(tb, 0, sizeof *tb);
    tb->mask = mask;
    for (uint32_t m = mask & ~w->valued; m; m &= m - 1)
        tb->col[__builtin_ctz(m)] = ECSB_TAG; /* a tag's column: ECSB_TAG, stride 0 */
    memset(tb->edge, 0xff, sizeof tb->edge); /* every edge NO_TABLE */
    map_insert(w->map, w->map_cap, mask, ti);
    for (uint32_t k = 0; k < w->query_count; k++) {
        cached_query *q = &w->queries[k];
        if (cache_matches(q, mask)) {
            tb->cached_at[k] = q->count;
            q->tables[q->count++] = ti; /* empty: after the filled ones */
        }
    }
    *out = ti;
    return ECSB_OK;
}

/* The first step along an edge: find or make the table, then cache the edge both ways. */
static __attribute__((noinline)) ecsb_status edge_take(world *w, uint32_t from, ecsb_type t,
                                                      uint32_t *to)
{
    ecsb_status st = table_find_or_make(w, w->tables[from].mask ^ (1u << t), to);
    if (st != ECSB_OK)
        return st;
    w->tables[from].edge[t] = *to;
    w->tables[*to].edge[t] = from;
    return ECSB_OK;
}

/* The table reached from `from` by adding or removing t (whichever it lacks or holds). */
ECSB_INLINE ecsb_status edge_follow(world *w, uint32_t from, ecsb_type t, uint32_t *to)
{
    *to = w->tables[from].edge[t];
    return ECSB_LIKELY(*to != NO_TABLE) ? ECSB_OK : edge_take(w, from, t, to);
}

/*
 * Table ti just became non-empty (filled) or empty (!filled): in each declared query's cache
 * that lists it, swap it with the first empty (last filled) entry and move the boundary.
 */
static __attribute__((noinline)) void table_cached_filled(world *w, uint32_t ti, bool filled)
{
    table *tb = &w->tables[ti];
    for (uint32_t k = 0; k < w->query_count; k++) {
        cached_query *q = &w->queries[k];
        if (!cache_matches(q, tb->mask))
            continue;
        uint32_t at = tb->cached_at[k], to = filled ? q->filled++ : --q->filled;
        uint32_t other = q->tables[to];
        q->tables[at] = other;
        w->tables[other].cached_at[k] = at;
        q->tables[to] = ti;
        tb->cached_at[k] = to;
    }
}

/* ---- world ------------------------------------------------------------------------------- */

static void world_fini(world *w)
{
    for (uint32_t ti = 0; ti < w->table_count; ti++)
        ecsb_release(w->alloc, w->tables[ti].entities, w->tables[ti].bytes);
    ecsb_release(w->alloc, w->tables, (size_t)w->table_cap * sizeof *w->tables);
    ecsb_release(w->alloc, w->map, (size_t)w->map_cap * sizeof *w->map);
    for (uint32_t k = 0; k < w->query_count; k++)
        ecsb_release(w->alloc, w->queries[k].tables, (size_t)w->queries[k].cap * sizeof(uint32_t));
    ECSB_IDS_WORLD_FINI(w);
}

/*
 * The root table, one cache per distinct declared set, and initial_capacity records (rows are
 * not reserved: which tables will need them is unknown).
 */
static ecsb_status world_init(world *w, const ecsb_world_config *config)
{
    ECSB_IDS_WORLD_INIT(w, config, ID_STRIDE);
    ecsb_status st = ECSB_OK;
    memcpy(w->type_size, config->type_size, sizeof w->type_size);
    w->valued = ~ecsb_config_tags(config);
    for (uint32_t k = 0; k < config->query_count; k++) {
        uint32_t mask, j = 0;
        ecsb_query_check(&config->queries[k], w->type_count, &mask);
        uint32_t without = ecsb_query_without(&config->queries[k]);
        while (j < w->query_count &&
               (w->queries[j].mask != mask || w->queries[j].without != without))
            j++;
        if (j == w->query_count) {
            w->queries[w->query_count].mask = mask;
            w->queries[w->query_count++].without = without;
        }
    }
    uint32_t root;
    st = table_find_or_make(w, 0, &root);
    if (st == ECSB_OK)
        st = ecsb_ids_reserve(&w->ids, config, NULL, NULL);
    if (st != ECSB_OK)
        world_fini(w);
    return st;
}

/* ---- entities ---------------------------------------------------------------------------- */

/* The record of a live entity, or NULL. */
ECSB_INLINE record *live_record(const world *w, ecsb_entity e)
{
    return ECSB_LIKELY(ecsb_ids_alive(&w->ids, ID_STRIDE, e)) ? record_of(w, ecsb_handle_index(e))
                                                              : NULL;
}

ECSB_INLINE ecsb_status entity_create(world *w, ecsb_entity *out)
{
    ecsb_status st = ecsb_ids_create(&w->ids, ID_STRIDE, NULL, NULL, out);
    if (ECSB_UNLIKELY(st != ECSB_OK))
        return st;
    record *r = record_of(w, ecsb_handle_index(*out));
    r->table = ROOT;
    r->row = NO_ROW;
    return ECSB_OK;
}

/* Copy one value; the common sizes become a plain load and store. */
ECSB_INLINE void copy_value(unsigned char *dst, const unsigned char *src, size_t size)
{
    switch (size) {
    case 4: memcpy(dst, src, 4); break;
    case 8: memcpy(dst, src, 8); break;
    default: memcpy(dst, src, size); break;
    }
}

/* Remove row `row` of table ti: the last row fills the hole, its entity's record follows. */
ECSB_INLINE void row_swap_remove(world *w, uint32_t ti, uint32_t row)
{
    table *tb = &w->tables[ti];
    uint32_t last = --tb->count;
    if (ECSB_UNLIKELY(last == 0) && w->query_count)
        table_cached_filled(w, ti, false);
    if (row == last)
        return;
    ecsb_entity moved = tb->entities[last];
    tb->entities[row] = moved;
    for (uint32_t m = tb->mask & w->valued; m; m &= m - 1) {
        uint32_t t = (uint32_t)__builtin_ctz(m);
        size_t size = w->type_size[t];
        copy_value(tb->col[t] + (size_t)row * size, tb->col[t] + (size_t)last * size, size);
    }
    record_of(w, ecsb_handle_index(moved))->row = row;
}

/*
 * Move the live entity of record r (handle e) from its table to table `to`, which has room
 * for one more row (ROOT needs none): append a row there, copy the values of the types both
 * sets hold, swap-remove the old row. Returns the new row.
 */
ECSB_INLINE uint32_t row_move(world *w, record *r, ecsb_entity e, uint32_t to)
{
    table *src = &w->tables[r->table], *dst = &w->tables[to];
    uint32_t row = NO_ROW;
    if (to != ROOT) {
        row = dst->count++;
        if (ECSB_UNLIKELY(row == 0) && w->query_count)
            table_cached_filled(w, to, true);
        dst->entities[row] = e;
        for (uint32_t m = src->mask & dst->mask & w->valued; m; m &= m - 1) {
            uint32_t t = (uint32_t)__builtin_ctz(m);
            size_t size = w->type_size[t];
            copy_value(dst->col[t] + (size_t)row * size, src->col[t] + (size_t)r->row * size,
                       size);
        }
    }
    if (r->table != ROOT)
        row_swap_remove(w, r->table, r->row);
    r->table = to;
    r->row = row;
    return row;
}

ECSB_INLINE ecsb_status entity_destroy(world *w, ecsb_entity e)
{
    record *r = live_record(w, e);
    if (!r)
        return ECSB_ERR_STALE;
    if (r->table != ROOT)
        row_swap_remove(w, r->table, r->row);
    ecsb_ids_free(&w->ids, ID_STRIDE, e);
    return ECSB_OK;
}

static bool entity_alive(const world *w, ecsb_entity e) { return live_record(w, e) != NULL; }

static size_t entity_count(const world *w) { return ecsb_ids_count(&w->ids); }

/* ---- components -------------------------------------------------------------------------- */

ECSB_INLINE ecsb_status component_add(world *w, ecsb_entity e, ecsb_type t, void **value_out)
{
    *value_out = NULL;
    if (ECSB_UNLIKELY(t >= w->type_count))
        return ECSB_ERR_TYPE;
    record *r = live_record(w, e);
    if (ECSB_UNLIKELY(!r))
        return ECSB_ERR_STALE;
    if (ECSB_UNLIKELY(w->tables[r->table].mask & (1u << t)))
        return ECSB_ERR_PRESENT;
    uint32_t to;
    ecsb_status st = edge_follow(w, r->table, t, &to);
    if (ECSB_UNLIKELY(st != ECSB_OK))
        return st;
    const table *dst = &w->tables[to];
    if (ECSB_UNLIKELY(dst->count == dst->cap) &&
        (st = table_grow(w, to, ecsb_grow_capacity(dst->cap, (size_t)dst->count + 1,
                                                   w->ids.max_entities))) != ECSB_OK)
        return st;
    uint32_t row = row_move(w, r, e, to);
    *value_out = dst->col[t] + (size_t)row * w->type_size[t];
    return ECSB_OK;
}

ECSB_INLINE ecsb_status component_remove(world *w, ecsb_entity e, ecsb_type t)
{
    if (ECSB_UNLIKELY(t >= w->type_count))
        return ECSB_ERR_TYPE;
    record *r = live_record(w, e);
    if (ECSB_UNLIKELY(!r))
        return ECSB_ERR_STALE;
    if (ECSB_UNLIKELY(!(w->tables[r->table].mask & (1u << t))))
        return ECSB_ERR_ABSENT;
    uint32_t to;
    ecsb_status st = edge_follow(w, r->table, t, &to);
    if (ECSB_UNLIKELY(st != ECSB_OK))
        return st;
    const table *dst = &w->tables[to];
    if (ECSB_UNLIKELY(to != ROOT && dst->count == dst->cap) &&
        (st = table_grow(w, to, ecsb_grow_capacity(dst->cap, (size_t)dst->count + 1,
                                                   w->ids.max_entities))) != ECSB_OK)
        return st;
    row_move(w, r, e, to);
    return ECSB_OK;
}

/*
 * spawn: the table of the whole set (the map, as a first add's edge would; made when missing)
 * and room for one row come first, then the id; one row is appended, nothing moves. A failure
 * comes before anything observable changed (a table may have been made or grown).
 */
ECSB_INLINE ecsb_status spawn(world *w, const ecsb_type *types, uint32_t count,
                              ecsb_entity *out, void **values_out)
{
    uint32_t mask, to;
    ecsb_status st = ecsb_spawn_check(types, count, w->type_count, out, values_out, &mask);
    if (ECSB_UNLIKELY(st != ECSB_OK))
        return st;
    if (ECSB_UNLIKELY(w->ids.live >= w->ids.max_entities))
        return ECSB_ERR_CAPACITY;
    if ((st = table_find_or_make(w, mask, &to)) != ECSB_OK)
        return st;
    table *dst = &w->tables[to];
    if (ECSB_UNLIKELY(to != ROOT && dst->count == dst->cap) &&
        (st = table_grow(w, to, ecsb_grow_capacity(dst->cap, (size_t)dst->count + 1,
                                                   w->ids.max_entities))) != ECSB_OK)
        return st;
    if ((st = entity_create(w, out)) != ECSB_OK)
        return st;
    record *r = record_of(w, ecsb_handle_index(*out));
    if (to == ROOT)
        return ECSB_OK;
    uint32_t row = dst->count++;
    if (ECSB_UNLIKELY(row == 0) && w->query_count)
        table_cached_filled(w, to, true);
    dst->entities[row] = *out;
    r->table = to;
    r->row = row;
    for (uint32_t j = 0; j < count; j++)
        values_out[j] = dst->col[types[j]] + (size_t)row * w->type_size[types[j]];
    return ECSB_OK;
}

ECSB_INLINE void *component_get(world *w, ecsb_entity e, ecsb_type t)
{
    if (ECSB_UNLIKELY(t >= w->type_count))
        return NULL;
    const record *r = live_record(w, e);
    if (ECSB_UNLIKELY(!r))
        return NULL;
    const table *tb = &w->tables[r->table];
    if (!(tb->mask & (1u << t)))
        return NULL;
    return tb->col[t] + (size_t)r->row * w->type_size[t];
}

ECSB_INLINE bool component_has(const world *w, ecsb_entity e, ecsb_type t)
{
    if (t >= w->type_count)
        return false;
    const record *r = live_record(w, e);
    return r && (w->tables[r->table].mask & (1u << t));
}

static size_t component_count(const world *w, ecsb_type t)
{
    size_t n = 0;
    for (uint32_t ti = 1; t < w->type_count && ti < w->table_count; ti++)
        if (w->tables[ti].mask & (1u << t))
            n += w->tables[ti].count;
    return n;
}

/* ---- iteration --------------------------------------------------------------------------- */

/* One run: every row of non-empty table tb, its columns in the query's order, then (when q
 * asks) its handle column itself. */
ECSB_INLINE void query_table(const table *tb, const ecsb_query *q, ecsb_query_fn fn, void *ctx)
{
    void *columns[ECSB_MAX_QUERY_COLUMNS];
    if (q->count == 0 || q->count > ECSB_MAX_QUERY_TYPES)
        __builtin_unreachable(); /* query() checked it: every column fn reads is set */
    for (uint32_t j = 0; j < q->count; j++)
        columns[j] = tb->col[q->types[j]];
    if (q->entities)
        columns[q->count] = tb->entities;
    fn(ctx, tb->count, columns);
}

/*
 * A declared set (included and excluded types) walks the filled part of its cache; any other
 * scans every table's set and count (no allocation). Either way each non-empty matching table
 * is one run.
 */
ECSB_INLINE ecsb_status query(world *w, const ecsb_query *q, ecsb_query_fn fn, void *ctx)
{
    uint32_t mask;
    ecsb_status st = ecsb_query_check(q, w->type_count, &mask);
    if (st != ECSB_OK)
        return st;
    const uint32_t without = ecsb_query_without(q); /* 0 where q is a constant without any */
    for (uint32_t k = 0; k < w->query_count; k++) {
        const cached_query *cq = &w->queries[k];
        if (cq->mask != mask || cq->without != without)
            continue;
        for (uint32_t i = 0; i < cq->filled; i++)
            query_table(&w->tables[cq->tables[i]], q, fn, ctx);
        return ECSB_OK;
    }
    for (uint32_t ti = 1; ti < w->table_count; ti++)
        if ((w->tables[ti].mask & mask) == mask && !(w->tables[ti].mask & without) &&
            w->tables[ti].count)
            query_table(&w->tables[ti], q, fn, ctx);
    return ECSB_OK;
}

#include "strategies/archetype/checks.h" /* world_valid, world_bytes, world_corrupt */

#define ECSB_STRATEGY_NAME archetype
#define ECSB_STRATEGY_SUMMARY "a table per component set: entity column + 64-byte aligned columns; add/remove move the row along cached edges; queries cache their tables"
#include "harness/strategy_impl.h"
