/* defs/platformer.h — platformer's own definitions, shared by its body (scenarios/platformer.h),
 * its floor (floors/platformer.h). */
#ifndef ECSB_SCENARIOS_DEFS_PLATFORMER_H
#define ECSB_SCENARIOS_DEFS_PLATFORMER_H

#include "scenarios/common.h"

#define PLATFORMER_SALT 0x706c6174ull /* its world order: creation, then the kills by rank */

/* platformer: hp of original entity i, and of the two spawns of round r. */
static inline int32_t platformer_original_hp(uint64_t i) { return (int32_t)(i * 7 + 3); }
static inline int32_t platformer_spawn_hp(uint64_t round, int which)
{
    return -(int32_t)(round * 2 + (uint64_t)which + 1);
}

#endif
