/*
 * flecs_settings.h — the flecs build this project uses, for the strategy (strategies/flecs.c)
 * and the library's own object (flecs_lib.c) alike: the two must agree, since some settings
 * change the layout of flecs's structures.
 *
 * Documented settings (flecs.h, "Flecs configuration"), each as a user of the single-file
 * distribution would set it:
 *   FLECS_CUSTOM_BUILD  no addons: the strategy uses only the core (world, entities,
 *                       components, tables, queries); it also builds in a fraction of the time.
 *   FLECS_LOG           the one addon: the log (assert messages say what failed). An empty
 *                       addon list also trips flecs 4.1.6's debug build: flecs_log_build_info
 *                       reads past the list's end (UBSan stops the test build there).
 *   FLECS_NDEBUG        the release build (flecs's asserts off), as flecs advises for
 *                       measuring; the test build (ECSB_CHECKED) keeps FLECS_DEBUG instead,
 *                       as flecs advises for tests.
 * Nothing else is changed: the block allocator, the page sizes and FLECS_HI_COMPONENT_ID are
 * flecs's defaults.
 */
#ifndef ECSB_FLECS_SETTINGS_H
#define ECSB_FLECS_SETTINGS_H

#define FLECS_CUSTOM_BUILD
#define FLECS_LOG
#ifndef ECSB_CHECKED
#define FLECS_NDEBUG
#else
#define FLECS_DEBUG
#endif

#endif
