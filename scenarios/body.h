/*
 * body.h — what the scenario bodies share (never the floor or limit): they are compiled
 * against one strategy's static functions, after harness/strategy.h.
 */
#ifndef ECSB_SCENARIOS_BODY_H
#define ECSB_SCENARIOS_BODY_H

#include "scenarios/common.h"

/*
 * Every scenario body defines <name>_memory as this: the world's bytes and live entities,
 * read after prepare.
 */
#define ECSB_SCENARIO_MEMORY(name, state_type)                                                 \
    static void name##_memory(void *state, uint64_t *bytes, uint64_t *entities)               \
    {                                                                                         \
        state_type *s_ = state;                                                               \
        *bytes = world_bytes(&s_->w);                                                         \
        *entities = entity_count(&s_->w);                                                     \
    }

/*
 * Visits are counted into a local of the pass (ctx points to it) and added to the state once
 * per pass: with the strategy's query and the run callback inlined into the pass, the local
 * lives in a register, so a run costs one add whether runs are long (tables, groups) or one
 * entity each (lookups). A counter in the state would be a memory read-modify-write per run,
 * which charges the runs-of-one layouts more than the others.
 */

/* A query run over one u32 column: every value updated; ctx counts the visits (uint64_t). */
ECSB_INLINE void u32_step_run(void *ctx, size_t count, void *const *columns)
{
    uint32_t *restrict v = columns[0];
    for (size_t i = 0; i < count; i++)
        v[i] = ecsb_u32_step(v[i]);
    *(uint64_t *)ctx += count;
}

/* A query run over two u32 columns: each entity's two values swap places, both updated. */
ECSB_INLINE void u32_swap_run(void *ctx, size_t count, void *const *columns)
{
    uint32_t *restrict x = columns[0];
    uint32_t *restrict y = columns[1];
    for (size_t i = 0; i < count; i++) {
        uint32_t t = x[i];
        x[i] = ecsb_u32_step(y[i]);
        y[i] = ecsb_u32_step(t);
    }
    *(uint64_t *)ctx += count;
}

/*
 * Fold every u32 value of types 0 .. type_count-1 of the given entities, in order, into h
 * (ECSB_ABSENT for a component an entity does not hold): untimed, for checksum().
 */
static uint64_t u32_world_fold(world *w, const ecsb_entity *entities, uint64_t n,
                               uint32_t type_count, uint64_t h)
{
    for (uint64_t i = 0; i < n; i++)
        for (uint32_t t = 0; t < type_count; t++) {
            const uint32_t *v = component_get(w, entities[i], t);
            h = ecsb_mix(h, v ? *v : ECSB_ABSENT);
        }
    return h;
}

#endif
