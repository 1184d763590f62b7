/*
 * flecs — the flecs library (v4.1.6, C API; vendored in strategies/libs/flecs/, built with
 * strategies/libs/flecs_settings.h), used as its users use it: a library, not a design of
 * this suite. Its layout is archetype's (tables of entities with one component set, a column
 * per component, an entity index from id to table and row); compare the two.
 *
 * Each operation, mapped to the idiomatic call (the world is ecs_mini(): the core without
 * modules; each ecsb type is a component registered at run time with ecs_component_init,
 * {size, alignment} from the config, no hooks):
 *   create    ecs_new
 *   destroy   ecs_delete (the id is recycled with its 16-bit generation incremented)
 *   alive     ecs_is_alive, after two checks of this file: no bits above the generation, and
 *             an index past the ids the world used for itself (its built-in entities and the
 *             components), so a crafted handle naming a built-in entity is stale
 *   add       ecs_has_id (ECSB_ERR_PRESENT), then ecs_ensure_id: the entity moves to the table
 *             of its new set, and the call returns the value's address
 *   spawn     the table-based creation: ecs_table_find of the sorted component ids (once per
 *             set: kept beside the world), ecs_new_w_table, then ecs_get_mut_id per type
 *   remove    ecs_has_id (ECSB_ERR_ABSENT), then ecs_remove_id
 *   get       ecs_get_mut_id (after the liveness check: two library calls per get)
 *   has       ecs_has_id            count: ecs_count_id
 *   tags      a size-0 type is a tag: an entity made with ecs_entity_init (.use_low_id, as
 *             ECS_TAG does), added with ecs_add_id; it has no column (tables still split on
 *             it); add, spawn, get and a query's column hand out ECSB_TAG
 *   exclusion a query's excluded types are flecs !C terms (.oper = EcsNot) after its fields;
 *             a cached query keeps its tables with the exclusion applied
 *   query     a declared query (config->queries) is a cached query (ecs_query_init,
 *             .cache_kind = EcsQueryCacheAll) made in world_init; any other set gets an
 *             uncached query (EcsQueryCacheNone), made the first time it is asked and kept.
 *             Iteration: ecs_query_iter, then per matching non-empty table ecs_query_next and
 *             ecs_field_w_size per column; the run is the table's rows, the handle column is
 *             the table's entity column (it.entities, flecs's ids = ecsb handles).
 * Memory: everything flecs allocates goes through its OS API (ecs_os_set_api: malloc_,
 * calloc_, realloc_, free_), which this file points at the shared block allocator with a
 * 64-byte header holding the size; world_bytes is the bytes live through it (all flecs worlds
 * of the process: one at a time in the suite) plus this file's world struct. flecs's own
 * block allocator sits above the OS API, so the figure includes its chunks' slack.
 *
 * Costs are flecs's: per operation one or more out-of-line library calls (as for its users);
 * add/remove move the entity's row between tables as archetype does; get is ecs_is_alive plus
 * ecs_get_mut_id (entity index -> record -> table -> column), has the same without the column.
 * Limits (tests skip by name, below): generations are 16 bits, so a slot's handles recur
 * after 65,536 lives (VERSIONS_WRAP); flecs allocates through its OS API and aborts when an
 * allocation fails, so the world's allocator (config->allocator) is not used and failure
 * injection does not apply.
 * Measured against archetype (callgrind, N = 4000, instructions per item; docs/results.md):
 * iteration level (dual_iterate 8.4 vs 8.1, packed_5 6.2 vs 6.0: a cached query hands out the
 * same table columns), structural changes not (add_remove 711 vs 121, platformer 926 vs 103):
 * the same row move (flecs_table_move/append/delete, about 30 % of an add) plus the deferred-
 * operation bracket every call opens and closes (flecs_defer_end, 10 %), flecs_commit's
 * bookkeeping, and the liveness and has checks as separate calls; random_get 100 vs 25:
 * ecs_is_alive + ecs_get_mut_id, each a call through the entity index.
 * Tuning: none beyond the settings in strategies/libs/flecs_settings.h.
 */
#include "harness/strategy.h"

#include "strategies/libs/flecs_settings.h"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#include "strategies/libs/flecs/flecs.h"
#pragma GCC diagnostic pop

#define ADHOC_MAX 64u /* undeclared type lists kept as uncached queries */
#define SETS_MAX 64u  /* component sets whose table spawn keeps */

typedef struct flecs_query_slot {
    ecs_query_t *query;
    uint32_t count, mask, without;         /* without: the excluded set */
    ecsb_type types[ECSB_MAX_QUERY_TYPES]; /* the terms, in order (then one !term each excluded) */
} flecs_query_slot;

typedef struct world {
    ecs_world_t *ecs;
    uint32_t type_count;
    uint32_t type_size[ECSB_MAX_TYPES];
    uint32_t tags;                          /* the set of tags (size-0 types) */
    ecs_entity_t component[ECSB_MAX_TYPES]; /* type t's component (or tag) id */
    uint32_t reserved;   /* ids at or below it are the world's own (built-ins, components) */
    uint32_t max_entities;
    size_t live;         /* entities this file created and not destroyed */
    uint32_t declared_count, adhoc_count, set_count;
    flecs_query_slot declared[ECSB_MAX_QUERIES]; /* cached */
    flecs_query_slot adhoc[ADHOC_MAX];           /* uncached */
    uint32_t set_mask[SETS_MAX];
    ecs_table_t *set_table[SETS_MAX];
} world;

/* ---- memory through flecs's OS API ---------------------------------------------------------- */

#define OS_HEADER 64u /* before each block: its size; keeps the block 64-byte aligned */
static size_t flecs_os_bytes;  /* live bytes flecs holds, headers included */
static bool flecs_os_hooked;

static void *os_realloc(void *ptr, ecs_size_t size)
{
    unsigned char *base = ptr ? (unsigned char *)ptr - OS_HEADER : NULL;
    size_t old = base ? *(size_t *)base : 0;
    size_t bytes = (size_t)size + OS_HEADER;
    unsigned char *p = ecsb_libc_allocator.realloc(ecsb_libc_allocator.ctx, base, old, bytes);
    if (!p)
        return NULL;
    *(size_t *)p = bytes;
    flecs_os_bytes += bytes - old;
    return p + OS_HEADER;
}
static void *os_malloc(ecs_size_t size) { return os_realloc(NULL, size); }
static void *os_calloc(ecs_size_t size)
{
    void *p = os_realloc(NULL, size);
    if (p)
        memset(p, 0, (size_t)size);
    return p;
}
static void os_free(void *ptr)
{
    if (!ptr)
        return;
    unsigned char *base = (unsigned char *)ptr - OS_HEADER;
    flecs_os_bytes -= *(size_t *)base;
    ecsb_libc_allocator.free(ecsb_libc_allocator.ctx, base, *(size_t *)base);
}

static void hook_os_api(void)
{
    if (flecs_os_hooked)
        return;
    ecs_os_set_api_defaults();
    ecs_os_api_t api = ecs_os_api;
    api.malloc_ = os_malloc;
    api.calloc_ = os_calloc;
    api.realloc_ = os_realloc;
    api.free_ = os_free;
    ecs_os_set_api(&api);
    flecs_os_hooked = true;
}

/* ---- world ---------------------------------------------------------------------------------- */

static ecs_query_t *make_query(world *w, const ecsb_query *q, bool cached)
{
    ecs_query_desc_t desc = {0};
    for (uint32_t j = 0; j < q->count; j++)
        desc.terms[j].id = w->component[q->types[j]];
    for (uint32_t j = 0; j < q->exclude_count; j++) { /* flecs's !C: after the fields */
        desc.terms[q->count + j].id = w->component[q->exclude[j]];
        desc.terms[q->count + j].oper = EcsNot;
    }
    desc.cache_kind = cached ? EcsQueryCacheAll : EcsQueryCacheNone;
    return ecs_query_init(w->ecs, &desc);
}

static void world_fini(world *w)
{
    for (uint32_t i = 0; i < w->declared_count; i++)
        ecs_query_fini(w->declared[i].query);
    for (uint32_t i = 0; i < w->adhoc_count; i++)
        ecs_query_fini(w->adhoc[i].query);
    if (w->ecs)
        ecs_fini(w->ecs);
    w->ecs = NULL;
}

static ecsb_status world_init(world *w, const ecsb_world_config *config)
{
    memset(w, 0, sizeof *w);
    if (ecsb_config_check(config) != ECSB_OK)
        return ECSB_ERR_CONFIG;
    hook_os_api();
    w->ecs = ecs_mini();
    if (!w->ecs)
        return ECSB_ERR_NOMEM;
    w->type_count = config->type_count;
    w->max_entities = config->max_entities ? config->max_entities : ECSB_MAX_ENTITIES;
    w->tags = ecsb_config_tags(config);
    for (uint32_t t = 0; t < config->type_count; t++) {
        w->type_size[t] = config->type_size[t];
        if (w->tags >> t & 1u) { /* a tag: a plain entity used as an id (flecs's ECS_TAG) */
            ecs_entity_desc_t tag = {0};
            tag.use_low_id = true;
            w->component[t] = ecs_entity_init(w->ecs, &tag);
            continue;
        }
        ecs_component_desc_t desc = {0};
        desc.type.size = (ecs_size_t)config->type_size[t];
        desc.type.alignment = (ecs_size_t)ecsb_type_align(config, t);
        w->component[t] = ecs_component_init(w->ecs, &desc);
    }
    for (uint32_t i = 0; i < config->query_count; i++) {
        const ecsb_query *q = &config->queries[i];
        flecs_query_slot *s = &w->declared[w->declared_count++];
        s->count = q->count;
        memcpy(s->types, q->types, q->count * sizeof q->types[0]);
        ecsb_query_check(q, w->type_count, &s->mask);
        s->without = ecsb_query_without(q);
        s->query = make_query(w, q, true);
    }
    w->reserved = (uint32_t)ecs_get_max_id(w->ecs);
    if (config->initial_capacity)
        ecs_dim(w->ecs, (int32_t)(w->reserved + config->initial_capacity));
    return ECSB_OK;
}

/* Ours and alive: a handle flecs issued to this file (no pair or flag bits, an index past the
 * world's own ids) that is live at its generation. */
ECSB_INLINE bool live(const world *w, ecsb_entity e)
{
    return (e >> 48) == 0 && (uint32_t)e > w->reserved && ecs_is_alive(w->ecs, e);
}

ECSB_INLINE ecsb_status entity_create(world *w, ecsb_entity *out)
{
    if (ECSB_UNLIKELY(w->live >= w->max_entities)) {
        *out = ECSB_ENTITY_NULL;
        return ECSB_ERR_CAPACITY;
    }
    *out = ecs_new(w->ecs);
    w->live++;
    return ECSB_OK;
}

ECSB_INLINE ecsb_status entity_destroy(world *w, ecsb_entity e)
{
    if (!live(w, e))
        return ECSB_ERR_STALE;
    ecs_delete(w->ecs, e);
    w->live--;
    return ECSB_OK;
}

static bool entity_alive(const world *w, ecsb_entity e) { return live(w, e); }

static size_t entity_count(const world *w) { return w->live; }

ECSB_INLINE ecsb_status component_add(world *w, ecsb_entity e, ecsb_type t, void **value_out)
{
    *value_out = NULL;
    ECSB_CHECK_TYPE_AND_LIVE(w, t, live(w, e));
    if (ecs_has_id(w->ecs, e, w->component[t]))
        return ECSB_ERR_PRESENT;
    if (w->tags >> t & 1u) {
        ecs_add_id(w->ecs, e, w->component[t]);
        *value_out = ECSB_TAG;
        return ECSB_OK;
    }
    *value_out = ecs_ensure_id(w->ecs, e, w->component[t], w->type_size[t]);
    return ECSB_OK;
}

ECSB_INLINE ecsb_status component_remove(world *w, ecsb_entity e, ecsb_type t)
{
    ECSB_CHECK_TYPE_AND_LIVE(w, t, live(w, e));
    if (!ecs_has_id(w->ecs, e, w->component[t]))
        return ECSB_ERR_ABSENT;
    ecs_remove_id(w->ecs, e, w->component[t]);
    return ECSB_OK;
}

/* The table of a component set (mask), found once with ecs_table_find and kept. */
static __attribute__((noinline)) ecs_table_t *find_set_table(world *w, uint32_t mask)
{
    ecs_id_t ids[ECSB_MAX_TYPES];
    int32_t n = 0;
    for (uint32_t t = 0; t < w->type_count; t++)
        if (mask >> t & 1u) { /* sorted, as ecs_table_find wants: insertion */
            int32_t i = n++;
            for (; i > 0 && ids[i - 1] > w->component[t]; i--)
                ids[i] = ids[i - 1];
            ids[i] = w->component[t];
        }
    ecs_table_t *table = ecs_table_find(w->ecs, ids, n);
    if (w->set_count < SETS_MAX) {
        w->set_mask[w->set_count] = mask;
        w->set_table[w->set_count++] = table;
    }
    return table;
}

ECSB_INLINE ecs_table_t *set_table(world *w, uint32_t mask)
{
    for (uint32_t i = 0; i < w->set_count; i++)
        if (w->set_mask[i] == mask)
            return w->set_table[i];
    return find_set_table(w, mask);
}

ECSB_INLINE ecsb_status spawn(world *w, const ecsb_type *types, uint32_t count,
                              ecsb_entity *out, void **values_out)
{
    uint32_t mask;
    ecsb_status st = ecsb_spawn_check(types, count, w->type_count, out, values_out, &mask);
    if (ECSB_UNLIKELY(st != ECSB_OK))
        return st;
    if (ECSB_UNLIKELY(w->live >= w->max_entities))
        return ECSB_ERR_CAPACITY;
    ecs_entity_t e = count ? ecs_new_w_table(w->ecs, set_table(w, mask)) : ecs_new(w->ecs);
    for (uint32_t j = 0; j < count; j++)
        values_out[j] = w->tags >> types[j] & 1u ? ECSB_TAG
                                                 : ecs_get_mut_id(w->ecs, e, w->component[types[j]]);
    w->live++;
    *out = e;
    return ECSB_OK;
}

ECSB_INLINE void *component_get(world *w, ecsb_entity e, ecsb_type t)
{
    if (t >= w->type_count || !live(w, e))
        return NULL;
    if (w->tags >> t & 1u)
        return ecs_has_id(w->ecs, e, w->component[t]) ? ECSB_TAG : NULL;
    return ecs_get_mut_id(w->ecs, e, w->component[t]);
}

ECSB_INLINE bool component_has(const world *w, ecsb_entity e, ecsb_type t)
{
    return t < w->type_count && live(w, e) && ecs_has_id(w->ecs, e, w->component[t]);
}

static size_t component_count(const world *w, ecsb_type t)
{
    return t < w->type_count ? (size_t)ecs_count_id(w->ecs, w->component[t]) : 0;
}

/* ---- query ---------------------------------------------------------------------------------- */

/* The query for q's set: the declared one of that set (any term order), else the kept
 * uncached one of q's exact list, made now if new; NULL when none can be kept (*made: a
 * query made for this call only). */
static __attribute__((noinline)) flecs_query_slot *adhoc_slot(world *w, const ecsb_query *q,
                                                              flecs_query_slot *once)
{
    const uint32_t without = ecsb_query_without(q);
    for (uint32_t i = 0; i < w->adhoc_count; i++) {
        flecs_query_slot *s = &w->adhoc[i];
        if (s->count == q->count && s->without == without &&
            !memcmp(s->types, q->types, q->count * sizeof q->types[0]))
            return s;
    }
    flecs_query_slot *s = w->adhoc_count < ADHOC_MAX ? &w->adhoc[w->adhoc_count++] : once;
    s->count = q->count;
    s->without = without;
    memcpy(s->types, q->types, q->count * sizeof q->types[0]);
    s->query = make_query(w, q, false);
    return s;
}

ECSB_INLINE ecsb_status query(world *w, const ecsb_query *q, ecsb_query_fn fn, void *ctx)
{
    uint32_t mask;
    ecsb_status st = ecsb_query_check(q, w->type_count, &mask);
    if (st != ECSB_OK)
        return st;
    const uint32_t k = q->count, without = ecsb_query_without(q);
    flecs_query_slot *s = NULL, once = {0};
    for (uint32_t i = 0; i < w->declared_count && !s; i++)
        if (w->declared[i].mask == mask && w->declared[i].without == without)
            s = &w->declared[i];
    if (!s)
        s = adhoc_slot(w, q, &once);
    /* Column j of the caller is the term of its type in the query's own order. */
    int8_t field[ECSB_MAX_QUERY_TYPES];
    size_t size[ECSB_MAX_QUERY_TYPES];
    for (uint32_t j = 0; j < k; j++) {
        size[j] = w->type_size[q->types[j]];
        field[j] = (int8_t)j;
        for (uint32_t f = 0; f < s->count; f++)
            if (s->types[f] == q->types[j])
                field[j] = (int8_t)f;
    }
    void *columns[ECSB_MAX_QUERY_COLUMNS];
    ecs_iter_t it = ecs_query_iter(w->ecs, s->query);
    while (ecs_query_next(&it)) {
        if (ECSB_UNLIKELY(it.count == 0))
            continue;
        for (uint32_t j = 0; j < k; j++) /* a tag's column: ECSB_TAG, stride 0 */
            columns[j] = size[j] ? ecs_field_w_size(&it, size[j], field[j]) : ECSB_TAG;
        if (q->entities)
            columns[k] = (void *)it.entities;
        fn(ctx, (size_t)it.count, columns);
    }
    if (s == &once)
        ecs_query_fini(once.query);
    return ECSB_OK;
}

/* ---- checks --------------------------------------------------------------------------------- */

/* What this file can check of flecs's state: each component's id is alive with the size of its
 * type, the live count agrees with flecs's entity index, and each type's holder count
 * agrees with a walk of its holders. */
static bool world_valid(const world *w)
{
    for (uint32_t t = 0; t < w->type_count; t++) {
        if (!ecs_is_alive(w->ecs, w->component[t]))
            return false;
        const ecs_type_info_t *info = ecs_get_type_info(w->ecs, w->component[t]);
        if (info ? (uint32_t)info->size != w->type_size[t] : !(w->tags >> t & 1u))
            return false;
    }
    ecs_entities_t all = ecs_get_entities(w->ecs);
    size_t ours = 0;
    for (int32_t i = 0; i < all.alive_count; i++)
        ours += (uint32_t)all.ids[i] > w->reserved;
    if (ours != w->live)
        return false;
    for (uint32_t t = 0; t < w->type_count; t++) {
        size_t held = 0;
        for (int32_t i = 0; i < all.alive_count; i++)
            held += (uint32_t)all.ids[i] > w->reserved &&
                    ecs_has_id(w->ecs, all.ids[i], w->component[t]);
        if (held != (size_t)ecs_count_id(w->ecs, w->component[t]))
            return false;
    }
    return true;
}

static size_t world_bytes(const world *w) { return sizeof *w + flecs_os_bytes; }

/*
 * Testing aid (ecsb.h): only this file's own bookkeeping can be damaged (flecs's state is the
 * library's): 0  the live count;  1  type 0's component id (its generation);  2  type 0's size.
 */
static int world_corrupt(world *w, unsigned which)
{
    switch (which) {
    case 0:
        w->live ^= 1;
        return 1;
    case 1:
        w->component[0] ^= 1ull << 32;
        return 1;
    case 2:
        w->type_size[0] ^= 1;
        return 1;
    default:
        return -1;
    }
}

#define ECSB_STRATEGY_VERSIONS_WRAP 65536 /* flecs's 16-bit generations */
#define FLECS_OWN_ALLOCATOR "flecs allocates through its OS API (counted by this file), not the world's allocator"
#define ECSB_STRATEGY_NOT_APPLICABLE                                                           \
    ECSB_NOT_APPLICABLE("bad_input_*allocation*", FLECS_OWN_ALLOCATOR ", and aborts when one fails: no failure to inject") \
    ECSB_NOT_APPLICABLE("conformance_world_bytes_counts_the_world_and_its_allocations",        \
                        FLECS_OWN_ALLOCATOR ": world_bytes is the OS API's count")              \
    ECSB_NOT_APPLICABLE("scenario_passes_that_change_no_structure_allocate_nothing",           \
                        FLECS_OWN_ALLOCATOR ": the test's counting allocator would see nothing") \
    ECSB_NOT_APPLICABLE("conformance_long_churn_of_one_entity_stays_bounded_and_rejects_the_last_life", \
                        "flecs's 16-bit generations: handles recur after 65,536 lives, more than the test's ring")
#define ECSB_STRATEGY_LIBRARY "flecs v4.1.6"

#define ECSB_STRATEGY_NAME flecs
#define ECSB_STRATEGY_SUMMARY "the flecs library (v4.1.6, C API, ecs_mini): archetype tables, cached queries for the declared sets, ecs_new_w_table for spawn"
#include "harness/strategy_impl.h"
