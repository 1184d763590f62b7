/*
 * all.h — every scenario body, for harness/strategy_impl.h to compile against one strategy.
 * Add a scenario: a line in scenarios.def, its body in <name>.h (functions <name>_prepare,
 * _pass, _checksum, _release), its floor in floor.c, its include here.
 */
#include "scenarios/common.h"
#include "scenarios/platformer.h"
#include "scenarios/dual_iterate.h"
