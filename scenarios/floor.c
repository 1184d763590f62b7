/*
 * floor.c — the floor of every scenario: the same work on plain arrays, its arithmetic on C
 * arrays in the layout the articles start from, with no entity bookkeeping at all, drawn on
 * every plot. It is a reference, not a lower bound: a layout that moves less memory (an
 * archetype table or an owning group packing exactly the matches) or whose arrays happen to
 * suit the hardware better can beat it, and the limit (limit.c) is the least-traffic line.
 * Its arrays come from the shared allocator every world uses (ecsb_array_alloc), so they sit
 * at sampled placements as the layouts' blocks do.
 * Each type's values sit in one array, packed in the creation order of the entities holding
 * it; a pass knows statically which positions belong together (no ids, no lookups). Its
 * checksums are the ones every strategy must reproduce exactly. One floor per file in
 * floors/<name>.h; this file includes them and builds the table.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "scenarios/common.h"

#include "scenarios/floors/platformer.h"
#include "scenarios/floors/dual_iterate.h"
#include "scenarios/floors/packed.h"
#include "scenarios/floors/simple_iter.h"
#include "scenarios/floors/frag_iter.h"
#include "scenarios/floors/entity_cycle.h"
#include "scenarios/floors/add_remove.h"
#include "scenarios/floors/random_get.h"
#include "scenarios/floors/move3.h"
#include "scenarios/floors/churn_iterate.h"
#include "scenarios/floors/frame.h"
#include "scenarios/floors/level_load.h"

const ecsb_scenario_impl ecsb_floor[ECSB_SCENARIO_COUNT] = {
#define ECSB_SCENARIO(name, ...)                                                               \
    [ECSB_SCENARIO_##name] = {floor_##name##_prepare, floor_##name##_pass,                     \
                              floor_##name##_checksum, floor_##name##_release,                 \
                              floor_##name##_memory},
#include "scenarios/scenarios.def"
#undef ECSB_SCENARIO
};
