/*
 * runner.h — what the benchmark program's C files share (internal to build/ecsbench):
 *   main.c        the command line: list, run, help, or the suite
 *   bench.c       the suite: every scenario x (floor + strategies) x size through Google
 *                 Benchmark (harness/gbench.h), checksums checked before anything is timed
 *   run.c         one scenario on one implementation, timed with CLOCK_MONOTONIC
 *   provenance.c  the run's context (date, host, CPU, compiler, flags, git, settings)
 */
#ifndef ECSB_RUNNER_H
#define ECSB_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "harness/ecsb.h"

/* Largest N accepted anywhere: 4x the largest default size (memory stays under ~2 GB). */
#define ECSB_MAX_N 16777216u
/* Most passes `ecsbench run` accepts. */
#define ECSB_MAX_PASSES 1000000u
/* Most sizes one suite run takes. */
#define ECSB_MAX_SIZES 32u

/* Name the floor goes by wherever a strategy name is expected. */
#define ECSB_FLOOR_NAME "floor"

/*
 * Strict decimal count: digits only (no sign, space, prefix or trailing junk), value in
 * 1..max. True and *out set on success.
 */
bool ecsb_parse_count(const char *text, uint64_t max, uint64_t *out);

/* CLOCK_MONOTONIC, in seconds. */
double ecsb_now(void);

/* The implementation of scenario s for a strategy name ("floor" included); NULL if unknown. */
const ecsb_scenario_impl *ecsb_impl_find(ecsb_scenario_id s, const char *strategy);

/* The outcome of ecsb_run_scenario. */
typedef struct ecsb_run_result {
    ecsb_status status;   /* ECSB_OK, or the first failure */
    const char *step;     /* on failure: "prepare" or "pass" */
    uint64_t checksum;    /* of the final state */
    double seconds;       /* the timed passes, summed */
} ecsb_run_result;

/*
 * Run scenario s on impl at size n: prepare, then `passes` timed passes (a scenario whose pass
 * consumes its set-up is prepared afresh, untimed, before each), then checksum and release.
 * Returns result->status.
 */
ecsb_status ecsb_run_scenario(const ecsb_scenario_impl *impl, ecsb_scenario_id s, uint64_t n,
                              uint64_t passes, ecsb_run_result *result);

/* The suite: `ecsbench [--benchmark_* flags] [--ecsb_* flags]`. Returns the exit status. */
int ecsb_bench_main(int argc, char **argv);
/* The suite's own flags and defaults, for --help. */
void ecsb_bench_usage(FILE *out);

/* Everything that goes into the JSON context, beyond what Google Benchmark records itself. */
typedef struct ecsb_provenance {
    const char *run_id;
    const uint64_t *sizes;
    size_t size_count;
    bool quick;
    int argc;            /* the command line as given */
    char **argv;
} ecsb_provenance;

/* A run id of the form used for results/<id>: UTC timestamp + short host name. */
void ecsb_default_run_id(char *buf, size_t size);
/* Add the ecsb_* provenance keys to the JSON context (call after flags are parsed). */
void ecsb_provenance_record(const ecsb_provenance *p);

#endif /* ECSB_RUNNER_H */
