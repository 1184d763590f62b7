/*
 * index_is_id — article 002's "Approach 1": the entity's slot index is the index into every
 * component array.
 *
 * Idea: an entity is a slot (handle = slot index + 32-bit generation), from the shared id
 * unit harness/entity_ids.h: one 64-bit id word per slot, equal to the live entity's handle,
 * so "is this handle live" is one load and one compare (free list and retirement: see
 * there). Per component type, a
 * value array indexed by slot (element size from the configuration, columns 64-byte aligned)
 * and a presence bitmap of 64-bit words, plus a holder count. A query ANDs its types' words
 * and hands out each stretch of set bits as a run (lone bits found with count-trailing-zeros
 * and `w &= w - 1`); its handle column is the id words of the same slots, in place.
 *
 * Costs (K = component types, S = highest slot ever used + 1):
 *   create   O(1): pop the free list (one slot word) or append a slot. Amortised O(1)
 *            growth: when full, the id words are reallocated and all 2K arrays allocated
 *            afresh at double size and the used part copied (a failed allocation changes
 *            nothing).
 *   destroy  O(K): the slot word, and one presence word per type (cleared without branches).
 *   add      O(1): slot word + presence word; no allocation (arrays already cover every slot).
 *   remove   O(1): slot word + presence word.
 *   get/has  O(1): slot word + presence word (+ the value for get).
 *   query    O(k S/64 + matches): the AND of k words up to S; each stretch of consecutive
 *            matches is one run (a packed world is a single run). Handles: + 8 B per match
 *            (its id word), only when asked.
 * Memory per slot ever used (live or not): 8 B (slot word) + per type (size + 1/8) B, times
 * up to 2 for geometric growth slack, + 63 B alignment pad per array. Memory grows with the
 * highest slot ever used, never with the live count: a type held by few entities still costs
 * its full size for every slot.
 * Wins: random access (get/add/remove touch one or two cache lines, no indirection), churn
 * (no moves, no swap-remove), and queries over types most entities hold (words of all
 * ones are plain loops, memory is walked in address order, and churn never scrambles the
 * order). Loses: sparse types in a large world (every word up to S is read, and each match
 * brings its own cache line of values), and memory: every type pays for every slot, and a
 * spike of entities leaves the arrays at their high-water mark (holes are never compacted).
 * Tags (size 0): the presence bitmap only, 1/8 B per slot; no value column (its values
 *   pointer is ECSB_TAG, stride 0). Exclusion: a query ANDs the complement of each excluded
 *   type's words too, one more word per 64 slots per excluded type; no other cost.
 * Tuning: none. A query ANDs the presence words and hands out each stretch of set bits as a
 * run: the layout itself (values sit at their slots, so consecutive holders are consecutive
 * values).
 */
#include "harness/entity_ids.h"

#define ID_STRIDE 1                      /* words per id record: the id word only */
#define IDX_ALIGN 64u                    /* column alignment, bytes */

/* Columns: per type its presence bits and its values. */
#define IDX_COL_BITS(t) (2u * (t))
#define IDX_COL_VALUES(t) (1u + 2u * (t))
#define IDX_COLUMNS(type_count) (2u * (type_count))

/* One allocation, as the allocator saw it (data pointers are kept apart, in the hot part). */
typedef struct idx_block {
    void *ptr;    /* as returned by the allocator; NULL when none */
    size_t bytes; /* its size */
} idx_block;

typedef struct world {
    /* hot: every operation reads these */
    ecsb_ids ids;          /* entity slots, generations, free list (harness/entity_ids.h) */
    uint32_t type_count;
    uint64_t *bits[ECSB_MAX_TYPES];          /* per type: presence bitmap, ceil(capacity/64) */
    unsigned char *values[ECSB_MAX_TYPES];   /* per type: capacity values of type_size bytes */
    size_t held[ECSB_MAX_TYPES];             /* per type: holders (= set bits) */
    uint32_t type_size[ECSB_MAX_TYPES];
    /* cold: allocation bookkeeping */
    const ecsb_allocator *alloc;
    idx_block block[IDX_COLUMNS(ECSB_MAX_TYPES)]; /* per column, IDX_COL_* order */
} world;

ECSB_INLINE size_t words_for(size_t slots) { return (slots + 63) / 64; }

/* A fresh block for count elements of size bytes; its 64-byte aligned start, or NULL. */
static void *column_alloc(const ecsb_allocator *a, idx_block *block, size_t count, size_t size)
{
    if (count > (SIZE_MAX - (IDX_ALIGN - 1)) / size)
        return NULL;
    size_t bytes = count * size + (IDX_ALIGN - 1);
    unsigned char *p = a->realloc(a->ctx, NULL, 0, bytes);
    if (!p)
        return NULL;
    block->ptr = p;
    block->bytes = bytes;
    return p + (-(uintptr_t)p & (IDX_ALIGN - 1));
}

/*
 * The ids' grow hook: every array from old_cap to cap slots. Every new column is allocated
 * before anything is copied or freed, so a failure leaves the arrays exactly as they were.
 */
static ecsb_status grow(void *owner, size_t old_cap, size_t cap)
{
    world *w = owner;
    size_t old_words = words_for(old_cap), new_words = words_for(cap);
    uint32_t columns = IDX_COLUMNS(w->type_count), c;
    idx_block block[IDX_COLUMNS(ECSB_MAX_TYPES)];
    void *data[IDX_COLUMNS(ECSB_MAX_TYPES)];
    for (c = 0; c < columns; c++) {
        bool values = c % 2 == 1;
        size_t count = values ? cap : new_words;
        size_t size = values ? w->type_size[c / 2] : 8;
        if (size == 0) { /* a tag's values: none */
            block[c] = (idx_block){NULL, 0};
            data[c] = ECSB_TAG;
        } else if (!(data[c] = column_alloc(w->alloc, &block[c], count, size)))
            break;
    }
    if (c < columns) {
        while (c--)
            ecsb_release(w->alloc, block[c].ptr, block[c].bytes);
        return ECSB_ERR_NOMEM;
    }
    /* Keep the used part; bits beyond the slot count stay clear, so new words start empty. */
    for (uint32_t t = 0; t < w->type_count; t++) {
        uint64_t *bits = data[IDX_COL_BITS(t)];
        if (old_words)
            memcpy(bits, w->bits[t], old_words * 8);
        memset(bits + old_words, 0, (new_words - old_words) * 8);
        if (w->ids.slots)
            memcpy(data[IDX_COL_VALUES(t)], w->values[t],
                   (size_t)w->ids.slots * w->type_size[t]);
    }
    for (c = 0; c < columns; c++) {
        ecsb_release(w->alloc, w->block[c].ptr, w->block[c].bytes);
        w->block[c] = block[c];
    }
    for (uint32_t t = 0; t < w->type_count; t++) {
        w->bits[t] = data[IDX_COL_BITS(t)];
        w->values[t] = data[IDX_COL_VALUES(t)];
    }
    return ECSB_OK;
}

static void world_fini(world *w)
{
    for (uint32_t c = 0; c < IDX_COLUMNS(w->type_count); c++)
        ecsb_release(w->alloc, w->block[c].ptr, w->block[c].bytes);
    ECSB_IDS_WORLD_FINI(w);
}

static ecsb_status world_init(world *w, const ecsb_world_config *config)
{
    ECSB_IDS_WORLD_INIT(w, config, ID_STRIDE);
    ecsb_status st = ECSB_OK;
    memcpy(w->type_size, config->type_size, sizeof w->type_size);
    for (uint32_t t = 0; t < w->type_count; t++)
        if (w->type_size[t] == 0)
            w->values[t] = ECSB_TAG; /* a tag: every value pointer is ECSB_TAG (stride 0) */
    if ((st = ecsb_ids_reserve(&w->ids, config, grow, w)) != ECSB_OK) {
        world_fini(w);
        return st;
    }
    return ECSB_OK;
}

/* True when the handle names a live entity: its slot word is exactly the handle. */
ECSB_INLINE bool is_live(const world *w, ecsb_entity e)
{
    return ecsb_ids_alive(&w->ids, ID_STRIDE, e);
}

ECSB_INLINE uint64_t bit_of(uint32_t i) { return (uint64_t)1 << (i & 63); }

/* A fresh slot's presence bits are clear: beyond the slots in use all are. */
ECSB_INLINE ecsb_status entity_create(world *w, ecsb_entity *out)
{
    return ecsb_ids_create(&w->ids, ID_STRIDE, grow, w, out);
}

ECSB_INLINE ecsb_status entity_destroy(world *w, ecsb_entity e)
{
    if (ECSB_UNLIKELY(!is_live(w, e)))
        return ECSB_ERR_STALE;
    uint32_t i = ecsb_handle_index(e), k = i >> 6;
    uint64_t bit = bit_of(i);
    for (uint32_t t = 0; t < w->type_count; t++) {
        uint64_t word = w->bits[t][k];
        w->held[t] -= (word & bit) != 0;
        w->bits[t][k] = word & ~bit;
    }
    ecsb_ids_free(&w->ids, ID_STRIDE, e);
    return ECSB_OK;
}

static bool entity_alive(const world *w, ecsb_entity e) { return is_live(w, e); }

static size_t entity_count(const world *w) { return ecsb_ids_count(&w->ids); }

ECSB_INLINE ecsb_status component_add(world *w, ecsb_entity e, ecsb_type t, void **value_out)
{
    *value_out = NULL;
    ECSB_CHECK_TYPE_AND_LIVE(w, t, is_live(w, e));
    uint32_t i = ecsb_handle_index(e);
    uint64_t *word = &w->bits[t][i >> 6], bit = bit_of(i);
    if (ECSB_UNLIKELY(*word & bit))
        return ECSB_ERR_PRESENT;
    *word |= bit;
    w->held[t]++;
    *value_out = w->values[t] + (size_t)i * w->type_size[t];
    return ECSB_OK;
}

ECSB_INLINE ecsb_status component_remove(world *w, ecsb_entity e, ecsb_type t)
{
    ECSB_CHECK_TYPE_AND_LIVE(w, t, is_live(w, e));
    uint32_t i = ecsb_handle_index(e);
    uint64_t *word = &w->bits[t][i >> 6], bit = bit_of(i);
    if (ECSB_UNLIKELY(!(*word & bit)))
        return ECSB_ERR_ABSENT;
    *word &= ~bit;
    w->held[t]--;
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
    uint32_t i = ecsb_handle_index(e);
    if (t >= w->type_count || !is_live(w, e) || !(w->bits[t][i >> 6] & bit_of(i)))
        return NULL;
    return w->values[t] + (size_t)i * w->type_size[t];
}

ECSB_INLINE bool component_has(const world *w, ecsb_entity e, ecsb_type t)
{
    uint32_t i = ecsb_handle_index(e);
    return t < w->type_count && is_live(w, e) && (w->bits[t][i >> 6] & bit_of(i));
}

static size_t component_count(const world *w, ecsb_type t)
{
    return t < w->type_count ? w->held[t] : 0;
}

/*
 * AND the k presence bitmaps word by word; each stretch of consecutive set bits is a run of
 * consecutive slots, whose values are consecutive in every type's array. A stretch reaching
 * bit 63 is held back and joined with the ones at the bottom of the next word, so a packed
 * world is a single run; the stretches inside a word are handed out as found. A word of lone
 * bits (sparse matches) is walked bit by bit, each a run of one. The handle column is the id
 * words of the same slots, handed out in place (no copy). Loops over the query's
 * types carry "#pragma GCC unroll 8" (ECSB_MAX_QUERY_TYPES): where q is a constant they
 * unroll before scalar replacement, so query_cols lives in registers.
 */
typedef struct query_cols {
    const uint64_t *bits[ECSB_MAX_QUERY_TYPES]; /* entry j: query type j (the query's order) */
    unsigned char *values[ECSB_MAX_QUERY_TYPES];
    size_t size[ECSB_MAX_QUERY_TYPES];
    ecsb_entity *handles; /* the id words, slot i's at i: a live slot's is its handle; NULL
                           * when the query does not ask for handles */
    const uint64_t *without[ECSB_MAX_QUERY_EXCLUDES]; /* the excluded types' bitmaps */
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

ECSB_INLINE ecsb_status query(world *w, const ecsb_query *q, ecsb_query_fn fn, void *ctx)
{
    uint32_t mask;
    ecsb_status st = ecsb_query_check(q, w->type_count, &mask);
    if (st != ECSB_OK)
        return st;
    const uint32_t k = q->count; /* a constant where q is (a scenario's static query) */
    query_cols c = {0};
#pragma GCC unroll 8
    for (uint32_t j = 0; j < k; j++) {
        c.bits[j] = w->bits[q->types[j]];
        c.values[j] = w->values[q->types[j]];
        c.size[j] = w->type_size[q->types[j]];
    }
    c.handles = q->entities ? w->ids.word : NULL;
    const uint32_t x = q->exclude_count; /* 0 where q is a constant without exclusions */
#pragma GCC unroll 4
    for (uint32_t j = 0; j < x; j++)
        c.without[j] = w->bits[q->exclude[j]];
    size_t start = 0, len = 0; /* the stretch held back: it reached the top of its word */
    for (size_t wd = 0, words = words_for(w->ids.slots); wd < words; wd++) {
        uint64_t m = c.bits[0][wd];
#pragma GCC unroll 8
        for (uint32_t j = 1; j < k; j++)
            m &= c.bits[j][wd];
#pragma GCC unroll 4
        for (uint32_t j = 0; j < x; j++)
            m &= ~c.without[j][wd];
        const size_t base = wd * 64;
        if (len) {
            if (m == UINT64_MAX) {
                len += 64;
                continue;
            }
            len += (size_t)__builtin_ctzll(~m); /* the ones at the bottom continue it */
            m &= m + 1;                         /* clear them */
            query_emit(&c, k, start, len, fn, ctx);
            len = 0;
        }
        if ((int64_t)m < 0) { /* bit 63 set: hold its stretch back */
            unsigned top = m == UINT64_MAX ? 64u : (unsigned)__builtin_clzll(~m);
            start = base + 64 - top;
            len = top;
            m = top == 64 ? 0 : m & ~(UINT64_MAX << (64 - top));
        }
        if (!(m & (m >> 1))) { /* no two neighbours: lone bits (sparse matches) */
            for (; m; m &= m - 1)
                query_emit(&c, k, base + (size_t)__builtin_ctzll(m), 1, fn, ctx);
            continue;
        }
        while (m) { /* stretches inside the word: none reaches bit 63 */
            unsigned s = (unsigned)__builtin_ctzll(m);
            query_emit(&c, k, base + s, (size_t)__builtin_ctzll(~(m >> s)), fn, ctx);
            m &= m + (m & -m); /* clear the stretch: the carry runs through it */
        }
    }
    if (len)
        query_emit(&c, k, start, len, fn, ctx);
    return ECSB_OK;
}

/* The allocation behind a column covers `data_bytes` from its aligned data pointer. */
static bool column_ok(const idx_block *block, const void *data, size_t data_bytes)
{
    if (!block->ptr)
        return data_bytes == 0;
    size_t off = (size_t)((const unsigned char *)data - (const unsigned char *)block->ptr);
    return ((uintptr_t)data & (IDX_ALIGN - 1)) == 0 && off < IDX_ALIGN &&
           block->bytes >= off && block->bytes - off >= data_bytes;
}

static bool world_valid(const world *w)
{
    if (!ecsb_ids_valid(&w->ids) || w->type_count == 0 || w->type_count > ECSB_MAX_TYPES ||
        !w->alloc)
        return false;
    size_t words = words_for(w->ids.cap);
    for (uint32_t t = 0; t < w->type_count; t++)
        if (w->type_size[t] > ECSB_MAX_TYPE_SIZE ||
            !column_ok(&w->block[IDX_COL_BITS(t)], w->bits[t], words * 8) ||
            (w->type_size[t] == 0 ? w->values[t] != ECSB_TAG || w->block[IDX_COL_VALUES(t)].ptr
                                  : !column_ok(&w->block[IDX_COL_VALUES(t)], w->values[t],
                                               (size_t)w->ids.cap * w->type_size[t])))
            return false;
    /* Presence only on live slots (which also keeps bits beyond the slots in use clear). */
    size_t held[ECSB_MAX_TYPES] = {0};
    for (size_t k = 0; k < words; k++) {
        uint64_t live_mask = 0;
        for (uint32_t j = 0; j < 64 && k * 64 + j < w->ids.slots; j++)
            live_mask |= (uint64_t)ecsb_ids_slot_live(&w->ids, (uint32_t)(k * 64 + j)) << j;
        for (uint32_t t = 0; t < w->type_count; t++) {
            if (w->bits[t][k] & ~live_mask)
                return false;
            held[t] += (size_t)__builtin_popcountll(w->bits[t][k]);
        }
    }
    for (uint32_t t = 0; t < w->type_count; t++)
        if (held[t] != w->held[t])
            return false;
    return true;
}

static size_t world_bytes(const world *w)
{
    size_t bytes = sizeof *w + ecsb_ids_bytes(&w->ids);
    for (uint32_t c = 0; c < IDX_COLUMNS(w->type_count); c++)
        bytes += w->block[c].bytes;
    return bytes;
}

/*
 * Testing aid (ecsb.h): each damage is an XOR, so applying it twice restores the world.
 *   0 .. 2  the ids' (ecsb_ids_corrupt);  3  type 0's holder count;  4  type 0's presence
 *   bit of the first slot never used;  5  type 0's value size (above ECSB_MAX_TYPE_SIZE).
 */
static int world_corrupt(world *w, unsigned which)
{
    if (which < ECSB_IDS_CORRUPT_COUNT)
        return ecsb_ids_corrupt(&w->ids, which);
    switch (which - ECSB_IDS_CORRUPT_COUNT) {
    case 0:
        w->held[0] ^= 1;
        return 1;
    case 1:
        if (w->ids.slots == w->ids.cap)
            return 0;
        w->bits[0][w->ids.slots >> 6] ^= bit_of(w->ids.slots);
        return 1;
    case 2:
        w->type_size[0] ^= 2 * ECSB_MAX_TYPE_SIZE;
        return 1;
    default:
        return -1;
    }
}

#define ECSB_STRATEGY_NAME index_is_id
#define ECSB_STRATEGY_SUMMARY "per type an array indexed by entity slot + presence bitmap; query ANDs bitmap words"
#include "harness/strategy_impl.h"
