/*
 * flecs_lib.c — the vendored flecs (strategies/libs/flecs/flecs.c, README.md there) compiled
 * once per build flavour into an object of its own, with this project's settings
 * (flecs_settings.h). The Makefile compiles it without the project's warnings: it is flecs's
 * code, unchanged.
 */
#include "strategies/libs/flecs_settings.h"
#include "strategies/libs/flecs/flecs.c"
