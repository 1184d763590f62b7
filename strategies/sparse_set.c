/*
 * sparse_set — per component type, a packed (dense) array of values, the entity slot of each
 * value (the roster) and an entity-to-dense map (the sparse map); swap-remove keeps it packed.
 *
 * Idea (articles 003 and 004): an entity is a slot index plus a 32-bit generation (handle =
 * ecsb_handle_make(slot, generation)), from the shared id unit harness/entity_ids.h: one
 * 64-bit id word per slot, a LIFO free list threaded through the free slots (as article 003's
 * EntityService), "is this handle live" one load and one 64-bit compare, retirement of a slot
 * whose generation would wrap.
 * Per type t: values[0..count) and roster[0..count) (the slot holding each value) in one
 * block, and sparse[slot] = the value's dense index, or SPARSE_ABSENT (UINT32_MAX) when the
 * slot does not hold t. The sentinel makes has/get one sparse load without touching the roster;
 * world_valid checks both directions (roster[sparse[s]] == s and sparse[roster[k]] == k).
 * Remove moves the LAST value (count - 1) into the hole, re-points its sparse entry, then
 * shrinks. All K sparse maps live in one block sized by the entity capacity (grown with the
 * ids by their grow hook); each type's roster + values in another; every grow is a single
 * realloc made before anything is mutated, so a failure leaves the world untouched.
 *
 * Costs, in cache lines touched (steady state, K = type count, "random" = anywhere):
 *   create  1: the free-list head's slot word (pop) or the next fresh slot word (append).
 *   destroy 1 slot word + K sparse entries, plus a remove for each type the entity holds.
 *   add     2 random (slot word, sparse[e]) + the dense tails (roster and value, hot).
 *   remove  slot word, sparse[e], value and roster at the hole, sparse[moved]: 5 random lines
 *           plus the (hot) tails; the moved value is copied (size bytes).
 *   get     3 dependent: slot word -> sparse[e] -> value.   has: 2 (slot word, sparse[e]).
 *   query   walks the roster + values of the query type with the fewest holders
 *           sequentially; per visited entity one sparse entry and one value of each other
 *           type: sequential while the dense orders
 *           follow slot order (dual_iterate), random once churn has shuffled them (one cache
 *           miss per lookup at DRAM scale). With SPARSE_SET_PREFETCH (sparse_set_prefetch),
 *           walks led by more than WALK_PREFETCH_MIN entities prefetch those two lines a few
 *           entities ahead where a block's lookups are out of order.
 *           A block of WALK_BLOCK lead entries in step with every other type (pools filled
 *           in the same order) is one run, after one sparse load per entity and type; runs of
 *           one otherwise. Handles, when asked: the slot word of each match's lead roster
 *           entry (sequential while the roster follows slot order).
 * Memory per entity slot: 8 B (slot word) + 4 B per type (sparse map, held or not); per held
 * component: size + 4 B (value + roster entry); geometric growth adds up to 2x slack, and
 * initial_capacity reserves dense entries for every type.
 * Wins: add/remove/has in O(1) with no holes; a one-type query is a packed walk; a
 * two-type query costs the smaller type's size, whatever the bigger one holds; rejecting a stale handle costs no extra load.
 * Loses: K * 4 B per entity slot for the sparse maps even for rare types; remove touches five
 * scattered lines (see above); and with churn the dense order decays (article 004): every
 * remove moves the newest value into an old hole, so the dense order drifts from creation
 * order towards a random permutation, and a query's lookups into the other types (and its
 * handle lookups) go from sequential to one cache miss each.
 * Tags (size 0): roster and sparse map as any type (membership is the sparse set itself, as
 * EnTT stores empty types), no values: 4 B per holder + the 4 B sparse entry per slot; the
 * values pointer is ECSB_TAG, stride 0. Exclusion: one more sparse load per visited lead
 * entity per excluded type (a block in step must hold none of them).
 * Tuning: none in sparse_set; sparse_set_prefetch is this file with software prefetch on (see
 * SPARSE_SET_PREFETCH). Blocks of WALK_BLOCK lead entries found in step with every other type
 * go out as one run: the gathering of consecutive matches every layout that finds matches one
 * by one does (ecsb_runs, harness/strategy.h).
 */
#include "harness/entity_ids.h"

#define ID_STRIDE 1                         /* words per id record: the id word only */
#define SPARSE_ABSENT UINT32_MAX            /* sparse entry of a slot not holding the type */

/*
 * Software prefetch, off in sparse_set and on in sparse_set_prefetch (the same file with
 * SPARSE_SET_PREFETCH 1: strategies/sparse_set_prefetch.c). With it on, queries whose
 * lead type holds more than WALK_PREFETCH_MIN entries walk it in blocks of WALK_BLOCK and
 * prefetch the other types' entries ahead in the blocks whose lookups are not in near
 * ascending order (see query_lead). A tuning, not the layout: so it is a line of its own.
 */
#ifndef SPARSE_SET_PREFETCH
#define SPARSE_SET_PREFETCH 0
#endif
#define WALK_PREFETCH_MIN 65536u
#define WALK_PREFETCH_AHEAD 16u /* entities ahead for the value; twice that for the sparse map */
#define WALK_BLOCK 256u         /* lead entries per prefetch-or-not decision */
#define WALK_SAMPLE_GAP 16u     /* entries between the samples of a block's order */
#define WALK_NEAR_LOG2 4u       /* "in order": each sample's next entry ascends by < 16 */

/* One component type: [roster: cap uint32][pad to 64][values: cap * size] in one block. */
typedef struct pool {
    uint32_t *sparse;         /* per entity slot, in the world's entity block */
    uint32_t *roster;         /* dense index -> entity slot; = block */
    unsigned char *values;    /* dense index -> value */
    uint32_t count;           /* holders: dense entries in use */
    uint32_t size;            /* bytes per value */
    uint32_t cap;             /* dense entries allocated */
    size_t bytes;             /* bytes of the block */
} pool;

typedef struct world {
    ecsb_ids ids;             /* entity slots, generations, free list (harness/entity_ids.h) */
    const ecsb_allocator *alloc;
    uint32_t *maps;           /* the sparse maps, type after type, ids.cap entries each */
    uint32_t type_count;
    pool pools[ECSB_MAX_TYPES];
} world;

/* ---- memory ------------------------------------------------------------------------------ */

/* Bytes of the sparse maps for cap slots. */
static size_t maps_bytes(const world *w, size_t cap)
{
    return cap * w->type_count * sizeof(uint32_t);
}

/*
 * The ids' grow hook: the sparse maps from old to cap slots. The maps move to their new
 * offsets (last first: each moves up) and their new entries start SPARSE_ABSENT, so create
 * never has to touch them. One realloc: on failure nothing changed.
 */
static ecsb_status grow_maps(void *owner, size_t old, size_t cap)
{
    world *w = owner;
    if (cap > SIZE_MAX / maps_bytes(w, 1))
        return ECSB_ERR_NOMEM;
    void *block = w->maps;
    ecsb_status st = ecsb_resize(w->alloc, &block, 1, maps_bytes(w, old), maps_bytes(w, cap));
    if (st != ECSB_OK)
        return st;
    w->maps = block;
    for (uint32_t t = w->type_count; t-- > 0;) {
        uint32_t *sparse = w->maps + t * cap;
        memmove(sparse, w->maps + t * old, old * sizeof *sparse);
        memset(sparse + old, 0xff, (cap - old) * sizeof *sparse); /* = SPARSE_ABSENT */
        w->pools[t].sparse = sparse;
    }
    return ECSB_OK;
}

/* Grow a pool to `cap` (> p->cap) values; 0 means full. One realloc: on failure nothing changed. */
static ecsb_status grow_pool(world *w, pool *p, size_t cap)
{
    void *block = p->roster;
    ecsb_status st = ecsb_pool_block_grow(w->alloc, &block, &p->bytes, &p->values, p->cap, cap,
                                          p->count, p->size);
    if (st != ECSB_OK)
        return st;
    p->roster = block;
    p->cap = (uint32_t)cap;
    return ECSB_OK;
}

static void world_fini(world *w)
{
    ecsb_release(w->alloc, w->maps, maps_bytes(w, w->ids.cap));
    for (uint32_t t = 0; t < w->type_count; t++)
        ecsb_release(w->alloc, w->pools[t].roster, w->pools[t].bytes);
    ECSB_IDS_WORLD_FINI(w);
}

/*
 * initial_capacity reserves exactly that many entity slots and, for every type, dense entries,
 * so a workload that stays within it never reallocates; growth past it doubles.
 */
static ecsb_status world_init(world *w, const ecsb_world_config *config)
{
    ECSB_IDS_WORLD_INIT(w, config, ID_STRIDE);
    ecsb_status st = ECSB_OK;
    for (uint32_t t = 0; t < w->type_count; t++) {
        w->pools[t].size = config->type_size[t];
        if (w->pools[t].size == 0)
            w->pools[t].values = ECSB_TAG; /* a tag: values ECSB_TAG, stride 0 */
    }
    if (config->initial_capacity) {
        st = ecsb_ids_reserve(&w->ids, config, grow_maps, w);
        for (uint32_t t = 0; st == ECSB_OK && t < w->type_count; t++)
            st = grow_pool(w, &w->pools[t], w->ids.cap);
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
    return ecsb_ids_alive(&w->ids, ID_STRIDE, e);
}

/* The handle of live slot i. */
ECSB_INLINE ecsb_entity slot_handle(const world *w, uint32_t i)
{
    return ecsb_ids_handle(&w->ids, ID_STRIDE, i);
}

ECSB_INLINE ecsb_status entity_create(world *w, ecsb_entity *out)
{
    return ecsb_ids_create(&w->ids, ID_STRIDE, grow_maps, w, out);
}

/* Swap-remove dense entry j of slot i from pool p: the last entry fills the hole. */
ECSB_INLINE void pool_remove(pool *p, uint32_t i, uint32_t j)
{
    uint32_t last = --p->count;
    uint32_t moved = p->roster[last];
    size_t size = p->size;
    unsigned char *hole = p->values + (size_t)j * size, *tail = p->values + (size_t)last * size;
    /* Constant sizes become plain loads and stores; memmove because hole may be tail. */
    switch (size) {
    case 4: memmove(hole, tail, 4); break;
    case 8: memmove(hole, tail, 8); break;
    default: memmove(hole, tail, size); break;
    }
    p->roster[j] = moved;
    p->sparse[moved] = j;
    p->sparse[i] = SPARSE_ABSENT; /* after the line above: moved == i when j == last */
}

ECSB_INLINE ecsb_status entity_destroy(world *w, ecsb_entity e)
{
    uint32_t i;
    if (!live_slot(w, e, &i))
        return ECSB_ERR_STALE;
    for (uint32_t t = 0; t < w->type_count; t++) {
        uint32_t j = w->pools[t].sparse[i];
        if (j != SPARSE_ABSENT)
            pool_remove(&w->pools[t], i, j);
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
    pool *p = &w->pools[t];
    if (ECSB_UNLIKELY(p->sparse[i] != SPARSE_ABSENT))
        return ECSB_ERR_PRESENT;
    if (ECSB_UNLIKELY(p->count == p->cap)) {
        ecsb_status st =
            grow_pool(w, p,
                      ecsb_grow_capacity(p->cap, (size_t)p->count + 1, w->ids.max_entities));
        if (st != ECSB_OK)
            return st;
    }
    uint32_t j = p->count++;
    p->roster[j] = i;
    p->sparse[i] = j;
    *value_out = p->values + (size_t)j * p->size;
    return ECSB_OK;
}

ECSB_INLINE ecsb_status component_remove(world *w, ecsb_entity e, ecsb_type t)
{
    uint32_t i;
    ECSB_CHECK_TYPE_AND_LIVE(w, t, live_slot(w, e, &i));
    pool *p = &w->pools[t];
    uint32_t j = p->sparse[i];
    if (ECSB_UNLIKELY(j == SPARSE_ABSENT))
        return ECSB_ERR_ABSENT;
    pool_remove(p, i, j);
    return ECSB_OK;
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
    uint32_t i;
    if (ECSB_UNLIKELY(t >= w->type_count) || ECSB_UNLIKELY(!live_slot(w, e, &i)))
        return NULL;
    const pool *p = &w->pools[t];
    uint32_t j = p->sparse[i];
    return ECSB_LIKELY(j != SPARSE_ABSENT) ? p->values + (size_t)j * p->size : NULL;
}

ECSB_INLINE bool component_has(const world *w, ecsb_entity e, ecsb_type t)
{
    uint32_t i;
    return t < w->type_count && live_slot(w, e, &i) && w->pools[t].sparse[i] != SPARSE_ABSENT;
}

static size_t component_count(const world *w, ecsb_type t)
{
    return t < w->type_count ? w->pools[t].count : 0;
}

/* ---- iteration --------------------------------------------------------------------------- */

/*
 * True when the lead's dense entries [k, k + WALK_BLOCK) look the other type up in near
 * ascending order: at every WALK_SAMPLE_GAP-th entry, the next entry's slot (the sparse entry
 * read) and the other's dense index (the value read) both ascend by less than
 * 2^WALK_NEAR_LOG2. 16 samples, about 0.7 instructions per entry. A sample lands on a
 * displaced entry with the chance that an entry is displaced, so a block with a few per cent
 * of its entries scattered by churn is usually caught and one with a third almost surely.
 */
ECSB_INLINE bool walk_block_in_order(const uint32_t *restrict roster,
                                     const uint32_t *restrict sparse, size_t k)
{
    uint32_t jumps = 0; /* OR of the steps: below 2^WALK_NEAR_LOG2 iff every step is */
#pragma GCC unroll 4
    for (size_t s = k; s < k + WALK_BLOCK; s += WALK_SAMPLE_GAP) {
        uint32_t r0 = roster[s], r1 = roster[s + 1];
        jumps |= (r1 - r0) | (sparse[r1] - sparse[r0]);
    }
    return (jumps >> WALK_NEAR_LOG2) == 0;
}

/*
 * A query leads with its type held by the fewest entities and walks that type's dense entries
 * in blocks of WALK_BLOCK. A block whose entities sit at consecutive dense indices, in the same
 * order, in every other query type ("in step": pools filled in the same order) is one run,
 * checked with one sparse load per entity and type and no other work; consecutive such blocks
 * join into one run, so a packed world is handed out whole. Any other block is walked entity
 * by entity, every match a run of one, prefetching as the block before it decides (below).
 * Handles, when asked: slot_handle of the lead roster's slots, copied to a buffer.
 * In the arrays indexed by j, entry j is query type j (the query's order).
 * Loops over j carry "#pragma GCC unroll 8" (ECSB_MAX_QUERY_TYPES): where q is a constant they
 * unroll before scalar replacement, so these arrays live in registers.
 */
typedef struct query_cols {
    const uint32_t *sparse[ECSB_MAX_QUERY_TYPES];
    unsigned char *values[ECSB_MAX_QUERY_TYPES];
    size_t size[ECSB_MAX_QUERY_TYPES];
    bool entities;          /* the query asks for handles */
    uint32_t lead;          /* the lead's j */
    const uint32_t *roster; /* the lead's */
    const world *w;
    uint32_t x;             /* excluded types, and their sparse maps */
    const uint32_t *xsparse[ECSB_MAX_QUERY_EXCLUDES];
} query_cols;

/* True when slot i holds one of the query's excluded types. */
ECSB_INLINE bool query_excluded(const query_cols *c, uint32_t i)
{
    bool held = false;
#pragma GCC unroll 4
    for (uint32_t j = 0; j < c->x; j++)
        held |= c->xsparse[j][i] != SPARSE_ABSENT;
    return held;
}

/* The handle of the entity at lead entry d (ecsb_emit_handles). */
ECSB_INLINE ecsb_entity query_handle_at(void *src, size_t d)
{
    const query_cols *c = src;
    return slot_handle(c->w, c->roster[d]);
}

/* Hand fn the run of `count` entities at dense indices at[j], at[j] + 1, ... of each type. */
ECSB_INLINE void query_emit(const query_cols *c, uint32_t k, const size_t *at, size_t count,
                            ecsb_query_fn fn, void *ctx)
{
    void *columns[ECSB_MAX_QUERY_COLUMNS] = {0}; /* (no warning where q is not a constant) */
#pragma GCC unroll 8
    for (uint32_t j = 0; j < k; j++)
        columns[j] = c->values[j] + at[j] * c->size[j];
    if (c->entities)
        ecsb_emit_handles(k, columns, c->size, count, query_handle_at, (void *)c, at[c->lead],
                          fn, ctx);
    else
        fn(ctx, count, columns);
}

/*
 * True when lead entries [d, d + count) are in step with every other query type; then at[j]
 * is the dense index of entry d in type j. The two ends are compared first, so a block out of
 * step costs a few loads.
 */
ECSB_INLINE bool query_block_in_step(const query_cols *c, const uint32_t *restrict roster,
                                     uint32_t k, uint32_t lead, size_t d, size_t count,
                                     size_t *at)
{
    const uint32_t head = roster[d], tail = roster[d + count - 1];
#pragma GCC unroll 8
    for (uint32_t j = 0; j < k; j++) {
        at[j] = j == lead ? d : c->sparse[j][head];
        if (j != lead && (at[j] == SPARSE_ABSENT || c->sparse[j][tail] - at[j] != count - 1))
            return false;
    }
    for (size_t e = 0; c->x && e < count; e++)
        if (query_excluded(c, roster[d + e]))
            return false;
    uint32_t off = 0; /* OR of every entry's distance from its in-step index */
    for (size_t e = 1; e + 1 < count; e++) {
        const uint32_t i = roster[d + e];
#pragma GCC unroll 8
        for (uint32_t j = 0; j < k; j++)
            if (j != lead)
                off |= c->sparse[j][i] - (uint32_t)(at[j] + e); /* absent never matches */
    }
    return off == 0;
}

/*
 * Lead entries [from, from + count) one by one; prefetch says whether to fetch the other
 * types' sparse entries 2 * WALK_PREFETCH_AHEAD entries ahead and their values
 * WALK_PREFETCH_AHEAD ahead (the caller guarantees from + count + 2 * WALK_PREFETCH_AHEAD <=
 * the lead's count then). Positions are size_t: with uint32_t ones the compiler must allow
 * for wrap-around and recomputes each address with a multiply.
 */
ECSB_INLINE void query_entities(const query_cols *c, const uint32_t *restrict roster, uint32_t k,
                                uint32_t lead, size_t from, size_t count, bool prefetch,
                                ecsb_query_fn fn, void *ctx)
{
    const size_t lead_size = c->size[lead];
    unsigned char *lead_value = c->values[lead] + from * lead_size;
#pragma GCC unroll 4
    for (size_t d = from; d < from + count; d++, lead_value += lead_size) {
#pragma GCC unroll 8
        for (uint32_t j = 0; prefetch && j < k; j++) {
            if (j == lead)
                continue;
            __builtin_prefetch(&c->sparse[j][roster[d + 2 * WALK_PREFETCH_AHEAD]]);
            uint32_t ahead = c->sparse[j][roster[d + WALK_PREFETCH_AHEAD]];
            ahead = ahead == SPARSE_ABSENT ? 0 : ahead;
            __builtin_prefetch(c->values[j] + (size_t)ahead * c->size[j], 1);
        }
        const uint32_t i = roster[d];
        void *columns[ECSB_MAX_QUERY_COLUMNS] = {0}; /* (no warning where q is not a constant) */
        ecsb_entity handle;
        bool all = true;
#pragma GCC unroll 8
        for (uint32_t j = 0; j < k; j++) {
            const uint32_t at = j == lead ? 0 : c->sparse[j][i];
            if (at == SPARSE_ABSENT) {
                all = false;
                break;
            }
            columns[j] = j == lead ? lead_value : c->values[j] + (size_t)at * c->size[j];
        }
        if (!all || query_excluded(c, i))
            continue;
        if (c->entities) {
            handle = slot_handle(c->w, i);
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
        const pool *p = &w->pools[q->types[j]];
        c.sparse[j] = p->sparse;
        c.values[j] = p->values;
        c.size[j] = p->size;
    }
    const pool *lp = &w->pools[q->types[lead]];
    const uint32_t *roster = lp->roster;
    const size_t n = lp->count;
    c.entities = q->entities;
    c.lead = lead;
    c.roster = roster;
    c.w = w;
    c.x = q->exclude_count; /* 0 where q is a constant without exclusions */
#pragma GCC unroll 4
    for (uint32_t j = 0; j < c.x; j++)
        c.xsparse[j] = w->pools[q->exclude[j]].sparse;
    size_t first[ECSB_MAX_QUERY_TYPES] = {0}, run = 0; /* the pending run: start, length */
    bool prefetch = false;
    for (size_t d = 0; d < n; d += WALK_BLOCK) {
        const size_t count = n - d < WALK_BLOCK ? n - d : WALK_BLOCK;
        size_t at[ECSB_MAX_QUERY_TYPES] = {0};
        if (query_block_in_step(&c, roster, k, lead, d, count, at)) {
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
            prefetch = false;
            continue;
        }
        if (run)
            query_emit(&c, k, first, run, fn, ctx);
        run = 0;
        if (prefetch && d + count + 2 * WALK_PREFETCH_AHEAD <= n)
            query_entities(&c, roster, k, lead, d, count, true, fn, ctx);
        else
            query_entities(&c, roster, k, lead, d, count, false, fn, ctx);
        /*
         * The next block is judged by this one, whose lines are still in cache, so sampling
         * never waits on memory; dense orders decay by churn gradually, so a block predicts
         * its neighbour well.
         */
        prefetch = SPARSE_SET_PREFETCH && n > WALK_PREFETCH_MIN && count == WALK_BLOCK;
#pragma GCC unroll 8
        for (uint32_t j = 0; prefetch && j < k; j++)
            prefetch = j == lead || !walk_block_in_order(roster, c.sparse[j], d);
    }
    if (run)
        query_emit(&c, k, first, run, fn, ctx);
}

/* Entities holding type t: the query leads with the query's type held by the fewest. */
#define HELD_BY(w, t) ((w)->pools[t].count)
ECSB_QUERY_BY_LEAD(query_lead, HELD_BY)

/* ---- checks ------------------------------------------------------------------------------ */

static bool world_valid(const world *w)
{
    if (!ecsb_ids_valid(&w->ids) || w->type_count == 0 || w->type_count > ECSB_MAX_TYPES ||
        (w->ids.cap && !w->maps))
        return false;
    /* Types: roster -> sparse and sparse -> roster agree; holders are live. */
    for (uint32_t t = 0; t < w->type_count; t++) {
        const pool *p = &w->pools[t];
        if ((p->size == 0 && p->values != ECSB_TAG) || p->size > ECSB_MAX_TYPE_SIZE ||
            p->count > p->cap ||
            p->count > w->ids.live || p->cap > w->ids.max_entities ||
            (p->cap && (!p->roster || p->bytes != ecsb_pool_block_bytes(p->cap, p->size))))
            return false;
        if (w->ids.cap && p->sparse != w->maps + (size_t)t * w->ids.cap)
            return false;
        for (uint32_t k = 0; k < p->count; k++) {
            uint32_t i = p->roster[k];
            if (i >= w->ids.slots || !ecsb_ids_slot_live(&w->ids, i) || p->sparse[i] != k)
                return false;
        }
        for (uint32_t i = 0; i < w->ids.cap; i++) {
            uint32_t j = p->sparse[i];
            if (j != SPARSE_ABSENT && (i >= w->ids.slots || j >= p->count || p->roster[j] != i))
                return false;
        }
    }
    return true;
}

static size_t world_bytes(const world *w)
{
    size_t bytes = sizeof *w + ecsb_ids_bytes(&w->ids) + maps_bytes(w, w->ids.cap);
    for (uint32_t t = 0; t < w->type_count; t++)
        bytes += w->pools[t].bytes;
    return bytes;
}

/* The first type anyone holds, or NULL. */
static pool *first_held_pool(world *w)
{
    for (uint32_t t = 0; t < w->type_count; t++)
        if (w->pools[t].count)
            return &w->pools[t];
    return NULL;
}

/*
 * Testing aid (ecsb.h): each damage is an XOR, so applying it twice restores the world.
 *   0 .. 2  the ids' (ecsb_ids_corrupt);  then 3  the first held type's first roster entry;
 *   4  its sparse entry;  5  type 0's count;  6  type 0's sparse entry of the last slot;
 *   7  type 0's sparse map pointer (one cache line off).
 */
static int world_corrupt(world *w, unsigned which)
{
    if (which < ECSB_IDS_CORRUPT_COUNT)
        return ecsb_ids_corrupt(&w->ids, which);
    pool *p = first_held_pool(w);
    switch (which - ECSB_IDS_CORRUPT_COUNT) {
    case 0:
    case 1:
        if (!p)
            return 0;
        if (which == ECSB_IDS_CORRUPT_COUNT)
            p->roster[0] ^= 0x80000000u;
        else
            p->sparse[p->roster[0]] ^= 0x80000000u;
        return 1;
    case 2: /* type 0's: not "the first held", which this very damage may change */
        w->pools[0].count ^= 1;
        return 1;
    case 3:
        if (!w->ids.slots)
            return 0;
        w->pools[0].sparse[w->ids.slots - 1] ^= 0x80000000u;
        return 1;
    case 4:
        if (!w->ids.cap)
            return 0;
        w->pools[0].sparse = (uint32_t *)((uintptr_t)w->pools[0].sparse ^ 64);
        return 1;
    default:
        return -1;
    }
}

#ifndef ECSB_STRATEGY_NAME /* sparse_set_prefetch names itself */
#define ECSB_STRATEGY_NAME sparse_set
#define ECSB_STRATEGY_SUMMARY "per type: packed values + roster, entity-to-dense sparse map, swap-remove; free-list ids with generations"
#endif
#include "harness/strategy_impl.h"
