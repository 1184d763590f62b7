/*
 * bench.c — the suite, `ecsbench bench [flags]` (flags: bench_flags.c).
 *
 * One benchmark per selected scenario x (floor, the limit where the scenario has one, then the
 * selected strategies in registry order) x size, named scenario/strategy/N. The lines of one
 * scenario, parameter set and N form a cell. Every timing goes through the one engine,
 * ecsb_time_case (harness/timing.h). Three phases:
 *
 * 1. Check and calibrate, untimed as far as the results go: each benchmark prepares a world,
 *    runs one pass and takes its checksum, which must equal the floor's at the same cell; a
 *    wrong checksum or a failed status makes it an error row (SkipWithError, with the expected
 *    and actual checksum or the status), never a time. The same world, so warmed, then
 *    estimates a pass's time (growing groups of passes, or of fresh worlds, until 1 ms).
 * 2. Plan, per cell: the scenario's warm-up (ecsb_warmup_decide: its rule in full, the same
 *    whichever lines are selected; a cell whose rule does not fit is not run, and said so),
 *    and as many timed passes
 *    as the slowest line needs for the min time (at least MIN_TIMED_PASSES; fewer, down to
 *    one, where passes of 1/8 s or more make LONG_PASSES_SECONDS sooner), the same for
 *    every line, so no line's world is older or younger when timed (a scenario whose pass
 *    consumes its set-up, a fresh world per pass: no more worlds on a line than cost
 *    FRESH_COST_SHARE x the min time, at least that least); the timed passes spread
 *    over up to MAX_WORLDS freshly built worlds (fresh placements) where building them is
 *    cheap; repetitions by the cell's cost, the same for its lines (bench_flags.c). Google Benchmark gets exactly
 *    these iteration and repetition counts, so it calls a body once per repetition.
 * 3. Time, through Google Benchmark, repetitions randomly interleaved, as manual time: the
 *    engine's timed spans only (set-up, warm-up and fresh worlds' prepares stay outside).
 *    Every repetition goes through the sentinel (harness/sentinel.h): a kernel probed around
 *    it; one timed on a disturbed machine is timed again within the repeat budget, or kept
 *    and marked (counters sentinel_ns, speed_index, cpu_share, disturbed; ecsb_sentinel_* context keys,
 *    written with the output file at the end, when the run-wide best is known).
 * Memory: each case also records the bytes its storage holds after set-up when its world is
 * grown from empty with no capacity hint (counter bytes_grown, up to N = GROWN_LARGEST_N),
 * beside the bytes with the scenario's hint (counter bytes).
 * Every successful row carries the counters items_per_pass and n (time per item = real_time /
 * items_per_pass), bytes and entities (the storage and live entities right after set-up),
 * warmup and worlds (its plan), slice_1 .. slice_K (seconds per pass in consecutive slices of
 * its timed passes, K <= 12) and drift (timing.h: the timed passes against the warm-up's
 * last third, or the last third of the timed ones against their first; absent when a world
 * had fewer than 3 spans to compare), and the sentinel's
 * sentinel_ns (the slower probe around it), speed_index (run-wide best probe / sentinel_ns)
 * and disturbed (1: kept although disturbed).
 * The exit status is 1 when any row failed (after the results are written), 0 otherwise.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* getloadavg */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/runner.h"
#include "harness/sentinel.h"

/* Most iterations one repetition runs (Google Benchmark's own ceiling). */
#define MAX_ITERATIONS 1000000000ull
/* Calibration: after one warm-up pass, passes (or fresh worlds) in growing groups until this
 * much has been timed; a pass's time is the least per pass of any group. */
#define CALIBRATION_SECONDS 0.001
/* Timed passes per repetition, at least: one pass is one sample of the cache state; but
 * no more than make LONG_PASSES_SECONDS on the slowest line (at least one pass): a pass over a
 * shuffled 1M-entity world takes about a second, far longer than any preemption, and three
 * of them in each of five repetitions were most of a 1M run's time. */
#define MIN_TIMED_PASSES 3
#define LONG_PASSES_SECONDS 0.25
/* Worlds per repetition (repeated-pass scenarios): up to MAX_WORLDS, each a fresh placement,
 * as long as building and warming them costs at most WORLD_COST_SHARE times the timed passes. */
#define MAX_WORLDS 16
#define WORLD_COST_SHARE 1.0
/* Spans (clock-read pairs) per world, at most, beyond what the clock's share asks: the
 * per-pass times a repetition records (timing.h: slices). */
#define SPANS_PER_WORLD 12
/* A scenario whose pass consumes its set-up prepares a world per pass: where preparing one
 * costs far more than its pass, a line's repetition times no more fresh worlds than cost
 * FRESH_COST_SHARE x the min time in all (at least the cell's least passes): the same
 * passes for every line keep worlds of one age, and fresh worlds are all of one age anyway;
 * beyond that, more worlds bought little and cost most of the run's time where they were
 * dear (docs/measuring.md, "What make bench's time buys"). */
#define FRESH_COST_SHARE 4.0

typedef struct bench_case {
    ecsb_scenario_id scenario;
    const char *strategy; /* "floor", "limit" or a registered name */
    const ecsb_scenario_impl *impl;
    uint64_t n;
    ecsb_params params;
    char name[192];
    /* the plan: worlds, warm-up and passes are the cell's (the same for every line of one
     * scenario, parameter set and N); the group is the line's own */
    int repetitions;
    ecsb_time_plan plan;
    double pass_seconds;    /* this line's, estimated, warm */
    double prepare_seconds; /* this line's, one prepare */
    uint64_t bytes_grown;   /* storage bytes after set-up when grown from empty (no hint) */
    char error[384];        /* empty while the case is good */
} bench_case;

/* ---- phase 1: check and calibrate ------------------------------------------------------ */

/* Calibration: one warm-up pass (its checksum, of a fresh world passed once, is the check's:
 * first_checksum), then growing groups until CALIBRATION_SECONDS are timed. */
static ecsb_status calibrate(bench_case *c, ecsb_time_result *r)
{
    ecsb_time_plan plan = {.worlds = 1, .warmup = 1, .passes = MAX_ITERATIONS,
                           .stop_after = CALIBRATION_SECONDS, .checksums = ECSB_CHECKSUM_FIRST};
    ecsb_status st = ecsb_time_case(c->impl, ecsb_scenarios[c->scenario].consumes_setup, c->n,
                                    &c->params, &plan, r, NULL, NULL);
    c->pass_seconds = r->least_pass > 1e-9 ? r->least_pass : 1e-9;
    c->prepare_seconds = r->prepare_seconds;
    return st;
}

/* Wall seconds one repetition of c takes, estimated from its plan. */
static double repetition_seconds(const bench_case *c)
{
    if (c->error[0])
        return 0;
    const ecsb_time_plan *p = &c->plan;
    if (ecsb_scenarios[c->scenario].consumes_setup) /* a world per pass, warm-up included */
        return (double)(p->warmup + p->passes) * (c->pass_seconds + c->prepare_seconds);
    return (double)p->worlds * (c->prepare_seconds + (double)p->warmup * c->pass_seconds) +
           (double)p->passes * c->pass_seconds;
}

/*
 * Plan the cell cases[0 .. count): the same warm-up, worlds and timed passes for every line,
 * from the slowest line (so the slowest still times the min time, and no line's world is
 * older when it is timed because the line is fast); repetitions from the slowest line's cost;
 * each line's own group, so its clock reads stay under 0.5% of a span; repetitions from the
 * cost of one repetition of every line (bench_flags.c: more where that is cheap).
 */
static void plan_cell(bench_case *cases, size_t count, const ecsb_bench_settings *s)
{
    double slow = 0, prepare = 0;
    for (size_t i = 0; i < count; i++) {
        if (cases[i].error[0])
            continue;
        slow = cases[i].pass_seconds > slow ? cases[i].pass_seconds : slow;
        prepare = cases[i].prepare_seconds > prepare ? cases[i].prepare_seconds : prepare;
    }
    if (slow == 0) { /* every line failed: error rows, as many as a cell's fewest repetitions */
        for (size_t i = 0; i < count; i++)
            cases[i].repetitions = ecsb_bench_repetitions(s, INFINITY);
        return;
    }
    const bench_case *c0 = &cases[0];
    bool fresh = ecsb_scenarios[c0->scenario].consumes_setup;
    /* the scenario's rule in full: never capped, never from the lines' speed (build_suite
     * leaves out the cells whose rule does not fit) */
    ecsb_time_plan cell = {.warmup = ecsb_warmup_decide(c0->scenario, c0->n, &c0->params).passes};
    double least = fmin(MIN_TIMED_PASSES, ceil(LONG_PASSES_SECONDS / slow));
    double want = fmax(ceil(ecsb_bench_min_time(s) / slow), least);
    cell.passes = want > (double)MAX_ITERATIONS ? MAX_ITERATIONS : (uint64_t)want;
    cell.worlds = 1;
    if (!fresh) {
        double timed = (double)cell.passes * slow;
        double world = prepare + (double)cell.warmup * slow;
        double fit = floor(WORLD_COST_SHARE * timed / (world > 1e-9 ? world : 1e-9));
        cell.worlds = fit < 1 ? 1 : fit > MAX_WORLDS ? MAX_WORLDS : (uint64_t)fit;
        if (cell.worlds > cell.passes)
            cell.worlds = cell.passes;
    }
    double cell_seconds = 0; /* one repetition of every line */
    for (size_t i = 0; i < count; i++) {
        bench_case *c = &cases[i];
        if (c->error[0])
            continue;
        c->plan = cell;
        if (fresh) { /* a world per pass: no more worlds than the line's cost share */
            double afford = ceil(FRESH_COST_SHARE * ecsb_bench_min_time(s) /
                                 (c->pass_seconds + c->prepare_seconds));
            afford = fmax(afford, least);
            if (afford < (double)c->plan.passes)
                c->plan.passes = (uint64_t)afford;
        }
        uint64_t per_world = (c->plan.passes + cell.worlds - 1) / cell.worlds;
        uint64_t group = fresh ? ecsb_fresh_batch(c->n, c->pass_seconds)
                               : ecsb_clock_group(c->pass_seconds);
        uint64_t spread = (per_world + SPANS_PER_WORLD - 1) / SPANS_PER_WORLD;
        if (!fresh && group < spread)
            group = spread;
        c->plan.group = group < per_world ? group : per_world;
        cell_seconds += repetition_seconds(c);
    }
    int repetitions = ecsb_bench_repetitions(s, cell_seconds);
    for (size_t i = 0; i < count; i++)
        cases[i].repetitions = repetitions;
}

/*
 * The bytes c's storage holds after a set-up grown from empty; false when prepare fails. Up
 * to GROWN_LARGEST_N only: above it, building one more shuffled or aged world per line (up
 * to 2.7 s at 1M) was half of a large run's check phase, for a figure whose ratio to the
 * hinted bytes (what growth by doubling reserves) does not change with N.
 */
#define GROWN_LARGEST_N 65536u
static bool measure_grown(bench_case *c)
{
    if (c->n > GROWN_LARGEST_N)
        return true;
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

/*
 * Check case c against its cell's reference checksum and calibrate it, on one world: the
 * calibration's first pass is a warm-up on a fresh world, whose checksum is the check's
 * (ecsb_time_result.first_checksum), so a line's world is built once before timing (twice
 * up to GROWN_LARGEST_N, with the grown-from-empty measure). The floor, first in its cell,
 * sets the reference for the lines after it (is_reference).
 */
static void check_case(bench_case *c, ecsb_time_result *ref, bool is_reference)
{
    const char *scenario = ecsb_scenarios[c->scenario].name;
    c->plan = (ecsb_time_plan){.worlds = 1, .warmup = 1, .passes = 1, .group = 1};
    if (!is_reference && ref->status != ECSB_OK) {
        snprintf(c->error, sizeof c->error,
                 "%s at N=%" PRIu64 ": no reference checksum: the floor's %s failed: %s",
                 scenario, c->n, ref->step, ecsb_status_str(ref->status));
        return;
    }
    ecsb_time_result r;
    ecsb_status st = calibrate(c, &r);
    if (is_reference)
        *ref = r;
    if (st != ECSB_OK) {
        snprintf(c->error, sizeof c->error, "%s on %s at N=%" PRIu64 ": %s failed: %s",
                 scenario, c->strategy, c->n, r.step, ecsb_status_str(r.status));
        return;
    }
    if (r.first_checksum != ref->first_checksum) {
        snprintf(c->error, sizeof c->error,
                 "%s on %s at N=%" PRIu64 ": wrong checksum: expected %016" PRIx64
                 " (floor), got %016" PRIx64,
                 scenario, c->strategy, c->n, ref->first_checksum, r.first_checksum);
        return;
    }
    if (!measure_grown(c))
        snprintf(c->error, sizeof c->error,
                 "%s on %s at N=%" PRIu64 ": prepare without a capacity hint failed",
                 scenario, c->strategy, c->n);
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
            ecsb_warmup warm = ecsb_warmup_decide(id, sizes[z], p);
            if (!warm.fits) { /* the whole cell: its warm-up would be cut short */
                char changed[128];
                ecsb_params_format(id, p, true, ",", changed, sizeof changed);
                fprintf(stderr, "ecsbench: not running %s/*/%" PRIu64 "%s%s: %s\n",
                        ecsb_scenarios[sc].name, sizes[z], changed[0] ? "/" : "", changed,
                        warm.why);
                continue;
            }
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
                            p->v[ECSB_PARAM_ORDER] == ECSB_ORDER_SHUFFLED ? " order=shuffled"
                            : p->v[ECSB_PARAM_ORDER] == ECSB_ORDER_AGED   ? " order=aged"
                                                                          : "",
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

/* True when a and b are lines of one cell: the same scenario, parameters and N. */
static bool same_cell(const bench_case *a, const bench_case *b)
{
    return a->scenario == b->scenario && a->n == b->n &&
           memcmp(&a->params, &b->params, sizeof a->params) == 0;
}

/* Phases 1 and 2 over the suite: per cell, the floor's reference, each line checked and
 * calibrated, then the cell planned. */
static void check_suite(suite *su, const ecsb_bench_settings *s, bool show)
{
    double t0 = ecsb_now();
    size_t last_decile = 0;
    ecsb_time_result ref = {0};
    for (size_t first = 0, i = 0; i < su->count; i++) {
        bench_case *c = &su->cases[i];
        bool is_reference = false;
        if (i == 0 || !same_cell(c, &su->cases[i - 1])) {
            first = i;
            is_reference = c->impl == &ecsb_floor[c->scenario];
            if (!is_reference) { /* the floor filtered out: its calibration gives the reference */
                bench_case floor_case = *c;
                floor_case.impl = &ecsb_floor[c->scenario];
                calibrate(&floor_case, &ref);
            }
        }
        check_case(c, &ref, is_reference);
        if (i + 1 == su->count || !same_cell(c, &su->cases[i + 1]))
            plan_cell(&su->cases[first], i + 1 - first, s);
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
    printf("# benchmark repetitions passes_per_repetition group pass_seconds clock_share "
           "seconds warmup worlds\n");
    for (size_t i = 0; i < su->count; i++) {
        const bench_case *c = &su->cases[i];
        if (c->error[0]) {
            printf("%s error: %s\n", c->name, c->error);
            continue;
        }
        double seconds = repetition_seconds(c) * c->repetitions;
        double share = ecsb_clock_pair_seconds() / ((double)c->plan.group * c->pass_seconds);
        total += seconds;
        printf("%s %d %" PRIu64 " %" PRIu64 " %.3g %.2g %.3g %" PRIu64 " %" PRIu64 "\n", c->name,
               c->repetitions, c->plan.passes, c->plan.group, c->pass_seconds, share, seconds,
               c->plan.warmup, c->plan.worlds);
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

/* The machine-speed sentinel around every repetition (harness/sentinel.h), and the load
 * average when timing began. */
static ecsb_sentinel sentinel;
static double load_start;
static double check_seconds, timing_t0; /* the run's checking, and when its timing began */
static uint64_t marked_late; /* clean against the running best, disturbed against the final */

/* One timing of a repetition, as ecsb_sentinel_repetition asks for it (a repeat overwrites r). */
typedef struct attempt {
    const bench_case *c;
    const ecsb_scenario_info *info;
    ecsb_time_plan plan;
    ecsb_time_result r;
} attempt;

static ecsb_status time_attempt(void *ctx)
{
    attempt *a = ctx;
    return ecsb_time_case(a->c->impl, a->info->consumes_setup, a->c->n, &a->c->params, &a->plan,
                          &a->r, NULL, NULL);
}

/*
 * One repetition: the case timed by the engine (harness/timing.h) by its plan, through the
 * sentinel (timed again when the machine was disturbed, within the run's repeat budget),
 * reported as manual time (set-up, warm-up and fresh worlds stay outside it), with its
 * per-pass times (counters slice_1 .. slice_K, seconds per pass in consecutive slices of the
 * timed passes), its drift (counter drift: least time per pass, last third / first third, per
 * world) and the sentinel's view (sentinel_ns, speed_index, cpu_share, disturbed).
 */
static void bench_body(ecsb_gb_state *st, void *ctx)
{
    bench_case *c = ctx;
    if (c->error[0]) {
        ecsb_gb_skip_with_error(st, c->error);
        show_progress(c->name);
        return;
    }
    const ecsb_scenario_info *info = &ecsb_scenarios[c->scenario];
    attempt a = {.c = c, .info = info, .plan = c->plan};
    a.plan.passes = ecsb_gb_iterations(st);
    ecsb_sentinel_verdict v = {0};
    while (ecsb_gb_keep_running_batch(st, a.plan.passes)) {
        if (ecsb_sentinel_repetition(&sentinel, time_attempt, &a, &v) != ECSB_OK) {
            snprintf(c->error, sizeof c->error,
                     "%s on %s at N=%" PRIu64 ": %s failed while timing: %s", info->name,
                     c->strategy, c->n, a.r.step, ecsb_status_str(a.r.status));
            ecsb_gb_skip_with_error(st, c->error);
            break;
        }
        ecsb_gb_add_manual_time(st, a.r.seconds);
    }
    const ecsb_time_result *r = &a.r;
    if (!ecsb_gb_error_occurred(st)) {
        ecsb_gb_counter(st, "items_per_pass", (double)info->items_per_pass(c->n, &c->params));
        ecsb_gb_counter(st, "n", (double)c->n);
        ecsb_gb_counter(st, "bytes", (double)r->bytes);
        if (c->n <= GROWN_LARGEST_N)
            ecsb_gb_counter(st, "bytes_grown", (double)c->bytes_grown);
        ecsb_gb_counter(st, "entities", (double)r->entities);
        ecsb_gb_counter(st, "warmup", (double)a.plan.warmup);
        ecsb_gb_counter(st, "worlds",
                        (double)(info->consumes_setup ? a.plan.passes : a.plan.worlds));
        if (r->drift > 0)
            ecsb_gb_counter(st, "drift", r->drift);
        for (uint32_t k = 0; k < r->slice_count; k++) {
            char name[16];
            snprintf(name, sizeof name, "slice_%u", k + 1);
            ecsb_gb_counter(st, name, r->slice[k]);
        }
        /* speed_index against the best so far; the output file gets the run-wide best's */
        ecsb_gb_counter(st, "sentinel_ns", v.sentinel * 1e9);
        ecsb_gb_counter(st, "speed_index", v.sentinel > 0 ? sentinel.best / v.sentinel : 1);
        ecsb_gb_counter(st, "disturbed", v.disturbed ? 1 : 0);
        ecsb_gb_counter(st, "cpu_share", v.cpu_share);
        ecsb_gb_label(st, info->item);
    }
    show_progress(c->name);
}

/* At the end, every row against the run-wide best and reference: its speed_index (best /
 * its probe), and disturbed when it is off the final reference by more than the margin (it
 * was judged against a reference not yet settled). */
static void sentinel_final_row(void *ctx, ecsb_gb_row *row)
{
    (void)ctx;
    double ns, disturbed;
    if (!ecsb_gb_row_counter(row, "sentinel_ns", &ns) || ns <= 0)
        return;
    ecsb_gb_row_set_counter(row, "speed_index", sentinel.best * 1e9 / ns);
    if (ecsb_gb_row_counter(row, "disturbed", &disturbed) && disturbed == 0 &&
        ecsb_sentinel_is_disturbed(&sentinel, ns * 1e-9)) {
        ecsb_gb_row_set_counter(row, "disturbed", 1);
        marked_late++;
    }
}

static double load_average(void)
{
    double load[1];
    return getloadavg(load, 1) == 1 ? load[0] : -1;
}

/* The sentinel's keys in the run's context (docs/measuring.md, "The sentinel"). */
static void sentinel_context(void *ctx)
{
    (void)ctx;
    char v[64];
#define PUT(key, fmt, value)                                                                     \
    do {                                                                                         \
        snprintf(v, sizeof v, fmt, value);                                                       \
        ecsb_gb_add_context("ecsb_sentinel_" key, v);                                            \
    } while (0)
    PUT("margin", "%g", sentinel.margin);
    PUT("best_ns", "%.0f", sentinel.best * 1e9);
    PUT("reference_ns", "%.0f", sentinel.reference * 1e9);
    PUT("worst_ns", "%.0f", sentinel.worst * 1e9);
    PUT("repetitions", "%" PRIu64, sentinel.repetitions);
    PUT("disturbed", "%" PRIu64, sentinel.disturbed + marked_late);
    PUT("descheduled", "%" PRIu64, sentinel.descheduled);
    PUT("cpu_share", "%g", sentinel.cpu_share);
    PUT("repeated", "%" PRIu64, sentinel.repeated);
    PUT("unrepeated", "%" PRIu64, sentinel.unrepeated + marked_late);
    PUT("repeat_seconds", "%.2f", sentinel.spent);
    PUT("budget_seconds", "%.2f", sentinel.budget);
    PUT("probe_seconds", "%.2f", sentinel.probe_seconds);
    PUT("probes", "%" PRIu64, sentinel.probes);
    PUT("load_start", "%.2f", load_start);
    PUT("load_end", "%.2f", load_average());
#undef PUT
    /* how long the run took (bench.sh's console and the banner's "what to do" say it) */
    snprintf(v, sizeof v, "%.1f", check_seconds);
    ecsb_gb_add_context("ecsb_check_seconds", v);
    snprintf(v, sizeof v, "%.1f", ecsb_now() - timing_t0);
    ecsb_gb_add_context("ecsb_timing_seconds", v);
}

/* The console's word on the sentinel: how much longer the run took, and why. */
static void sentinel_report(double timing_seconds)
{
    uint64_t disturbed = sentinel.disturbed + marked_late;
    uint64_t unrepeated = sentinel.unrepeated + marked_late;
    fprintf(stderr,
            "ecsbench: sentinel %.0f-%.0f us (disturbed above %.0f us: %.0f%% over the run's "
            "quiet reference; probes %.1f s): ", sentinel.best * 1e6, sentinel.worst * 1e6,
            sentinel.reference * (1 + sentinel.margin) * 1e6, sentinel.margin * 100,
            sentinel.probe_seconds);
    if (disturbed == 0) {
        fprintf(stderr, "the machine kept its speed: no repetition repeated\n");
        return;
    }
    fprintf(stderr,
            "%" PRIu64 " of %" PRIu64 " repetitions ran on a disturbed machine (%" PRIu64
            " of them had the CPU under %.0f%% of their time); %" PRIu64
            " timed again, %" PRIu64 " kept and marked disturbed; repeats made the run %.1f s "
            "(%.0f%%) longer (budget %.1f s); load average %.1f at start, %.1f at end\n",
            disturbed, sentinel.repetitions, sentinel.descheduled, sentinel.cpu_share * 100,
            sentinel.repeated, unrepeated, sentinel.spent,
            timing_seconds > 0 ? 100 * sentinel.spent / timing_seconds : 0, sentinel.budget,
            load_start, load_average());
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
        if (!ecsb_gb_register(c->name, bench_body, c, ECSB_GB_MANUAL_TIME, c->plan.passes,
                              c->repetitions))
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
    ecsb_bench_repetitions_rule(s, reps, sizeof reps);
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
                "ecsbench: run %s: %zu benchmarks, %zu repetitions, random interleaving %s, "
                "placement seed %" PRIu64 "; checked in %s, timing about %s\n",
                run_id, su->count, prog.total, s->interleave ? "on" : "off", s->seed, checked,
                left);
    }
    load_start = load_average();
    check_seconds = ecsb_now() - t0;
    timing_t0 = ecsb_now();
    ecsb_sentinel_start(&sentinel, ECSB_SENTINEL_MARGIN, ecsb_bench_repeat_budget(s) * estimate,
                        NULL, NULL);
    sentinel.cpu_share = ecsb_bench_cpu_share(s);
    ecsb_gb_defer_output(sentinel_final_row, sentinel_context, NULL);
    prog.t0 = ecsb_now();
    if (!ecsb_gb_run(s->out_path, s->out_format)) {
        fprintf(stderr, "ecsbench: could not write --benchmark_out=%s\n", s->out_path);
        return 1;
    }
    if (prog.live && prog.on)
        fputc('\n', stderr);
    if (s->progress)
        sentinel_report(ecsb_now() - prog.t0);
    return report_failures(su, s->progress, t0);
}

int ecsb_bench_main(int argc, char **argv)
{
    ecsb_bench_settings s;
    int rc = ecsb_bench_parse(argc, argv, &s);
    if (rc == 0) {
        if (!s.seed_given)
            s.seed = ecsb_draw_seed(); /* every run its own placements (recorded: ecsb_seed) */
        ecsb_placement_seed(s.seed);
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
