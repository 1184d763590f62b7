/* defs/add_remove.h — add_remove's own definitions, shared by its body (scenarios/add_remove.h),
 * its floor (floors/add_remove.h). */
#ifndef ECSB_SCENARIOS_DEFS_ADD_REMOVE_H
#define ECSB_SCENARIOS_DEFS_ADD_REMOVE_H

#include "scenarios/common.h"

/* add_remove: `held` (parameter 2), the other u32 components C1..Ch (types 2 .. h + 1) every
 * entity carries beside A: a table layout moves each of them on every add and remove of B. */
enum { ADD_REMOVE_HELD = 2 };
#define ADD_REMOVE_MAX_HELD 16u
static inline uint32_t add_remove_held(const ecsb_params *p) { return (uint32_t)p->v[ADD_REMOVE_HELD]; }

#endif
