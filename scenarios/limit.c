/*
 * limit.c — the limit of the scenarios that have one: the same arithmetic as the floor on
 * arrays holding only what the pass touches (the matched entities' values, packed per query,
 * as an archetype table or an owning group keeps them), so the least memory traffic any
 * layout can have. Only scenarios whose floor moves more than that have one (each scenario
 * header says whether and why); the others' entries are all NULL. Checksums equal the
 * floor's. One limit per file in limits/<name>.h; this file includes them and builds the table.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "scenarios/common.h"

#include "scenarios/limits/dual_iterate.h"
#include "scenarios/limits/simple_iter.h"
#include "scenarios/limits/move3.h"
#include "scenarios/limits/churn_iterate.h"

#define ECSB_LIMIT(name)                                                                       \
    [ECSB_SCENARIO_##name] = {limit_##name##_prepare, limit_##name##_pass,                     \
                              limit_##name##_checksum, limit_##name##_release,                 \
                              limit_##name##_memory}

const ecsb_scenario_impl ecsb_limit[ECSB_SCENARIO_COUNT] = {
    ECSB_LIMIT(dual_iterate),
    ECSB_LIMIT(simple_iter),
    ECSB_LIMIT(move3),
    ECSB_LIMIT(churn_iterate),
};
