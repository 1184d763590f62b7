/*
 * gbench.h — a small C interface to Google Benchmark 1.7.1 (Debian libbenchmark-dev), so the
 * runner can stay in C. harness/gbench.cc is its implementation and the project's only C++.
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
 *     ecsb_gb_register("scenario/strategy/4000", my_bench, ctx, ECSB_GB_AUTO_TIME);
 *     ecsb_gb_initialize(&argc, argv);   // every --benchmark_* flag
 *     ecsb_gb_run(progress_fn, NULL);
 *
 * Google Benchmark's State::KeepRunning() is inline-only C++, so C cannot call it per
 * iteration; instead C asks for the whole batch once and runs its own loop: two calls into
 * this wrapper per benchmark run, none per iteration.
 *
 * Manual timing (ECSB_GB_MANUAL_TIME) is for work whose set-up must repeat every iteration:
 * run the set-up untimed, time the iteration yourself (CLOCK_MONOTONIC) and report it with
 * ecsb_gb_set_iteration_time, once per iteration. Google Benchmark's own PauseTiming costs
 * about 0.6 us a pair on these machines, more than small iterations take.
 *
 * Names are reported verbatim. Google Benchmark appends "/manual_time" to the name of every
 * manual-timing benchmark; the reporters installed by ecsb_gb_run drop that suffix again, so
 * the console and the JSON file show exactly the registered name. Only --benchmark_filter and
 * --benchmark_list_tests still see the suffix. Automatic timing keeps Google Benchmark's
 * default iteration-count rule (CPU time; no "/real_time" suffix); both real and CPU time are
 * reported.
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

/* A benchmark body: called several times per run (Google Benchmark sizes the batch). */
typedef void (*ecsb_gb_fn)(ecsb_gb_state *state, void *ctx);

typedef enum ecsb_gb_timing {
    ECSB_GB_AUTO_TIME,   /* Google Benchmark times the batch loop (real and CPU time) */
    ECSB_GB_MANUAL_TIME, /* the body reports each iteration's time: ecsb_gb_set_iteration_time */
} ecsb_gb_timing;

/*
 * Register a benchmark called `name` (copied). A manual-timing benchmark's real_time is the
 * sum of the iteration times it reported. Returns false when the name is empty or memory runs
 * out. Call before ecsb_gb_run.
 */
bool ecsb_gb_register(const char *name, ecsb_gb_fn fn, void *ctx, ecsb_gb_timing timing);

/* ---- inside a benchmark body ------------------------------------------------------------- */

/* The number of iterations Google Benchmark wants from this call (its max_iterations). */
uint64_t ecsb_gb_iterations(const ecsb_gb_state *state);

/*
 * The batched loop: returns true while `n` more iterations should run; the first call starts
 * the timer, the call that returns false stops it. Use n = ecsb_gb_iterations(state): the loop
 * body then runs exactly once. Every body must call this until it returns false, unless it
 * reported an error first.
 */
bool ecsb_gb_keep_running_batch(ecsb_gb_state *state, uint64_t n);

/* Manual timing: the time of one iteration, in seconds. Call once per iteration. */
void ecsb_gb_set_iteration_time(ecsb_gb_state *state, double seconds);

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
 * Parse and remove every --benchmark_* flag (and --v) from argv, as Google Benchmark's
 * Initialize does; later flags override earlier ones. Unrecognised arguments stay in argv.
 */
void ecsb_gb_initialize(int *argc, char **argv);

/* A key/value pair for the JSON "context" object (Google Benchmark's AddCustomContext). */
void ecsb_gb_add_context(const char *key, const char *value);

/* Google Benchmark's own description of its flags, to stdout. */
void ecsb_gb_print_flags_help(void);

/* Current flag values (after ecsb_gb_initialize). */
int ecsb_gb_repetitions(void);
double ecsb_gb_min_time(void);
bool ecsb_gb_random_interleaving(void);
bool ecsb_gb_list_tests(void);
/* Copies the --benchmark_filter value (NUL-terminated, truncated to fit) into buf. */
void ecsb_gb_filter(char *buf, size_t size);

/* Benchmarks the current --benchmark_filter selects (runs nothing, prints nothing). */
size_t ecsb_gb_count_selected(void);

/*
 * Progress: called after each finished repetition of a benchmark with the repetitions done so
 * far and the expected total (selected benchmarks x --benchmark_repetitions). The count is
 * inferred from Google Benchmark's rules for ending a repetition; with warm-up
 * (--benchmark_min_warmup_time) it may run ahead, so treat it as an estimate.
 */
typedef void (*ecsb_gb_progress_fn)(void *ctx, size_t done, size_t total, const char *name);

/*
 * Run the selected benchmarks (or list them with --benchmark_list_tests) with Google
 * Benchmark's display reporter on stdout and, with --benchmark_out, its file reporter.
 * Returns the number of benchmarks selected (0: the filter matched nothing).
 */
size_t ecsb_gb_run(ecsb_gb_progress_fn progress, void *progress_ctx);

/* The C++ compiler that built the wrapper ("g++ 12.2.0"), for provenance. */
const char *ecsb_gb_cxx_compiler(void);

#ifdef __cplusplus
}
#endif

#endif /* ECSB_GBENCH_H */
