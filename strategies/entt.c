/*
 * entt — the EnTT library (v3.16.0, C++; vendored in strategies/libs/entt/, driven from
 * strategies/libs/entt_lib.cc), used as its users use it: a library, not a design of this
 * suite. Its layout is paged_sparse_set's (per component a storage: a paged sparse array
 * from id to dense position, a packed id array, values in pages of 1024); compare the two.
 *
 * Each operation, mapped to EnTT's API (one entt::basic_registry per world):
 *   create    registry.create()   (an id from the entity storage's free list)
 *   destroy   registry.destroy(e): every storage's remove(e) (one per type of the world,
 *             held or not), then the id is released with its version incremented
 *   alive     registry.valid(e)
 *   add       storage.contains(e) (ECSB_ERR_PRESENT), then storage.emplace(e): the value's
 *             address (a tag: emplace of an empty type, no value; ECSB_TAG)
 *   spawn     create, then emplace per type (storage.insert, EnTT's bulk insertion, takes
 *             a range of entities: the contract's spawn makes one, so there is nothing to batch)
 *   remove    storage.contains(e) (ECSB_ERR_ABSENT), then storage.erase(e) (swap-and-pop)
 *   get       storage.contains(e) ? &storage.get(e) : NULL (what registry.try_get does)
 *   has       storage.contains(e)            count  storage.size()
 *   query     an entt::runtime_view: iterate(storage) per type (the smallest storage leads),
 *             exclude(storage) per excluded type; each entity is handed out as a run of one,
 *             its values by storage.get(e) (a tag's: ECSB_TAG)
 * Types. EnTT's storages are compile-time types; this suite's are run-time (a size and an
 * alignment per type id). Each type is a *named* storage, registry.storage<Element>(id) (one
 * id per type), of a fixed element type: a tag is an empty struct (EnTT stores no value for
 * it); a value type of s bytes is the first of 12 sized blocks (4, 8, 12, 16, 24, 32, 48, 64,
 * 128, 256, 512, 1024 bytes, aligned as a type of that size) that holds s bytes at the
 * type's alignment: exact for every size the scenarios use except move3's other sizes (a
 * 40-byte vec is stored in 48). An operation on a value reaches its typed storage through
 * one switch on the type's block (a jump table; every strategy here reads its run-time sizes
 * somehow, this is EnTT's form of it); contains and size need no switch (the storages' common
 * base, basic_sparse_set).
 * Declared queries: EnTT keeps structures for declared sets in groups, registry.group<A,
 * B>(), whose types are template arguments known at compile time; a group cannot be made
 * for types named at run time (the registry keys groups by the C++ types, and named
 * storages of one element type would be one type). So declared and undeclared queries are
 * both runtime views here: owning_group is this suite's design of EnTT's groups.
 * Ids: EnTT's 64-bit identifier (32-bit index, 32-bit version: a documented setting; the
 * default 32-bit id's 20-bit index allows fewer ids than the 1M scenarios keep alive), as
 * handles with the version plus one (entt_lib.h), so that no handle is 0.
 *
 * Glue: the strategy is C (the scenarios are compiled into it), EnTT C++. The release build
 * compiles this file and entt_lib.cc to LTO bytecode and joins them by a relocatable
 * link-time optimisation into strategies/entt.o (Makefile, LTO_SRC): the C++ functions
 * (always_inline) are inlined into the scenario passes as an EnTT user's calls would be,
 * and the query's callback, a constant at each scenario call, is inlined into the view's
 * loop: objdump of entt.o shows no call to an ecsb_entt_ function and no indirect call from
 * this glue in any timed pass (test_no_indirect_calls.sh reads entt.o; the calls it finds
 * are EnTT's own: its out-of-line helpers and the virtual calls of erase and destroy).
 * Without LTO (the same two files compiled and linked plainly) callgrind counts 7-16 % more
 * instructions per item (N = 4000: dual_iterate 213 vs 199 per pair, add_remove 243 vs
 * 225 per operation, random_get 128 vs 108 per lookup). What remains of the glue is the
 * switch from a type to its typed storage (compares: -fno-jump-tables), about 35 of the
 * 199 instructions per dual_iterate pair (its two types); an EnTT user with compile-time
 * types would not pay it. entt_lib.cc is built without exceptions: gcc does
 * not inline a C++ function with cleanups into C.
 *
 * Memory: the registry's allocator (a documented template parameter) counts every byte
 * EnTT allocates; world_bytes is that plus this file's world and the registry's struct.
 * Per entity: the entity storage (8 B packed + 8 B sparse per id ever used), per held type
 * 8 B packed id + the value (block size), and per storage a sparse page of 4096 ids x 8 B for
 * each 4096-id range it holds an entity in.
 * Costs are EnTT's: add/remove/get/has are one sparse page lookup and the packed position
 * (as paged_sparse_set), plus the registry's and storage's own bookkeeping (signals of the
 * registry's storage mixin, the tombstone and policy checks); destroy touches every storage
 * of the world; the runtime view tests every non-lead storage per lead entity and then looks
 * each value up again with get (a second sparse lookup), where paged_sparse_set reuses the
 * position its test found.
 * Limits (tests skip by name, below): EnTT allocates through its allocator's operator new
 * and ends the program when one fails (built without exceptions), so the world's allocator
 * (config->allocator) is not used and failure injection does not apply; versions cannot be
 * started near their end (config->first_generation).
 * Tuning: none beyond the settings in strategies/libs/entt_lib.cc.
 */
#include "harness/strategy.h"
#include "strategies/libs/entt_lib.h"

typedef struct world {
    ecsb_entt *reg;
    uint32_t type_count;
    uint32_t max_entities;
    size_t live; /* entities this file created and not destroyed */
} world;

static void world_fini(world *w)
{
    if (w->reg)
        ecsb_entt_close(w->reg);
    w->reg = NULL;
}

static ecsb_status world_init(world *w, const ecsb_world_config *config)
{
    memset(w, 0, sizeof *w);
    if (ecsb_config_check(config) != ECSB_OK)
        return ECSB_ERR_CONFIG;
    w->reg = ecsb_entt_open(config);
    if (!w->reg)
        return ECSB_ERR_NOMEM;
    w->type_count = config->type_count;
    w->max_entities = config->max_entities ? config->max_entities : ECSB_MAX_ENTITIES;
    return ECSB_OK;
}

ECSB_INLINE bool live(const world *w, ecsb_entity e) { return ecsb_entt_alive(w->reg, e); }

ECSB_INLINE ecsb_status entity_create(world *w, ecsb_entity *out)
{
    if (ECSB_UNLIKELY(w->live >= w->max_entities)) {
        *out = ECSB_ENTITY_NULL;
        return ECSB_ERR_CAPACITY;
    }
    *out = ecsb_entt_create(w->reg);
    w->live++;
    return ECSB_OK;
}

ECSB_INLINE ecsb_status entity_destroy(world *w, ecsb_entity e)
{
    if (!live(w, e))
        return ECSB_ERR_STALE;
    ecsb_entt_destroy(w->reg, e);
    w->live--;
    return ECSB_OK;
}

static bool entity_alive(const world *w, ecsb_entity e) { return live(w, e); }

static size_t entity_count(const world *w) { return w->live; }

ECSB_INLINE ecsb_status component_add(world *w, ecsb_entity e, ecsb_type t, void **value_out)
{
    *value_out = NULL;
    ECSB_CHECK_TYPE_AND_LIVE(w, t, live(w, e));
    if (ecsb_entt_has(w->reg, e, t))
        return ECSB_ERR_PRESENT;
    *value_out = ecsb_entt_emplace(w->reg, e, t);
    return ECSB_OK;
}

ECSB_INLINE ecsb_status component_remove(world *w, ecsb_entity e, ecsb_type t)
{
    ECSB_CHECK_TYPE_AND_LIVE(w, t, live(w, e));
    if (!ecsb_entt_has(w->reg, e, t))
        return ECSB_ERR_ABSENT;
    ecsb_entt_erase(w->reg, e, t);
    return ECSB_OK;
}

ECSB_INLINE ecsb_status spawn(world *w, const ecsb_type *types, uint32_t count,
                              ecsb_entity *out, void **values_out)
{
    uint32_t mask;
    ecsb_status st = ecsb_spawn_check(types, count, w->type_count, out, values_out, &mask);
    if (ECSB_UNLIKELY(st != ECSB_OK))
        return st;
    if ((st = entity_create(w, out)) != ECSB_OK)
        return st;
    for (uint32_t j = 0; j < count; j++)
        values_out[j] = ecsb_entt_emplace(w->reg, *out, types[j]);
    return ECSB_OK;
}

ECSB_INLINE void *component_get(world *w, ecsb_entity e, ecsb_type t)
{
    if (t >= w->type_count || !live(w, e))
        return NULL;
    return ecsb_entt_get(w->reg, e, t);
}

ECSB_INLINE bool component_has(const world *w, ecsb_entity e, ecsb_type t)
{
    return t < w->type_count && live(w, e) && ecsb_entt_has(w->reg, e, t);
}

static size_t component_count(const world *w, ecsb_type t)
{
    return t < w->type_count ? ecsb_entt_count(w->reg, t) : 0;
}

ECSB_INLINE ecsb_status query(world *w, const ecsb_query *q, ecsb_query_fn fn, void *ctx)
{
    uint32_t mask;
    ecsb_status st = ecsb_query_check(q, w->type_count, &mask);
    if (st != ECSB_OK)
        return st;
    ecsb_entt_query(w->reg, q, fn, ctx);
    return ECSB_OK;
}

/* What this file can check: EnTT's live ids agree with the count kept here, each type's
 * storage is the registry's storage of that name and element type, and every holder of
 * every storage is a live entity. */
static bool world_valid(const world *w) { return ecsb_entt_valid(w->reg, w->live); }

static size_t world_bytes(const world *w) { return sizeof *w + ecsb_entt_bytes(w->reg); }

/* Testing aid (ecsb.h): only the bookkeeping around EnTT can be damaged (its state is the
 * library's): 0  the live count;  1  type 0's storage swapped with type 1's;  2  type 0's
 * element type (entt_lib.cc). */
static int world_corrupt(world *w, unsigned which)
{
    if (which == 0) {
        w->live ^= 1;
        return 1;
    }
    return ecsb_entt_corrupt(w->reg, which - 1);
}

#define ENTT_OWN_ALLOCATOR "EnTT allocates through the registry's allocator (counted by this strategy), not the world's"
#define ECSB_STRATEGY_NOT_APPLICABLE                                                           \
    ECSB_NOT_APPLICABLE("bad_input_*allocation*", ENTT_OWN_ALLOCATOR ", and ends the program when one fails (built without exceptions): no failure to inject") \
    ECSB_NOT_APPLICABLE("conformance_world_bytes_counts_the_world_and_its_allocations",        \
                        ENTT_OWN_ALLOCATOR ": world_bytes is that allocator's count")           \
    ECSB_NOT_APPLICABLE("scenario_passes_that_change_no_structure_allocate_nothing",           \
                        ENTT_OWN_ALLOCATOR ": the test's counting allocator would see nothing") \
    ECSB_NOT_APPLICABLE("conformance_long_churn_of_one_entity_stays_bounded_and_rejects_the_last_life", \
                        "EnTT's versions cannot be started near their end (config->first_generation): 2^32 lives per id")
#define ECSB_STRATEGY_LIBRARY "entt v3.16.0"

#define ECSB_STRATEGY_NAME entt
#define ECSB_STRATEGY_SUMMARY "the EnTT library (v3.16.0, C++ via LTO): registry, a named storage per type, runtime views for every query"
#include "harness/strategy_impl.h"
