/* defs/random_get.h — random_get's own definitions, shared by its body (scenarios/random_get.h),
 * its floor (floors/random_get.h). */
#ifndef ECSB_SCENARIOS_DEFS_RANDOM_GET_H
#define ECSB_SCENARIOS_DEFS_RANDOM_GET_H

#include "scenarios/common.h"
#include "scenarios/defs/dual_iterate.h"

/* random_get: the order of the lookups. */
#define RANDOM_GET_SEED 0x72616e646f6d2d67ull
#define RANDOM_GET_SALT 0x726765ull /* its world order: the entity of odd rank holds b */

#endif
