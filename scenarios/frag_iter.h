/*
 * frag_iter — noctjs/ecs-benchmark's frag_iter, scaled by N.
 *
 * Untimed set-up: 27 u32 types, T0 .. T25 and Data; N entities created as noctjs creates them,
 * the 26 kinds in turn: {T0, Data}, {T1, Data}, ..., {T25, Data}, {T0, Data}, ... (entity i
 * holds T(i % 26)); the world declares the queries (Data) and (T25). Timed pass: every Data
 * updated (v = 3v + 1), then every T25. Item: entity visited (N + N/26 per pass). The checksum
 * reads all 27 types of every entity, then the visit count.
 * Limit: none. The floor holds Data for every entity and T25 packed: exactly what is touched.
 * order=shuffled: the entity of serial s holds T(rank % 26), ranks and creation order drawn
 * from fixed seeds (ecsb_world_order): the same count of each kind.
 * Parameter kinds (1 .. 832, default 26; sweep 1, 4, 26, 104, 416, 832): the entity of rank r
 * is of kind r % kinds, holding Data, T(kind % 26) and the extra types X(j) of the bits of
 * kind / 26 (scenarios/common.h): the number of distinct component sets, at the same N. A
 * table layout gets one table per kind, the others one more type per entity at most.
 */
#include "scenarios/defs/frag_iter.h"
typedef u32_world_state frag_iter_state;

/* Data, T(kind % 26) and the extra types of kind / 26, for the kind of `rank`. */
static uint32_t frag_iter_types_of(const void *ctx, uint64_t serial, uint64_t rank)
{
    const uint32_t kinds = *(const uint32_t *)ctx, kind = (uint32_t)(rank % kinds);
    (void)serial;
    uint32_t types = 0;
    for (uint32_t t = 0; t < frag_iter_type_count(kinds); t++)
        types |= (uint32_t)frag_iter_holds(kind, t) << t;
    return types;
}

/* Each entity gets Data first, then its X types, then its T. */
static ecsb_status frag_iter_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    const uint32_t kinds = frag_iter_kinds(p);
    ecsb_world_config config = {
        .type_count = frag_iter_type_count(kinds),
        .query_count = 2,
        .queries = {{1, {FRAG_ITER_DATA}, false, 0, {0}}, {1, {FRAG_ITER_LAST}, false, 0, {0}}},
    };
    return u32_world_prepare(out, n, p, &config, FRAG_ITER_SALT, FRAG_ITER_DATA,
                             frag_iter_types_of, &kinds);
}

ECSB_SCENARIO_MEMORY(frag_iter, frag_iter_state)

static const ecsb_query frag_iter_data_query = {.count = 1, .types = {FRAG_ITER_DATA}};
static const ecsb_query frag_iter_last_query = {.count = 1, .types = {FRAG_ITER_LAST}};

static ecsb_status frag_iter_pass(void *state)
{
    frag_iter_state *s = state;
    uint64_t visits = 0; /* a register: see scenarios/body.h */
    ecsb_status st = query(&s->w, &frag_iter_data_query, u32_step_run, &visits);
    if (st == ECSB_OK)
        st = query(&s->w, &frag_iter_last_query, u32_step_run, &visits);
    s->visits += visits;
    return st;
}

static uint64_t frag_iter_checksum(void *state) { return u32_world_checksum(state); }
static void frag_iter_release(void *state) { u32_world_release(state); }
