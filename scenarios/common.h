/*
 * common.h — what every scenario body shares: the checksum mix, state allocation, and the
 * value each entity starts with. Plain C, no strategy functions: the floor uses it too.
 */
#ifndef ECSB_SCENARIOS_COMMON_H
#define ECSB_SCENARIOS_COMMON_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness/ecsb.h"

#define ECSB_CHECKSUM_SEED 0x243f6a8885a308d3ull

/* Order-sensitive 64-bit mix: a lost, duplicated, swapped or wrong value changes the result. */
static inline uint64_t ecsb_mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdull;
    return h ^ (h >> 33);
}

static inline uint64_t ecsb_double_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* Zeroed, 64-byte aligned scenario state (worlds want cache-line alignment); NULL on failure. */
static inline void *ecsb_state_alloc(size_t size)
{
    size_t rounded = (size + 63) & ~(size_t)63;
    void *p = aligned_alloc(64, rounded);
    if (p)
        memset(p, 0, rounded);
    return p;
}

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

/* platformer: hp of original entity i, and of the two spawns of round r. */
static inline int32_t platformer_original_hp(uint64_t i) { return (int32_t)(i * 7 + 3); }
static inline int32_t platformer_spawn_hp(uint64_t round, int which)
{
    return -(int32_t)(round * 2 + (uint64_t)which + 1);
}

/* dual_iterate: a on every entity, b on odd ones; values differ per entity. */
static inline double dual_iterate_a0(uint64_t i) { return (double)i * 0.25 + 1.0; }
static inline int32_t dual_iterate_b0(uint64_t i) { return (int32_t)((i * 37) % 1001) - 500; }

#endif
