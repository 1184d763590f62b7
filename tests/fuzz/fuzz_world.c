/*
 * fuzz_world.c — the libFuzzer target: the input bytes are the choices of one differential
 * run (tests/differential.c: world configuration, then operations — create, spawn of a
 * random type set, destroy, add, remove, get, has (of valued types and of tags), queries of
 * 1..4 types declared or not, excluding types or not, with handles or not, bad handles, types
 * and exclusions, injected allocation failures — each checked
 * against the reference model, with full-state comparisons every 64 operations and at the
 * end), played on every strategy in turn: the registered ones and the template, or only
 * $ECSB_FUZZ_STRATEGY. A mismatch prints what
 * differed and aborts, so libFuzzer keeps the input (make fuzz prints the replay command).
 *
 * Build and run: make fuzz [STRATEGY=x] [SECONDS=n] (tests/fuzz/run.sh).
 * Replay: ECSB_FUZZ_STRATEGY=x build/fuzz/fuzz_world <input file>
 * ECSB_FUZZ_LIST=1 build/fuzz/fuzz_world prints the strategies and exits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/differential.h"
#include "tests/support.h"

static const ecsb_strategy *chosen[64];
static size_t chosen_count;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const ecsb_strategy *all[64];
    size_t n = 0;
    bool template_listed = false;
    for (size_t i = 0; i < ecsb_strategy_count && n < 63; i++) {
        all[n++] = ecsb_strategies[i];
        template_listed |= ecsb_strategies[i] == &ecsb_strategy_template;
    }
    if (!template_listed)
        all[n++] = &ecsb_strategy_template;
    if (getenv("ECSB_FUZZ_LIST")) {
        for (size_t i = 0; i < n; i++)
            printf("%s\n", all[i]->name);
        exit(0);
    }
    const char *only = getenv("ECSB_FUZZ_STRATEGY");
    for (size_t i = 0; i < n; i++)
        if (!only || !*only || strcmp(only, all[i]->name) == 0)
            chosen[chosen_count++] = all[i];
    if (chosen_count == 0) {
        fprintf(stderr, "fuzz_world: unknown strategy '%s'; one of:", only);
        for (size_t i = 0; i < n; i++)
            fprintf(stderr, " %s", all[i]->name);
        fprintf(stderr, "\n");
        exit(2);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (size_t i = 0; i < chosen_count; i++) {
        tst_strategy = chosen[i];
        tst_differential_bytes(data, size);
    }
    return 0;
}
