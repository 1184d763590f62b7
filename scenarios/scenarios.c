/* scenarios.c — the scenario table: names, summaries, and items per pass (the time unit). */
#include <string.h>

#include "harness/ecsb.h"

/* platformer: N rounds of 2 adds + 3 removes. */
static uint64_t platformer_items(uint64_t n) { return 5 * n; }
/* dual_iterate: the odd ids hold both types. */
static uint64_t dual_iterate_items(uint64_t n) { return n / 2; }

const ecsb_scenario_info ecsb_scenarios[ECSB_SCENARIO_COUNT] = {
#define ECSB_SCENARIO(name_, summary_, item_, consumes_, structure_, sizes_)                  \
    [ECSB_SCENARIO_##name_] = {.name = #name_,                                                 \
                               .summary = summary_,                                            \
                               .item = item_,                                                  \
                               .consumes_setup = consumes_,                                    \
                               .changes_structure = structure_,                                \
                               .sizes = sizes_,                                                \
                               .items_per_pass = name_##_items},
#include "scenarios/scenarios.def"
#undef ECSB_SCENARIO
};

const ecsb_allocator *ecsb_scenario_allocator;

ecsb_scenario_id ecsb_scenario_find(const char *name)
{
    for (int i = 0; i < ECSB_SCENARIO_COUNT; i++)
        if (strcmp(ecsb_scenarios[i].name, name) == 0)
            return (ecsb_scenario_id)i;
    return ECSB_SCENARIO_COUNT;
}
