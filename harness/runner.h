/*
 * runner.h — what the benchmark program's C files share (internal to build/ecsbench):
 *   main.c        the command line: help, list (text or JSON), run, bench
 *   bench.c       the suite (`ecsbench bench`): every selected scenario x (floor, limit,
 *                 strategies) x size, checked and calibrated first, then timed through
 *                 Google Benchmark (harness/gbench.h)
 *   bench_flags.c the suite's flags: selection, repetitions and min time, output file
 *   run.c         one scenario on one implementation (`ecsbench run`), and the helpers
 *                 both share
 *   timing.c      the one timing engine both use (harness/timing.h; part of the core
 *                 library, so the C tests run it)
 *   provenance.c  the run's context (date, host, CPU, compiler, flags, git, sources, command)
 */
#ifndef ECSB_RUNNER_H
#define ECSB_RUNNER_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "harness/ecsb.h"
#include "harness/gbench.h"
#include "harness/timing.h"

/* Largest N accepted anywhere: 4x the largest default size (memory stays under ~2 GB). */
#define ECSB_MAX_N 16777216u
/* Most passes `ecsbench run` accepts. */
#define ECSB_MAX_PASSES 1000000u
/* Most sizes one suite run takes. */
#define ECSB_MAX_SIZES 32u
/* Most registered strategies the suite's selection handles. */
#define ECSB_MAX_STRATEGIES 64u

/*
 * The placement seed (harness/core.c: the pads before every block) of `ecsbench run`, whose
 * figures are compared across invocations (hyperfine.sh), so it stays fixed: the one default
 * seed. `ecsbench bench` draws a fresh one per run (ecsb_draw_seed) unless --ecsb_seed is given.
 */
#define ECSB_DEFAULT_SEED 1u

/* A fresh placement seed, never 0 (0 means no pads): getrandom, else the clock and the pid. */
uint64_t ecsb_draw_seed(void);

/* Names the references go by wherever a strategy name is expected. */
#define ECSB_FLOOR_NAME "floor"
#define ECSB_LIMIT_NAME "limit"

/*
 * Strict decimal count: digits only (no sign, space, prefix or trailing junk), value in
 * 1..max. True and *out set on success.
 */
bool ecsb_parse_count(const char *text, uint64_t max, uint64_t *out);

/* "1:05" or "1:02:03" (rounded seconds). */
void ecsb_format_duration(char *buf, size_t size, double seconds);

/* True when scenario s has a limit line (ecsb_limit[s].prepare is set). */
bool ecsb_has_limit(ecsb_scenario_id s);

/* The implementation of scenario s for a strategy name ("floor", "limit" where the scenario
 * has one, or a registered strategy); NULL if there is none. */
const ecsb_scenario_impl *ecsb_impl_find(ecsb_scenario_id s, const char *strategy);

/* Valid names for scenario s's implementations ("floor | limit | a | b"), to out. */
void ecsb_print_impl_names(FILE *out, ecsb_scenario_id s);

/* The default sizes of a size set, ascending; returns their count (at most ECSB_MAX_SIZES). */
size_t ecsb_default_sizes(ecsb_size_set set, uint64_t *out);

/* The largest default size of a set that make bench runs without --ecsb_large. */
uint64_t ecsb_default_largest(ecsb_size_set set);

/* ---- one run (run.c) ------------------------------------------------------------------- */

/* The outcome of ecsb_run_scenario. */
typedef struct ecsb_run_result {
    ecsb_status status;   /* ECSB_OK, or the first failure */
    const char *step;     /* on failure: "prepare" or "pass" */
    uint64_t checksum;    /* of the final state */
    double seconds;       /* the timed passes, summed */
    uint64_t warmup;      /* untimed passes before them (ecsb_warmup_decide) */
} ecsb_run_result;

/*
 * Run scenario s on impl at size n with parameters p through the timing engine
 * (harness/timing.h), as the suite does: prepare, the scenario's warm-up
 * (ecsb_warmup_decide), then `passes` timed passes (a scenario whose pass consumes its set-up
 * is prepared afresh, untimed, for each: warm-up worlds, then batches sized by the time of a
 * pass), then checksum and release. With `progress` set, a run that will take long says so on
 * stderr, then shows its progress. With `spans` not NULL, every timed span (passes between
 * two clock reads) is written to it as one line, `span first=<its first timed pass, from 0>
 * passes=<count> seconds_per_pass=<float>`, in order: how the world's time per pass moves
 * through the run (frame_steady_check.py reads it). Returns result->status.
 */
ecsb_status ecsb_run_scenario(const ecsb_scenario_impl *impl, ecsb_scenario_id s, uint64_t n,
                              const ecsb_params *p, uint64_t passes, bool progress, FILE *spans,
                              ecsb_run_result *result);

/* Runs longer than this (estimated after the first passes) announce themselves. */
#define ECSB_RUN_NOTICE_SECONDS 10.0

/* ---- the suite (bench.c, bench_flags.c) ---------------------------------------------------- */

#define ECSB_MAX_EXTRA_CONTEXT 16u
#define ECSB_MAX_PARAM_FLAGS 8u
#define ECSB_MAX_PARAM_SETS 64u /* parameter combinations per scenario, at most */

typedef struct ecsb_bench_settings {
    bool scenario_on[ECSB_SCENARIO_COUNT];
    bool strategy_on[ECSB_MAX_STRATEGIES]; /* by registry index */
    uint64_t sizes[ECSB_MAX_SIZES];        /* --ecsb_sizes, ascending */
    size_t size_count;                     /* 0: each scenario's default sizes */
    bool quick;
    bool large;          /* --ecsb_large: default sizes above ECSB_BENCH_LARGEST too */
    int repetitions;     /* --benchmark_repetitions; 0: by size (ecsb_bench_repetitions) */
    double min_time;     /* --benchmark_min_time, seconds; 0: the default */
    bool has_filter, filter_negated;
    const char *filter;  /* --benchmark_filter as given */
    regex_t filter_re;
    bool list_tests;     /* --benchmark_list_tests */
    bool plan_only;      /* --ecsb_plan */
    bool interleave;     /* --benchmark_enable_random_interleaving */
    const char *out_path; /* --benchmark_out, or NULL */
    ecsb_gb_out_format out_format;
    bool progress;
    const char *run_id;
    uint64_t seed;       /* --ecsb_seed: the placements' sequence (harness/core.c) */
    bool seed_given;     /* false: the run draws its own (ecsb_bench_main) */
    double repeat_budget; /* --ecsb_repeat_budget: share of the planned timing; < 0: default */
    double cpu_share;     /* --ecsb_cpu_share: the sentinel's least CPU share; < 0: default */
    const char *param_flag[ECSB_MAX_PARAM_FLAGS]; /* --ecsb_param=NAME=V1,V2 as given */
    size_t param_flag_count;
    char context_key[ECSB_MAX_EXTRA_CONTEXT][64];
    const char *context_value[ECSB_MAX_EXTRA_CONTEXT];
    size_t context_count;
    int gb_argc;         /* what goes to Google Benchmark's Initialize (argv[0] first) */
    char **gb_argv;
} ecsb_bench_settings;

/*
 * Parse `ecsbench bench` arguments (argv[0] = the program, argv[1] = "bench"). The flags
 * ecsbench handles itself are taken into *s; the others are handed to Google Benchmark,
 * preceded by the suite's defaults. Returns 0, or 2 after printing what was wrong.
 */
int ecsb_bench_parse(int argc, char **argv, ecsb_bench_settings *s);
void ecsb_bench_settings_free(ecsb_bench_settings *s);

/* The suite's defaults: repetitions of a cell whose repetition takes `seconds` (wall,
 * estimated, one repetition of each of its lines), the rule in words (for the run's context), and the min time
 * of passes per repetition. */
int ecsb_bench_repetitions(const ecsb_bench_settings *s, double seconds);
void ecsb_bench_repetitions_rule(const ecsb_bench_settings *s, char *buf, size_t size);
double ecsb_bench_min_time(const ecsb_bench_settings *s);
/* Seconds the run may spend repeating disturbed repetitions, as a share of its planned
 * timing (harness/sentinel.h). */
double ecsb_bench_repeat_budget(const ecsb_bench_settings *s);
double ecsb_bench_cpu_share(const ecsb_bench_settings *s);
/* The sizes scenario sc runs at; returns their count. */
size_t ecsb_bench_sizes(const ecsb_bench_settings *s, ecsb_scenario_id sc, uint64_t *out);
/*
 * The parameter sets scenario sc runs with: its defaults, then for each --ecsb_param flag
 * naming one of its parameters, every combination so far with each value it accepts (values
 * it does not accept, such as order=shuffled where only regular is declared, are left out for
 * it). Returns their count (at most max).
 */
size_t ecsb_bench_param_sets(const ecsb_bench_settings *s, ecsb_scenario_id sc, ecsb_params *out,
                             size_t max);
/* True when the benchmark name passes --benchmark_filter. */
bool ecsb_bench_selected(const ecsb_bench_settings *s, const char *name);

/* `ecsbench bench ...`. Returns the exit status. */
int ecsb_bench_main(int argc, char **argv);
/* The suite's own flags and defaults, for help (from bench_flags.c's flag table). */
void ecsb_bench_usage(FILE *out);
/* The flag table as a JSON array of {name, example, bad}: a valid and an invalid value of
 * every flag (list --json; test_cli.sh gives every flag both). */
void ecsb_bench_flags_json(FILE *out);

/* ---- provenance (provenance.c) ------------------------------------------------------------- */

/* Everything that goes into the JSON context, beyond what Google Benchmark records itself. */
typedef struct ecsb_provenance {
    const char *run_id;
    const ecsb_bench_settings *settings;
    const char *sizes;           /* every size run, ascending, comma-separated */
    const char *repetitions;     /* "5", or the rule by size */
    int argc;                    /* the command line as given */
    char **argv;
} ecsb_provenance;

/* A run id of the form used for results/<id>: UTC timestamp + short host name. */
void ecsb_default_run_id(char *buf, size_t size);
/* Add the ecsb_* provenance keys to the JSON context (call after flags are parsed). */
void ecsb_provenance_record(const ecsb_provenance *p);
/*
 * The command line as a shell command a user can paste to run the same benchmarks again:
 * every argument quoted where the shell needs it, without the ones that only say where this
 * run's output went or what it was called (--benchmark_out*, --ecsb_run_id, --ecsb_context,
 * --ecsb_progress). Truncated to fit.
 */
void ecsb_rerun_command(int argc, char **argv, char *buf, size_t size);

#endif /* ECSB_RUNNER_H */
