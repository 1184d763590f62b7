/*
 * flat_map/views.h — flat_map's iteration: query (k sorted columns walked together, galloping
 * where one is much sparser). Part of strategies/flat_map.c, included there after the world and
 * component operations; not a header of its own.
 */

/* ---- iteration -------------------------------------------------------------------------- */

/*
 * The handle of a live id visited in increasing id order. Without old entities it is the id
 * in the current epoch; with them, the epoch comes from the live vector, found by galloping
 * from the previous visit (*cursor).
 */
ECSB_INLINE ecsb_entity visit_handle(const world *w, uint32_t id, size_t *cursor, bool mixed)
{
    if (!mixed)
        return ecsb_handle_make(id, w->epoch);
    *cursor = gallop_64(w->live, *cursor, w->live_count, live_key(id, 0));
    return handle_key(w->live[*cursor]);
}

/*
 * A query leads with its column holding the fewest ids and walks it in blocks of
 * FLAT_MAP_DENSE_BLOCK ids. A block whose ids every other column holds at consecutive
 * positions ("in step": columns holding the same ids there) is one run, and consecutive such
 * blocks join, so columns holding the same ids are handed out whole. Any other block goes id
 * by id, every match a run of one: each other column keeps a window of positions whose ids
 * are a dense range, where an id's position is one subtraction away;
 * outside it, the column's cursor gallops forward to the id (ids ascend in every column, so
 * cursors only move forward: O(lead + sum of log gaps)) and a new window opens there.
 * In the arrays indexed by j, entry j is query column j (the query's order).
 * Loops over j carry "#pragma GCC unroll 8" (ECSB_MAX_QUERY_TYPES): where q is a constant they
 * unroll before scalar replacement, so these arrays live in registers. Handles, when asked,
 * come from the lead's ids (visit_handle: the epoch, or a gallop through the live vector
 * with old entities), copied to a buffer.
 */
typedef struct query_cols {
    const uint32_t *ids[ECSB_MAX_QUERY_TYPES];
    unsigned char *values[ECSB_MAX_QUERY_TYPES];
    size_t size[ECSB_MAX_QUERY_TYPES];
    size_t count[ECSB_MAX_QUERY_TYPES];
    size_t pos[ECSB_MAX_QUERY_TYPES]; /* cursor: no id before it is still to be matched */
    /* The window: a dense range of ids, from one the lead looked up (so every later lead id
     * is above its start) to end - 1; id is at position id + offset (modulo 2^64). */
    size_t end[ECSB_MAX_QUERY_TYPES];
    size_t offset[ECSB_MAX_QUERY_TYPES];
    bool entities;   /* the query asks for handles */
    uint32_t lead;   /* the lead's j */
    const world *w;
    size_t cursor;   /* visit_handle's, in the live vector */
    uint32_t x;      /* excluded types: each an id vector and a cursor that only moves forward */
    const uint32_t *xids[ECSB_MAX_QUERY_EXCLUDES];
    size_t xcount[ECSB_MAX_QUERY_EXCLUDES], xpos[ECSB_MAX_QUERY_EXCLUDES];
} query_cols;

/* True when an excluded column holds an id in [first, last] (ascending calls). */
ECSB_INLINE bool query_excluded(query_cols *c, uint32_t first, uint32_t last)
{
    bool held = false;
#pragma GCC unroll 4
    for (uint32_t j = 0; j < c->x; j++) {
        if (!c->xcount[j]) /* none held (and perhaps no vector yet) */
            continue;
        const size_t p = gallop_32(c->xids[j], c->xpos[j], c->xcount[j], first);
        c->xpos[j] = p;
        held |= p < c->xcount[j] && c->xids[j][p] <= last;
    }
    return held;
}

/* The handle of the entity at lead position pos, pos ascending (ecsb_emit_handles). */
ECSB_INLINE ecsb_entity query_handle_at(void *src, size_t pos)
{
    query_cols *c = src;
    return visit_handle(c->w, c->ids[c->lead][pos], &c->cursor, c->w->old_live != 0);
}

/* Hand fn the run of `count` entities at positions at[j], at[j] + 1, ... of each column. */
ECSB_INLINE void query_emit(query_cols *c, uint32_t k, const size_t *at, size_t count,
                            ecsb_query_fn fn, void *ctx)
{
    void *columns[ECSB_MAX_QUERY_COLUMNS] = {0}; /* (no warning where q is not a constant) */
#pragma GCC unroll 8
    for (uint32_t j = 0; j < k; j++)
        columns[j] = c->values[j] + at[j] * c->size[j];
    if (c->entities)
        ecsb_emit_handles(k, columns, c->size, count, query_handle_at, c, at[c->lead], fn, ctx);
    else
        fn(ctx, count, columns);
}

/*
 * Column j's position of `id` beyond its window: gallop the cursor to it and, when held, open
 * a window there: the longest dense range of ids from it, found by exponential then binary
 * search (ids strictly ascend, so ids[p, p + r) is dense iff ids[p + r - 1] - ids[p] = r - 1),
 * or just that id when the FLAT_MAP_WINDOW_MIN from it are not dense (one compare).
 * 1 with *pos when held, 0 when not, -1 when the column has no id >= id (nothing more can
 * match).
 */
ECSB_INLINE int query_seek(query_cols *c, uint32_t j, uint32_t id, size_t *pos)
{
    const uint32_t *ids = c->ids[j];
    const size_t n = c->count[j], p = gallop_32(ids, c->pos[j], n, id);
    c->pos[j] = p;
    if (p == n)
        return -1;
    if (ids[p] != id)
        return 0;
    size_t dense = 1; /* ids[p, p + dense) is a dense range */
    if (n - p >= FLAT_MAP_WINDOW_MIN && (size_t)(ids[p + FLAT_MAP_WINDOW_MIN - 1] - id) ==
                                            FLAT_MAP_WINDOW_MIN - 1) {
        size_t hi = 2 * FLAT_MAP_WINDOW_MIN; /* ids[p, p + hi) is not, or runs out */
        for (dense = FLAT_MAP_WINDOW_MIN; hi <= n - p && (size_t)(ids[p + hi - 1] - id) == hi - 1;
             hi *= 2)
            dense = hi;
        hi = hi <= n - p ? hi : n - p + 1;
        while (hi - dense > 1) {
            size_t mid = dense + (hi - dense) / 2;
            if ((size_t)(ids[p + mid - 1] - id) == mid - 1)
                dense = mid;
            else
                hi = mid;
        }
    }
    c->end[j] = (size_t)id + dense;
    c->offset[j] = p - id;
    *pos = p;
    return 1;
}

/*
 * True when every other column holds lead ids [i, i + count) at consecutive positions; then
 * at[j] is column j's position of lead id i. Moves the cursors to lead id i; *done when a
 * column has no id >= it. Inside a column's window the lead's ids decide alone.
 */
ECSB_INLINE bool query_block_in_step(query_cols *c, uint32_t k, uint32_t lead, size_t i,
                                     size_t count, size_t *at, bool *done)
{
    const uint32_t *lead_ids = c->ids[lead];
    bool in_step = true;
#pragma GCC unroll 8
    for (uint32_t j = 0; j < k; j++) {
        if (j == lead) {
            at[j] = i;
            continue;
        }
        const uint32_t first = lead_ids[i], last = lead_ids[i + count - 1];
        if (last < c->end[j]) { /* both in the window: positions known, no id read */
            c->pos[j] = at[j] = first + c->offset[j];
            in_step = in_step && last - first == count - 1;
            continue;
        }
        const uint32_t *ids = c->ids[j];
        const size_t n = c->count[j], p = gallop_32(ids, c->pos[j], n, first);
        c->pos[j] = at[j] = p;
        if (p == n) {
            *done = true;
            return false;
        }
        in_step = in_step && n - p >= count && ids[p] == first && ids[p + count - 1] == last;
    }
    if (!in_step || query_excluded(c, lead_ids[i], lead_ids[i + count - 1]))
        return false;
    uint32_t diff = 0; /* OR of the differences between the lead's ids and the others' */
    for (size_t e = 1; e + 1 < count; e++)
#pragma GCC unroll 8
        for (uint32_t j = 0; j < k; j++)
            if (j != lead)
                diff |= c->ids[j][at[j] + e] ^ lead_ids[i + e];
    return diff == 0;
}

/*
 * Lead ids [from, from + count) one by one; false when nothing more can match. `windowed`: every
 * one of them is inside every other column's window (the caller checked the last), so no
 * column needs a check or a search.
 */
ECSB_INLINE bool query_ids(query_cols *c, uint32_t k, uint32_t lead, size_t from, size_t count,
                           bool windowed, ecsb_query_fn fn, void *ctx)
{
    const uint32_t *lead_ids = c->ids[lead];
    const size_t lead_size = c->size[lead];
    unsigned char *lead_value = c->values[lead] + from * lead_size;
    for (size_t i = from; i < from + count; i++, lead_value += lead_size) {
        const uint32_t id = lead_ids[i];
        void *columns[ECSB_MAX_QUERY_COLUMNS] = {0}; /* (no warning where q is not a constant) */
        ecsb_entity handle;
        bool all = true;
#pragma GCC unroll 8
        for (uint32_t j = 0; j < k; j++) {
            if (j == lead) {
                columns[j] = lead_value;
                continue;
            }
            size_t p;
            if (windowed || ECSB_LIKELY(id < c->end[j])) {
                p = id + c->offset[j];
            } else {
                int found = query_seek(c, j, id, &p);
                if (found < 0)
                    return false;
                if (!found) {
                    all = false;
                    break;
                }
            }
            columns[j] = c->values[j] + p * c->size[j];
        }
        if (!all || query_excluded(c, id, id))
            continue;
        if (c->entities) {
            handle = query_handle_at(c, i);
            columns[k] = &handle;
        }
        fn(ctx, 1, columns); /* a constant count: the caller's loop becomes straight code */
    }
    return true;
}

/* The query led by its column `lead` (a constant: see ECSB_QUERY_BY_LEAD). */
ECSB_INLINE void query_lead(world *w, const ecsb_query *q, uint32_t lead, ecsb_query_fn fn,
                            void *ctx)
{
    const uint32_t k = q->count;
    query_cols c = {0};
#pragma GCC unroll 8
    for (uint32_t j = 0; j < k; j++) {
        const column *col = &w->col[q->types[j]];
        c.ids[j] = col->ids;
        c.values[j] = col->values;
        c.size[j] = col->size;
        c.count[j] = col->count;
        c.pos[j] = 0;
        c.end[j] = 0; /* no window */
        c.offset[j] = 0;
    }
    const size_t n = c.count[lead];
    c.entities = q->entities;
    c.lead = lead;
    c.w = w;
    c.cursor = 0;
    c.x = q->exclude_count; /* 0 where q is a constant without exclusions */
#pragma GCC unroll 4
    for (uint32_t j = 0; j < c.x; j++) {
        const column *col = &w->col[q->exclude[j]];
        c.xids[j] = col->ids;
        c.xcount[j] = col->count;
        c.xpos[j] = 0;
    }
    size_t first[ECSB_MAX_QUERY_TYPES] = {0}, run = 0; /* the pending run: start, length */
    bool done = false;
    for (size_t i = 0; i < n && !done; i += FLAT_MAP_DENSE_BLOCK) {
        const size_t count = n - i < FLAT_MAP_DENSE_BLOCK ? n - i : FLAT_MAP_DENSE_BLOCK;
        size_t at[ECSB_MAX_QUERY_TYPES] = {0};
        if (query_block_in_step(&c, k, lead, i, count, at, &done)) {
            bool follows = run != 0;
#pragma GCC unroll 8
            for (uint32_t j = 0; j < k; j++)
                follows &= at[j] == first[j] + run;
            if (!follows) {
                if (run)
                    query_emit(&c, k, first, run, fn, ctx);
#pragma GCC unroll 8
                for (uint32_t j = 0; j < k; j++)
                    first[j] = at[j];
                run = 0;
            }
            run += count;
            continue;
        }
        if (run)
            query_emit(&c, k, first, run, fn, ctx);
        run = 0;
        if (done)
            break;
        bool windowed = true;
#pragma GCC unroll 8
        for (uint32_t j = 0; j < k; j++)
            windowed &= j == lead || c.ids[lead][i + count - 1] < c.end[j];
        if (windowed)
            query_ids(&c, k, lead, i, count, true, fn, ctx);
        else
            done = !query_ids(&c, k, lead, i, count, false, fn, ctx);
    }
    if (run)
        query_emit(&c, k, first, run, fn, ctx);
}

/* Entities holding type t: the query leads with the query's type held by the fewest. */
#define HELD_BY(w, t) ((w)->col[t].count)
ECSB_QUERY_BY_LEAD(query_lead, HELD_BY)
