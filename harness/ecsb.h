/*
 * ecsb.h — the public face of ecsbench: entities, statuses, world configuration, the
 * type-erased strategy vtable (for tests and tools) and the strategy registry.
 *
 * A *world* owns entities and up to ECSB_MAX_TYPES component types, each registered with its
 * size when the world is made. Every storage strategy implements the same world-level
 * operations; see harness/strategy.h for the contract a strategy file fulfils, and
 * strategies/template.c for a complete, commented example to copy.
 *
 * Timed code never goes through ecsb_vtable: each strategy's scenarios are compiled against its
 * own static functions (harness/strategy_impl.h), so there is one indirect call per scenario
 * pass, never one per entity. The vtable is for tests, the CLI and tools.
 *
 * Bad input is defined behaviour. Every operation below documents the status it returns for
 * each kind of bad input; an operation that fails leaves the world unchanged and valid.
 */
#ifndef ECSB_H
#define ECSB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- entities and types ------------------------------------------------------------------ */

/*
 * An entity handle. Opaque: each strategy encodes it as it likes (typically the slot index in
 * the low 32 bits and a generation in the high 32 bits). ECSB_ENTITY_NULL is never a live
 * entity. Handles of different worlds or strategies must not be mixed.
 */
typedef uint64_t ecsb_entity;
#define ECSB_ENTITY_NULL ((ecsb_entity)0)

/* A component type: its index in ecsb_world_config.type_size, 0 .. type_count - 1. */
typedef uint32_t ecsb_type;

#define ECSB_MAX_TYPES 32u          /* component types per world, at most */
#define ECSB_MAX_TYPE_SIZE 1024u    /* bytes per component value, at most */
#define ECSB_MAX_TYPE_ALIGN 64u     /* alignment a type may ask for, at most */
#define ECSB_MAX_ENTITIES 0x7fffffffu /* live entities per world, at most (any strategy) */
#define ECSB_MAX_QUERY_TYPES 8u     /* types one query names, at most */
#define ECSB_MAX_QUERY_EXCLUDES 4u  /* types one query excludes, at most */
#define ECSB_MAX_QUERIES 16u        /* declared queries per world, at most */

/*
 * A query: the entities holding every one of `types[0 .. count)` (1 <= count <=
 * ECSB_MAX_QUERY_TYPES) and none of `exclude[0 .. exclude_count)` (0 <= exclude_count <=
 * ECSB_MAX_QUERY_EXCLUDES): "has A and B, not C", as EnTT's exclude<C>, flecs's !C and Bevy's
 * Without<C>. No type may be named twice, in either list or across them (excluding an
 * included type is ECSB_ERR_QUERY). The order of `types` is the order of the columns a query
 * hands out; excluded types get no column. Two queries naming the same sets in different
 * orders are the same query; the same included set with other exclusions is another query.
 * `entities` asks for one more column, the entities' handles (see ecsb_query_fn); it is not
 * part of the set: a declared query answers the same set with or without it.
 * A zero-initialised tail (designated initialisers) excludes nothing, and costs nothing: a
 * scenario's query is a constant, so the loops over its exclusions fold away.
 */
typedef struct ecsb_query {
    uint32_t count;
    ecsb_type types[ECSB_MAX_QUERY_TYPES];
    bool entities; /* hand out the handle column too (columns[count]) */
    uint32_t exclude_count;
    ecsb_type exclude[ECSB_MAX_QUERY_EXCLUDES];
} ecsb_query;

/* The set of q's excluded types (bit t for type t); for a query ecsb_query_check accepted. */
static inline uint32_t ecsb_query_without(const ecsb_query *q)
{
    uint32_t without = 0;
    for (uint32_t j = 0; j < q->exclude_count; j++)
        without |= 1u << q->exclude[j];
    return without;
}

/*
 * Tags: a type registered with size 0 (ecsb_world_config.type_size) is a tag, membership only,
 * no value (flecs tags, EnTT empty types, Bevy marker components). It is added, removed, held,
 * counted, queried and excluded like any type. Every pointer to a tag's "value" that a
 * strategy hands out (component_add's and spawn's value_out, component_get when the entity
 * holds it, a query's column for it) is ECSB_TAG: one shared, non-NULL, 64-byte aligned
 * address of zero bytes, never to be read or written through. So get != NULL still means
 * "present", and a tag's column in a run of `count` entities is ECSB_TAG with stride 0 (the
 * i-th value at ECSB_TAG + i * 0). Strategies store no value for a tag where their layout
 * allows (each strategy's header says what a tag costs).
 */
extern unsigned char ecsb_tag_storage[];
#define ECSB_TAG ((void *)ecsb_tag_storage)

/* Columns a query callback can be handed: the types' and the handles'. */
#define ECSB_MAX_QUERY_COLUMNS (ECSB_MAX_QUERY_TYPES + 1u)

/* ---- statuses ---------------------------------------------------------------------------- */

typedef enum ecsb_status {
    ECSB_OK = 0,
    ECSB_ERR_STALE,    /* entity handle is null, destroyed, never issued, or from a reused slot */
    ECSB_ERR_ABSENT,   /* remove of a component the entity does not hold */
    ECSB_ERR_PRESENT,  /* add of a component the entity already holds; spawn: a type twice */
    ECSB_ERR_TYPE,     /* component type index >= the world's type_count */
    ECSB_ERR_CAPACITY, /* the world is full: max_entities live, or the id space is used up */
    ECSB_ERR_NOMEM,    /* an allocation failed (or its size would overflow) */
    ECSB_ERR_CONFIG,   /* world configuration out of range (type count, sizes, limits) */
    ECSB_ERR_QUERY,    /* a query names no type, more than ECSB_MAX_QUERY_TYPES, excludes more
                        * than ECSB_MAX_QUERY_EXCLUDES, or names a type twice (in either list
                        * or both: excluding an included type) */
    ECSB_ERR_ITERATING, /* a structural change (create, spawn, destroy, add, remove) inside a
                         * query callback on the same world: test builds only (ECSB_CHECKED) */
    ECSB_STATUS_COUNT
} ecsb_status;

/* A constant, human-readable description of a status ("ok", "stale entity", ...). */
const char *ecsb_status_str(ecsb_status status);

/* ---- allocation -------------------------------------------------------------------------- */

/*
 * Every byte a world holds comes through its allocator, so tests can inject failures.
 * realloc follows C realloc (ptr NULL = allocate; returns NULL on failure leaving ptr intact),
 * except that new_size is never 0 and every block it returns starts on an ECSB_BLOCK_ALIGN
 * boundary (so a value at a multiple of its size from a block's start is aligned for any type
 * whose alignment divides its size). realloc keeps the first min(old_size, new_size) bytes;
 * bytes beyond old_size are unspecified. The sizes handed to realloc (old_size) and free are
 * hints: after a growth that failed part-way a block may be larger than the size given.
 */
#define ECSB_BLOCK_ALIGN 64u
typedef struct ecsb_allocator {
    void *(*realloc)(void *ctx, void *ptr, size_t old_size, size_t new_size);
    void (*free)(void *ctx, void *ptr, size_t size);
    void *ctx;
} ecsb_allocator;

/* The shared allocator (ecsb_block_alloc); used when ecsb_world_config.allocator is NULL. */
extern const ecsb_allocator ecsb_libc_allocator;

/*
 * Blocks of the shared allocator, for the worlds (through ecsb_libc_allocator) and the floor
 * and limit arrays alike: 64-byte aligned, released with ecsb_block_free. Each block is placed
 * after a pad of 0 .. ECSB_PLACEMENT_MAX_PAD bytes in whole cache lines, drawn from the
 * sequence ecsb_placement_seed starts (seed 0, the default: no pad), so every freshly built
 * world sits at a freshly drawn placement (harness/core.c says why).
 */
#define ECSB_PLACEMENT_MAX_PAD (63u * ECSB_BLOCK_ALIGN)
void *ecsb_block_alloc(size_t size);
void ecsb_block_free(void *ptr);
void ecsb_placement_seed(uint64_t seed);
/* The next pad of the sequence (what the next block gets); 0 without a seed. */
size_t ecsb_placement_pad(void);

/* ---- world configuration ----------------------------------------------------------------- */

typedef struct ecsb_world_config {
    uint32_t type_count;                 /* 1 .. ECSB_MAX_TYPES */
    /* Bytes per value, 0 .. ECSB_MAX_TYPE_SIZE; 0 makes the type a tag (ECSB_TAG above). */
    uint32_t type_size[ECSB_MAX_TYPES];
    /*
     * Alignment of each type's values: a power of two up to ECSB_MAX_TYPE_ALIGN that divides
     * the size (as in C, a size is a multiple of its alignment); 0 = the natural alignment,
     * ecsb_type_align(). Every pointer to a value a strategy hands out (add, get, query
     * columns) is a multiple of it. A tag's must be 0 (its pointer, ECSB_TAG, is 64-aligned).
     */
    uint32_t type_align[ECSB_MAX_TYPES];
    /*
     * Declared queries: the type sets the program will query (as EnTT users declare groups and
     * flecs users create cached queries). A strategy may keep structures for them, updated in
     * add/remove/destroy (never built lazily inside a query); every strategy answers any query,
     * declared or not, with the same visits. Each must pass ecsb_query_check. A declared query
     * with exclusions is kept as such: an entity leaves its structure when it gains an
     * excluded type and joins it when it loses the last one.
     */
    uint32_t query_count;                /* 0 .. ECSB_MAX_QUERIES */
    ecsb_query queries[ECSB_MAX_QUERIES];
    uint32_t max_entities;               /* live entities at most; 0 = ECSB_MAX_ENTITIES */
    uint32_t initial_capacity;           /* entities to reserve up front (a hint); 0 = small */
    const ecsb_allocator *allocator;     /* NULL = ecsb_libc_allocator */
    /*
     * Testing aid: the first id a strategy with a never-reusing id counter (flat_map) hands
     * out; 0 = its default. Lets tests reach counter wrap-around without 2^32 creations.
     * Strategies that reuse ids ignore it.
     */
    uint32_t first_id;
    /*
     * Testing aid: the generation a never-used entity slot starts at, for strategies with
     * per-slot generations; 0 = their default (1). Lets tests drive a slot to the end of its
     * generations, and so to retirement, in a few creations. Others ignore it.
     */
    uint32_t first_generation;
} ecsb_world_config;

/* ECSB_OK, or ECSB_ERR_CONFIG when a field is out of range. Shared by every strategy. */
ecsb_status ecsb_config_check(const ecsb_world_config *config);

/* The alignment type t's values get: type_align[t], or when 0 the largest power of two that
 * divides the size, at most 16 (1 for a tag). Requires a config that passed ecsb_config_check. */
uint32_t ecsb_type_align(const ecsb_world_config *config, ecsb_type t);

/* The config's tags (bit t when type_size[t] is 0). */
uint32_t ecsb_config_tags(const ecsb_world_config *config);

/*
 * Check a query against a world of type_count types: ECSB_ERR_QUERY when count is 0 or above
 * ECSB_MAX_QUERY_TYPES, or exclude_count above ECSB_MAX_QUERY_EXCLUDES, or a type appears
 * twice (among types, among exclude, or in both: excluding an included type); else
 * ECSB_ERR_TYPE when a type of either list is out of range; else ECSB_OK with *mask = the set
 * of its included types (bit t for type t; ecsb_query_without gives the excluded set).
 */
ecsb_status ecsb_query_check(const ecsb_query *q, uint32_t type_count, uint32_t *mask);

/* ---- iteration callbacks ----------------------------------------------------------------- */

/*
 * Called once per run of matched entities: `count` (>= 1) entities, and for query type j
 * (in the query's order) columns[j], a pointer to their `count` values of that type stored
 * contiguously, the i-th entity's value at columns[j] + i * size (a tag's column is ECSB_TAG,
 * size 0: nothing to read; excluded types have no column). Layouts that store matched
 * entities together (tables, groups) hand out long runs; the others runs of one. The loop a
 * caller writes is `for (i = 0; i < count; i++) ...`, over raw pointers it can vectorize.
 * When the query sets `entities`, columns[count of the query's types] points to the run's
 * `count` entity handles (const ecsb_entity), the i-th the handle of the entity whose values
 * are the i-th of every column; valid only during the call. When it does not, that column is
 * not computed at all (scenario queries are constants: the test folds away), so asking costs
 * nothing to the queries that do not. Where a layout stores handles beside the values (a
 * table's entity column) the column points into it; elsewhere the strategy fills a small
 * buffer, so a long run may come as several shorter ones when handles are asked for.
 * A callback may read and write the values it is handed; it must not change the world's
 * structure (no create, destroy, add or remove) during the visit.
 */
typedef void (*ecsb_query_fn)(void *ctx, size_t count, void *const *columns);

/* ---- the type-erased strategy interface (tests and tools only) --------------------------- */

/*
 * One slot per world operation. `world` points to world_size bytes, aligned to 64, owned by
 * the caller. Every slot but world_init requires a world that world_init made and world_fini
 * has not yet released. Costs are the strategy's own (see its header comment).
 */
typedef struct ecsb_vtable {
    size_t world_size; /* bytes of the strategy's world struct */

    /* Make an empty world. ECSB_ERR_CONFIG or ECSB_ERR_NOMEM; on failure nothing to release. */
    ecsb_status (*world_init)(void *world, const ecsb_world_config *config);
    /* Release everything the world holds. */
    void (*world_fini)(void *world);

    /* New entity with no components into *out. ECSB_ERR_CAPACITY, ECSB_ERR_NOMEM. */
    ecsb_status (*entity_create)(void *world, ecsb_entity *out);
    /*
     * New entity holding exactly types[0 .. count) into *out, at once (flecs bulk init, Bevy
     * bundles): a table layout appends one row instead of moving it once per type.
     * values_out[j] receives the storage of types[j], as component_add's *value_out (contents
     * unspecified until written, valid until the next structural change); values_out may be
     * NULL when count is 0, which is a plain create. Checked in this order before anything
     * changes: ECSB_ERR_TYPE (a type >= type_count), ECSB_ERR_PRESENT (a type twice; so is
     * any list longer than type_count), ECSB_ERR_CAPACITY, ECSB_ERR_NOMEM; on failure no
     * entity is made, the world is unchanged (the next create issues the same handle),
     * *out is ECSB_ENTITY_NULL and every values_out[j] NULL.
     */
    ecsb_status (*entity_spawn)(void *world, const ecsb_type *types, uint32_t count,
                                ecsb_entity *out, void **values_out);
    /* Destroy an entity and every component it holds. ECSB_ERR_STALE. */
    ecsb_status (*entity_destroy)(void *world, ecsb_entity entity);
    /* True when the handle names a live entity of this world. */
    bool (*entity_alive)(const void *world, ecsb_entity entity);
    /* Live entities. */
    size_t (*entity_count)(const void *world);

    /*
     * Attach a component of `type`; *value_out receives its storage, `type_size` bytes whose
     * contents are unspecified until the caller writes them, valid until the next structural
     * change (a tag: ECSB_TAG, zero bytes). ECSB_ERR_TYPE, ECSB_ERR_STALE, ECSB_ERR_PRESENT, ECSB_ERR_NOMEM
     * (checked in that order); on failure *value_out is NULL.
     */
    ecsb_status (*component_add)(void *world, ecsb_entity entity, ecsb_type type,
                                 void **value_out);
    /*
     * Detach a component. ECSB_ERR_TYPE, ECSB_ERR_STALE, ECSB_ERR_ABSENT, in that order; and
     * ECSB_ERR_NOMEM where the entity's other values move to storage that must grow first
     * (archetype: the table of the smaller set).
     */
    ecsb_status (*component_remove)(void *world, ecsb_entity entity, ecsb_type type);
    /* The component's value, or NULL when the type is bad, the entity stale, or it is absent
     * (a tag the entity holds: ECSB_TAG, so non-NULL still means present). */
    void *(*component_get)(void *world, ecsb_entity entity, ecsb_type type);
    /* True when the live entity holds the component (false for bad type or stale entity). */
    bool (*component_has)(const void *world, ecsb_entity entity, ecsb_type type);
    /* Entities holding `type` (0 for a bad type). */
    size_t (*component_count)(const void *world, ecsb_type type);

    /*
     * Visit every entity holding all of q's types and none of its excluded ones exactly once,
     * in runs (ecsb_query_fn), in the strategy's order; declared or not, the visits are the
     * same; with q->entities, the
     * runs carry the entities' handles as one more column. The one iteration primitive: a
     * one-type query visits a type's holders, a two-type query pairs them. ECSB_ERR_QUERY or
     * ECSB_ERR_TYPE (ecsb_query_check's order) with no visit; else ECSB_OK. A callback may
     * write values and read the world (get, has, nested queries), never change its structure:
     * in test builds (ECSB_CHECKED) create, spawn, destroy, add and remove on a world inside
     * one of its own queries return ECSB_ERR_ITERATING and change nothing
     * (harness/strategy_impl.h).
     */
    ecsb_status (*query)(void *world, const ecsb_query *q, ecsb_query_fn fn, void *ctx);

    /* Check every internal invariant; true when the world is consistent. O(size). */
    bool (*world_valid)(const void *world);
    /* Bytes the world holds (its allocations plus world_size). */
    size_t (*world_bytes)(const void *world);
    /*
     * Testing aid: damage internal invariant number `which` (0, 1, 2, ...) in a way
     * world_valid must detect, reversibly: applying the same number again restores the world
     * exactly. Returns 1 when applied, 0 when this world's state has nothing to damage that
     * way (e.g. it needs two holders of a type), -1 when `which` is past the last number.
     */
    int (*world_corrupt)(void *world, unsigned which);
} ecsb_vtable;

/* ---- scenarios, as a strategy provides them ---------------------------------------------- */

/* The scenarios every strategy runs; order = scenarios/scenarios.def. */
typedef enum ecsb_scenario_id {
#define ECSB_SCENARIO(name, ...) ECSB_SCENARIO_##name,
#include "scenarios/scenarios.def"
#undef ECSB_SCENARIO
    ECSB_SCENARIO_COUNT
} ecsb_scenario_id;

/* ---- scenario parameters ----------------------------------------------------------------- */

#define ECSB_MAX_PARAMS 5u       /* parameters one scenario declares, at most */
#define ECSB_MAX_SWEEP 12u       /* values in a parameter's default sweep, at most */

/*
 * A run-time parameter a scenario declares: what the user sets with name=value. A value is a
 * double; an enumeration (choices != NULL) takes one of its names and stores its index. The
 * default reproduces the fixed scenario of earlier versions exactly.
 */
typedef struct ecsb_param_info {
    const char *name;     /* "match": lower case, digits and _ */
    const char *meaning;  /* one line */
    double def;           /* the default (an enumeration: the index of its name) */
    double min, max;      /* the valid range, inclusive (an enumeration: 0 .. names - 1) */
    bool integer;         /* only whole numbers */
    const char *const *choices; /* an enumeration's names, NULL-terminated; NULL for numbers */
    double sweep[ECSB_MAX_SWEEP]; /* the default sweep of make sweep(s) */
    uint32_t sweep_count;
    bool geometric;       /* the sweep's values grow by a factor: plots use a log axis */
    double multiple_of;   /* when not 0, only multiples of it (move3's size: of 4, for floats) */
} ecsb_param_info;

/* The values of a scenario's parameters, in its declaration order (ecsb_scenario_info.params). */
typedef struct ecsb_params {
    double v[ECSB_MAX_PARAMS];
} ecsb_params;

/* Every scenario's parameter 0: the order of its world (ECSB_ORDER_*): regular (in order, i mod
 * k), shuffled (membership and creation order drawn), aged (lived in: scenarios/common.h). */
#define ECSB_PARAM_ORDER 0u
enum { ECSB_ORDER_REGULAR = 0, ECSB_ORDER_SHUFFLED = 1, ECSB_ORDER_AGED = 2 };

/*
 * One scenario compiled against one strategy (or the floor). The harness calls
 * prepare (untimed), then pass (timed) one or more times, then checksum and release (untimed).
 * A scenario whose passes consume their set-up (platformer empties the world) is prepared
 * again before every pass; see ecsb_scenario_info.consumes_setup.
 */
typedef struct ecsb_scenario_impl {
    /* Build the scenario's starting state for size n and parameter values p (valid for the
     * scenario: ecsb_params_set checks them) into *state; on failure *state is NULL. */
    ecsb_status (*prepare)(void **state, uint64_t n, const ecsb_params *p);
    /* The timed work: one pass. */
    ecsb_status (*pass)(void *state);
    /* A checksum of everything the passes so far computed; every strategy must agree. */
    uint64_t (*checksum)(void *state);
    /* Free the state. */
    void (*release)(void *state);
    /* After prepare: bytes the scenario's storage holds (the world's world_bytes, or the
     * floor's arrays) and the live entities it stores them for. */
    void (*memory)(void *state, uint64_t *bytes, uint64_t *entities);
} ecsb_scenario_impl;

/* Default sizes of a scenario in make bench (see scenarios/scenarios.def). */
typedef enum ecsb_size_set {
    ECSB_SIZES_SWEEP,    /* 4000 and 256 .. 4,194,304 by powers of 4: the articles' two */
    ECSB_SIZES_STANDARD, /* 4000, 65536, 1,048,576 */
    ECSB_SIZES_FRAME,    /* 4000, 16384; large: 65536, 262144 (a warm-up of ~200 frames each) */
} ecsb_size_set;

typedef struct ecsb_scenario_info {
    const char *name;        /* "platformer", as in scenarios/scenarios.def */
    const char *summary;     /* one line */
    const char *item;        /* what one timed item is: "component op", "matched pair" */
    bool consumes_setup;     /* each pass needs a fresh prepare */
    bool changes_structure;  /* a pass creates/destroys/adds/removes; else values only */
    ecsb_size_set sizes;     /* default sizes */
    /* Items one pass processes at size n with parameters p (time per item = pass time /
     * items). */
    uint64_t (*items_per_pass)(uint64_t n, const ecsb_params *p);
    /* Untimed passes that bring a freshly prepared world to the steady state it is timed in
     * (1 for most; frame: until every slot has turned over once). The harness caps it for
     * large n (harness/timing.h, ecsb_warmup_passes). */
    uint64_t (*warmup_passes)(uint64_t n, const ecsb_params *p);
    /* Its run-time parameters: params[0] is always `order` (ECSB_PARAM_ORDER). */
    const ecsb_param_info *params;
    uint32_t param_count;
} ecsb_scenario_info;

extern const ecsb_scenario_info ecsb_scenarios[ECSB_SCENARIO_COUNT];

/*
 * What a pass must move per item, for the hardware line (docs/machine.md): the bytes it reads
 * and writes per item in the limit's layout (the floor's where the scenario has no limit), and
 * the `ecsbench machine` kernel (harness/machine.h) that does the same operation over the same
 * widths, whose bandwidth at the pass's working set (items x read bytes) prices it. Zero bytes
 * and a NULL kernel: not an iteration scenario, no line. Declared once per scenario in
 * scenarios/scenarios.c; raw.json's context carries it as ecsb_traffic_<scenario>.
 */
typedef struct ecsb_scenario_traffic {
    double read_bytes, write_bytes;
    const char *kernel;
} ecsb_scenario_traffic;
extern const ecsb_scenario_traffic ecsb_traffic[ECSB_SCENARIO_COUNT];
/*
 * The allocator every scenario's world uses (its config.allocator); NULL = the C library's.
 * A testing aid: tests point it at a counting allocator to check what a pass allocates.
 */
extern const ecsb_allocator *ecsb_scenario_allocator;
/*
 * When set, scenarios give their worlds no capacity hint (initial_capacity 0), so the memory
 * read after prepare is what a world grown from empty holds; when clear (the default) they
 * reserve for the entities they will hold. The suite records both (bench.c).
 */
extern bool ecsb_scenario_grow_from_empty;

/* The floor: each scenario's arithmetic on plain C arrays in the articles' starting layout. */
extern const ecsb_scenario_impl ecsb_floor[ECSB_SCENARIO_COUNT];
/*
 * The limit: the same arithmetic on arrays holding only what a pass touches, the least memory
 * traffic any layout can have. Only scenarios where a layout can move less than the floor have
 * one; the others' entries are all NULL (prepare == NULL).
 */
extern const ecsb_scenario_impl ecsb_limit[ECSB_SCENARIO_COUNT];

/*
 * What a scenario's world looks like, for diagnostics and tests (never timed): read through
 * one query per type with the handle column, after prepare. An entity's id is the low 32 bits
 * of its handle (every registered strategy keeps its slot or id there).
 */
typedef struct ecsb_world_look {
    /* Of the successive entities each type's query visits, the fraction whose ids increase:
     * 1 when storage follows id order (every layout in a regular or shuffled world: ids are
     * issued in creation order), about 0.5 when it follows none (an aged world's swap-remove
     * layouts, a hash table in any world). */
    double in_order;
    uint64_t pairs;       /* the successive visits counted */
    uint64_t fingerprint; /* every visit in order: its type, id and first 4 value bytes */
} ecsb_world_look;

/* ---- strategies and the registry ---------------------------------------------------------- */

typedef struct ecsb_strategy {
    const char *name;     /* = file name = registry entry = CSV value = plot legend */
    const char *summary;  /* one line: the idea */
    const ecsb_vtable *ops;
    ecsb_scenario_impl scenarios[ECSB_SCENARIO_COUNT];
    /* Per scenario: how the world a prepare built looks (scenarios/body.h). */
    void (*look[ECSB_SCENARIO_COUNT])(void *state, ecsb_world_look *out);
    /*
     * Sizes a strategy cannot run in reasonable time, per scenario: largest_n[s] = the largest
     * N the suite runs scenario s at on this strategy (0 = no cap), and why_capped[s] says why
     * (its cost, e.g. "set-up is O(N^2)"). make bench leaves larger cells out and says so;
     * `ecsbench run` warns. Set with ECSB_STRATEGY_CAPS before including strategy_impl.h.
     */
    uint64_t largest_n[ECSB_SCENARIO_COUNT];
    const char *why_capped[ECSB_SCENARIO_COUNT];
    /* The same for the scenario's order=shuffled worlds only (ECSB_CAP_SHUFFLED): a set-up
     * whose cost depends on the order components arrive in. Set with
     * ECSB_STRATEGY_SHUFFLED_CAPS; ecsb_strategy_cap picks. */
    uint64_t largest_n_shuffled[ECSB_SCENARIO_COUNT];
    const char *why_capped_shuffled[ECSB_SCENARIO_COUNT];
    /*
     * True when a value pointer from component_add or component_get stays valid, at the same
     * address, until that component is removed or its entity destroyed, across every other
     * operation (growth included): more than the vtable promises. Tests hold it to that.
     * Set with ECSB_STRATEGY_STABLE_POINTERS before including strategy_impl.h.
     */
    bool stable_pointers;
    /*
     * Lives of one entity slot after which its handles recur: versions that wrap, as EnTT's
     * do (paged_sparse_set: 255), so a handle held that long aliases the slot's new entity
     * and memory stays bounded under churn. 0 = handles never recur (a slot whose generation
     * is used up is retired, or ids are never reused). Tests hold it to exactly that. Set
     * with ECSB_STRATEGY_VERSIONS_WRAP <lives> before including strategy_impl.h.
     */
    uint32_t versions_wrap;
    /*
     * A library used as its users use it ("flecs v4.1.6"), not a design of this suite; NULL
     * for the designs. `ecsbench list` marks libraries and raw.json's context lists them
     * (ecsb_libraries), so tables and charts can set them apart. Set with
     * ECSB_STRATEGY_LIBRARY "name version" before including strategy_impl.h.
     */
    const char *library;
    /*
     * Tests that cannot apply to the strategy (a library's own limits: its allocator, its
     * generation width): {test-name pattern (* and ?), why}, ending in {NULL, NULL}; NULL =
     * none. tests/main.c skips each matching test and prints why. Set with
     * ECSB_STRATEGY_NOT_APPLICABLE ECSB_NOT_APPLICABLE("pattern", "why") ... .
     */
    const struct ecsb_not_applicable {
        const char *test;
        const char *why;
    } *not_applicable;
} ecsb_strategy;

/* The largest N scenario s runs at on st with parameters p (0: no cap), and why in *why. */
static inline uint64_t ecsb_strategy_cap(const ecsb_strategy *st, ecsb_scenario_id s,
                                         const ecsb_params *p, const char **why)
{
    uint64_t cap = st->largest_n[s];
    *why = st->why_capped[s];
    uint64_t shuffled = st->largest_n_shuffled[s];
    if (p->v[ECSB_PARAM_ORDER] == ECSB_ORDER_SHUFFLED && shuffled && (!cap || shuffled < cap)) {
        cap = shuffled;
        *why = st->why_capped_shuffled[s];
    }
    /* An aged world's set-up is about 2N deaths at random, as churn_iterate's churn and
     * entity_cycle's shuffled destroys are: the tighter of those two caps. (flat_map: 4000,
     * where each random destroy shifts its sorted vectors; at 65,536 its aged set-up alone took
     * about 190 s of a make bench, more than the whole budget.) */
    if (p->v[ECSB_PARAM_ORDER] == ECSB_ORDER_AGED) {
        uint64_t churn = st->largest_n[ECSB_SCENARIO_churn_iterate];
        uint64_t destroys = st->largest_n_shuffled[ECSB_SCENARIO_entity_cycle];
        if (churn && (!cap || churn < cap)) {
            cap = churn;
            *why = st->why_capped[ECSB_SCENARIO_churn_iterate];
        }
        if (destroys && (!cap || destroys < cap)) {
            cap = destroys;
            *why = st->why_capped_shuffled[ECSB_SCENARIO_entity_cycle];
        }
    }
    return cap;
}

/* Registered strategies, in strategies/strategies.def order (= legend order). */
extern const ecsb_strategy *const ecsb_strategies[];
extern const size_t ecsb_strategy_count;

/* Lookup by name; NULL when unknown. */
const ecsb_strategy *ecsb_strategy_find(const char *name);
/* Lookup by name; ECSB_SCENARIO_COUNT when unknown. */
ecsb_scenario_id ecsb_scenario_find(const char *name);

/* Scenario s's default parameter values. */
ecsb_params ecsb_params_default(ecsb_scenario_id s);
/* The index of scenario s's parameter `name` (length len), or -1. */
int ecsb_param_find(ecsb_scenario_id s, const char *name, size_t len);
/*
 * Set one parameter of scenario s from "name=value" (a number, or an enumeration's name).
 * True on success; else false with a message in err that says what is wrong and lists the
 * valid names or the range, and *p unchanged.
 */
bool ecsb_params_set(ecsb_scenario_id s, const char *assignment, ecsb_params *p, char *err,
                     size_t err_size);
/* Parameter i's value as text ("0.25", "shuffled"), to buf. */
void ecsb_param_format(ecsb_scenario_id s, uint32_t i, double value, char *buf, size_t size);
/*
 * p as text: every parameter "name=value" joined by `sep`; with only_changed, just those that
 * differ from the default (empty when none do). To buf.
 */
void ecsb_params_format(ecsb_scenario_id s, const ecsb_params *p, bool only_changed,
                        const char *sep, char *buf, size_t size);

#endif /* ECSB_H */
