/*
 * simple_iter — noctjs/ecs-benchmark's simple_iter, scaled by N.
 *
 * Untimed set-up: N entities of the u32 types A..E, created as noctjs creates them, the four
 * kinds in turn: {A,B}, {A,B,C}, {A,B,C,D}, {A,B,C,E}, {A,B}, ... (simple_iter_kind); the
 * world declares the queries (A,B), (C,D), (C,E). order=shuffled: the entity of serial s has
 * the kind of its rank and the serials are created in a shuffled order (ecsb_world_order),
 * the same counts of each kind. Timed pass: three systems, over (A,B), (C,D)
 * and (C,E), each swapping its entity's two values and updating both (v = 3v + 1: a plain swap
 * would undo itself on the next pass and hide a doubled visit). Item: matched entity (N +
 * N/4 + N/4 per pass). The checksum reads all five types of every entity, then the visits.
 * Limit: yes. The floor keeps C for three kinds in one array and walks it at a stride of 3 for
 * (C,D) and again for (C,E), moving every cache line of C twice for a third of its values each
 * time; tables holding only {A,B,C,D} and {A,B,C,E} entities move just the matched C, D and E.
 */
#include "scenarios/defs/simple_iter.h"
typedef u32_world_state simple_iter_state;

/* The types of each kind, as bit masks. */
static const uint32_t simple_iter_types[4] = {0x3, 0x7, 0xf, 0x17};

static uint32_t simple_iter_types_of(const void *ctx, uint64_t serial, uint64_t rank)
{
    (void)ctx, (void)serial;
    return simple_iter_types[simple_iter_kind(rank)];
}

static ecsb_status simple_iter_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    ecsb_world_config config = {
        .type_count = 5,
        .query_count = 3,
        .queries = {{2, {SIMPLE_ITER_A, SIMPLE_ITER_B}, false, 0, {0}},
                    {2, {SIMPLE_ITER_C, SIMPLE_ITER_D}, false, 0, {0}},
                    {2, {SIMPLE_ITER_C, SIMPLE_ITER_E}, false, 0, {0}}},
    };
    return u32_world_prepare(out, n, p, &config, SIMPLE_ITER_SALT, 0, simple_iter_types_of,
                             NULL);
}

ECSB_SCENARIO_MEMORY(simple_iter, simple_iter_state)

static const ecsb_query simple_iter_queries[3] = {
    {.count = 2, .types = {SIMPLE_ITER_A, SIMPLE_ITER_B}},
    {.count = 2, .types = {SIMPLE_ITER_C, SIMPLE_ITER_D}},
    {.count = 2, .types = {SIMPLE_ITER_C, SIMPLE_ITER_E}},
};

/* One system: query q's swap, unless an earlier one failed (a constant query per call, as
 * in packed_5). */
ECSB_INLINE ecsb_status simple_iter_system(simple_iter_state *s, ecsb_status st, int q,
                                           uint64_t *visits)
{
    return st == ECSB_OK ? query(&s->w, &simple_iter_queries[q], u32_swap_run, visits) : st;
}

static ecsb_status simple_iter_pass(void *state)
{
    simple_iter_state *s = state;
    uint64_t visits = 0; /* a register: see scenarios/body.h */
    ecsb_status st = simple_iter_system(s, ECSB_OK, 0, &visits);
    st = simple_iter_system(s, st, 1, &visits);
    st = simple_iter_system(s, st, 2, &visits);
    s->visits += visits;
    return st;
}

static uint64_t simple_iter_checksum(void *state) { return u32_world_checksum(state); }
static void simple_iter_release(void *state) { u32_world_release(state); }
