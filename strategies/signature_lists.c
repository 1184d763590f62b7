/*
 * signature_lists — article 004's per-system entity lists, as pico_ecs keeps them: per entity a
 * component bitmask (its signature), values in per-type arrays indexed by entity slot, and for
 * every declared query a roster of the entities whose signature holds all of its types.
 *
 * Idea: an entity is a slot (handle = slot index + 32-bit generation), from the shared id
 * unit harness/entity_ids.h: one 64-bit id word per slot, equal to the live entity's handle,
 * so "is this handle live" is one load and one compare (free list and retirement: see
 * there). Beside it the slot's
 * signature: a uint32_t with bit t set while the entity holds type t (32 types at most). A
 * value of type t lives at values[t] + slot * size, whoever holds it; each values array is an
 * allocator block of its own (64-byte aligned), so every value is aligned as configured.
 * Each declared query (config->queries, one roster per distinct type set) keeps a roster, as
 * article 004's systems do: members[0 .. count) the member slots, in the order they started
 * matching, and at[slot] the slot's index there (SIG_NONE when not a member). add/remove/
 * destroy update it when the signature starts or stops holding the whole set: append, or
 * swap-remove (the last member fills the hole). Per block of SIG_BLOCK roster entries the
 * roster also counts its breaks: entries whose slot is not the previous entry's + 1. A block
 * without breaks is a run of consecutive slots, so its values are consecutive in every type's
 * array: the query hands the block out whole, as one run, without reading its members.
 * A declared query walks its roster: blocks without breaks are runs (consecutive ones join,
 * so a roster in slot order is one run), the others are visited member by member, each a run
 * of one, two multiplies from the member's slot to its values and no lookup. An undeclared
 * query scans every slot's signature; maximal stretches of matching slots are its runs. Asked
 * for handles, a run's handle column is the slot words of its slots, in place.
 *
 * Costs, in cache lines touched (R = declared queries holding the type, K = type count):
 *   create   the free-list head's slot word (pop) or the next fresh one. Growth copies every
 *            array to a new block of twice the size and clears the new slots' signatures and
 *            roster entries (transactional: a failed allocation changes nothing).
 *   destroy  slot word + signature, then per roster the entity is in: at[slot], the hole in
 *            members, the last member and its at entry: 3 random lines each.
 *   add      slot word + signature (+ the value the caller writes); per roster it now
 *            matches: members' tail (hot) and at[slot].
 *   remove   slot word + signature; per roster it stops matching: 3 random lines as destroy.
 *   get/has  slot word + signature (+ the value for get): 2 lines, or 3.
 *   query    declared: the roster's members sequentially (only the first of a block without
 *            breaks) and per member one line of each type's values, sequential while the
 *            roster follows slot order, random once churn has shuffled it. Undeclared: every signature
 *            (4 B per slot ever used), then the matching values.
 *            Handles, when asked: the slot word of each match (8 B, beside its signature).
 * Memory per slot ever used (live or not, times up to 2 for growth slack): 8 B slot word + 4 B
 * signature + per type its value size (every type pays for every slot, held or not: one more
 * type costs its size per slot) + per declared query 8 B (members and at), plus 2 B per 256
 * slots of break counts.
 * Wins: iteration over declared queries: the matches are listed, so no lookup, no presence
 * test and no scan of non-matching entities, and values are reached from the slot directly;
 * rosters in slot order are handed out as long runs without reading them. get/has/add are
 * one or two lines with no indirection, and nothing ever moves a value.
 * Loses: memory (every type costs its size for every slot, as index_is_id; each declared
 * query 8 B per slot); add/remove/destroy pay for every declared query they touch (the
 * roster appends and swap-removes); churn shuffles a roster's order (the swap-remove of
 * article 004), after which its walk reads values in random order; undeclared queries and
 * each scan every slot's signature.
 * Tags (size 0): the signature bit only; no values array (its pointer is ECSB_TAG, stride
 * 0). Exclusion: a roster may exclude types (a declared query "has A, not C"): an entity is a
 * member while its signature holds the set and none of the excluded types, so gaining an
 * excluded type leaves the roster and losing it joins (the same swap-remove and append as for
 * the set's own types); an undeclared query's scan tests the excluded bits in the same
 * signature load: no cost per entity either way.
 * Tuning: none beyond gathering consecutive slots into runs (blocks without breaks), the run
 * gathering every layout that finds matches one by one does; no prefetch, and no path for
 * other arithmetic progressions of slots (those only arise in worlds built by i mod k).
 */
#include "harness/entity_ids.h"

#define ID_STRIDE 1                        /* words per id record: the id word only */
#define SIG_NONE UINT32_MAX                /* at[] of a non-member */
#define SIG_BLOCK 256u                     /* roster entries per break count */

/*
 * A block of SIG_BLOCK roster entries, d = its first: with two entries or more, step =
 * members[d + 1] - members[d] (modulo 2^32) and breaks = how many later entries p differ from
 * entry p - 1 by anything else. A block without breaks of step 1 is a run of consecutive slots
 * (the query hands it out whole); other steps are walked member by member like any block.
 */
typedef struct roster_block {
    uint32_t step;
    uint32_t breaks;
} roster_block;

/* One declared query's members. */
typedef struct roster {
    uint32_t mask;         /* its types */
    uint32_t without;      /* its excluded types: members hold none */
    uint32_t count;        /* members */
    uint32_t *members;     /* [0, count): member slots, capacity entries */
    uint32_t *at;          /* per slot: index in members, SIG_NONE when not a member */
    roster_block *blocks;  /* per block of SIG_BLOCK entries */
} roster;

typedef struct world {
    /* hot */
    ecsb_ids ids;           /* entity slots, generations, free list (harness/entity_ids.h) */
    uint32_t *mask;         /* per slot: the signature (types held); 0 unless live */
    unsigned char *values[ECSB_MAX_TYPES]; /* per type, per slot */
    uint32_t type_size[ECSB_MAX_TYPES];
    uint32_t type_rosters[ECSB_MAX_TYPES]; /* per type: bit r set when roster r names it
                                            * (holds or excludes it) */
    uint32_t type_count;
    uint32_t roster_count;
    roster rosters[ECSB_MAX_QUERIES];
    size_t held[ECSB_MAX_TYPES]; /* per type: holders */
    /* cold */
    const ecsb_allocator *alloc;
} world;

ECSB_INLINE size_t blocks_for(size_t slots) { return (slots + SIG_BLOCK - 1) / SIG_BLOCK; }

/* ---- memory ------------------------------------------------------------------------------ */

/*
 * The world's arrays beside the ids as columns, in one order: 0 signatures, 1 .. K the types'
 * values, then per roster its members, at and blocks. All but blocks hold one element per
 * slot; blocks one roster_block per SIG_BLOCK slots.
 */
#define SIG_COLUMNS (1 + ECSB_MAX_TYPES + 3 * ECSB_MAX_QUERIES)

static uint32_t column_count(const world *w) { return 1 + w->type_count + 3 * w->roster_count; }

static bool column_is_blocks(const world *w, uint32_t c)
{
    return c >= 1 + w->type_count && (c - 1 - w->type_count) % 3 == 2;
}

static bool column_is_at(const world *w, uint32_t c)
{
    return c >= 1 + w->type_count && (c - 1 - w->type_count) % 3 == 1;
}

/* True when column c is the values of a tag: no block, ECSB_TAG. */
static bool column_is_tag(const world *w, uint32_t c)
{
    return c >= 1 && c < 1 + w->type_count && w->type_size[c - 1] == 0;
}

/* Bytes of column c for cap slots. */
static size_t column_bytes(const world *w, uint32_t c, size_t cap)
{
    if (c == 0)
        return cap * sizeof(uint32_t);
    if (c < 1 + w->type_count)
        return cap * w->type_size[c - 1];
    return column_is_blocks(w, c) ? blocks_for(cap) * sizeof(roster_block)
                                  : cap * sizeof(uint32_t);
}

static void columns_get(const world *w, void **p)
{
    uint32_t n = 0;
    p[n++] = w->mask;
    for (uint32_t t = 0; t < w->type_count; t++)
        p[n++] = w->values[t];
    for (uint32_t r = 0; r < w->roster_count; r++) {
        p[n++] = w->rosters[r].members;
        p[n++] = w->rosters[r].at;
        p[n++] = w->rosters[r].blocks;
    }
}

static void columns_set(world *w, void *const *p)
{
    uint32_t n = 0;
    w->mask = p[n++];
    for (uint32_t t = 0; t < w->type_count; t++)
        w->values[t] = p[n++];
    for (uint32_t r = 0; r < w->roster_count; r++) {
        w->rosters[r].members = p[n++];
        w->rosters[r].at = p[n++];
        w->rosters[r].blocks = p[n++];
    }
}

/*
 * The ids' grow hook: every array from old_cap to cap slots. Every array is allocated afresh
 * before anything is copied or freed, so a failure leaves the arrays exactly as they were.
 * New slots hold nothing and belong to no roster (signature 0, at SIG_NONE), so create needs
 * not touch them; new roster blocks start zeroed.
 */
static ecsb_status grow(void *owner, size_t old_cap, size_t cap)
{
    world *w = owner;
    if (cap > SIZE_MAX / ECSB_MAX_TYPE_SIZE) /* no column's size may overflow */
        return ECSB_ERR_NOMEM;
    uint32_t n = column_count(w), c;
    void *old[SIG_COLUMNS], *fresh[SIG_COLUMNS];
    for (c = 0; c < n; c++)
        if (column_is_tag(w, c))
            fresh[c] = ECSB_TAG; /* a tag's values: none */
        else if (!(fresh[c] = w->alloc->realloc(w->alloc->ctx, NULL, 0, column_bytes(w, c, cap))))
            break;
    if (c < n) {
        while (c--)
            if (!column_is_tag(w, c))
                ecsb_release(w->alloc, fresh[c], column_bytes(w, c, cap));
        return ECSB_ERR_NOMEM;
    }
    columns_get(w, old);
    for (c = 0; c < n; c++) {
        if (column_is_tag(w, c))
            continue;
        size_t used = column_bytes(w, c, old_cap);
        if (used)
            memcpy(fresh[c], old[c], used);
        if (c == 0 || column_is_blocks(w, c) || column_is_at(w, c)) /* 0, or SIG_NONE */
            memset((unsigned char *)fresh[c] + used, c == 0 || column_is_blocks(w, c) ? 0 : 0xff,
                   column_bytes(w, c, cap) - used);
        ecsb_release(w->alloc, old[c], column_bytes(w, c, old_cap));
    }
    columns_set(w, fresh);
    return ECSB_OK;
}

static void world_fini(world *w)
{
    void *p[SIG_COLUMNS];
    columns_get(w, p);
    for (uint32_t c = 0; c < column_count(w); c++)
        if (!column_is_tag(w, c))
            ecsb_release(w->alloc, p[c], column_bytes(w, c, w->ids.cap));
    ECSB_IDS_WORLD_FINI(w);
}

/* One roster per distinct declared query (set and exclusions); type_rosters says which rosters
 * name each type. */
static ecsb_status world_init(world *w, const ecsb_world_config *config)
{
    ECSB_IDS_WORLD_INIT(w, config, ID_STRIDE);
    ecsb_status st = ECSB_OK;
    memcpy(w->type_size, config->type_size, sizeof w->type_size);
    for (uint32_t t = 0; t < w->type_count; t++)
        if (w->type_size[t] == 0)
            w->values[t] = ECSB_TAG; /* a tag: every value pointer is ECSB_TAG (stride 0) */
    for (uint32_t q = 0; q < config->query_count; q++) {
        uint32_t mask, r = 0;
        ecsb_query_check(&config->queries[q], w->type_count, &mask); /* passed config_check */
        const uint32_t without = ecsb_query_without(&config->queries[q]);
        while (r < w->roster_count &&
               (w->rosters[r].mask != mask || w->rosters[r].without != without))
            r++;
        if (r < w->roster_count)
            continue; /* the same query declared twice (perhaps in another order) */
        w->rosters[w->roster_count].mask = mask;
        w->rosters[w->roster_count++].without = without;
        for (uint32_t t = 0; t < w->type_count; t++)
            if ((mask | without) >> t & 1)
                w->type_rosters[t] |= 1u << r;
    }
    if ((st = ecsb_ids_reserve(&w->ids, config, grow, w)) != ECSB_OK) {
        world_fini(w);
        return st;
    }
    return ECSB_OK;
}

/* ---- rosters ----------------------------------------------------------------------------- */

/* True when a signature m belongs in roster r: it holds r's set and none it excludes. */
ECSB_INLINE bool roster_matches(const roster *r, uint32_t m)
{
    return (m & r->mask) == r->mask && !(m & r->without);
}


/* 1 when roster entry p (its block's third or later) breaks its block's progression. */
ECSB_INLINE uint32_t roster_break(const roster *r, uint32_t p)
{
    return p % SIG_BLOCK >= 2 && r->members[p] - r->members[p - 1] != r->blocks[p / SIG_BLOCK].step;
}

/* Block b's step and breaks from its entries (after one of its first two changed). */
static void roster_recount(roster *r, uint32_t b)
{
    roster_block *blk = &r->blocks[b];
    const uint32_t d = b * SIG_BLOCK, end = r->count - d < SIG_BLOCK ? r->count : d + SIG_BLOCK;
    blk->breaks = 0;
    if (end - d < 2)
        return;
    blk->step = r->members[d + 1] - r->members[d];
    for (uint32_t p = d + 2; p < end; p++)
        blk->breaks += r->members[p] - r->members[p - 1] != blk->step;
}

ECSB_INLINE void roster_append(roster *r, uint32_t i)
{
    const uint32_t p = r->count++;
    r->members[p] = i;
    r->at[i] = p;
    if (p % SIG_BLOCK == 1) /* the block's second entry sets its step */
        r->blocks[p / SIG_BLOCK].step = i - r->members[p - 1];
    else
        r->blocks[p / SIG_BLOCK].breaks += roster_break(r, p);
}

/*
 * Swap-remove slot i: the last member fills its place, and the block counts follow: in O(1),
 * or by recounting the block (SIG_BLOCK entries) when the place is one of its first two.
 */
ECSB_INLINE void roster_remove(roster *r, uint32_t i)
{
    const uint32_t p = r->at[i], last = r->count - 1;
    r->blocks[last / SIG_BLOCK].breaks -= roster_break(r, last); /* drop the last entry */
    r->at[i] = SIG_NONE;
    if (p == last) {
        r->count = last;
        return;
    }
    const uint32_t moved = r->members[last];
    roster_block *blk = &r->blocks[p / SIG_BLOCK];
    if (p % SIG_BLOCK < 2) { /* the block's step changes */
        r->members[p] = moved;
        r->at[moved] = p;
        r->count = last;
        roster_recount(r, p / SIG_BLOCK);
        return;
    }
    const bool next = p + 1 < last && (p + 1) % SIG_BLOCK != 0; /* entry p + 1 stays, same block */
    blk->breaks -= roster_break(r, p) + (next ? roster_break(r, p + 1) : 0);
    r->members[p] = moved;
    r->at[moved] = p;
    blk->breaks += roster_break(r, p) + (next ? roster_break(r, p + 1) : 0);
    r->count = last;
}

/* Signature `old` of slot i became `m` by one type: each roster naming it joins or leaves. */
ECSB_INLINE void rosters_follow(world *w, uint32_t rosters, uint32_t i, uint32_t old, uint32_t m)
{
    for (; rosters; rosters &= rosters - 1) {
        roster *r = &w->rosters[__builtin_ctz(rosters)];
        const bool was = roster_matches(r, old), now = roster_matches(r, m);
        if (was != now) {
            if (now)
                roster_append(r, i);
            else
                roster_remove(r, i);
        }
    }
}

/* The roster of set `mask` excluding `without`, or NULL when no declared query is that. */
ECSB_INLINE const roster *roster_of(const world *w, uint32_t mask, uint32_t without)
{
    for (uint32_t r = 0; r < w->roster_count; r++)
        if (w->rosters[r].mask == mask && w->rosters[r].without == without)
            return &w->rosters[r];
    return NULL;
}

/* ---- entities ---------------------------------------------------------------------------- */

ECSB_INLINE bool is_live(const world *w, ecsb_entity e)
{
    return ecsb_ids_alive(&w->ids, ID_STRIDE, e);
}

/* A reused slot's signature is 0 and it is in no roster since its destroy; a fresh one's too
 * since the grow hook. */
ECSB_INLINE ecsb_status entity_create(world *w, ecsb_entity *out)
{
    return ecsb_ids_create(&w->ids, ID_STRIDE, grow, w, out);
}

ECSB_INLINE ecsb_status entity_destroy(world *w, ecsb_entity e)
{
    if (ECSB_UNLIKELY(!is_live(w, e)))
        return ECSB_ERR_STALE;
    const uint32_t i = ecsb_handle_index(e), m = w->mask[i];
    for (uint32_t r = 0; r < w->roster_count; r++)
        if (roster_matches(&w->rosters[r], m))
            roster_remove(&w->rosters[r], i);
    for (uint32_t held = m; held; held &= held - 1)
        w->held[__builtin_ctz(held)]--;
    w->mask[i] = 0;
    ecsb_ids_free(&w->ids, ID_STRIDE, e);
    return ECSB_OK;
}

static bool entity_alive(const world *w, ecsb_entity e) { return is_live(w, e); }

static size_t entity_count(const world *w) { return ecsb_ids_count(&w->ids); }

/* ---- components -------------------------------------------------------------------------- */

ECSB_INLINE ecsb_status component_add(world *w, ecsb_entity e, ecsb_type t, void **value_out)
{
    *value_out = NULL;
    ECSB_CHECK_TYPE_AND_LIVE(w, t, is_live(w, e));
    const uint32_t i = ecsb_handle_index(e), m = w->mask[i] | 1u << t;
    if (ECSB_UNLIKELY(m == w->mask[i]))
        return ECSB_ERR_PRESENT;
    rosters_follow(w, w->type_rosters[t], i, w->mask[i], m); /* before the rosters move */
    w->mask[i] = m;
    w->held[t]++;
    *value_out = w->values[t] + (size_t)i * w->type_size[t];
    return ECSB_OK;
}

ECSB_INLINE ecsb_status component_remove(world *w, ecsb_entity e, ecsb_type t)
{
    ECSB_CHECK_TYPE_AND_LIVE(w, t, is_live(w, e));
    const uint32_t i = ecsb_handle_index(e), m = w->mask[i];
    if (ECSB_UNLIKELY(!(m >> t & 1)))
        return ECSB_ERR_ABSENT;
    rosters_follow(w, w->type_rosters[t], i, m, m & ~(1u << t));
    w->mask[i] = m & ~(1u << t);
    w->held[t]--;
    return ECSB_OK;
}

/*
 * spawn: the create is the only step that can fail; then the signature is the whole set at
 * once, and each roster whose set it holds gets the entity once (no roster is visited per
 * type, and none is joined and left again).
 */
ECSB_INLINE ecsb_status spawn(world *w, const ecsb_type *types, uint32_t count,
                              ecsb_entity *out, void **values_out)
{
    uint32_t m;
    ecsb_status st = ecsb_spawn_check(types, count, w->type_count, out, values_out, &m);
    if (ECSB_UNLIKELY(st != ECSB_OK) || (st = entity_create(w, out)) != ECSB_OK)
        return st;
    const uint32_t i = ecsb_handle_index(*out);
    w->mask[i] = m;
    for (uint32_t r = 0; r < w->roster_count; r++)
        if (roster_matches(&w->rosters[r], m))
            roster_append(&w->rosters[r], i);
    for (uint32_t j = 0; j < count; j++) {
        const ecsb_type t = types[j];
        w->held[t]++;
        values_out[j] = w->values[t] + (size_t)i * w->type_size[t];
    }
    return ECSB_OK;
}

ECSB_INLINE void *component_get(world *w, ecsb_entity e, ecsb_type t)
{
    uint32_t i = ecsb_handle_index(e);
    if (t >= w->type_count || !is_live(w, e) || !(w->mask[i] >> t & 1))
        return NULL;
    return w->values[t] + (size_t)i * w->type_size[t];
}

ECSB_INLINE bool component_has(const world *w, ecsb_entity e, ecsb_type t)
{
    return t < w->type_count && is_live(w, e) && (w->mask[ecsb_handle_index(e)] >> t & 1);
}

static size_t component_count(const world *w, ecsb_type t)
{
    return t < w->type_count ? w->held[t] : 0;
}

/* ---- iteration --------------------------------------------------------------------------- */

/*
 * The query's columns: entry j is query type j (the query's order). Loops over j carry
 * "#pragma GCC unroll 8" (ECSB_MAX_QUERY_TYPES): where q is a constant they unroll before
 * scalar replacement, so these arrays live in registers.
 */
typedef struct query_cols {
    unsigned char *values[ECSB_MAX_QUERY_TYPES];
    size_t size[ECSB_MAX_QUERY_TYPES];
    ecsb_entity *handles; /* the slot words, slot i's at i (a live slot's is its handle); NULL
                           * when the query does not ask for handles */
} query_cols;

/* Hand fn the run of slots [first, first + count). */
ECSB_INLINE void query_emit(const query_cols *c, uint32_t k, size_t first, size_t count,
                            ecsb_query_fn fn, void *ctx)
{
    void *columns[ECSB_MAX_QUERY_COLUMNS] = {0}; /* (no warning where q is not a constant) */
#pragma GCC unroll 8
    for (uint32_t j = 0; j < k; j++)
        columns[j] = c->values[j] + first * c->size[j];
    if (c->handles)
        columns[k] = c->handles + first;
    fn(ctx, count, columns);
}

/*
 * Roster entries [from, from + count) one by one, each a run of one (a constant count: the
 * caller's loop becomes straight code).
 */
ECSB_INLINE void query_members(const query_cols *c, uint32_t k, const uint32_t *restrict members,
                               size_t from, size_t count, ecsb_query_fn fn, void *ctx)
{
    for (size_t p = from; p < from + count; p++)
        query_emit(c, k, members[p], 1, fn, ctx);
}

/*
 * A declared query: the roster in blocks of SIG_BLOCK. A block without breaks and of step 1
 * (consecutive slots) is one run, joined with the pending one when it continues it; any other
 * block goes member by member.
 */
ECSB_INLINE void query_roster(const query_cols *c, uint32_t k, const roster *r,
                              ecsb_query_fn fn, void *ctx)
{
    const uint32_t *members = r->members;
    const size_t n = r->count;
    size_t first = 0, run = 0; /* the pending run of slots */
    for (size_t d = 0, b = 0; d < n; d += SIG_BLOCK, b++) {
        const size_t count = n - d < SIG_BLOCK ? n - d : SIG_BLOCK;
        const roster_block block = r->blocks[b];
        if (block.breaks == 0 && (count == 1 || block.step == 1)) {
            if (run && members[d] == first + run) {
                run += count;
                continue;
            }
            if (run)
                query_emit(c, k, first, run, fn, ctx);
            first = members[d];
            run = count;
            continue;
        }
        if (run)
            query_emit(c, k, first, run, fn, ctx);
        run = 0;
        query_members(c, k, members, d, count, fn, ctx);
    }
    if (run)
        query_emit(c, k, first, run, fn, ctx);
}

/* An undeclared query: every signature; each maximal stretch of matching slots is a run.
 * Holding an excluded type (`without`) makes a slot not match, in the same compare. */
ECSB_INLINE void query_scan(const world *w, const query_cols *c, uint32_t k, uint32_t want,
                            uint32_t without, ecsb_query_fn fn, void *ctx)
{
    const uint32_t *mask = w->mask, look = want | without;
    for (size_t i = 0, n = w->ids.slots; i < n;) {
        while (i < n && (mask[i] & look) != want)
            i++;
        const size_t first = i;
        while (i < n && (mask[i] & look) == want)
            i++;
        if (i > first)
            query_emit(c, k, first, i - first, fn, ctx);
    }
}

ECSB_INLINE ecsb_status query(world *w, const ecsb_query *q, ecsb_query_fn fn, void *ctx)
{
    uint32_t want;
    ecsb_status st = ecsb_query_check(q, w->type_count, &want);
    if (st != ECSB_OK)
        return st;
    const uint32_t k = q->count; /* a constant where q is (a scenario's static query) */
    query_cols c = {0};
#pragma GCC unroll 8
    for (uint32_t j = 0; j < k; j++) {
        c.values[j] = w->values[q->types[j]];
        c.size[j] = w->type_size[q->types[j]];
    }
    c.handles = q->entities ? w->ids.word : NULL;
    const uint32_t without = ecsb_query_without(q); /* 0 where q is a constant without any */
    const roster *r = roster_of(w, want, without);
    if (r)
        query_roster(&c, k, r, fn, ctx);
    else
        query_scan(w, &c, k, want, without, fn, ctx);
    return ECSB_OK;
}

/* ---- checks ------------------------------------------------------------------------------ */

/* Roster r against the signatures: members are exactly the live slots matching its set. */
static bool roster_valid(const world *w, const roster *r)
{
    if (!r->mask || (uint64_t)(r->mask | r->without) >> w->type_count ||
        (r->mask & r->without) || r->count > w->ids.live)
        return false;
    size_t matching = 0;
    for (uint32_t i = 0; i < w->ids.slots; i++) {
        const bool member = ecsb_ids_slot_live(&w->ids, i) && roster_matches(r, w->mask[i]);
        matching += member;
        const uint32_t p = r->at[i];
        if (member ? p >= r->count || r->members[p] != i : p != SIG_NONE)
            return false;
    }
    if (matching != r->count)
        return false;
    for (uint32_t b = 0; b < blocks_for(w->ids.cap); b++) {
        const uint32_t d = b * SIG_BLOCK;
        const roster_block *blk = &r->blocks[b];
        if (d + 1 >= r->count) { /* fewer than two entries */
            if (blk->breaks != 0)
                return false;
            continue;
        }
        uint32_t breaks = 0;
        for (uint32_t p = d + 2; p < r->count && p < d + SIG_BLOCK; p++)
            breaks += r->members[p] - r->members[p - 1] != blk->step;
        if (blk->step != r->members[d + 1] - r->members[d] || blk->breaks != breaks)
            return false;
    }
    return true;
}

static bool world_valid(const world *w)
{
    if (!ecsb_ids_valid(&w->ids) || w->type_count == 0 || w->type_count > ECSB_MAX_TYPES ||
        !w->alloc || w->roster_count > ECSB_MAX_QUERIES || (w->ids.cap && !w->mask))
        return false;
    for (uint32_t t = 0; t < w->type_count; t++) {
        uint32_t rosters = 0;
        for (uint32_t r = 0; r < w->roster_count; r++)
            rosters |= ((w->rosters[r].mask | w->rosters[r].without) >> t & 1) << r;
        if (w->type_size[t] > ECSB_MAX_TYPE_SIZE || w->type_rosters[t] != rosters ||
            (w->ids.cap && !w->values[t]) || (w->type_size[t] == 0 && w->values[t] != ECSB_TAG))
            return false;
    }
    /* Signatures: only live slots hold types, and only configured ones. */
    size_t held[ECSB_MAX_TYPES] = {0};
    for (uint32_t i = 0; i < w->ids.slots; i++) {
        const uint32_t m = w->mask[i];
        if ((uint64_t)m >> w->type_count || (m && !ecsb_ids_slot_live(&w->ids, i)))
            return false;
        for (uint32_t bits = m; bits; bits &= bits - 1)
            held[__builtin_ctz(bits)]++;
    }
    for (uint32_t t = 0; t < w->type_count; t++)
        if (held[t] != w->held[t])
            return false;
    for (uint32_t r = 0; r < w->roster_count; r++) {
        for (uint32_t s = 0; s < r; s++)
            if (w->rosters[s].mask == w->rosters[r].mask &&
                w->rosters[s].without == w->rosters[r].without)
                return false;
        if ((w->ids.cap && (!w->rosters[r].members || !w->rosters[r].at ||
                             !w->rosters[r].blocks)) ||
            !roster_valid(w, &w->rosters[r]))
            return false;
    }
    return true;
}

static size_t world_bytes(const world *w)
{
    size_t bytes = sizeof *w + ecsb_ids_bytes(&w->ids);
    for (uint32_t c = 0; w->ids.cap && c < column_count(w); c++)
        bytes += column_bytes(w, c, w->ids.cap);
    return bytes;
}

/*
 * Damage for the tests, each undone by applying it again (XOR or swap):
 *   0 .. 2  the ids' (ecsb_ids_corrupt);  3  type 0's holder count;
 *   4  the first live slot's signature, type 0's bit (holder count and rosters disagree);
 *   5  the first roster with two members: its first two swapped (at[] disagrees);
 *   6  the first non-empty roster: its first member's at entry;
 *   7  the first roster with a member: block 0's break count;
 *   8  the first roster with two members: block 0's step.
 */
static int world_corrupt(world *w, unsigned which)
{
    roster *with[3] = {NULL, NULL, NULL}; /* first roster with >= 1, >= 2 members */
    for (uint32_t r = w->roster_count; r-- > 0;) {
        if (w->rosters[r].count >= 1)
            with[1] = &w->rosters[r];
        if (w->rosters[r].count >= 2)
            with[2] = &w->rosters[r];
    }
    if (which < ECSB_IDS_CORRUPT_COUNT)
        return ecsb_ids_corrupt(&w->ids, which);
    switch (which) {
    case 3:
        w->held[0] ^= 1;
        return 1;
    case 4:
        for (uint32_t i = 0; i < w->ids.slots; i++)
            if (ecsb_ids_slot_live(&w->ids, i)) {
                w->mask[i] ^= 1;
                return 1;
            }
        return 0;
    case 5: {
        if (!with[2])
            return 0;
        uint32_t *m = with[2]->members, x = m[0];
        m[0] = m[1];
        m[1] = x;
        return 1;
    }
    case 6:
        if (!with[1])
            return 0;
        with[1]->at[with[1]->members[0]] ^= 1;
        return 1;
    case 7:
        if (!with[1])
            return 0;
        with[1]->blocks[0].breaks ^= 1;
        return 1;
    case 8:
        if (!with[2])
            return 0;
        with[2]->blocks[0].step ^= 1;
        return 1;
    default:
        return -1;
    }
}

#define ECSB_STRATEGY_NAME signature_lists
#define ECSB_STRATEGY_SUMMARY "per entity a component bitmask; values in arrays indexed by slot; per declared query a roster of the matching entities, kept on add/remove"
#include "harness/strategy_impl.h"
