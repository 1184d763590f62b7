/*
 * archetype/checks.h — world_valid (every invariant of the ids, tables, records, the map and
 * the declared queries' caches), world_bytes and world_corrupt (the testing aid). Included
 * once, by strategies/archetype.c, after the world operations.
 */

/* ---- checks ------------------------------------------------------------------------------ */

/* A table's own fields: set in range, rows within capacity, the block laid out as it should be. */
static bool table_valid(const world *w, uint32_t ti)
{
    const table *tb = &w->tables[ti];
    size_t off[ECSB_MAX_TYPES], bytes;
    uint32_t types = w->type_count == 32 ? UINT32_MAX : (1u << w->type_count) - 1;
    if ((tb->mask & ~types) || tb->count > tb->cap || tb->cap > w->ids.max_entities ||
        (ti == ROOT && tb->cap) || !table_layout(w, tb->mask, tb->cap, &bytes, off) ||
        tb->bytes != bytes || (tb->cap != 0) != (tb->entities != NULL))
        return false;
    for (uint32_t t = 0; t < ECSB_MAX_TYPES; t++) {
        const unsigned char *want =
            !(tb->mask >> t & 1)     ? NULL
            : !(w->valued >> t & 1) ? (const unsigned char *)ECSB_TAG /* a tag: no column */
            : tb->cap               ? (const unsigned char *)tb->entities + off[t]
                                    : NULL;
        if (tb->col[t] != want)
            return false;
        /* Edges: to the set with t toggled, and back. */
        uint32_t to = tb->edge[t];
        if (to != NO_TABLE && (t >= w->type_count || to >= w->table_count ||
                               w->tables[to].mask != (tb->mask ^ (1u << t)) ||
                               w->tables[to].edge[t] != ti))
            return false;
    }
    return true;
}

/* Records <-> rows: every live record names its row (ROOT: none), every row its entity. */
static bool records_valid(const world *w)
{
    size_t rows = 0;
    for (uint32_t ti = 1; ti < w->table_count; ti++) {
        const table *tb = &w->tables[ti];
        for (uint32_t row = 0; row < tb->count; row++) {
            ecsb_entity e = tb->entities[row];
            if (!ecsb_ids_alive(&w->ids, ID_STRIDE, e) ||
                record_of(w, ecsb_handle_index(e))->table != ti ||
                record_of(w, ecsb_handle_index(e))->row != row)
                return false;
        }
        rows += tb->count;
    }
    for (uint32_t i = 0; i < w->ids.slots; i++) {
        const record *r = record_of(w, i);
        if (!ecsb_ids_slot_live(&w->ids, i))
            continue;
        if (r->table >= w->table_count)
            return false;
        if (r->table == ROOT ? r->row != NO_ROW
                             : r->row >= w->tables[r->table].count ||
                                   w->tables[r->table].entities[r->row] != r->id)
            return false;
        rows -= r->table != ROOT;
    }
    return rows == 0;
}

/* The map holds every table's set under its index, and nothing else. */
static bool map_valid(const world *w)
{
    uint32_t used = 0;
    for (uint32_t i = 0; i < w->map_cap; i++) {
        uint32_t ti = w->map[i].table;
        if (ti != NO_TABLE &&
            (ti >= w->table_count || w->tables[ti].mask != w->map[i].mask || ++used == 0))
            return false;
    }
    if (used != w->table_count || (size_t)w->table_count * 2 > w->map_cap ||
        (w->map_cap & (w->map_cap - 1)))
        return false;
    for (uint32_t ti = 0; ti < w->table_count; ti++)
        if (map_find(w, w->tables[ti].mask) != ti)
            return false;
    return true;
}

/*
 * Each declared cache lists exactly the tables whose set includes its own and none of its
 * excluded types, each once (where the table says it is), the non-empty ones first.
 */
static bool queries_valid(const world *w)
{
    for (uint32_t k = 0; k < w->query_count; k++) {
        const cached_query *q = &w->queries[k];
        uint32_t matching = 0;
        for (uint32_t ti = 0; ti < w->table_count; ti++)
            matching += cache_matches(q, w->tables[ti].mask);
        if (q->mask == 0 || (q->mask & q->without) || q->count > q->cap ||
            q->count != matching || q->filled > q->count)
            return false;
        for (uint32_t i = 0; i < q->count; i++) {
            uint32_t ti = q->tables[i];
            if (ti >= w->table_count || !cache_matches(q, w->tables[ti].mask) ||
                w->tables[ti].cached_at[k] != i || (w->tables[ti].count != 0) != (i < q->filled))
                return false;
        }
        for (uint32_t j = 0; j < k; j++)
            if (w->queries[j].mask == q->mask && w->queries[j].without == q->without)
                return false;
    }
    return true;
}

static bool world_valid(const world *w)
{
    if (!ecsb_ids_valid(&w->ids) || w->type_count == 0 || w->type_count > ECSB_MAX_TYPES ||
        w->query_count > ECSB_MAX_QUERIES || w->table_count == 0 ||
        w->table_count > w->table_cap || w->tables[ROOT].mask != 0)
        return false;
    for (uint32_t t = 0; t < w->type_count; t++)
        if ((w->valued >> t & 1) != (w->type_size[t] != 0))
            return false;
    for (uint32_t ti = 0; ti < w->table_count; ti++)
        if (!table_valid(w, ti))
            return false;
    return map_valid(w) && records_valid(w) && queries_valid(w);
}

static size_t world_bytes(const world *w)
{
    size_t bytes = sizeof *w + ecsb_ids_bytes(&w->ids) +
                   (size_t)w->table_cap * sizeof *w->tables +
                   (size_t)w->map_cap * sizeof *w->map;
    for (uint32_t ti = 0; ti < w->table_count; ti++)
        bytes += w->tables[ti].bytes;
    for (uint32_t k = 0; k < w->query_count; k++)
        bytes += (size_t)w->queries[k].cap * sizeof(uint32_t);
    return bytes;
}

/* The first table after ROOT with at least `rows` rows (or, rows 0, any), or NULL. */
static table *table_with_rows(world *w, uint32_t rows, bool by_cap)
{
    for (uint32_t ti = 1; ti < w->table_count; ti++)
        if ((by_cap ? w->tables[ti].cap : w->tables[ti].count) >= rows)
            return &w->tables[ti];
    return NULL;
}

/*
 * Damage number `which`, by an XOR (so applying it twice restores), to a target chosen by a
 * field the damage leaves alone (so the second application finds the same target):
 *   0-2 the ids' (ecsb_ids_corrupt)   3-5 the record of the first row of the first non-empty
 *   table: its id word's generation, table, row     6 a table's row count
 *   7 a row's entity handle  8 a column pointer  9 a table's set  10 an edge of ROOT
 *   11 a map entry's table   12 a declared query's first cached table   13 its filled count
 *   14 that table's place in the cache
 */
static int world_corrupt(world *w, unsigned which)
{
    table *full = table_with_rows(w, 1, false), *any = table_with_rows(w, 0, false);
    table *sized = table_with_rows(w, 1, true);
    record *r = full ? record_of(w, ecsb_handle_index(full->entities[0])) : NULL;
    if (which < ECSB_IDS_CORRUPT_COUNT)
        return ecsb_ids_corrupt(&w->ids, which);
    switch (which) {
    case 3: if (!r) return 0; r->id ^= (uint64_t)1 << 32; return 1;
    case 4: if (!r) return 0; r->table ^= 1; return 1;
    case 5: if (!r) return 0; r->row ^= 1; return 1;
    case 6: if (!sized) return 0; sized->count ^= 1; return 1;
    case 7: if (!full) return 0; full->entities[0] ^= (uint64_t)1 << 32; return 1;
    case 8:
        if (!sized || !sized->mask) return 0;
        sized->col[__builtin_ctz(sized->mask)] =
            (unsigned char *)((uintptr_t)sized->col[__builtin_ctz(sized->mask)] ^ 64);
        return 1;
    case 9: if (!any) return 0; any->mask ^= 1; return 1;
    case 10: w->tables[ROOT].edge[0] ^= 1; return 1;
    case 11:
        for (uint32_t i = 0; i < w->map_cap; i++)
            if (w->map[i].table != NO_TABLE) {
                w->map[i].table ^= 1;
                return 1;
            }
        return 0;
    case 12:
    case 13:
    case 14:
        for (uint32_t k = 0; k < w->query_count; k++) {
            cached_query *q = &w->queries[k];
            if (!q->count)
                continue;
            if (which == 12)
                q->tables[0] ^= 1;
            else if (which == 13)
                q->filled ^= 1;
            else
                w->tables[q->tables[0]].cached_at[k] ^= 1;
            return 1;
        }
        return 0;
    default: return -1;
    }
}
