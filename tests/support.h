/*
 * support.h — what every test suite shares: the strategy under test, a counting allocator that
 * fails on demand, worlds made through the type-erased vtable, value patterns, visit
 * collectors and snapshots of a world's whole observable state.
 *
 * Every test talks to a strategy only through ecsb_strategy.ops (the vtable) and its scenario
 * entry points, so a strategy added to strategies/strategies.def gets every test with no test
 * code of its own. tests/main.c runs one cmocka group per strategy and sets tst_strategy
 * before each group.
 */
#ifndef ECSB_TESTS_SUPPORT_H
#define ECSB_TESTS_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "harness/ecsb.h"

/* The template strategy: compiled in, not registered, tested so that it never rots. */
extern const ecsb_strategy ecsb_strategy_template;

/* The strategy the running group tests (set by tests/main.c before each group). */
extern const ecsb_strategy *tst_strategy;

/* Fail the running test with a message that names the strategy, file and line. */
#define TST_FAIL(...) tst_fail_at(__FILE__, __LINE__, __VA_ARGS__)
#define TST_CHECK(cond, ...)                                                                   \
    do {                                                                                       \
        if (!(cond))                                                                           \
            TST_FAIL(__VA_ARGS__);                                                             \
    } while (0)
/* Assert a status, printing both as text. */
#define TST_STATUS(got, want, what)                                                            \
    do {                                                                                       \
        ecsb_status tst_got_ = (got), tst_want_ = (want);                                              \
        TST_CHECK(tst_got_ == tst_want_, "%s: got %s, want %s", (what), ecsb_status_str(tst_got_),         \
                  ecsb_status_str(tst_want_));                                                   \
    } while (0)

/*
 * Inside a cmocka test a failure ends the test; elsewhere (the fuzzer) it prints and aborts,
 * so the fuzzer sees a crash and keeps the input.
 */
__attribute__((format(printf, 3, 4), noreturn)) void tst_fail_at(const char *file, int line,
                                                                   const char *fmt, ...);
extern bool tst_under_cmocka; /* set by tests/main.c */
/* What the running test is doing, when set: a failure message ends with it (tst_setup
 * clears it). For a test that runs one check over several cases. */
extern const char *tst_context;
/* Skip the running test, saying why (tests/main.c): for a test that does not apply to the
 * strategy. Call it first, before the test holds anything. */
__attribute__((noreturn)) void tst_skip(const char *why);

/* cmocka per-test fixtures: reset, and after a failure free what the test left behind. */
int tst_setup(void **state);
int tst_teardown(void **state);

/*
 * Test-side memory (models, visit lists, snapshots): like realloc/calloc/free, but every live
 * block is listed, so the teardown after a failed test frees what the test held and
 * LeakSanitizer reports only the strategies' own leaks. Out of memory fails the test.
 */
void *tst_xrealloc(void *ptr, size_t size);
void *tst_xcalloc(size_t count, size_t size);
void tst_xfree(void *ptr);
/* Free every listed block (the teardown does, after a failed test). */
void tst_xfree_all(void);

/* ---- the test allocator ------------------------------------------------------------------ */

/*
 * One per world (its ctx). Counts live blocks and bytes (a leak shows after world_fini),
 * fills fresh bytes with TST_POISON (a strategy that reads bytes it never wrote sees the same
 * garbage every run), and fails the k-th allocation on demand. Each realloc call is one
 * allocation; free never fails.
 */
#define TST_POISON 0xa5

typedef struct tst_block {
    void *ptr;
    size_t size;
} tst_block;

typedef struct tst_alloc {
    ecsb_allocator allocator; /* realloc and free with ctx = this */
    tst_block *blocks;        /* live blocks, exact sizes */
    size_t block_count, block_capacity;
    size_t live_bytes;
    size_t calls;    /* realloc calls so far */
    size_t fail_at;  /* the call number that fails; 0 = none */
    bool persistent; /* every call after fail_at fails too */
    size_t failures; /* injected failures since the last plan */
    size_t bytes_requested; /* sum of new_size over every realloc that succeeded */
    void *world_memory; /* the world's own bytes (freed with the allocator) */
} tst_alloc;

/* ---- worlds through the vtable ----------------------------------------------------------- */

typedef struct tst_world {
    const ecsb_vtable *ops;
    void *w; /* world_size bytes, 64-aligned, poisoned before world_init */
    ecsb_world_config config;
    /* On the heap, not in tst_world: a failed test's stack is gone when its teardown runs. */
    tst_alloc *alloc;
    bool live;        /* world_init succeeded and world_fini has not run */
    bool check_valid; /* the tw_ helpers assert world_valid after every call */
} tst_world;

/* Sizes 4, 8, 24: the three component types most tests use. */
#define TST_TYPES 3
extern const uint32_t tst_sizes[TST_TYPES];

/* A config with the given types, everything else 0 (defaults). */
ecsb_world_config tst_config(uint32_t type_count, const uint32_t *sizes);
/* The usual config: TST_TYPES types of tst_sizes. */
ecsb_world_config tst_config3(void);

/* Memory and an allocator for a world, not yet initialised. */
void tw_open(tst_world *tw);
/* world_init with tw's allocator (whatever config->allocator says); memory poisoned first. */
ecsb_status tw_try_init(tst_world *tw, const ecsb_world_config *config);
/* tw_open + tw_try_init that must succeed. */
void tw_init(tst_world *tw, const ecsb_world_config *config);
/* world_fini (when live), check that every block was freed, release the memory. */
void tw_fini(tst_world *tw);

/* Allocation failure plans for tw's allocator: fail the k-th call from now (1 = the next). */
void tw_fail_in(tst_world *tw, size_t k, bool persistent);
void tw_succeed(tst_world *tw);

/* The operations, asserting success (and world_valid when tw->check_valid). */
ecsb_entity tw_create(tst_world *tw);
/* spawn of types[0 .. count), each value written with tst_pattern(seeds[j]); must succeed. */
ecsb_entity tw_spawn(tst_world *tw, const ecsb_type *types, uint32_t count, const uint64_t *seeds);
void tw_destroy(tst_world *tw, ecsb_entity e);
/* Add `type`, fill its value with tst_pattern(seed); returns the storage. */
void *tw_add(tst_world *tw, ecsb_entity e, ecsb_type type, uint64_t seed);
void tw_remove(tst_world *tw, ecsb_entity e, ecsb_type type);
/* Overwrite a held value through get with tst_pattern(seed). */
void tw_set(tst_world *tw, ecsb_entity e, ecsb_type type, uint64_t seed);
/* Assert the entity is alive and holds `type` with the value tst_pattern(seed). */
void tw_expect_value(tst_world *tw, ecsb_entity e, ecsb_type type, uint64_t seed);
/* Assert the entity is alive and does not hold `type`. */
void tw_expect_absent(tst_world *tw, ecsb_entity e, ecsb_type type);
void tw_expect_valid(tst_world *tw);
/* Assert every operation rejects `e` as stale (alive, get, has, add, remove, destroy). */
void tw_expect_stale(tst_world *tw, ecsb_entity e);

/* ---- values and randomness --------------------------------------------------------------- */

uint64_t tst_mix64(uint64_t x);
/* Deterministic bytes from a seed: distinct seeds give distinct values (for sizes >= 4). */
void tst_pattern(void *dst, size_t size, uint64_t seed);
bool tst_pattern_is(const void *p, size_t size, uint64_t seed);

typedef struct tst_rng {
    uint64_t s;
} tst_rng;
uint64_t tst_rng_next(tst_rng *r);
/* Uniform in [0, n), n > 0. */
uint64_t tst_rng_below(tst_rng *r, uint64_t n);

/* ---- visits ------------------------------------------------------------------------------ */

/*
 * Every entity one query() call with handles visited, in order: its handle (the run's handle
 * column) and copies of its values, column after column. Also counts the visits whose value
 * pointers were not where get(handle, type) points (a handle not aligned with the values).
 */
typedef struct tst_visits {
    ecsb_status status;
    size_t count;
    uint32_t k;                          /* the query's types */
    ecsb_type types[ECSB_MAX_QUERY_TYPES];
    size_t sizes[ECSB_MAX_QUERY_TYPES], width;
    size_t misplaced; /* visits whose value of some type is not at get(handle, type) */
    tst_world *tw;
    ecsb_entity *entities;
    unsigned char *bytes; /* per visit: `width` bytes, the values in the query's order */
    size_t capacity, bytes_capacity;
} tst_visits;

/* Run q (asking for handles, whatever q->entities says) and record its visits. */
void tst_visits_query(tst_visits *v, tst_world *tw, const ecsb_query *q);
/* The recorded value of column j of visit i. */
const unsigned char *tst_visit_value(const tst_visits *v, size_t i, uint32_t j);
/* Index of the one visit of `e`, or SIZE_MAX; fails the test when `e` was visited twice. */
size_t tst_visits_find(const tst_visits *v, ecsb_entity e);
void tst_visits_free(tst_visits *v);

/*
 * Every value tuple one query() call handed out: per matched entity, its values in the
 * query's column order, one after another (`width` bytes), sorted so that two collections
 * compare as multisets. Also counts the runs and the pointers that broke the contract
 * (a run of 0, a NULL column, a column not aligned to its type's alignment).
 */
typedef struct tst_tuples {
    ecsb_status status;
    size_t count, runs, width;
    size_t sizes[ECSB_MAX_QUERY_TYPES];
    uint32_t aligns[ECSB_MAX_QUERY_TYPES];
    uint32_t k;
    size_t bad_runs, misaligned;
    size_t bad_tags; /* a tag's column other than ECSB_TAG */
    unsigned char *bytes;
    size_t capacity;
} tst_tuples;

/* Run q on the world, collect and sort (bad query: status set, nothing collected). */
void tst_tuples_query(tst_tuples *v, tst_world *tw, const ecsb_query *q);
/* Sort the tuples (tst_tuples_query does); for expected sets built by hand. */
void tst_tuples_sort(tst_tuples *v);
/* Append one tuple of width bytes (for expected sets). */
void tst_tuples_push(tst_tuples *v, const void *tuple);
/* NULL when both hold the same tuples, else a description (static buffer). */
const char *tst_tuples_diff(const tst_tuples *got, const tst_tuples *want);
void tst_tuples_free(tst_tuples *v);
/* The query {types[0], ..., types[n - 1]}. */
ecsb_query tst_query(uint32_t n, const ecsb_type *types);
/* The same, excluding excluded[0 .. x). */
ecsb_query tst_query_without(uint32_t n, const ecsb_type *types, uint32_t x,
                             const ecsb_type *excluded);

/* ---- snapshots --------------------------------------------------------------------------- */

/*
 * Everything a world shows through the vtable about a list of tracked entities: the counts,
 * each tracked entity's handle value and alive/has/get for every type, the visit sets (by
 * handle) of the query of {t} for every type and of {a, b} for every ordered pair a != b, the
 * tuples of query() over every subset of the first four types, and world_valid. Visits are recorded by position in the tracked list;
 * handles are compared by value (the same operations on two worlds of one strategy must issue
 * the same handles: a failed create that used up an id shows).
 */
typedef struct tst_snapshot {
    size_t entity_count;
    size_t component_count[ECSB_MAX_TYPES];
    unsigned char *state; /* per tracked entity: alive, then per type: has, got, value */
    size_t state_bytes, entity_bytes;
    ecsb_entity *handles;  /* the tracked handles, in order */
    size_t handle_count;
    unsigned char *visits; /* every visit set, each sorted, one after another */
    size_t visits_bytes;
    unsigned char *queries; /* every query's status, counts and sorted tuples */
    size_t queries_bytes;
    size_t untracked_visits;  /* visits of entities that are not live tracked ones */
    size_t duplicate_handles; /* live tracked entities sharing a handle */
    bool valid;
} tst_snapshot;

void tst_snapshot_take(tst_snapshot *s, tst_world *tw, const ecsb_entity *tracked, size_t n);
/* NULL when equal, else a description of the first difference (static buffer). */
const char *tst_snapshot_diff(const tst_snapshot *before, const tst_snapshot *after);
void tst_snapshot_free(tst_snapshot *s);

#endif /* ECSB_TESTS_SUPPORT_H */
