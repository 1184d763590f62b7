/* defs/level_load.h — level_load's own definitions, shared by its body (scenarios/level_load.h),
 * its floor (floors/level_load.h). */
#ifndef ECSB_SCENARIOS_DEFS_LEVEL_LOAD_H
#define ECSB_SCENARIOS_DEFS_LEVEL_LOAD_H

#include "scenarios/common.h"

/* level_load: A, B on every entity, C on odd ones, D on those with i % 4 == 3. */
#define LEVEL_LOAD_TYPES 4u
static inline bool level_load_holds(uint64_t i, uint32_t type)
{
    return type < 2 || (type == 2 && (i & 1)) || (type == 3 && i % 4 == 3);
}

#endif
