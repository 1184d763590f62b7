/*
 * strategy.h — the contract a strategy file fulfils, and the helpers it may use.
 *
 * A strategy is one file, strategies/<name>.c, registered by one line in
 * strategies/strategies.def. It includes this header, defines the type `world` and the static
 * functions below with exactly these names and signatures, and ends with
 *
 *     #define ECSB_STRATEGY_NAME    <name>
 *     #define ECSB_STRATEGY_SUMMARY "one line: the idea"
 *     #include "harness/strategy_impl.h"
 *
 * which compiles every scenario against those functions (direct calls the compiler can
 * inline: no indirect call per entity) and emits the descriptor `ecsb_strategy_<name>`
 * with a type-erased vtable for tests and tools. strategies/template.c is a complete example.
 *
 * The functions, their statuses and their checking order (see ecsb_vtable in ecsb.h for the
 * full text; a failing call leaves the world unchanged and valid):
 *
 *   ecsb_status world_init(world *w, const ecsb_world_config *config);
 *                               ECSB_ERR_CONFIG (use ecsb_config_check), ECSB_ERR_NOMEM
 *   void        world_fini(world *w);
 *   ecsb_status entity_create(world *w, ecsb_entity *out);     ECSB_ERR_CAPACITY, ECSB_ERR_NOMEM
 *   ecsb_status entity_destroy(world *w, ecsb_entity e);        ECSB_ERR_STALE
 *   bool        entity_alive(const world *w, ecsb_entity e);
 *   size_t      entity_count(const world *w);
 *   ecsb_status component_add(world *w, ecsb_entity e, ecsb_type t, void **value_out);
 *                               ECSB_ERR_TYPE, ECSB_ERR_STALE, ECSB_ERR_PRESENT, ECSB_ERR_NOMEM
 *   ecsb_status spawn(world *w, const ecsb_type *types, uint32_t count, ecsb_entity *out,
 *                     void **values_out);  a new entity holding types[0 .. count) at once:
 *                               ECSB_ERR_TYPE, ECSB_ERR_PRESENT (a type twice), then
 *                               ECSB_ERR_CAPACITY, ECSB_ERR_NOMEM (use ecsb_spawn_check)
 *   ecsb_status component_remove(world *w, ecsb_entity e, ecsb_type t);
 *                               ECSB_ERR_TYPE, ECSB_ERR_STALE, ECSB_ERR_ABSENT (ECSB_ERR_NOMEM
 *                               only where remove moves the other values: archetype)
 *   void       *component_get(world *w, ecsb_entity e, ecsb_type t);     NULL if any is bad
 *   bool        component_has(const world *w, ecsb_entity e, ecsb_type t);
 *   size_t      component_count(const world *w, ecsb_type t);
 *   ecsb_status query(world *w, const ecsb_query *q, ecsb_query_fn fn, void *ctx);
 *                               ECSB_ERR_QUERY, ECSB_ERR_TYPE (use ecsb_query_check); with
 *                               q->entities, columns[q->count] = the run's handles (below)
 *   bool        world_valid(const world *w);    every internal invariant, O(size)
 *   size_t      world_bytes(const world *w);    allocated bytes + sizeof(world)
 *   int         world_corrupt(world *w, unsigned which);   testing aid: reversible damage
 *                               to invariant `which` that world_valid must catch (ecsb.h)
 *
 * Mark the hot ones (create, spawn, destroy, add, remove, get, has, query) ECSB_INLINE so that
 * scenario code inlines them and the callbacks handed to query (constants at every call site)
 * are inlined too. query must tolerate callbacks that write values, never ones that change
 * structure.
 *
 * The handle column (q->entities): test q->entities, never compute handles otherwise (a
 * scenario's query is a constant, so the test folds away and a query that does not ask costs
 * what it did). A run of one hands out a pointer to a local handle; a run whose handles the
 * layout stores as ecsb_entity (a table's entity column, an id word per slot) points into
 * them; a run whose handles must be computed goes through ecsb_emit_handles; runs gathered
 * with ecsb_runs carry them in its buffer.
 *
 * Tags and exclusion (ecsb.h): a type of size 0 is a tag; every pointer handed out for it is
 * ECSB_TAG. The usual way to get that with no branch: give the tag's value array the base
 * ECSB_TAG and stride 0 (base + i * 0 is ECSB_TAG), allocate and free nothing for it, and
 * keep only what membership needs (a bit, a roster, a table's signature). A query skips every
 * entity holding one of q->exclude[0 .. q->exclude_count) (ecsb_query_without gives the set):
 * the test is written so that a query with no exclusions (every scenario's so far: a constant
 * 0) compiles to what it was. Declared queries with exclusions are kept with them.
 *
 * Values: every pointer to a value handed out must be a multiple of the type's alignment
 * (ecsb_type_align; blocks from the world's allocator start on ECSB_BLOCK_ALIGN). Declared
 * queries (config->queries): structures kept for them are updated in add/remove/destroy,
 * never built lazily inside a timed pass; query answers undeclared ones too.
 * Cost per type: each strategy's header says what one more type costs per entity slot.
 */
#ifndef ECSB_STRATEGY_H
#define ECSB_STRATEGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "harness/ecsb.h"

/* Inline into scenario code, even at sizes the compiler would otherwise decline. The test
 * build (Makefile, TEST_CFLAGS) defines ECSB_NO_FORCED_INLINE: forced into every scenario of
 * every strategy under ASan+UBSan, these functions made the test build's strategy objects
 * most of make test's build (owning_group 18 s of CPU at -O0; 3 s at -O1 unforced). */
#ifdef ECSB_NO_FORCED_INLINE
#define ECSB_INLINE static inline
#else
#define ECSB_INLINE static inline __attribute__((always_inline))
#endif
#define ECSB_LIKELY(x) __builtin_expect(!!(x), 1)
#define ECSB_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* ---- memory through the world's allocator ------------------------------------------------ */

static inline const ecsb_allocator *ecsb_allocator_or_default(const ecsb_allocator *a)
{
    return a ? a : &ecsb_libc_allocator;
}

/*
 * Resize *ptr from old_count to new_count elements of elem_size bytes. On success *ptr is
 * updated and ECSB_OK returned; on failure (allocation, or a size that would overflow) *ptr is
 * untouched and ECSB_ERR_NOMEM returned. new_count 0 frees.
 */
static inline ecsb_status ecsb_resize(const ecsb_allocator *a, void **ptr, size_t elem_size,
                                      size_t old_count, size_t new_count)
{
    if (new_count == 0) {
        if (*ptr)
            a->free(a->ctx, *ptr, old_count * elem_size);
        *ptr = NULL;
        return ECSB_OK;
    }
    if (elem_size != 0 && new_count > SIZE_MAX / elem_size)
        return ECSB_ERR_NOMEM;
    void *p = a->realloc(a->ctx, *ptr, *ptr ? old_count * elem_size : 0, new_count * elem_size);
    if (!p)
        return ECSB_ERR_NOMEM;
    *ptr = p;
    return ECSB_OK;
}

static inline void ecsb_release(const ecsb_allocator *a, void *ptr, size_t bytes)
{
    if (ptr)
        a->free(a->ctx, ptr, bytes);
}

/*
 * A pool block, as the sparse-set layouts keep each type's pool: cap uint32 ids (a roster of
 * the holders' slots), then, from the next cache line, cap values of `size` bytes. One block
 * per pool: one allocation, one realloc per growth.
 */
static inline size_t ecsb_pool_values_offset(size_t cap)
{
    return (cap * sizeof(uint32_t) + 63) & ~(size_t)63;
}

static inline size_t ecsb_pool_block_bytes(size_t cap, size_t size)
{
    return ecsb_pool_values_offset(cap) + cap * size;
}

/*
 * Grow the pool block *block (*bytes long, room for old_cap, holding `count` values) to room
 * for cap > old_cap, moving the values to their new offset; *values points at them after
 * (a tag's pool, size 0, is the roster alone: *values is ECSB_TAG).
 * cap 0 means the pool is full (ECSB_ERR_CAPACITY). One realloc: on failure nothing changed.
 */
static inline ecsb_status ecsb_pool_block_grow(const ecsb_allocator *a, void **block,
                                               size_t *bytes, unsigned char **values,
                                               size_t old_cap, size_t cap, size_t count,
                                               size_t size)
{
    if (cap == 0)
        return ECSB_ERR_CAPACITY;
    if (cap > (SIZE_MAX - 64) / (sizeof(uint32_t) + size))
        return ECSB_ERR_NOMEM;
    const size_t old_off = ecsb_pool_values_offset(old_cap), off = ecsb_pool_values_offset(cap);
    const size_t new_bytes = ecsb_pool_block_bytes(cap, size);
    void *grown = *block;
    ecsb_status st = ecsb_resize(a, &grown, 1, *bytes, new_bytes);
    if (st != ECSB_OK)
        return st;
    unsigned char *base = grown;
    memmove(base + off, base + old_off, count * size);
    *block = grown;
    *bytes = new_bytes;
    *values = size ? base + off : (unsigned char *)ECSB_TAG;
    return ECSB_OK;
}

/*
 * Geometric growth: the capacity to grow to so that at least `needed` fit (doubling, starting
 * at 16), capped at `limit`. Returns 0 when needed > limit.
 */
static inline size_t ecsb_grow_capacity(size_t current, size_t needed, size_t limit)
{
    if (needed > limit)
        return 0;
    size_t cap = current < 16 ? 16 : current;
    while (cap < needed)
        cap = cap > SIZE_MAX / 2 ? SIZE_MAX : cap * 2;
    return cap < limit ? cap : limit;
}

/* ---- query runs --------------------------------------------------------------------------- */

/* Handles a strategy computes into a buffer per callback, at most (the handle column). */
#define ECSB_RUN_HANDLES 64u

/*
 * Hand fn the run of `count` entities whose values start at columns[0 .. k) (sizes[j] bytes
 * apart), with the handle column (columns[k]) filled by handle_at(src, first + i) for the
 * i-th entity: in pieces of at most ECSB_RUN_HANDLES entities. For layouts that compute
 * handles (slot + generation, id -> handle) rather than store them; call it only when the
 * query asks for handles. handle_at is a constant at every call: it is inlined.
 */
typedef ecsb_entity (*ecsb_handle_at_fn)(void *src, size_t i);

ECSB_INLINE void ecsb_emit_handles(uint32_t k, void *const *columns, const size_t *sizes,
                                   size_t count, ecsb_handle_at_fn handle_at, void *src,
                                   size_t first, ecsb_query_fn fn, void *ctx)
{
    ecsb_entity handles[ECSB_RUN_HANDLES];
    void *piece[ECSB_MAX_QUERY_COLUMNS];
    for (uint32_t j = 0; j < k; j++)
        piece[j] = columns[j];
    piece[k] = handles;
    for (size_t done = 0; done < count;) {
        const size_t n = count - done < ECSB_RUN_HANDLES ? count - done : ECSB_RUN_HANDLES;
        for (size_t i = 0; i < n; i++)
            handles[i] = handle_at(src, first + done + i);
        fn(ctx, n, piece);
        done += n;
        for (uint32_t j = 0; j < k; j++)
            piece[j] = (unsigned char *)piece[j] + n * sizes[j];
    }
}

/*
 * For layouts that find matches one entity at a time: gathers consecutive matches whose
 * values follow each other in memory in every column into one run, so a caller's loop still
 * gets long runs where the storage happens to be in step (packed worlds), and runs of one
 * elsewhere. Cost per match: k pointer compares. When the query asks for handles, the caller
 * passes a buffer of ECSB_RUN_HANDLES (else NULL: nothing more is done) and each match's
 * handle; the buffer stays aligned with the values (a run is handed out when it is full).
 * Use:
 *     ecsb_runs r = {0};
 *     ecsb_entity buf[ECSB_RUN_HANDLES], *handles = q->entities ? buf : NULL;
 *     for each match: ecsb_runs_add(&r, k, values, sizes, handles, handle, fn, ctx);
 *     ecsb_runs_flush(&r, k, handles, fn, ctx);
 * (handle: the match's; compute it only when q->entities, else pass anything.)
 */
typedef struct ecsb_runs {
    size_t count;                                /* entities in the pending run */
    void *columns[ECSB_MAX_QUERY_COLUMNS];       /* its first values; [k]: handles */
    unsigned char *next[ECSB_MAX_QUERY_TYPES];   /* where each column's next value would be */
} ecsb_runs;

ECSB_INLINE void ecsb_runs_flush(ecsb_runs *r, uint32_t k, ecsb_entity *handles,
                                 ecsb_query_fn fn, void *ctx)
{
    if (handles)
        r->columns[k] = handles;
    if (r->count)
        fn(ctx, r->count, r->columns);
    r->count = 0;
}

ECSB_INLINE void ecsb_runs_add(ecsb_runs *r, uint32_t k, void *const *values,
                               const size_t *sizes, ecsb_entity *handles, ecsb_entity handle,
                               ecsb_query_fn fn, void *ctx)
{
    bool follows = r->count != 0 && (!handles || r->count < ECSB_RUN_HANDLES);
    for (uint32_t j = 0; j < k; j++)
        follows &= (unsigned char *)values[j] == r->next[j];
    if (!follows) {
        ecsb_runs_flush(r, k, handles, fn, ctx);
        for (uint32_t j = 0; j < k; j++)
            r->columns[j] = values[j];
    }
    if (handles)
        handles[r->count] = handle;
    r->count++;
    for (uint32_t j = 0; j < k; j++)
        r->next[j] = (unsigned char *)values[j] + sizes[j];
}

/*
 * The checks a component operation on (e, t) starts with, in the contract's order: a type
 * past the world's is ECSB_ERR_TYPE, then a handle that `live` (the strategy's liveness test
 * of e) rejects is ECSB_ERR_STALE; returns from the operation with that status.
 */
#define ECSB_CHECK_TYPE_AND_LIVE(w, t, live)                                                   \
    do {                                                                                       \
        if (ECSB_UNLIKELY((t) >= (w)->type_count))                                             \
            return ECSB_ERR_TYPE;                                                              \
        if (ECSB_UNLIKELY(!(live)))                                                            \
            return ECSB_ERR_STALE;                                                             \
    } while (0)

/*
 * query() for layouts whose query walks the entries of one "lead" type (the one held by the
 * fewest entities: held_by(w, t) entities hold type t) and looks each up in the others. A
 * strategy defines `query_lead(w, q, lead, fn, ctx)`, the walk led by the query's type `lead`,
 * and writes
 *     ECSB_QUERY_BY_LEAD(query_lead, held_by)
 * which defines query: the check, the choice of lead (q->count - 1 compares, one line each),
 * then the walk. Where q->count is a compile-time constant (a scenario's static query) the walk
 * is called with a constant lead, one call per lead position below q->count, so its loops over
 * the query's types unroll into straight code; the guards keep the positions at or above
 * q->count from being compiled even where the optimiser cannot bound lead (-O1). Elsewhere
 * (tests, tools, queries chosen at run time) query calls ecsb_query_any_lead, one out-of-line
 * walk with a variable lead. That the scenarios get the constant path depends on
 * __builtin_constant_p surviving inlining: tests/scripts/test_no_indirect_calls.sh fails when
 * any timed pass of the release objects reaches ecsb_query_any_lead.
 */
#define ECSB_QUERY_BY_LEAD(walk, held_by)                                                      \
    static __attribute__((noinline, unused)) void ecsb_query_any_lead(                         \
        world *w, const ecsb_query *q, uint32_t lead, ecsb_query_fn fn, void *ctx)             \
    {                                                                                          \
        walk(w, q, lead, fn, ctx);                                                             \
    }                                                                                          \
    ECSB_INLINE ecsb_status query(world *w, const ecsb_query *q, ecsb_query_fn fn, void *ctx)  \
    {                                                                                          \
        uint32_t mask;                                                                         \
        ecsb_status st = ecsb_query_check(q, w->type_count, &mask);                            \
        if (st != ECSB_OK)                                                                     \
            return st;                                                                         \
        uint32_t lead = 0;                                                                     \
        _Pragma("GCC unroll 8")                                                                \
        for (uint32_t j = 1; j < q->count; j++)                                                \
            if (held_by(w, q->types[j]) < held_by(w, q->types[lead]))                          \
                lead = j;                                                                      \
        if (!__builtin_constant_p(q->count)) {                                                 \
            ecsb_query_any_lead(w, q, lead, fn, ctx);                                          \
            return ECSB_OK;                                                                    \
        }                                                                                      \
        switch (lead) {                                                                        \
        case 0: walk(w, q, 0, fn, ctx); break;                                                 \
        case 1: if (1 < q->count) walk(w, q, 1, fn, ctx); break;                               \
        case 2: if (2 < q->count) walk(w, q, 2, fn, ctx); break;                               \
        case 3: if (3 < q->count) walk(w, q, 3, fn, ctx); break;                               \
        case 4: if (4 < q->count) walk(w, q, 4, fn, ctx); break;                               \
        case 5: if (5 < q->count) walk(w, q, 5, fn, ctx); break;                               \
        case 6: if (6 < q->count) walk(w, q, 6, fn, ctx); break;                               \
        default: if (7 < q->count) walk(w, q, 7, fn, ctx); break;                              \
        }                                                                                      \
        return ECSB_OK;                                                                        \
    }
_Static_assert(ECSB_MAX_QUERY_TYPES == 8, "ECSB_QUERY_BY_LEAD has a case per position");

/* ---- spawn ------------------------------------------------------------------------------- */

/*
 * spawn's checks, made before anything changes: *out = ECSB_ENTITY_NULL and values_out[j] =
 * NULL for every j < count; then ECSB_ERR_TYPE when a type is >= type_count, else
 * ECSB_ERR_PRESENT when a type appears twice (so a list longer than type_count is always one
 * of the two), else ECSB_OK with *mask = the set (bit t for type t).
 */
static inline ecsb_status ecsb_spawn_check(const ecsb_type *types, uint32_t count,
                                           uint32_t type_count, ecsb_entity *out,
                                           void **values_out, uint32_t *mask)
{
    *out = ECSB_ENTITY_NULL;
    *mask = 0;
    bool bad = false, twice = false;
    for (uint32_t j = 0; j < count; j++) {
        values_out[j] = NULL;
        bad |= types[j] >= type_count;
    }
    if (ECSB_UNLIKELY(bad))
        return ECSB_ERR_TYPE;
    for (uint32_t j = 0; j < count; j++) {
        twice |= (*mask >> types[j]) & 1u;
        *mask |= 1u << types[j];
    }
    return ECSB_UNLIKELY(twice) ? ECSB_ERR_PRESENT : ECSB_OK;
}

/*
 * spawn as create plus one add per type, for layouts where an entity's components live apart
 * (per-type pools, maps, slot-indexed arrays), so adding them one by one moves nothing. The
 * list is checked once up front; when an add fails for lack of memory, the types added so far
 * are removed in reverse order (each the last its storage took: nothing else moves) and
 * `uncreate(w, e)` undoes the create exactly, so the next create issues the same handle again
 * (entity_ids.h: ecsb_ids_uncreate). Expands to the definition of spawn; a strategy writes
 *     ECSB_SPAWN_BY_ADDS(entity_uncreate)
 * after its component_add and component_remove.
 */
#define ECSB_SPAWN_BY_ADDS(uncreate)                                                           \
    ECSB_INLINE ecsb_status spawn(world *w, const ecsb_type *types, uint32_t count,            \
                                  ecsb_entity *out, void **values_out)                         \
    {                                                                                          \
        uint32_t mask;                                                                         \
        ecsb_status st = ecsb_spawn_check(types, count, w->type_count, out, values_out, &mask); \
        if (ECSB_UNLIKELY(st != ECSB_OK) || (st = entity_create(w, out)) != ECSB_OK)           \
            return st;                                                                         \
        for (uint32_t j = 0; j < count; j++) {                                                 \
            st = component_add(w, *out, types[j], &values_out[j]);                             \
            if (ECSB_LIKELY(st == ECSB_OK))                                                    \
                continue;                                                                      \
            while (j-- > 0) {                                                                  \
                component_remove(w, *out, types[j]);                                           \
                values_out[j] = NULL;                                                          \
            }                                                                                  \
            uncreate(w, *out);                                                                 \
            *out = ECSB_ENTITY_NULL;                                                           \
            return st;                                                                         \
        }                                                                                      \
        return ECSB_OK;                                                                        \
    }

/* Handles of the common shape: slot index low 32 bits, generation (never 0) high 32 bits. */
ECSB_INLINE ecsb_entity ecsb_handle_make(uint32_t index, uint32_t generation)
{
    return ((uint64_t)generation << 32) | index;
}
ECSB_INLINE uint32_t ecsb_handle_index(ecsb_entity e) { return (uint32_t)e; }
ECSB_INLINE uint32_t ecsb_handle_generation(ecsb_entity e) { return (uint32_t)(e >> 32); }

#endif /* ECSB_STRATEGY_H */
