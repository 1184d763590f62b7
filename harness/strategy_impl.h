/*
 * strategy_impl.h — included once, at the end of each strategy file, after it has defined
 * `world` and the functions listed in harness/strategy.h plus ECSB_STRATEGY_NAME and
 * ECSB_STRATEGY_SUMMARY. It
 *   1. compiles every scenario (scenarios/all.h) against the strategy's static functions, so
 *      timed code calls them directly and the compiler inlines them;
 *   2. wraps the same functions in a type-erased ecsb_vtable for tests and tools;
 *   3. emits the descriptor `ecsb_strategy_<name>` that the registry lists.
 * With ECSB_NO_SCENARIOS defined (the fuzz build: it drives only the world operations), step 1
 * is left out and the descriptor's scenario table is empty, so the file compiles in a fraction
 * of the time.
 */
#ifndef ECSB_STRATEGY_NAME
#error "define ECSB_STRATEGY_NAME (the file's base name) before including strategy_impl.h"
#endif
#ifndef ECSB_STRATEGY_SUMMARY
#error "define ECSB_STRATEGY_SUMMARY (one line: the idea) before including strategy_impl.h"
#endif

/*
 * The contract, checked first: every function harness/strategy.h lists must be defined with
 * exactly its type. A missing one stops the build at its ECSB_STRATEGY_CONTRACT line below
 * ("undeclared"); a mistyped one with "strategy contract (harness/strategy.h): ...".
 */
#define ECSB_STRATEGY_CONTRACT(fn, type)                                                       \
    _Static_assert(__builtin_types_compatible_p(__typeof__(&fn), type),                        \
                   "strategy contract (harness/strategy.h): " #fn " must have type " #type)
ECSB_STRATEGY_CONTRACT(world_init, ecsb_status (*)(world *, const ecsb_world_config *));
ECSB_STRATEGY_CONTRACT(world_fini, void (*)(world *));
ECSB_STRATEGY_CONTRACT(entity_create, ecsb_status (*)(world *, ecsb_entity *));
ECSB_STRATEGY_CONTRACT(spawn, ecsb_status (*)(world *, const ecsb_type *, uint32_t, ecsb_entity *,
                                              void **));
ECSB_STRATEGY_CONTRACT(entity_destroy, ecsb_status (*)(world *, ecsb_entity));
ECSB_STRATEGY_CONTRACT(entity_alive, bool (*)(const world *, ecsb_entity));
ECSB_STRATEGY_CONTRACT(entity_count, size_t (*)(const world *));
ECSB_STRATEGY_CONTRACT(component_add, ecsb_status (*)(world *, ecsb_entity, ecsb_type, void **));
ECSB_STRATEGY_CONTRACT(component_remove, ecsb_status (*)(world *, ecsb_entity, ecsb_type));
ECSB_STRATEGY_CONTRACT(component_get, void *(*)(world *, ecsb_entity, ecsb_type));
ECSB_STRATEGY_CONTRACT(component_has, bool (*)(const world *, ecsb_entity, ecsb_type));
ECSB_STRATEGY_CONTRACT(component_count, size_t (*)(const world *, ecsb_type));
ECSB_STRATEGY_CONTRACT(query, ecsb_status (*)(world *, const ecsb_query *, ecsb_query_fn, void *));
ECSB_STRATEGY_CONTRACT(world_valid, bool (*)(const world *));
ECSB_STRATEGY_CONTRACT(world_bytes, size_t (*)(const world *));
ECSB_STRATEGY_CONTRACT(world_corrupt, int (*)(world *, unsigned));

#ifndef ECSB_NO_SCENARIOS
#include "scenarios/all.h"
#endif

#define ECSB_CAT_(a, b) a##b
#define ECSB_CAT(a, b) ECSB_CAT_(a, b)
#define ECSB_STR_(a) #a
#define ECSB_STR(a) ECSB_STR_(a)

/* ---- type-erased wrappers ---------------------------------------------------------------- */

static ecsb_status vt_world_init(void *w, const ecsb_world_config *c) { return world_init(w, c); }
static void vt_world_fini(void *w) { world_fini(w); }
/*
 * Test builds (ECSB_CHECKED, set by the Makefile for tests and the fuzzer; nothing in a
 * release build): a structural change from inside a query callback on the same world is
 * refused with ECSB_ERR_ITERATING instead of corrupting a row move or a dense array. The
 * query wrapper keeps the worlds whose queries are running (nested queries stack), and the
 * create, spawn, destroy, add and remove wrappers look the world up there first. Scenario code
 * calls the strategy directly and is not checked; its passes never change structure inside
 * a query (the tests' injected mistakes and checksums guard that).
 */
#ifdef ECSB_CHECKED
#define VT_MAX_NESTED_QUERIES 16
static _Thread_local const void *vt_iterating[VT_MAX_NESTED_QUERIES];
static _Thread_local unsigned vt_iterating_depth;

static bool vt_is_iterating(const void *w)
{
    for (unsigned i = 0; i < vt_iterating_depth && i < VT_MAX_NESTED_QUERIES; i++)
        if (vt_iterating[i] == w)
            return true;
    return false;
}
/* Marks w as iterating until vt_iteration_end(the returned depth). */
static unsigned vt_iteration_begin(const void *w)
{
    unsigned depth = vt_iterating_depth++;
    if (depth < VT_MAX_NESTED_QUERIES)
        vt_iterating[depth] = w;
    return depth;
}
static void vt_iteration_end(unsigned depth) { vt_iterating_depth = depth; }
#define VT_REFUSE_WHILE_ITERATING(w)                                                           \
    do {                                                                                       \
        if (vt_is_iterating(w))                                                                \
            return ECSB_ERR_ITERATING;                                                         \
    } while (0)
#else
#define VT_REFUSE_WHILE_ITERATING(w) ((void)0)
static unsigned vt_iteration_begin(const void *w) { (void)w; return 0; }
static void vt_iteration_end(unsigned depth) { (void)depth; }
#endif

static ecsb_status vt_entity_create(void *w, ecsb_entity *out)
{
    VT_REFUSE_WHILE_ITERATING(w);
    return entity_create(w, out);
}
static ecsb_status vt_entity_spawn(void *w, const ecsb_type *types, uint32_t count,
                                   ecsb_entity *out, void **values_out)
{
#ifdef ECSB_CHECKED
    if (vt_is_iterating(w)) {
        *out = ECSB_ENTITY_NULL;
        for (uint32_t j = 0; j < count; j++)
            values_out[j] = NULL;
        return ECSB_ERR_ITERATING;
    }
#endif
    return spawn(w, types, count, out, values_out);
}
static ecsb_status vt_entity_destroy(void *w, ecsb_entity e)
{
    VT_REFUSE_WHILE_ITERATING(w);
    return entity_destroy(w, e);
}
static bool vt_entity_alive(const void *w, ecsb_entity e) { return entity_alive(w, e); }
static size_t vt_entity_count(const void *w) { return entity_count(w); }
static ecsb_status vt_component_add(void *w, ecsb_entity e, ecsb_type t, void **out)
{
#ifdef ECSB_CHECKED
    if (vt_is_iterating(w)) {
        *out = NULL;
        return ECSB_ERR_ITERATING;
    }
#endif
    return component_add(w, e, t, out);
}
static ecsb_status vt_component_remove(void *w, ecsb_entity e, ecsb_type t)
{
    VT_REFUSE_WHILE_ITERATING(w);
    return component_remove(w, e, t);
}
static void *vt_component_get(void *w, ecsb_entity e, ecsb_type t) { return component_get(w, e, t); }
static bool vt_component_has(const void *w, ecsb_entity e, ecsb_type t)
{
    return component_has(w, e, t);
}
static size_t vt_component_count(const void *w, ecsb_type t) { return component_count(w, t); }
static ecsb_status vt_query(void *w, const ecsb_query *q, ecsb_query_fn fn, void *ctx)
{
    unsigned depth = vt_iteration_begin(w);
    ecsb_status st = query(w, q, fn, ctx);
    vt_iteration_end(depth);
    return st;
}
static bool vt_world_valid(const void *w) { return world_valid(w); }
static size_t vt_world_bytes(const void *w) { return world_bytes(w); }
static int vt_world_corrupt(void *w, unsigned which) { return world_corrupt(w, which); }

static const ecsb_vtable vtable = {
    .world_size = sizeof(world),
    .world_init = vt_world_init,
    .world_fini = vt_world_fini,
    .entity_create = vt_entity_create,
    .entity_spawn = vt_entity_spawn,
    .entity_destroy = vt_entity_destroy,
    .entity_alive = vt_entity_alive,
    .entity_count = vt_entity_count,
    .component_add = vt_component_add,
    .component_remove = vt_component_remove,
    .component_get = vt_component_get,
    .component_has = vt_component_has,
    .component_count = vt_component_count,
    .query = vt_query,
    .world_valid = vt_world_valid,
    .world_bytes = vt_world_bytes,
    .world_corrupt = vt_world_corrupt,
};

/* ---- the descriptor ---------------------------------------------------------------------- */

const ecsb_strategy ECSB_CAT(ecsb_strategy_, ECSB_STRATEGY_NAME) = {
    .name = ECSB_STR(ECSB_STRATEGY_NAME),
    .summary = ECSB_STRATEGY_SUMMARY,
    .ops = &vtable,
#ifndef ECSB_NO_SCENARIOS
    .scenarios = {
#define ECSB_SCENARIO(name, ...)                                          \
    [ECSB_SCENARIO_##name] = {name##_prepare, name##_pass, name##_checksum, name##_release,     \
                              name##_memory},
#include "scenarios/scenarios.def"
#undef ECSB_SCENARIO
    },
    .look = {
#define ECSB_SCENARIO(name, ...) [ECSB_SCENARIO_##name] = name##_look,
#include "scenarios/scenarios.def"
#undef ECSB_SCENARIO
    },
#endif
#ifdef ECSB_STRATEGY_CAPS
    /* ECSB_STRATEGY_CAPS: ECSB_CAP(scenario, largest N, "why") ... */
#define ECSB_CAP(scenario, n, why) [ECSB_SCENARIO_##scenario] = (n),
    .largest_n = {ECSB_STRATEGY_CAPS},
#undef ECSB_CAP
#define ECSB_CAP(scenario, n, why) [ECSB_SCENARIO_##scenario] = (why),
    .why_capped = {ECSB_STRATEGY_CAPS},
#undef ECSB_CAP
#endif
#ifdef ECSB_STRATEGY_SHUFFLED_CAPS
    /* ECSB_STRATEGY_SHUFFLED_CAPS: the same, for the scenarios' order=shuffled worlds only. */
#define ECSB_CAP(scenario, n, why) [ECSB_SCENARIO_##scenario] = (n),
    .largest_n_shuffled = {ECSB_STRATEGY_SHUFFLED_CAPS},
#undef ECSB_CAP
#define ECSB_CAP(scenario, n, why) [ECSB_SCENARIO_##scenario] = (why),
    .why_capped_shuffled = {ECSB_STRATEGY_SHUFFLED_CAPS},
#undef ECSB_CAP
#endif
#ifdef ECSB_STRATEGY_STABLE_POINTERS
    .stable_pointers = true,
#endif
#ifdef ECSB_STRATEGY_VERSIONS_WRAP
    .versions_wrap = ECSB_STRATEGY_VERSIONS_WRAP,
#endif
#ifdef ECSB_STRATEGY_LIBRARY
    .library = ECSB_STRATEGY_LIBRARY,
#endif
#ifdef ECSB_STRATEGY_NOT_APPLICABLE
    /* ECSB_STRATEGY_NOT_APPLICABLE: ECSB_NOT_APPLICABLE("test pattern", "why") ... */
#define ECSB_NOT_APPLICABLE(test, why) {(test), (why)},
    .not_applicable = (const struct ecsb_not_applicable[]){ECSB_STRATEGY_NOT_APPLICABLE {NULL, NULL}},
#undef ECSB_NOT_APPLICABLE
#endif
};
