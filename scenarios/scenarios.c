/* scenarios.c — the scenario table: names, summaries, and items per pass (the time unit). */
#include <string.h>

#include "harness/ecsb.h"
#include "scenarios/common.h"

/* platformer: N rounds of 2 adds + 3 removes. */
static uint64_t platformer_items(uint64_t n) { return 5 * n; }
/* dual_iterate: the odd ids hold both types. */
static uint64_t dual_iterate_items(uint64_t n) { return n / 2; }
/* packed_1: every A; packed_5: every A, B, C, D and E. */
static uint64_t packed_1_items(uint64_t n) { return n; }
static uint64_t packed_5_items(uint64_t n) { return 5 * n; }
/* simple_iter: (A,B) matches every entity, (C,D) and (C,E) one kind each. */
static uint64_t simple_iter_items(uint64_t n)
{
    return n + simple_iter_of_kind(n, 2) + simple_iter_of_kind(n, 3);
}
/* frag_iter: every Data, then the holders of T25 (every 26th entity). */
static uint64_t frag_iter_items(uint64_t n) { return n + n / FRAG_ITER_KINDS; }
/* entity_cycle: 2N created, 2N destroyed. */
static uint64_t entity_cycle_items(uint64_t n) { return 4 * n; }
/* add_remove: N adds, N removes. */
static uint64_t add_remove_items(uint64_t n) { return 2 * n; }
/* random_get: two lookups per entity. */
static uint64_t random_get_items(uint64_t n) { return 2 * n; }
/* move3: every 4th entity holds mass. */
static uint64_t move3_items(uint64_t n) { return move3_matched(n); }
/* churn_iterate: dual_iterate's pairs. */
static uint64_t churn_iterate_items(uint64_t n) { return n / 2; }
/* level_load: every entity created. */
static uint64_t level_load_items(uint64_t n) { return n; }

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
bool ecsb_scenario_grow_from_empty;

ecsb_scenario_id ecsb_scenario_find(const char *name)
{
    for (int i = 0; i < ECSB_SCENARIO_COUNT; i++)
        if (strcmp(ecsb_scenarios[i].name, name) == 0)
            return (ecsb_scenario_id)i;
    return ECSB_SCENARIO_COUNT;
}
