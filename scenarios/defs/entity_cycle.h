/* defs/entity_cycle.h — entity_cycle's own definitions, shared by its body
 * (scenarios/entity_cycle.h), its floor (floors/entity_cycle.h). */
#ifndef ECSB_SCENARIOS_DEFS_ENTITY_CYCLE_H
#define ECSB_SCENARIOS_DEFS_ENTITY_CYCLE_H

#include "scenarios/common.h"

/* entity_cycle: the B values of the two entities spawned for an A value. */
static inline uint32_t entity_cycle_b(uint32_t a, unsigned which) { return 3 * a + 1 + which; }

#endif
