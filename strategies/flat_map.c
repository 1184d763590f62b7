/*
 * flat_map — per component type, parallel vectors of entity ids and values sorted by id
 * (article 002, "Approach 3: Flat map").
 *
 * Idea: an entity is a 32-bit id from a counter that never goes back, so a new entity's id is
 * the largest alive and its components append at the end of every vector; the article's
 * platformer also removes near the end, so adds and removes shift only a few elements (short
 * shifts are inline loads and stores, long ones memmove). A sorted vector of live entities
 * (one 64-bit key each: id, then epoch, see below) rejects destroyed and stale handles. A
 * lookup scans backwards from the end over at most 8 ids and stops at the first id below the
 * target (the article's search, early exit included: its pattern works at the end); only when
 * all 8 are above does it binary-search the rest, so no lookup is worse than O(log n). A query
 * of several types is a merge-intersection of the sorted id vectors, led by the smallest:
 * where another column's ids form a dense range, the lead's ids index it directly, with no
 * compare chain; elsewhere its cursor gallops (exponential search) forward to the next id.
 *
 * Costs (n = holders of the type, L = live entities, K = type count, d = distance of the
 * element from the end of its vector):
 *   create   O(1) amortised: an append (after an id wrap, see below: O(log L + d) insert);
 *   destroy  O(K (log n + d)): a search and a shift of d elements in each type, and the same
 *            in the live vector; O(K) in the article's pattern, where entities die near the end;
 *   add      O(log n + d): a liveness search, a search, a shift of d; O(1) at the end;
 *   remove   O(log n + d), the same without the liveness search;
 *   get/has  O(1) when the id is among the last 8 of the type, else O(log n) (plus a liveness
 *            search while entities from before an id wrap live);
 *   query    one type: O(n), one sequential walk of its values. Several: led by the column with the fewest ids: O(lead + sum of log gaps) cursor
 *            gallops, one subtraction per id inside another column's dense range of ids;
 *            blocks of 256 lead ids that every column holds at consecutive positions are one
 *            run each, joined when consecutive. Handles, when asked: id + epoch per match
 *            (a gallop through the live vector while entities from before a wrap live).
 * Memory per entity: 8 B in the live vector + per held type (4 + size) B. Vectors double when
 * full and never shrink, so up to twice that; initial_capacity reserves every type.
 * Wins: queries and iteration (sequential streams, no pointer chasing, matches found without a
 * lookup per entity), memory (no holes: bytes follow the holders, not the highest id), and
 * churn at the newest end of the id range (the platformer: cost flat in N).
 * Loses: adds and removes in the middle of a long vector (an O(d) shift each), random get/has
 * on large types (a binary search: one cache miss per level at DRAM sizes), K searches per
 * destroy, and creation after the id counter wrapped (an insertion instead of an append).
 *
 * Ids and wrap-around: a handle is id (low 32 bits) + epoch (high 32 bits). The counter starts
 * at config->first_id (default 1: id 0 of epoch 0 is the null handle) and counts up to
 * UINT32_MAX in epoch 0. When it runs out it wraps: the epoch goes up by one and the counter
 * restarts at 0, skipping ids still alive. Entities alive at a wrap keep their id and epoch;
 * the live vector stores each key as id << 32 | epoch (sorted by id, as ids are unique among
 * the living). An id is issued at most once per epoch, so a handle names a live entity exactly
 * when its swapped halves are a live key: an old handle to a recycled id is rejected. After a
 * wrap a new id may sort below live ones and is inserted in place (correct, slower); once the
 * counter passes the largest live id, creation appends again. While no entity from before the
 * last wrap lives (old_live == 0: always, until the first wrap), every live epoch is the
 * current one, so get/has/remove confirm a handle with one compare, and a query builds
 * handles without a search. ECSB_ERR_CAPACITY when max_entities are live, or when the epoch
 * itself would overflow (after 2^32 wraps, 2^64 creations: never in practice). The id space
 * cannot fill up: at most ECSB_MAX_ENTITIES (2^31 - 1) ids are live, so a wrap always finds a
 * free id. Every growth happens before anything changes, so a failed allocation leaves the
 * world as it was.
 * Tags (size 0): the id vector only, 4 B per holder; no value vector (values pointer ECSB_TAG,
 * stride 0). Exclusion: each excluded type's id vector is one more cursor that gallops
 * forward with the lead (O(log gap) per lead id it passes); a block in step whose id range
 * holds an excluded id goes id by id.
 * Tuning: none beyond the layout. Galloping is the merge algorithm of sorted vectors (not a
 * path for particular data); blocks found in step in every column go out as one run, the run
 * gathering every layout that finds matches one by one does (ecsb_runs, harness/strategy.h).
 */
#include "harness/strategy.h"

#define FLAT_MAP_PROBE 8           /* ids probed at the end of a vector before binary search */
#define FLAT_MAP_DENSE_BLOCK 256   /* lead ids per in-step check in a query */
#define FLAT_MAP_WINDOW_MIN 16     /* dense ids a query's window needs (else: that id alone) */
#define FLAT_MAP_NOT_FOUND SIZE_MAX

/* One component type: ids[0, count) strictly increasing, values[i] belongs to ids[i]. */
typedef struct column {
    uint32_t *ids;
    unsigned char *values;
    size_t count;
    size_t cap;        /* min(ids_cap, values_cap): room for this many holders */
    size_t ids_cap;    /* elements allocated in ids */
    size_t values_cap; /* elements allocated in values */
    size_t size;       /* bytes per value */
} column;

typedef struct world {
    const ecsb_allocator *alloc;
    uint32_t type_count;
    uint32_t max_entities;
    uint32_t first_id;  /* the first id of epoch 0 (>= 1) */
    uint32_t epoch;     /* times the counter has wrapped */
    uint64_t next_id;   /* the next id to try, 0 .. 2^32 (2^32: wrap on the next create) */
    /*
     * Live entities, one key each: id in the high 32 bits, epoch in the low 32, strictly
     * increasing (so sorted by id). A handle is live when its halves swapped are a key.
     */
    uint64_t *live;
    size_t live_count;
    size_t live_cap;
    size_t old_live;    /* live entities whose epoch is below the current one */
    column col[ECSB_MAX_TYPES];
} world;

/* ---- searching sorted vectors -------------------------------------------------------------- */

/*
 * For an element type T, defines
 *   lower_bound_S(v, n, key): the first index in v[0, n) holding a value >= key (n if none),
 *       by branch-free halving;
 *   find_pos_S(v, n, key): the same, but first scans backwards from the end over at most
 *       FLAT_MAP_PROBE values, stopping at the first one below key (the article's lookup: its
 *       access pattern works at the end); only when all of those are >= key does it binary-
 *       search the rest, so it is never worse than O(log n);
 *   gallop_S(v, from, n, key): the first index >= from holding a value >= key, by
 *       exponential then binary search: O(log distance).
 * S = 32 for the column ids (uint32_t), 64 for the live keys (uint64_t).
 */
#define FLAT_MAP_SEARCHES(S, T)                                                               \
    ECSB_INLINE size_t lower_bound_##S(const T *v, size_t n, T key)                            \
    {                                                                                         \
        if (n == 0)                                                                           \
            return 0;                                                                         \
        const T *base = v;                                                                    \
        while (n > 1) {                                                                       \
            size_t half = n / 2;                                                              \
            base = base[half] < key ? base + half : base;                                     \
            n -= half;                                                                        \
        }                                                                                     \
        return (size_t)(base - v) + (*base < key);                                            \
    }                                                                                         \
    ECSB_INLINE size_t find_pos_##S(const T *v, size_t n, T key)                               \
    {                                                                                         \
        if (ECSB_LIKELY(n >= FLAT_MAP_PROBE)) {                                               \
            for (size_t k = 1; k <= FLAT_MAP_PROBE; k++)                                      \
                if (v[n - k] < key)                                                           \
                    return n - k + 1;                                                         \
            return lower_bound_##S(v, n - FLAT_MAP_PROBE, key);                               \
        }                                                                                     \
        while (n > 0 && v[n - 1] >= key)                                                      \
            n--;                                                                              \
        return n;                                                                             \
    }                                                                                         \
    ECSB_INLINE size_t gallop_##S(const T *v, size_t from, size_t n, T key)                    \
    {                                                                                         \
        size_t lo = from, hi = from, step = 1;                                                \
        while (hi < n && v[hi] < key) {                                                       \
            lo = hi + 1;                                                                      \
            hi += step;                                                                       \
            step *= 2;                                                                        \
        }                                                                                     \
        if (hi > n)                                                                           \
            hi = n;                                                                           \
        return lo + lower_bound_##S(v + lo, hi - lo, key);                                    \
    }

FLAT_MAP_SEARCHES(32, uint32_t)
FLAT_MAP_SEARCHES(64, uint64_t)

/* ---- liveness --------------------------------------------------------------------------- */

/* A live key from an id and epoch; a handle's key is its two halves swapped. */
ECSB_INLINE uint64_t live_key(uint32_t id, uint32_t epoch) { return (uint64_t)id << 32 | epoch; }
ECSB_INLINE uint64_t handle_key(ecsb_entity e) { return e << 32 | e >> 32; }

/* The live-vector index of the entity a handle names, or FLAT_MAP_NOT_FOUND. */
ECSB_INLINE size_t live_find(const world *w, ecsb_entity e)
{
    const uint64_t key = handle_key(e);
    const size_t n = w->live_count;
    /* Search for the id (epoch 0): the key of any epoch of that id sorts at or after it. */
    const size_t i = find_pos_64(w->live, n, key & ~(uint64_t)UINT32_MAX);
    return i < n && w->live[i] == key ? i : FLAT_MAP_NOT_FOUND;
}

/*
 * Whether a handle whose id holds a component is that component's live owner. Component ids
 * are always live, so while no old entity lives the epoch alone decides.
 */
ECSB_INLINE bool owner_matches(const world *w, ecsb_entity e)
{
    if (ECSB_LIKELY(w->old_live == 0))
        return ecsb_handle_generation(e) == w->epoch;
    return live_find(w, e) != FLAT_MAP_NOT_FOUND;
}

/* ---- growth: every array grows before anything changes --------------------------------- */

static ecsb_status grow_array(const ecsb_allocator *a, void **p, size_t elem, size_t *cap,
                              size_t want)
{
    if (*cap >= want)
        return ECSB_OK;
    ecsb_status st = ecsb_resize(a, p, elem, *cap, want);
    if (st == ECSB_OK)
        *cap = want;
    return st;
}

static ecsb_status grow_live(world *w, size_t needed)
{
    size_t cap = ecsb_grow_capacity(w->live_cap, needed, w->max_entities);
    if (cap == 0)
        return ECSB_ERR_CAPACITY;
    return grow_array(w->alloc, (void **)&w->live, 8, &w->live_cap, cap);
}

static ecsb_status grow_column(world *w, column *c, size_t needed)
{
    size_t cap = ecsb_grow_capacity(c->cap, needed, w->max_entities);
    if (cap == 0)
        return ECSB_ERR_CAPACITY;
    ecsb_status st = grow_array(w->alloc, (void **)&c->ids, 4, &c->ids_cap, cap);
    if (st == ECSB_OK && c->size)
        st = grow_array(w->alloc, (void **)&c->values, c->size, &c->values_cap, cap);
    else if (st == ECSB_OK)
        c->values_cap = cap; /* a tag: no values (ECSB_TAG, stride 0) */
    if (st == ECSB_OK)
        c->cap = cap;
    return st;
}

/* ---- shifting elements of a vector (the caller has made room) --------------------------- */

/*
 * memmove for the short moves the article's pattern makes (a few elements near the end),
 * inline: every load happens before any store, so overlap is fine. Longer moves call memmove.
 */
ECSB_INLINE void move_bytes(unsigned char *dst, const unsigned char *src, size_t n)
{
    if (n <= 16) {
        if (n >= 8) {
            uint64_t head, tail;
            memcpy(&head, src, 8);
            memcpy(&tail, src + n - 8, 8);
            memcpy(dst, &head, 8);
            memcpy(dst + n - 8, &tail, 8);
        } else if (n >= 4) {
            uint32_t head, tail;
            memcpy(&head, src, 4);
            memcpy(&tail, src + n - 4, 4);
            memcpy(dst, &head, 4);
            memcpy(dst + n - 4, &tail, 4);
        } else if (n > 0) {
            unsigned char first = src[0], mid = src[n / 2], last = src[n - 1];
            dst[0] = first;
            dst[n / 2] = mid;
            dst[n - 1] = last;
        }
    } else if (n <= 32) {
        unsigned char head[16], tail[16];
        memcpy(head, src, 16);
        memcpy(tail, src + n - 16, 16);
        memcpy(dst, head, 16);
        memcpy(dst + n - 16, tail, 16);
    } else {
        memmove(dst, src, n);
    }
}

/* Open a gap of one element at pos in an array of count elements of size bytes. */
ECSB_INLINE void shift_up(void *base, size_t size, size_t pos, size_t count)
{
    if (count > pos) {
        unsigned char *p = (unsigned char *)base + pos * size;
        move_bytes(p + size, p, (count - pos) * size);
    }
}

/* Close the gap of the element at pos in an array of count elements of size bytes. */
ECSB_INLINE void shift_down(void *base, size_t size, size_t pos, size_t count)
{
    if (count > pos + 1) {
        unsigned char *p = (unsigned char *)base + pos * size;
        move_bytes(p, p + size, (count - pos - 1) * size);
    }
}

ECSB_INLINE void column_erase(column *c, size_t pos)
{
    shift_down(c->ids, 4, pos, c->count);
    shift_down(c->values, c->size, pos, c->count);
    c->count--;
}

/* ---- world ------------------------------------------------------------------------------ */

static void world_fini(world *w)
{
    ecsb_release(w->alloc, w->live, w->live_cap * 8);
    for (uint32_t t = 0; t < w->type_count; t++) {
        column *c = &w->col[t];
        ecsb_release(w->alloc, c->ids, c->ids_cap * 4);
        if (c->size)
            ecsb_release(w->alloc, c->values, c->values_cap * c->size);
    }
    memset(w, 0, sizeof *w);
}

static ecsb_status world_init(world *w, const ecsb_world_config *config)
{
    ecsb_status st = ecsb_config_check(config);
    if (st != ECSB_OK)
        return st;
    memset(w, 0, sizeof *w);
    w->alloc = ecsb_allocator_or_default(config->allocator);
    w->type_count = config->type_count;
    w->max_entities = config->max_entities ? config->max_entities : ECSB_MAX_ENTITIES;
    w->first_id = config->first_id ? config->first_id : 1;
    w->next_id = w->first_id;
    for (uint32_t t = 0; t < w->type_count; t++) {
        w->col[t].size = config->type_size[t];
        if (w->col[t].size == 0)
            w->col[t].values = ECSB_TAG; /* a tag: every value pointer is ECSB_TAG */
    }
    /* A hint: reserve the live vector and every type for that many entities. */
    size_t reserve = config->initial_capacity;
    if (reserve > w->max_entities)
        reserve = w->max_entities;
    if (reserve) {
        st = grow_live(w, reserve);
        for (uint32_t t = 0; t < w->type_count && st == ECSB_OK; t++)
            st = grow_column(w, &w->col[t], reserve);
        if (st != ECSB_OK) {
            world_fini(w);
            return st;
        }
    }
    return ECSB_OK;
}

/*
 * Creation when the fast append does not apply: the counter has run out (wrap: next epoch,
 * restart at 0), or it is below the largest live id after a wrap. Skips ids still alive and
 * inserts the new one in sorted position. Room for one more is already made.
 */
static ecsb_status entity_create_slow(world *w, ecsb_entity *out)
{
    const size_t n = w->live_count;
    uint64_t id = w->next_id;
    uint32_t epoch = w->epoch;
    size_t pos = 0;
    /* At most two wraps: fewer than 2^32 ids are ever live, so one full round finds a free id. */
    for (int round = 0;; round++) {
        if (id > UINT32_MAX) {
            if (epoch == UINT32_MAX || round >= 2)
                return ECSB_ERR_CAPACITY;
            epoch++;
            id = 0;
        }
        pos = find_pos_64(w->live, n, live_key((uint32_t)id, 0));
        while (pos < n && w->live[pos] >> 32 == id) {
            pos++;
            id++;
        }
        if (id <= UINT32_MAX)
            break;
    }
    shift_up(w->live, 8, pos, n);
    w->live[pos] = live_key((uint32_t)id, epoch);
    if (epoch != w->epoch)
        w->old_live = n; /* everyone alive before the wrap is now old */
    w->epoch = epoch;
    w->live_count = n + 1;
    w->next_id = id + 1;
    *out = ecsb_handle_make((uint32_t)id, epoch);
    return ECSB_OK;
}

ECSB_INLINE ecsb_status entity_create(world *w, ecsb_entity *out)
{
    *out = ECSB_ENTITY_NULL;
    const size_t n = w->live_count;
    if (ECSB_UNLIKELY(n >= w->max_entities))
        return ECSB_ERR_CAPACITY;
    if (ECSB_UNLIKELY(n == w->live_cap)) {
        ecsb_status st = grow_live(w, n + 1);
        if (st != ECSB_OK)
            return st;
    }
    const uint64_t id = w->next_id;
    if (ECSB_UNLIKELY(id > UINT32_MAX || (n != 0 && w->live[n - 1] >> 32 >= id)))
        return entity_create_slow(w, out);
    w->live[n] = live_key((uint32_t)id, w->epoch);
    w->live_count = n + 1;
    w->next_id = id + 1;
    *out = ecsb_handle_make((uint32_t)id, w->epoch);
    return ECSB_OK;
}

ECSB_INLINE ecsb_status entity_destroy(world *w, ecsb_entity e)
{
    const size_t i = live_find(w, e);
    if (ECSB_UNLIKELY(i == FLAT_MAP_NOT_FOUND))
        return ECSB_ERR_STALE;
    const uint32_t id = ecsb_handle_index(e);
    for (uint32_t t = 0; t < w->type_count; t++) {
        column *c = &w->col[t];
        size_t pos = find_pos_32(c->ids, c->count, id);
        if (pos < c->count && c->ids[pos] == id)
            column_erase(c, pos);
    }
    w->old_live -= ecsb_handle_generation(e) != w->epoch;
    shift_down(w->live, 8, i, w->live_count);
    w->live_count--;
    return ECSB_OK;
}

static bool entity_alive(const world *w, ecsb_entity e)
{
    return live_find(w, e) != FLAT_MAP_NOT_FOUND;
}

static size_t entity_count(const world *w) { return w->live_count; }

/* ---- components ------------------------------------------------------------------------- */

ECSB_INLINE ecsb_status component_add(world *w, ecsb_entity e, ecsb_type t, void **value_out)
{
    *value_out = NULL;
    if (ECSB_UNLIKELY(t >= w->type_count))
        return ECSB_ERR_TYPE;
    if (ECSB_UNLIKELY(live_find(w, e) == FLAT_MAP_NOT_FOUND))
        return ECSB_ERR_STALE;
    column *c = &w->col[t];
    const uint32_t id = ecsb_handle_index(e);
    const size_t n = c->count;
    const size_t pos = find_pos_32(c->ids, n, id);
    if (ECSB_UNLIKELY(pos < n && c->ids[pos] == id))
        return ECSB_ERR_PRESENT;
    if (ECSB_UNLIKELY(n == c->cap)) {
        ecsb_status st = grow_column(w, c, n + 1);
        if (st != ECSB_OK)
            return st;
    }
    shift_up(c->ids, 4, pos, n);
    shift_up(c->values, c->size, pos, n);
    c->ids[pos] = id;
    c->count = n + 1;
    *value_out = c->values + pos * c->size;
    return ECSB_OK;
}

ECSB_INLINE ecsb_status component_remove(world *w, ecsb_entity e, ecsb_type t)
{
    if (ECSB_UNLIKELY(t >= w->type_count))
        return ECSB_ERR_TYPE;
    column *c = &w->col[t];
    const uint32_t id = ecsb_handle_index(e);
    const size_t pos = find_pos_32(c->ids, c->count, id);
    if (ECSB_LIKELY(pos < c->count && c->ids[pos] == id)) {
        if (ECSB_UNLIKELY(!owner_matches(w, e)))
            return ECSB_ERR_STALE;
        column_erase(c, pos);
        return ECSB_OK;
    }
    return live_find(w, e) == FLAT_MAP_NOT_FOUND ? ECSB_ERR_STALE : ECSB_ERR_ABSENT;
}

/*
 * spawn: every column of the set first gets room for one more holder, then the create and
 * the adds, which can no longer fail (the new id is the largest alive: each add appends). A
 * failure comes before anything observable changed (a column may have grown).
 */
ECSB_INLINE ecsb_status spawn(world *w, const ecsb_type *types, uint32_t count,
                              ecsb_entity *out, void **values_out)
{
    uint32_t mask;
    ecsb_status st = ecsb_spawn_check(types, count, w->type_count, out, values_out, &mask);
    if (ECSB_UNLIKELY(st != ECSB_OK))
        return st;
    if (ECSB_UNLIKELY(w->live_count >= w->max_entities))
        return ECSB_ERR_CAPACITY;
    for (uint32_t j = 0; j < count; j++) {
        column *c = &w->col[types[j]];
        if (ECSB_UNLIKELY(c->count == c->cap) && (st = grow_column(w, c, c->count + 1)) != ECSB_OK)
            return st;
    }
    if ((st = entity_create(w, out)) != ECSB_OK)
        return st;
    for (uint32_t j = 0; j < count; j++)
        component_add(w, *out, types[j], &values_out[j]);
    return ECSB_OK;
}

ECSB_INLINE void *component_get(world *w, ecsb_entity e, ecsb_type t)
{
    if (ECSB_UNLIKELY(t >= w->type_count))
        return NULL;
    column *c = &w->col[t];
    const uint32_t id = ecsb_handle_index(e);
    const size_t pos = find_pos_32(c->ids, c->count, id);
    if (pos < c->count && c->ids[pos] == id && owner_matches(w, e))
        return c->values + pos * c->size;
    return NULL;
}

ECSB_INLINE bool component_has(const world *w, ecsb_entity e, ecsb_type t)
{
    if (ECSB_UNLIKELY(t >= w->type_count))
        return false;
    const column *c = &w->col[t];
    const uint32_t id = ecsb_handle_index(e);
    const size_t pos = find_pos_32(c->ids, c->count, id);
    return pos < c->count && c->ids[pos] == id && owner_matches(w, e);
}

static size_t component_count(const world *w, ecsb_type t)
{
    return t < w->type_count ? w->col[t].count : 0;
}

#include "strategies/flat_map/views.h" /* query */

/* ---- checking --------------------------------------------------------------------------- */

static bool world_valid(const world *w)
{
    const size_t n = w->live_count;
    if (w->type_count == 0 || w->type_count > ECSB_MAX_TYPES || w->first_id == 0 ||
        w->next_id > (uint64_t)UINT32_MAX + 1 || (w->epoch == 0 && w->next_id < w->first_id))
        return false;
    if (n > w->live_cap ||
        n > w->max_entities || w->old_live > n)
        return false;
    size_t old = 0;
    for (size_t k = 0; k < n; k++) {
        const uint32_t id = (uint32_t)(w->live[k] >> 32), ep = (uint32_t)w->live[k];
        if ((k && w->live[k - 1] >= w->live[k]) || ep > w->epoch)
            return false;
        if (ep == 0 && id < w->first_id) /* epoch 0 starts at first_id; null is never live */
            return false;
        if (ep == w->epoch && id >= w->next_id) /* issued in this epoch: below the counter */
            return false;
        old += ep != w->epoch;
    }
    if (old != w->old_live)
        return false;
    for (uint32_t t = 0; t < ECSB_MAX_TYPES; t++) {
        const column *c = &w->col[t];
        if (t >= w->type_count) {
            if (c->ids || c->values || c->count)
                return false;
            continue;
        }
        if ((c->size == 0 && c->values != ECSB_TAG) || c->size > ECSB_MAX_TYPE_SIZE ||
            c->cap > c->ids_cap ||
            c->cap > c->values_cap || c->count > c->cap || c->count > n)
            return false;
        /* Strictly increasing, and a subset of the live ids (one merge). */
        for (size_t i = 0, k = 0; i < c->count; i++) {
            if (i && c->ids[i - 1] >= c->ids[i])
                return false;
            while (k < n && w->live[k] >> 32 < c->ids[i])
                k++;
            if (k == n || w->live[k] >> 32 != c->ids[i])
                return false;
        }
    }
    return true;
}

static size_t world_bytes(const world *w)
{
    size_t bytes = sizeof *w + w->live_cap * 8;
    for (uint32_t t = 0; t < w->type_count; t++)
        bytes += w->col[t].ids_cap * 4 + w->col[t].values_cap * w->col[t].size;
    return bytes;
}

/*
 * Testing aid (ecsb.h): each damage is an XOR, so applying it twice restores the world.
 *   0  the count of entities from before the last wrap;  1  the first live key's epoch (one
 *   from the future);  2  the first held type's first id (not a live id);  3  the id counter
 *   (past 2^32);  4  type 0's value size (above ECSB_MAX_TYPE_SIZE).
 */
static int world_corrupt(world *w, unsigned which)
{
    column *held = NULL;
    for (uint32_t t = 0; t < w->type_count && !held; t++)
        held = w->col[t].count ? &w->col[t] : NULL;
    switch (which) {
    case 0:
        w->old_live ^= 1;
        return 1;
    case 1:
        if (!w->live_count)
            return 0;
        w->live[0] ^= 0x80000000u;
        return 1;
    case 2:
        if (!held)
            return 0;
        held->ids[0] ^= 0x80000000u;
        return 1;
    case 3:
        w->next_id ^= (uint64_t)1 << 33;
        return 1;
    case 4:
        w->col[0].size ^= 2 * ECSB_MAX_TYPE_SIZE;
        return 1;
    default:
        return -1;
    }
}

/*
 * churn_iterate's set-up destroys N entities at random positions: each shifts the sorted
 * vectors behind it, O(N) per destroy and O(N^2) in all (over 15 minutes at 1,048,576); a
 * frame destroys churn * N / 2 actors mid-vector; packed_1 and packed_5's shuffled worlds add
 * each type in a random order, each insert shifting the vector behind it. The suite runs those
 * up to 65536 on flat_map, frame up to 16,384: a frame timed in steady state first lives ~200
 * frames (every slot turned over once), 8 s a repetition at 65,536.
 */
#define ECSB_STRATEGY_CAPS                                                                     \
    ECSB_CAP(churn_iterate, 65536,                                                             \
             "set-up destroys at random positions, each shifting the sorted vectors: O(N^2)")  \
    ECSB_CAP(frame, 16384,                                                                     \
             "each frame destroys N/200 entities mid-vector, each an O(N) shift (40 ms a frame at 65,536)")
#define ECSB_STRATEGY_SHUFFLED_CAPS                                                            \
    ECSB_CAP(platformer, 16384, "each round kills an original mid-vector, an O(N) shift: O(N^2)") \
    ECSB_CAP(entity_cycle, 4000, "destroys at random positions, each an O(N) shift: O(N^2)")      \
    ECSB_CAP(add_remove, 4000, "adds and removes at random positions, each an O(N) shift: O(N^2)") \
    ECSB_CAP(packed_1, 65536, "set-up adds each type in a random order, each insert an O(N) shift: O(N^2)") \
    ECSB_CAP(packed_5, 65536, "set-up adds each type in a random order, each insert an O(N) shift: O(N^2)")
#define ECSB_STRATEGY_NAME flat_map
#define ECSB_STRATEGY_SUMMARY "per type, id and value vectors sorted by id; ids never reused; lookup probes the end, queries merge"
#include "harness/strategy_impl.h"
