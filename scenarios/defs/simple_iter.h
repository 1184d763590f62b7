/* defs/simple_iter.h — simple_iter's own definitions, shared by its body
 * (scenarios/simple_iter.h), its floor (floors/simple_iter.h) and its limit
 * (limits/simple_iter.h). */
#ifndef ECSB_SCENARIOS_DEFS_SIMPLE_ITER_H
#define ECSB_SCENARIOS_DEFS_SIMPLE_ITER_H

#include "scenarios/common.h"

/* simple_iter: the i-th entity's kind (0 {A,B}, 1 {A,B,C}, 2 {A,B,C,D}, 3 {A,B,C,E}). */
enum { SIMPLE_ITER_A, SIMPLE_ITER_B, SIMPLE_ITER_C, SIMPLE_ITER_D, SIMPLE_ITER_E };
static inline unsigned simple_iter_kind(uint64_t i) { return (unsigned)(i % 4); }
static inline uint64_t simple_iter_of_kind(uint64_t n, unsigned kind) { return (n + 3 - kind) / 4; }
#define SIMPLE_ITER_SALT 0x73696d706c65ull /* its world order (ecsb_world_order_make) */

#endif
