/*
 * common.h — what every scenario body and its floor and limit share: the checksum's parts,
 * state allocation, the world orders (scenarios/world_order.h), the `queries` parameter and
 * the u32 values. Plain C, no strategy functions: the floors and limits use it too. What one
 * scenario owns lives in scenarios/defs/<name>.h, shared by its body, floor and limit.
 *
 * Checksums. A timed pass never runs a chain of mixes (each waits ~7 cycles on the previous
 * one, which would time the checksum, not the storage): a pass that reads values adds each one
 * times an odd weight that depends on its position into a 64-bit sum (one add per value, no
 * serial latency beyond it), and counts its visits. checksum() mixes once, untimed: the sums,
 * the visit count, and every value left in the world read in creation order. A lost, doubled,
 * extra or swapped visit, or a lost or misplaced value, changes the result: every starting
 * value is non-zero, a weight times a non-zero difference is non-zero modulo 2^64, and the
 * visit count catches visits whose values are zero.
 */
#ifndef ECSB_SCENARIOS_COMMON_H
#define ECSB_SCENARIOS_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness/ecsb.h"
#include "scenarios/alloc.h"
#include "scenarios/world_order.h"

#define ECSB_CHECKSUM_SEED 0x243f6a8885a308d3ull

/* Order-sensitive 64-bit mix: a lost, duplicated, swapped or wrong value changes the result. */
static inline uint64_t ecsb_mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdull;
    return h ^ (h >> 33);
}

/* The weight of the value read at `position` of a pass: odd, so no error cancels out. */
static inline uint64_t ecsb_weight(uint64_t position) { return 2 * position + 1; }

/* What checksum() mixes for a component an entity does not hold (no u32 value is this). */
#define ECSB_ABSENT ((uint64_t)1 << 32)

static inline uint64_t ecsb_double_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static inline uint64_t ecsb_float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/*
 * The capacity hint a scenario's world gets (ecsb_world_config.initial_capacity) for `n`
 * entities: n, or 0 while ecsb_scenario_grow_from_empty is set (the suite measures memory
 * both ways: reserved up front, and grown from empty as a program that gives no hint).
 */
static inline uint32_t ecsb_capacity_hint(uint64_t n)
{
    return ecsb_scenario_grow_from_empty ? 0 : (uint32_t)n;
}

/*
 * `queries`, parameter 1 of the scenarios whose pass changes structure (platformer,
 * entity_cycle, add_remove, level_load): `declared` (the default) declares the queries the
 * systems of a program running it would have, so the upkeep of structures kept for them (a
 * roster, a group, a table cache) is paid in the timed pass, where a real program pays it;
 * `none` declares nothing, the world of a program that never iterates.
 */
enum { ECSB_PARAM_QUERIES = 1 };
enum { ECSB_QUERIES_DECLARED = 0, ECSB_QUERIES_NONE = 1 };
static inline uint32_t ecsb_declared_queries(const ecsb_params *p, uint32_t count)
{
    return p->v[ECSB_PARAM_QUERIES] == ECSB_QUERIES_DECLARED ? count : 0;
}

/* ---- u32 values ---------------------------------------------------------------------------- */

/* The update of a u32 value: a bijection (no pass loses information), never a fixed point. */
static inline uint32_t ecsb_u32_step(uint32_t v) { return 3 * v + 1; }

/* The starting u32 value of type `type` on the i-th entity: non-zero, distinct per i. */
static inline uint32_t ecsb_u32_start(uint32_t type, uint64_t i)
{
    uint32_t v = (uint32_t)(i + 1) * 0x9e3779b1u; /* odd factor: a bijection, 0 only at i + 1 = 2^32 */
    return type % 32 ? v << (type % 32) | v >> (32 - type % 32) : v;
}

#endif
