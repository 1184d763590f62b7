/* registry.c — the explicit strategy list, built from strategies/strategies.def. */
#include <string.h>

#include "harness/ecsb.h"

#define ECSB_STRATEGY(name) extern const ecsb_strategy ecsb_strategy_##name;
#include "strategies/strategies.def"
#undef ECSB_STRATEGY

const ecsb_strategy *const ecsb_strategies[] = {
#define ECSB_STRATEGY(name) &ecsb_strategy_##name,
#include "strategies/strategies.def"
#undef ECSB_STRATEGY
};

const size_t ecsb_strategy_count = sizeof ecsb_strategies / sizeof ecsb_strategies[0];

const ecsb_strategy *ecsb_strategy_find(const char *name)
{
    for (size_t i = 0; i < ecsb_strategy_count; i++)
        if (strcmp(ecsb_strategies[i]->name, name) == 0)
            return ecsb_strategies[i];
    return NULL;
}
