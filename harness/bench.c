/*
 * bench.c — the suite, `ecsbench bench [flags]` (flags: bench_flags.c).
 *
 * One benchmark per selected scenario x (floor, the limit where the scenario has one, then the
 * selected strategies in registry order) x size, named scenario/strategy/N. Three phases:
 *
 * 1. Check and calibrate, untimed as far as the results go: each benchmark prepares, runs one
 *    pass and takes its checksum, which must equal the floor's at the same (scenario, N); a
 *    wrong checksum or a failed status makes it an error row (SkipWithError, with the expected
 *    and actual checksum or the status), never a time. A few more passes (or, for a scenario
 *    whose pass consumes its set-up, a small batch of fresh worlds) estimate a pass's time.
 * 2. Plan: each repetition runs enough passes to time at least the min time, and at least
 *    MIN_TIMED_PASSES; repetitions by size and cost (bench_flags.c). Google Benchmark gets
 *    exactly these iteration and repetition counts, so it calls a body once per repetition.
 * 3. Time, through Google Benchmark, repetitions randomly interleaved. A scenario whose pass
 *    consumes its set-up (platformer) uses manual time over batches of freshly prepared
 *    worlds (runner.h: ecsb_fresh_batch), two clock reads per batch, after one untimed
 *    prepare-and-pass; the others prepare once per repetition, run one untimed warm-up pass
 *    (the first pass over a freshly prepared heap pays page faults and cold caches: at
 *    1,048,576 entities 2-3x a later pass) and time the passes after it as one batch.
 * Memory: each case also records the bytes its storage holds after set-up when its world is
 * grown from empty with no capacity hint (counter bytes_grown), beside the bytes with the
 * scenario's hint (counter bytes).
 * Every successful row carries the counters items_per_pass and n (time per item = real_time /
 * items_per_pass) and bytes and entities: the storage and live entities right after set-up.
 * The exit status is 1 when any row failed (after the results are written), 0 otherwise.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/runner.h"

/* Most iterations one repetition runs (Google Benchmark's own ceiling). */
#define MAX_ITERATIONS 1000000000ull
/* Calibration of repeated passes: passes in chunks until a chunk takes this long. */
#define CALIBRATION_SECONDS 0.001
/* Calibration of fresh passes: a pass this long is estimated from two worlds; shorter ones
 * from batches until CALIBRATION_SECONDS are timed, at most this many. */
#define LONG_PASS_SECONDS 0.01
#define MAX_CALIBRATION_BATCHES 64
/* Calibration of repeated passes: a first pass of this many min times is its own estimate. */
#define ENOUGH_FACTOR 4
/* Timed passes per repetition, at least: one pass is one sample of the cache state. */
#define MIN_TIMED_PASSES 3

typedef struct bench_case {
    ecsb_scenario_id scenario;
    const char *strategy; /* "floor", "limit" or a registered name */
    const ecsb_scenario_impl *impl;
    uint64_t n;
    ecsb_params params;
    char name[192];
    /* the plan */
    int repetitions;
    uint64_t iterations;   /* passes per repetition */
    uint64_t batch;        /* passes between two clock reads (fresh worlds); else iterations */
    double pass_seconds;   /* estimated, warm */
    double prepare_seconds; /* estimated, one prepare */
    uint64_t bytes_grown;   /* storage bytes after set-up when grown from empty (no hint) */
    char error[384];       /* empty while the case is good */
} bench_case;

/* ---- phase 1: check and calibrate ------------------------------------------------------ */

typedef struct probe_result {
    ecsb_status status;
    const char *step;
    uint64_t checksum;
    double pass_seconds, prepare_seconds;
} probe_result;

static ecsb_status probe_fail(probe_result *r, ecsb_status status, const char *step)
{
    r->status = status;
    r->step = step;
    return status;
}

/*
 * One fresh world: its pass and checksum. Then batches sized by the estimate so far, until
 * they have timed CALIBRATION_SECONDS (at least two; one when passes are long): a pass's time
 * is the least estimate (preemption only ever adds time; the first, cold pass is slower).
 */
static ecsb_status probe_fresh(const ecsb_scenario_impl *impl, uint64_t n, const ecsb_params *p,
                               probe_result *r)
{
    void **states = calloc(ECSB_BATCH_WORLDS, sizeof *states);
    if (!states)
        return probe_fail(r, ECSB_ERR_NOMEM, "prepare");
    ecsb_status st = ECSB_OK;
    uint64_t batch = 1;
    double timed = 0;
    for (int round = 0; st == ECSB_OK; round++) {
        double t0 = ecsb_now(), seconds;
        if ((st = ecsb_prepare_many(impl, n, p, states, batch)) != ECSB_OK) {
            free(states);
            return probe_fail(r, st, "prepare");
        }
        double prepare = (ecsb_now() - t0) / (double)batch;
        st = ecsb_pass_many(impl, states, batch, &seconds);
        double pass = seconds / (double)batch;
        if (round == 0) {
            r->checksum = impl->checksum(states[0]);
            r->prepare_seconds = prepare;
            r->pass_seconds = pass;
        }
        r->prepare_seconds = prepare < r->prepare_seconds ? prepare : r->prepare_seconds;
        r->pass_seconds = pass < r->pass_seconds ? pass : r->pass_seconds;
        ecsb_release_many(impl, states, batch);
        timed += round ? seconds : 0;
        if ((round >= 1 && pass >= LONG_PASS_SECONDS) ||
            (round >= 2 && timed >= CALIBRATION_SECONDS) || round == MAX_CALIBRATION_BATCHES)
            break;
        batch = ecsb_fresh_batch(n, r->pass_seconds);
    }
    free(states);
    return st == ECSB_OK ? ECSB_OK : probe_fail(r, st, "pass");
}

/*
 * One pass and its checksum, then passes in chunks doubling until one takes
 * CALIBRATION_SECONDS, and one more chunk of that size: a pass's time is the least estimate.
 * A first pass of `enough` seconds or more is its own estimate (a repetition runs one pass
 * then anyway, and two more would cost seconds).
 */
static ecsb_status probe_repeated(const ecsb_scenario_impl *impl, uint64_t n,
                                  const ecsb_params *p, double enough, probe_result *r)
{
    void *state = NULL;
    double t0 = ecsb_now();
    ecsb_status st = impl->prepare(&state, n, p);
    if (st != ECSB_OK)
        return probe_fail(r, st, "prepare");
    r->prepare_seconds = ecsb_now() - t0;
    t0 = ecsb_now();
    if ((st = impl->pass(state)) != ECSB_OK) {
        impl->release(state);
        return probe_fail(r, st, "pass");
    }
    r->pass_seconds = ecsb_now() - t0;
    r->checksum = impl->checksum(state);
    bool long_enough = false;
    for (uint64_t chunk = 1; st == ECSB_OK && r->pass_seconds < enough; chunk *= long_enough ? 1 : 2) {
        t0 = ecsb_now();
        for (uint64_t i = 0; i < chunk && st == ECSB_OK; i++)
            st = impl->pass(state);
        double seconds = ecsb_now() - t0;
        if (seconds / (double)chunk < r->pass_seconds)
            r->pass_seconds = seconds / (double)chunk;
        if (long_enough)
            break;
        long_enough = seconds >= CALIBRATION_SECONDS;
    }
    impl->release(state);
    return st == ECSB_OK ? ECSB_OK : probe_fail(r, st, "pass");
}

/* Check run and calibration of impl at (s, n); `enough`: see probe_repeated. */
static ecsb_status probe(const ecsb_scenario_impl *impl, ecsb_scenario_id s, uint64_t n,
                         const ecsb_params *p, double enough, probe_result *r)
{
    *r = (probe_result){.status = ECSB_OK, .step = ""};
    return ecsb_scenarios[s].consumes_setup ? probe_fresh(impl, n, p, r)
                                            : probe_repeated(impl, n, p, enough, r);
}

/* Wall seconds one repetition of c takes, estimated from its plan. */
static double repetition_seconds(const bench_case *c)
{
    if (c->error[0])
        return 0;
    /* + the warm-up: one more pass and, for fresh worlds, one more prepare */
    double prepares = ecsb_scenarios[c->scenario].consumes_setup ? (double)c->iterations + 1 : 1;
    return (double)(c->iterations + 1) * c->pass_seconds + prepares * c->prepare_seconds;
}

static void plan_case(bench_case *c, const probe_result *r, const ecsb_bench_settings *s)
{
    c->pass_seconds = r->pass_seconds > 1e-9 ? r->pass_seconds : 1e-9;
    c->prepare_seconds = r->prepare_seconds;
    double want = ceil(ecsb_bench_min_time(s) / c->pass_seconds);
    c->iterations = want < MIN_TIMED_PASSES  ? MIN_TIMED_PASSES
                    : want > (double)MAX_ITERATIONS ? MAX_ITERATIONS
                                                    : (uint64_t)want;
    c->batch = c->iterations;
    if (ecsb_scenarios[c->scenario].consumes_setup) {
        c->batch = ecsb_fresh_batch(c->n, c->pass_seconds);
        if (c->batch > c->iterations)
            c->batch = c->iterations;
        c->iterations = (c->iterations + c->batch - 1) / c->batch * c->batch;
    }
    c->repetitions = ecsb_bench_repetitions(s, c->n, repetition_seconds(c));
}

/* The bytes c's storage holds after a set-up grown from empty; false when prepare fails. */
static bool measure_grown(bench_case *c)
{
    void *state = NULL;
    uint64_t entities;
    ecsb_scenario_grow_from_empty = true;
    ecsb_status st = c->impl->prepare(&state, c->n, &c->params);
    ecsb_scenario_grow_from_empty = false;
    if (st != ECSB_OK)
        return false;
    c->impl->memory(state, &c->bytes_grown, &entities);
    c->impl->release(state);
    return true;
}

/* Check case c against the floor's result at its (scenario, N) and plan it. */
static void check_case(bench_case *c, const probe_result *floor_ref,
                       const ecsb_bench_settings *s, double enough)
{
    const char *scenario = ecsb_scenarios[c->scenario].name;
    c->repetitions = ecsb_bench_repetitions(s, c->n, 0);
    c->iterations = c->batch = 1;
    if (floor_ref->status != ECSB_OK) {
        snprintf(c->error, sizeof c->error,
                 "%s at N=%" PRIu64 ": no reference checksum: the floor's %s failed: %s",
                 scenario, c->n, floor_ref->step, ecsb_status_str(floor_ref->status));
        return;
    }
    probe_result r = *floor_ref;
    if (c->impl != &ecsb_floor[c->scenario] &&
        probe(c->impl, c->scenario, c->n, &c->params, enough, &r) != ECSB_OK) {
        snprintf(c->error, sizeof c->error, "%s on %s at N=%" PRIu64 ": %s failed: %s",
                 scenario, c->strategy, c->n, r.step, ecsb_status_str(r.status));
        return;
    }
    if (r.checksum != floor_ref->checksum) {
        snprintf(c->error, sizeof c->error,
                 "%s on %s at N=%" PRIu64 ": wrong checksum: expected %016" PRIx64
                 " (floor), got %016" PRIx64,
                 scenario, c->strategy, c->n, floor_ref->checksum, r.checksum);
        return;
    }
    if (!measure_grown(c)) {
        snprintf(c->error, sizeof c->error,
                 "%s on %s at N=%" PRIu64 ": prepare without a capacity hint failed",
                 scenario, c->strategy, c->n);
        return;
    }
    plan_case(c, &r, s);
}

/* ---- the cases --------------------------------------------------------------------------- */

typedef struct suite {
    bench_case *cases;
    size_t count, cap;
} suite;

static bool add_case(suite *su, ecsb_scenario_id sc, const char *strategy,
                     const ecsb_scenario_impl *impl, uint64_t n, const ecsb_params *p,
                     const ecsb_bench_settings *s)
{
    bench_case c = {.scenario = sc, .strategy = strategy, .impl = impl, .n = n, .params = *p};
    char changed[128];
    ecsb_params_format(sc, p, true, ",", changed, sizeof changed);
    snprintf(c.name, sizeof c.name, "%s/%s/%" PRIu64 "%s%s", ecsb_scenarios[sc].name, strategy,
             n, changed[0] ? "/" : "", changed);
    if (!ecsb_bench_selected(s, c.name))
        return true;
    if (su->count == su->cap) {
        size_t cap = su->cap ? 2 * su->cap : 256;
        bench_case *grown = realloc(su->cases, cap * sizeof *grown);
        if (!grown)
            return false;
        su->cases = grown;
        su->cap = cap;
    }
    su->cases[su->count++] = c;
    return true;
}

/* Every selected case, in order: scenario, parameter set, size, then floor, limit, strategies. */
static bool build_suite(const ecsb_bench_settings *s, suite *su)
{
    *su = (suite){0};
    for (int sc = 0; sc < ECSB_SCENARIO_COUNT; sc++) {
        if (!s->scenario_on[sc])
            continue;
        uint64_t sizes[ECSB_MAX_SIZES];
        size_t size_count = ecsb_bench_sizes(s, (ecsb_scenario_id)sc, sizes);
        ecsb_params sets[ECSB_MAX_PARAM_SETS];
        size_t set_count = ecsb_bench_param_sets(s, (ecsb_scenario_id)sc, sets, ECSB_MAX_PARAM_SETS);
        for (size_t ps = 0; ps < set_count; ps++)
        for (size_t z = 0; z < size_count; z++) {
            ecsb_scenario_id id = (ecsb_scenario_id)sc;
            const ecsb_params *p = &sets[ps];
            bool ok = add_case(su, id, ECSB_FLOOR_NAME, &ecsb_floor[sc], sizes[z], p, s);
            if (ecsb_has_limit(id))
                ok = ok && add_case(su, id, ECSB_LIMIT_NAME, &ecsb_limit[sc], sizes[z], p, s);
            for (size_t i = 0; i < ecsb_strategy_count; i++) {
                const ecsb_strategy *st = ecsb_strategies[i];
                if (!s->strategy_on[i])
                    continue;
                const char *why;
                uint64_t cap = ecsb_strategy_cap(st, id, p, &why);
                if (cap && sizes[z] > cap) {
                    /* Left out, and said so: the cell shows "not run" in tables and plots. */
                    fprintf(stderr,
                            "ecsbench: not running %s/%s/%" PRIu64 "%s: above its largest N %" PRIu64
                            " (%s)\n",
                            ecsb_scenarios[sc].name, st->name, sizes[z],
                            p->v[ECSB_PARAM_ORDER] == ECSB_ORDER_SHUFFLED ? " order=shuffled" : "",
                            cap, why);
                    continue;
                }
                ok = ok && add_case(su, id, st->name, &st->scenarios[sc], sizes[z], p, s);
            }
            if (!ok)
                return false;
        }
    }
    return true;
}

/* Phase 1 over the suite: the floor's reference once per (scenario, N), then each case. */
static void check_suite(suite *su, const ecsb_bench_settings *s, bool show)
{
    double t0 = ecsb_now(), enough = ENOUGH_FACTOR * ecsb_bench_min_time(s);
    size_t last_decile = 0;
    probe_result ref = {0};
    for (size_t i = 0; i < su->count; i++) {
        bench_case *c = &su->cases[i];
        const bench_case *prev = i ? &su->cases[i - 1] : NULL;
        if (!prev || c->scenario != prev->scenario || c->n != prev->n ||
            memcmp(&c->params, &prev->params, sizeof c->params) != 0)
            probe(&ecsb_floor[c->scenario], c->scenario, c->n, &c->params, enough, &ref);
        check_case(c, &ref, s, enough);
        size_t decile = 10 * (i + 1) / su->count;
        if (show && decile > last_decile && ecsb_now() - t0 > 1) {
            last_decile = decile;
            fprintf(stderr, "ecsbench: checked %zu/%zu benchmarks (%.1f s)\n", i + 1, su->count,
                    ecsb_now() - t0);
        }
    }
}

static void print_plan(const suite *su)
{
    double total = 0;
    printf("# benchmark repetitions passes_per_repetition batch pass_seconds clock_share "
           "seconds\n");
    for (size_t i = 0; i < su->count; i++) {
        const bench_case *c = &su->cases[i];
        if (c->error[0]) {
            printf("%s error: %s\n", c->name, c->error);
            continue;
        }
        double seconds = repetition_seconds(c) * c->repetitions;
        double share = ecsb_clock_pair_seconds() / ((double)c->batch * c->pass_seconds);
        total += seconds;
        printf("%s %d %" PRIu64 " %" PRIu64 " %.3g %.2g %.3g\n", c->name, c->repetitions,
               c->iterations, c->batch, c->pass_seconds, share, seconds);
    }
    printf("# total %.1f seconds (estimated; clock pair %.3g s)\n", total,
           ecsb_clock_pair_seconds());
}

/* ---- phase 3: timing --------------------------------------------------------------------- */

typedef struct progress {
    bool on, live; /* live: one line redrawn in place (stderr a terminal, stdout not) */
    double t0;
    size_t done, total, last_decile;
} progress;

static progress prog;

static void show_progress(const char *name)
{
    prog.done++;
    if (!prog.on || prog.total == 0)
        return;
    size_t done = prog.done < prog.total ? prog.done : prog.total;
    double elapsed = ecsb_now() - prog.t0;
    char el[32], left[32];
    ecsb_format_duration(el, sizeof el, elapsed);
    ecsb_format_duration(left, sizeof left, elapsed * (double)(prog.total - done) / (double)done);
    int percent = (int)(100 * done / prog.total);
    if (prog.live) {
        fprintf(stderr, "\r\033[K[%zu/%zu %3d%%] %s elapsed, ~%s left  %s", done, prog.total,
                percent, el, left, name);
    } else {
        size_t decile = 10 * done / prog.total;
        if (decile <= prog.last_decile)
            return;
        prog.last_decile = decile;
        fprintf(stderr, "progress: %zu/%zu repetitions (%d%%), %s elapsed, ~%s left\n", done,
                prog.total, percent, el, left);
    }
    fflush(stderr);
}

static void fail_timing(ecsb_gb_state *st, bench_case *c, const char *step, ecsb_status status)
{
    snprintf(c->error, sizeof c->error, "%s on %s at N=%" PRIu64 ": %s failed while timing: %s",
             ecsb_scenarios[c->scenario].name, c->strategy, c->n, step, ecsb_status_str(status));
    ecsb_gb_skip_with_error(st, c->error);
}

/* Manual time over batches of fresh worlds: prepare a batch untimed, time its passes. */
static void time_fresh_passes(ecsb_gb_state *st, bench_case *c, uint64_t *bytes,
                              uint64_t *entities)
{
    const ecsb_scenario_impl *impl = c->impl;
    const uint64_t iterations = ecsb_gb_iterations(st);
    void **states = calloc(c->batch, sizeof *states);
    if (!states) {
        fail_timing(st, c, "prepare", ECSB_ERR_NOMEM);
        return;
    }
    /* Warm-up: one world prepared and passed untimed, so the allocator and the code are warm. */
    double warm_seconds;
    ecsb_status warm = ecsb_prepare_many(impl, c->n, &c->params, states, 1);
    if (warm == ECSB_OK) {
        warm = ecsb_pass_many(impl, states, 1, &warm_seconds);
        ecsb_release_many(impl, states, 1);
    }
    if (warm != ECSB_OK) {
        fail_timing(st, c, "warm-up", warm);
        free(states);
        return;
    }
    while (ecsb_gb_keep_running_batch(st, iterations)) {
        for (uint64_t done = 0; done < iterations;) {
            uint64_t b = iterations - done < c->batch ? iterations - done : c->batch;
            ecsb_status status = ecsb_prepare_many(impl, c->n, &c->params, states, b);
            if (status != ECSB_OK) {
                fail_timing(st, c, "prepare", status);
                break;
            }
            if (done == 0)
                impl->memory(states[0], bytes, entities);
            double seconds;
            status = ecsb_pass_many(impl, states, b, &seconds);
            ecsb_release_many(impl, states, b);
            if (status != ECSB_OK) {
                fail_timing(st, c, "pass", status);
                break;
            }
            ecsb_gb_add_manual_time(st, seconds);
            done += b;
        }
    }
    free(states);
}

/* Automatic time: prepare once per repetition, time its passes as one batch. */
static void time_repeated_passes(ecsb_gb_state *st, bench_case *c, uint64_t *bytes,
                                 uint64_t *entities)
{
    const ecsb_scenario_impl *impl = c->impl;
    void *state = NULL;
    ecsb_status status = impl->prepare(&state, c->n, &c->params);
    if (status != ECSB_OK) {
        fail_timing(st, c, "prepare", status);
        return;
    }
    impl->memory(state, bytes, entities);
    /* Warm-up: every timed structure touched once before the clock starts. */
    if ((status = impl->pass(state)) != ECSB_OK) {
        fail_timing(st, c, "warm-up", status);
        impl->release(state);
        return;
    }
    const uint64_t iterations = ecsb_gb_iterations(st);
    while (ecsb_gb_keep_running_batch(st, iterations)) {
        for (uint64_t i = 0; i < iterations; i++) {
            if ((status = impl->pass(state)) != ECSB_OK) {
                fail_timing(st, c, "pass", status);
                break;
            }
        }
    }
    impl->release(state);
}

static void bench_body(ecsb_gb_state *st, void *ctx)
{
    bench_case *c = ctx;
    if (c->error[0]) {
        ecsb_gb_skip_with_error(st, c->error);
        show_progress(c->name);
        return;
    }
    const ecsb_scenario_info *info = &ecsb_scenarios[c->scenario];
    uint64_t bytes = 0, entities = 0;
    if (info->consumes_setup)
        time_fresh_passes(st, c, &bytes, &entities);
    else
        time_repeated_passes(st, c, &bytes, &entities);
    if (!ecsb_gb_error_occurred(st)) {
        ecsb_gb_counter(st, "items_per_pass", (double)info->items_per_pass(c->n, &c->params));
        ecsb_gb_counter(st, "n", (double)c->n);
        ecsb_gb_counter(st, "bytes", (double)bytes);
        ecsb_gb_counter(st, "bytes_grown", (double)c->bytes_grown);
        ecsb_gb_counter(st, "entities", (double)entities);
        ecsb_gb_label(st, info->item);
    }
    show_progress(c->name);
}

/* ---- the command ------------------------------------------------------------------------- */

/* Every size the suite runs, ascending, comma-separated. */
static void sizes_string(const suite *su, char *buf, size_t size)
{
    uint64_t seen[ECSB_SCENARIO_COUNT * ECSB_MAX_SIZES];
    size_t count = 0;
    for (size_t i = 0; i < su->count; i++) {
        size_t j = 0;
        while (j < count && seen[j] != su->cases[i].n)
            j++;
        if (j == count)
            seen[count++] = su->cases[i].n;
    }
    buf[0] = '\0';
    for (size_t k = 0; k < count; k++) { /* selection sort: a few dozen sizes at most */
        size_t min = k;
        for (size_t j = k + 1; j < count; j++)
            if (seen[j] < seen[min])
                min = j;
        uint64_t t = seen[k];
        seen[k] = seen[min];
        seen[min] = t;
        size_t used = strlen(buf);
        snprintf(buf + used, size - used, "%s%" PRIu64, k ? "," : "", seen[k]);
    }
}

static bool register_suite(suite *su)
{
    for (size_t i = 0; i < su->count; i++) {
        bench_case *c = &su->cases[i];
        bool manual = ecsb_scenarios[c->scenario].consumes_setup;
        if (!ecsb_gb_register(c->name, bench_body, c, manual ? ECSB_GB_MANUAL_TIME : ECSB_GB_AUTO_TIME,
                              c->iterations, c->repetitions))
            return false;
        prog.total += (size_t)c->repetitions;
    }
    return true;
}

static void record_provenance(const ecsb_bench_settings *s, const suite *su, int argc,
                              char **argv, char *run_id, size_t run_id_size)
{
    if (s->run_id)
        snprintf(run_id, run_id_size, "%s", s->run_id);
    else
        ecsb_default_run_id(run_id, run_id_size);
    char sizes[1024], reps[64];
    sizes_string(su, sizes, sizeof sizes);
    snprintf(reps, sizeof reps, "%d", ecsb_bench_repetitions(s, 1, 0));
    ecsb_provenance_record(&(ecsb_provenance){.run_id = run_id,
                                              .settings = s,
                                              .sizes = sizes,
                                              .repetitions = reps,
                                              .argc = argc,
                                              .argv = argv});
    for (size_t i = 0; i < s->context_count; i++)
        ecsb_gb_add_context(s->context_key[i], s->context_value[i]);
    /* Every scenario's default parameters, "scenario:name=value;...|...": a row's name carries
     * only the parameters that differ from these (scripts/json_to_csv.py joins the two). */
    char defaults[4096] = "";
    for (int sc = 0; sc < ECSB_SCENARIO_COUNT; sc++) {
        ecsb_params p = ecsb_params_default((ecsb_scenario_id)sc);
        char one[256];
        ecsb_params_format((ecsb_scenario_id)sc, &p, false, ";", one, sizeof one);
        snprintf(defaults + strlen(defaults), sizeof defaults - strlen(defaults), "%s%s:%s",
                 sc ? "|" : "", ecsb_scenarios[sc].name, one);
    }
    ecsb_gb_add_context("ecsb_params_default", defaults);
}

/* After the run: each failed row on stderr; the exit status. */
static int report_failures(const suite *su, bool show, double t0)
{
    size_t failed = 0;
    for (size_t i = 0; i < su->count; i++)
        if (su->cases[i].error[0]) {
            failed++;
            fprintf(stderr, "ecsbench: error: %s\n", su->cases[i].error);
        }
    if (show)
        fprintf(stderr, "ecsbench: done in %.1f s%s\n", ecsb_now() - t0,
                failed ? "; the benchmarks above are error rows, not times" : "");
    if (failed)
        fprintf(stderr, "ecsbench: %zu of %zu benchmarks failed (exit status 1)\n", failed,
                su->count);
    return failed ? 1 : 0;
}

static int run_suite(ecsb_bench_settings *s, suite *su, int argc, char **argv)
{
    if (su->count == 0) {
        fprintf(stderr,
                "ecsbench: the selection names no benchmark (--benchmark_filter=%s)\n"
                "names are scenario/strategy/N; list them with --benchmark_list_tests\n",
                s->filter ? s->filter : "");
        return 2;
    }
    if (s->list_tests) {
        for (size_t i = 0; i < su->count; i++)
            printf("%s\n", su->cases[i].name);
        return 0;
    }
    if (s->out_path) {
        FILE *f = fopen(s->out_path, "w");
        if (!f) {
            fprintf(stderr, "ecsbench: cannot write --benchmark_out=%s\n", s->out_path);
            return 2;
        }
        fclose(f);
    }
    double t0 = ecsb_now();
    prog = (progress){.on = s->progress,
                      .live = isatty(STDERR_FILENO) && !isatty(STDOUT_FILENO)};
    check_suite(su, s, s->progress);
    if (s->plan_only) {
        print_plan(su);
        return 0;
    }
    if (!register_suite(su)) {
        fprintf(stderr, "ecsbench: out of memory registering benchmarks\n");
        return 1;
    }
    char run_id[128];
    record_provenance(s, su, argc, argv, run_id, sizeof run_id);
    double estimate = 0;
    for (size_t i = 0; i < su->count; i++)
        estimate += repetition_seconds(&su->cases[i]) * su->cases[i].repetitions;
    if (s->progress) {
        char checked[32], left[32];
        ecsb_format_duration(checked, sizeof checked, ecsb_now() - t0);
        ecsb_format_duration(left, sizeof left, estimate);
        fprintf(stderr,
                "ecsbench: run %s: %zu benchmarks, %zu repetitions, random interleaving %s; "
                "checked in %s, timing about %s\n",
                run_id, su->count, prog.total, s->interleave ? "on" : "off", checked, left);
    }
    prog.t0 = ecsb_now();
    if (!ecsb_gb_run(s->out_path, s->out_format)) {
        fprintf(stderr, "ecsbench: could not write --benchmark_out=%s\n", s->out_path);
        return 1;
    }
    if (prog.live && prog.on)
        fputc('\n', stderr);
    return report_failures(su, s->progress, t0);
}

int ecsb_bench_main(int argc, char **argv)
{
    ecsb_bench_settings s;
    int rc = ecsb_bench_parse(argc, argv, &s);
    if (rc == 0) {
        suite su;
        if (!build_suite(&s, &su)) {
            fprintf(stderr, "ecsbench: out of memory\n");
            rc = 1;
        } else {
            rc = run_suite(&s, &su, argc, argv);
        }
        free(su.cases);
    }
    ecsb_bench_settings_free(&s);
    return rc;
}
