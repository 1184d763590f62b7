/*
 * gbench.h — a small C interface to Google Benchmark (Debian libbenchmark-dev), so the runner
 * can stay in C. harness/gbench.cc is its implementation and the project's only C++.
 *
 * Only the library's public API is used (benchmark.h and its documented command-line flags),
 * and the build refuses a library version it was not tested with (scripts/setup.sh build).
 * The runner decides everything that decides a number: how many iterations one repetition
 * runs and how many repetitions a benchmark gets are fixed per benchmark when it is
 * registered, so Google Benchmark calls a body exactly once per repetition and never grows
 * an iteration count by its own rules.
 *
 * Usage (harness/bench.c is the real user):
 *
 *     static void my_bench(ecsb_gb_state *st, void *ctx)
 *     {
 *         ... untimed set-up ...
 *         uint64_t batch = ecsb_gb_iterations(st);      // ask once how many iterations
 *         while (ecsb_gb_keep_running_batch(st, batch)) // true once: the timer runs inside
 *             for (uint64_t i = 0; i < batch; i++)
 *                 ... one timed iteration ...
 *         ecsb_gb_counter(st, "items_per_pass", 20000);
 *     }
 *     ecsb_gb_initialize(&argc, argv);   // Google Benchmark's own flags (--benchmark_format...)
 *     ecsb_gb_register("scenario/strategy/4000", my_bench, ctx, ECSB_GB_AUTO_TIME, 1000, 5);
 *     ecsb_gb_run(NULL, ECSB_GB_OUT_JSON);
 *
 * Google Benchmark's State::KeepRunning() is inline-only C++, so C cannot call it per
 * iteration; instead C asks for the whole batch once and runs its own loop: two calls into
 * this wrapper per benchmark call, none per iteration.
 *
 * Manual timing (ECSB_GB_MANUAL_TIME) is for work whose set-up must repeat every iteration:
 * run the set-up untimed, time the iterations yourself (CLOCK_MONOTONIC, several iterations
 * between two clock reads when they are short) and add each measured span with
 * ecsb_gb_add_manual_time. Google Benchmark's own PauseTiming costs about 0.6 us a pair on
 * these machines, more than small iterations take.
 *
 * Names are reported verbatim: Google Benchmark appends "/iterations:N/repeats:R" and, for
 * manual timing, "/manual_time" to every name, and the reporters installed by ecsb_gb_run drop
 * them again, so the console and the output file show exactly the registered name. Both real and CPU time are
 * reported; manual-timing benchmarks report the manual time as real time.
 */
#ifndef ECSB_GBENCH_H
#define ECSB_GBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A running benchmark (Google Benchmark's benchmark::State), valid during one call. */
typedef struct ecsb_gb_state ecsb_gb_state;

/* A benchmark body: called once per repetition. */
typedef void (*ecsb_gb_fn)(ecsb_gb_state *state, void *ctx);

typedef enum ecsb_gb_timing {
    ECSB_GB_AUTO_TIME,   /* Google Benchmark times the batch loop (real and CPU time) */
    ECSB_GB_MANUAL_TIME, /* the body measures its iterations: ecsb_gb_add_manual_time */
} ecsb_gb_timing;

/*
 * Register a benchmark called `name` (copied): `repetitions` (>= 1) calls of `fn`, each
 * running exactly `iterations` (>= 1) iterations. Returns false on a bad argument or when
 * memory runs out. Call after ecsb_gb_initialize and before ecsb_gb_run.
 */
bool ecsb_gb_register(const char *name, ecsb_gb_fn fn, void *ctx, ecsb_gb_timing timing,
                      uint64_t iterations, int repetitions);

/* ---- inside a benchmark body ------------------------------------------------------------- */

/* The number of iterations Google Benchmark wants from this call. */
uint64_t ecsb_gb_iterations(const ecsb_gb_state *state);

/*
 * The batched loop: returns true while `n` more iterations should run; the first call starts
 * the timer, the call that returns false stops it. Use n = ecsb_gb_iterations(state): the loop
 * body then runs exactly once. Every body must call this until it returns false, unless it
 * reported an error first.
 */
bool ecsb_gb_keep_running_batch(ecsb_gb_state *state, uint64_t n);

/*
 * Manual timing: add `seconds` of measured iteration time (the spans of one call are summed;
 * real_time = their sum / iterations).
 */
void ecsb_gb_add_manual_time(ecsb_gb_state *state, double seconds);

/* A user counter, reported as is in every run (JSON: a field with this name). */
void ecsb_gb_counter(ecsb_gb_state *state, const char *name, double value);

/* A label printed beside the run (JSON: "label"). */
void ecsb_gb_label(ecsb_gb_state *state, const char *label);

/*
 * Report this run as an error with a message instead of a time (JSON: "error_occurred",
 * "error_message"). Call at most once per call of the body; afterwards the body may return
 * at once (or the batched loop returns false).
 */
void ecsb_gb_skip_with_error(ecsb_gb_state *state, const char *message);
bool ecsb_gb_error_occurred(const ecsb_gb_state *state);

/* ---- set-up and running ------------------------------------------------------------------ */

/*
 * Google Benchmark's Initialize: takes the --benchmark_* flags (and --v) it knows out of argv;
 * later flags override earlier ones. Unrecognised arguments stay in argv.
 */
void ecsb_gb_initialize(int *argc, char **argv);

/* A key/value pair for the JSON "context" object (Google Benchmark's AddCustomContext). */
void ecsb_gb_add_context(const char *key, const char *value);

/* Google Benchmark's own description of its flags, to stdout. */
void ecsb_gb_print_flags_help(void);

/* Formats of the output file. */
typedef enum ecsb_gb_out_format {
    ECSB_GB_OUT_JSON,
    ECSB_GB_OUT_CONSOLE,
} ecsb_gb_out_format;

/*
 * Run every registered benchmark, in registration order or randomly interleaved by
 * repetition (--benchmark_enable_random_interleaving, given to ecsb_gb_initialize), with
 * Google Benchmark's display reporter on stdout (--benchmark_format) and, when out_path is
 * not NULL, a reporter of `format` writing that file (created or truncated). Returns false
 * when the file cannot be written; true otherwise (failed benchmarks are error rows).
 */
bool ecsb_gb_run(const char *out_path, ecsb_gb_out_format format);

/*
 * Hold the output file back until every benchmark ran (the console still shows each as it
 * ends), then, before writing it: row(ctx, r) for every run row, which may read and set its
 * counters (ecsb_gb_row_counter, ecsb_gb_row_set_counter), and done(ctx), which may add
 * context keys (ecsb_gb_add_context): figures known only at the end of the run (the
 * sentinel's run-wide best, harness/sentinel.h). Call before ecsb_gb_run.
 */
typedef struct ecsb_gb_row ecsb_gb_row;
void ecsb_gb_defer_output(void (*row)(void *ctx, ecsb_gb_row *r), void (*done)(void *ctx),
                          void *ctx);
/* A row's counter `name`: true and *value set when it has one. */
bool ecsb_gb_row_counter(const ecsb_gb_row *r, const char *name, double *value);
void ecsb_gb_row_set_counter(ecsb_gb_row *r, const char *name, double value);

/* The C++ compiler that built the wrapper ("g++ 12.2.0"), for provenance. */
const char *ecsb_gb_cxx_compiler(void);

#ifdef __cplusplus
}
#endif

#endif /* ECSB_GBENCH_H */
