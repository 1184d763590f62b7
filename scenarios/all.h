/*
 * all.h — every scenario body, for harness/strategy_impl.h to compile against one strategy.
 * Add a scenario: a line in scenarios.def, its own definitions in defs/<name>.h, its body in
 * <name>.h (functions <name>_prepare, _pass, _checksum, _release, and _memory and _look by
 * ECSB_SCENARIO_MEMORY), its floor in floors/<name>.h (and its limit in limits/<name>.h when
 * it has one), its include here, in floor.c (and limit.c), and its items in scenarios.c. A
 * prepare opens its world with scenario_world_open and fills it with scenario_populate (who
 * holds what, by serial and rank, and the starting values; an aged world's life included); a
 * world of u32 types takes u32_world_prepare and u32_world_checksum whole (scenarios/body.h).
 * A prepare that builds its own way lives an aged world with scenario_age (its population
 * says who holds what).
 */
#include "scenarios/body.h"
#include "scenarios/platformer.h"
#include "scenarios/dual_iterate.h"
#include "scenarios/packed.h"
#include "scenarios/packed_1.h"
#include "scenarios/packed_5.h"
#include "scenarios/simple_iter.h"
#include "scenarios/frag_iter.h"
#include "scenarios/entity_cycle.h"
#include "scenarios/add_remove.h"
#include "scenarios/random_get.h"
#include "scenarios/move3.h"
#include "scenarios/churn_iterate.h"
#include "scenarios/frame.h"
#include "scenarios/level_load.h"
