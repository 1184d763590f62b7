/*
 * paged/views.h — iteration: query (EnTT's views: the smallest pool leads; a group's exact set
 * is one run). A run's handles, when asked, are its lead entries' ids (dense[] holds them as
 * 32-bit ids: an id is its entity's handle), widened into a buffer.
 * One part of strategies/paged_sparse_set.h, which includes the parts in order (storage.h,
 * views.h, checks.h) after setting PAGED_OWNING_GROUPS; include that header, not this one.
 */

/* ---- iteration --------------------------------------------------------------------------- */

/* The group owning exactly the types in mask and excluding exactly `without`, or NULL. */
ECSB_INLINE const group *group_of(const world *w, uint32_t mask, uint32_t without)
{
    for (uint32_t g = 0; PAGED_OWNING_GROUPS && g < w->group_count; g++)
        if (w->groups[g].mask == mask && w->groups[g].without == without)
            return &w->groups[g];
    return NULL;
}

/* The handle of the entity at entry d of a pool whose dense ids are src (ecsb_emit_handles). */
ECSB_INLINE ecsb_entity dense_handle_at(void *src, size_t d)
{
    return ((const uint32_t *)src)[d];
}

/*
 * Hand fn the run of `count` entries of the pool whose dense ids are `dense`, from `start`,
 * columns[0, k) their values: with the handle column when `entities`.
 */
ECSB_INLINE void view_emit(uint32_t k, void **columns, const size_t *sizes, const uint32_t *dense,
                           size_t start, size_t count, bool entities, ecsb_query_fn fn, void *ctx)
{
    if (entities)
        ecsb_emit_handles(k, columns, sizes, count, dense_handle_at, (void *)dense, start, fn,
                          ctx);
    else
        fn(ctx, count, columns);
}

/* Hand out a run of two columns: the lead's at `lead_col`, the other's `off` entries on. */
ECSB_INLINE void view2_flush(const pool *lead, uint32_t lead_col, const pool *other,
                             size_t start, size_t off, size_t run, bool entities,
                             ecsb_query_fn fn, void *ctx)
{
    void *columns[3];
    size_t sizes[2];
    columns[lead_col] = lead->values + start * lead->size;
    columns[!lead_col] = other->values + (start + off) * other->size;
    sizes[lead_col] = lead->size;
    sizes[!lead_col] = other->size;
    view_emit(2, columns, sizes, lead->dense, start, run, entities, fn, ctx);
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
                             size_t other_size, bool entities, ecsb_query_fn fn, void *ctx)
{
    unsigned char *lv = lead->values + from * lead->size, *other_values = other->values;
    size_t lead_size = lead->size;
#pragma GCC unroll 4
    for (size_t e = 0; e < count; e++, lv += lead_size) {
        uint32_t entry = entries[e];
        if (!held && entry == SPARSE_ABSENT) /* a live id's entry is its own: no version test */
            continue;
        void *columns[3];
        ecsb_entity handle;
        columns[lead_col] = lv;
        columns[!lead_col] = other_values + (size_t)id_index(entry) * other_size;
        if (entities) {
            handle = lead->dense[from + e];
            columns[2] = &handle;
        }
        fn(ctx, 1, columns);
    }
}

/*
 * view2_visit with the value size a constant where it can be, branch-free where it can be;
 * with handles (`entities`), one general walk.
 */
ECSB_INLINE void view2_walk(const pool *lead, size_t from, size_t count, uint32_t lead_col,
                            const pool *other, const uint32_t *restrict entries, bool entities,
                            ecsb_query_fn fn, void *ctx)
{
    bool held = count == VIEW_BLOCK && view2_all_held(entries);
    size_t other_size = other->size;
    if (entities) {
        view2_visit(lead, from, count, lead_col, other, entries, held, other_size, true, fn, ctx);
        return;
    }
    /* A constant value size makes the other's address one scaled load, not an imul on
     * each lookup's path. */
    if (held && other_size == 4)
        view2_visit(lead, from, count, lead_col, other, entries, true, 4, false, fn, ctx);
    else if (held && other_size == 8)
        view2_visit(lead, from, count, lead_col, other, entries, true, 8, false, fn, ctx);
    else if (held)
        view2_visit(lead, from, count, lead_col, other, entries, true, other_size, false,
                    fn, ctx);
    else if (other_size == 4)
        view2_visit(lead, from, count, lead_col, other, entries, false, 4, false, fn, ctx);
    else if (other_size == 8)
        view2_visit(lead, from, count, lead_col, other, entries, false, 8, false, fn, ctx);
    else
        view2_visit(lead, from, count, lead_col, other, entries, false, other_size, false,
                    fn, ctx);
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
                             bool entities, ecsb_query_fn fn, void *ctx)
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
                view2_flush(lead, lead_col, other, start, off, run, entities, fn, ctx);
            start = from, off = block_off, run = count;
            continue;
        }
        if (run)
            view2_flush(lead, lead_col, other, start, off, run, entities, fn, ctx);
        run = 0;
        view2_walk(lead, from, count, lead_col, other, entries, entities, fn, ctx);
        uint32_t first = entries[0], last = entries[count - 1];
        try_whole = first != SPARSE_ABSENT && last != SPARSE_ABSENT &&
                    id_index(last) - id_index(first) == count - 1;
    }
    if (run)
        view2_flush(lead, lead_col, other, start, off, run, entities, fn, ctx);
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
    bool entities;        /* the query asks for handles */
    const uint32_t *dense; /* the lead's ids */
    uint32_t x;           /* excluded types (EnTT's exclude<>): their pools */
    const pool *xpools[ECSB_MAX_QUERY_EXCLUDES];
} view_cols;

/* True when the live entity at index i holds one of the query's excluded types. */
ECSB_INLINE bool view_excluded(const view_cols *c, uint32_t i)
{
    bool held = false;
#pragma GCC unroll 4
    for (uint32_t j = 0; j < c->x; j++)
        held |= *sparse_entry(c->xpools[j], i) != SPARSE_ABSENT;
    return held;
}

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
    for (size_t e = from; c->x && e < to; e++) /* none of them excluded */
        if (view_excluded(c, id_index(dense[e])))
            return false;
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
        void *columns[ECSB_MAX_QUERY_COLUMNS] = {0}; /* (no warning where k is not a constant) */
        ecsb_entity handle;
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
        if (!all || view_excluded(c, i))
            continue;
        if (c->entities) {
            handle = dense[d];
            columns[k] = &handle;
        }
        fn(ctx, 1, columns);
    }
}

/* Hand out the run of `run` lead entries from `start`, column j `off[j]` entries on. */
ECSB_INLINE void viewk_flush(const view_cols *c, uint32_t k, const size_t *off, size_t start,
                             size_t run, ecsb_query_fn fn, void *ctx)
{
    void *columns[ECSB_MAX_QUERY_COLUMNS] = {0};
#pragma GCC unroll 8
    for (uint32_t j = 0; j < k; j++)
        columns[j] = c->values[j] + (start + off[j]) * c->sizes[j];
    view_emit(k, columns, c->sizes, c->dense, start, run, c->entities, fn, ctx);
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
 * Two engines because the two-type one earns its keep: sending two-type queries through
 * query_viewk instead costs dual_iterate 23.2 instructions per pair instead of 19.0 (make
 * cachegrind, N = 4000: the in-step blocks and constant lead column of query_view2), and
 * churn_iterate about as much more time; simple_iter, whose two-type queries are rarely in
 * step, runs as fast either way.
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
    const bool entities = q->entities;
    c.entities = entities;
    c.dense = lead->dense;
    c.x = q->exclude_count; /* 0 where q is a constant without exclusions */
#pragma GCC unroll 4
    for (uint32_t j = 0; j < c.x; j++)
        c.xpools[j] = &w->pools[q->exclude[j]];
    if (k == 2 && !c.x) { /* at_lead is 1 or 2: a group owning both would have answered */
        /* A constant lead column keeps the columns in registers, not on the stack. */
        if (at_lead == 1)
            query_view2(lead, n, 0, c.pools[1], entities, fn, ctx);
        else
            query_view2(lead, n, 1, c.pools[0], entities, fn, ctx);
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
 * A group's exact sets (included and excluded): one run over its front. One type, excluding
 * none: its pool is one run. Otherwise the view path, led by the smallest pool, or by the
 * front of a group whose types the query names and whose exclusions it makes too (so every
 * match is in the front), when that front is smaller. Exclusions cost the view one sparse
 * entry per excluded type per visited lead entity.
 */
ECSB_INLINE ecsb_status query(world *w, const ecsb_query *q, ecsb_query_fn fn, void *ctx)
{
    uint32_t mask;
    ecsb_status st = ecsb_query_check(q, w->type_count, &mask);
    if (st != ECSB_OK)
        return st;
    const uint32_t k = q->count;
    void *columns[ECSB_MAX_QUERY_COLUMNS] = {0}; /* zeroed once a query: gcc cannot see that */
    size_t sizes[ECSB_MAX_QUERY_TYPES];           /* only the first k are read */
    const uint32_t without = ecsb_query_without(q); /* 0 where q is a constant without any */
    const group *g = group_of(w, mask, without);
    if (g || (k == 1 && !without)) { /* a group's front: the same ids in the same order in every pool */
        const pool *first = &w->pools[q->types[0]];
        size_t n = g ? g->size : first->count;
        for (uint32_t j = 0; j < k; j++) {
            columns[j] = w->pools[q->types[j]].values;
            sizes[j] = w->pools[q->types[j]].size;
        }
        if (n)
            view_emit(k, columns, sizes, first->dense, 0, n, q->entities, fn, ctx);
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
        if ((inner->mask & ~mask) || (inner->without & ~without) || inner->size >= n)
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
