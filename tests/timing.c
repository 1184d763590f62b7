/*
 * timing.c — the one timing engine (harness/timing.h) on fixture scenarios whose passes count
 * themselves and spin for a time the test chooses: the warm-up runs untimed on every world,
 * the timed passes are exactly the plan's, spread over its worlds, each span's time per pass
 * is recorded in order, a world that slows down pass by pass is flagged as drifting and a
 * steady one is not; the warm-up rule (frame: its slots turn over); and the placement pads
 * of the shared allocator (harness/core.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness/timing.h"
#include "scenarios/defs/frame.h"
#include "tests/support.h"
#include "tests/suites.h"

/* A fixture world: how many passes it has seen; each pass spins for `spin(pass)` seconds. */
typedef struct fixture {
    uint64_t passes;
} fixture;

static uint64_t prepared, released, passed, checksummed;
static double (*spin_of)(uint64_t pass); /* seconds the k-th pass of a world spins */

static ecsb_status fixture_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    (void)n;
    (void)p;
    fixture *f = calloc(1, sizeof *f);
    *out = f;
    if (!f)
        return ECSB_ERR_NOMEM;
    prepared++;
    return ECSB_OK;
}

static ecsb_status fixture_pass(void *state)
{
    fixture *f = state;
    double until = ecsb_now() + (spin_of ? spin_of(f->passes) : 0);
    while (ecsb_now() < until)
        ;
    f->passes++;
    passed++;
    return ECSB_OK;
}

static uint64_t fixture_checksum(void *state)
{
    checksummed++;
    return ((fixture *)state)->passes;
}
static void fixture_release(void *state)
{
    released++;
    free(state);
}
static void fixture_memory(void *state, uint64_t *bytes, uint64_t *entities)
{
    (void)state;
    *bytes = 64;
    *entities = 1;
}

static const ecsb_scenario_impl fixture_impl = {fixture_prepare, fixture_pass, fixture_checksum,
                                                fixture_release, fixture_memory};

static void reset(double (*spin)(uint64_t))
{
    prepared = released = passed = checksummed = 0;
    spin_of = spin;
}

static double steady(uint64_t pass)
{
    (void)pass;
    return 200e-6;
}
/* Each pass of a world 4% slower than the one before: a world still ageing. */
static double ageing(uint64_t pass) { return 100e-6 * pow(1.04, (double)pass); }

void timing_runs_the_warmup_untimed_on_every_world_and_times_exactly_the_plan(void **state)
{
    (void)state;
    reset(NULL);
    ecsb_params p = {{0}};
    ecsb_time_plan plan = {.worlds = 3, .warmup = 4, .passes = 10, .group = 2,
                           .checksums = ECSB_CHECKSUM_FIRST | ECSB_CHECKSUM_LAST};
    ecsb_time_result r;
    TST_CHECK(ecsb_time_case(&fixture_impl, false, 8, &p, &plan, &r, NULL, NULL) == ECSB_OK,
              "status %s", ecsb_status_str(r.status));
    TST_CHECK(prepared == 3 && released == 3, "prepared %llu, released %llu worlds, want 3",
              (unsigned long long)prepared, (unsigned long long)released);
    TST_CHECK(passed == 3 * 4 + 10 && r.passes == 10,
              "%llu passes run, %llu timed; want 3 worlds x 4 warm-up + 10 timed",
              (unsigned long long)passed, (unsigned long long)r.passes);
    /* 10 passes over 3 worlds: 4, 3, 3; the last world's checksum counts its warm-up too */
    TST_CHECK(r.checksum == 4 + 3,
              "checksum %llu: the last world's passes, want 7 (4 warm-up, 3 timed)",
              (unsigned long long)r.checksum);
    TST_CHECK(r.first_checksum == 1,
              "first checksum %llu: the first world after its first warm-up pass, want 1 "
              "(what a check on a fresh world passed once reads)",
              (unsigned long long)r.first_checksum);
    TST_CHECK(r.bytes == 64 && r.entities == 1, "memory of the first world not recorded");
}

void timing_gives_every_fresh_pass_a_world_of_its_own_after_warmup_worlds(void **state)
{
    (void)state;
    reset(NULL);
    ecsb_params p = {{0}};
    ecsb_time_plan plan = {.worlds = 1, .warmup = 2, .passes = 7, .group = 3,
                           .checksums = ECSB_CHECKSUM_FIRST | ECSB_CHECKSUM_LAST};
    ecsb_time_result r;
    TST_CHECK(ecsb_time_case(&fixture_impl, true, 8, &p, &plan, &r, NULL, NULL) == ECSB_OK,
              "status %s", ecsb_status_str(r.status));
    TST_CHECK(prepared == 2 + 7 && passed == 2 + 7 && released == prepared,
              "fresh: %llu worlds, %llu passes; want 9 each (2 warm-up, 7 timed)",
              (unsigned long long)prepared, (unsigned long long)passed);
    TST_CHECK(r.passes == 7 && r.checksum == 1, "timed %llu, checksum %llu",
              (unsigned long long)r.passes, (unsigned long long)r.checksum);
    TST_CHECK(r.first_checksum == 1, "fresh: first checksum %llu, want 1 (a warm-up world "
              "passed once)", (unsigned long long)r.first_checksum);
    /* groups of 3, 3, 1: three spans, each its own slice */
    TST_CHECK(r.slice_count == 3, "%u slices, want one per span (3)", r.slice_count);
}

void timing_records_the_time_per_pass_of_each_span_in_order(void **state)
{
    (void)state;
    reset(steady);
    ecsb_params p = {{0}};
    ecsb_time_plan plan = {.worlds = 2, .warmup = 1, .passes = 24, .group = 2};
    ecsb_time_result r;
    TST_CHECK(ecsb_time_case(&fixture_impl, false, 8, &p, &plan, &r, NULL, NULL) == ECSB_OK,
              "status %s", ecsb_status_str(r.status));
    TST_CHECK(r.slice_count == ECSB_TIME_SLICES, "%u slices for 12 spans, want %u",
              r.slice_count, ECSB_TIME_SLICES);
    for (uint32_t k = 0; k < r.slice_count; k++)
        TST_CHECK(r.slice[k] >= 200e-6 && r.slice[k] < 0.05,
                  "slice %u: %g s per pass, the fixture spins 200 us", k, r.slice[k]);
    TST_CHECK(r.seconds >= 24 * 200e-6 && r.least_pass >= 200e-6,
              "timed %g s, least pass %g s", r.seconds, r.least_pass);
}

void timing_flags_drift_in_a_world_that_slows_and_not_in_a_steady_one(void **state)
{
    (void)state;
    ecsb_params p = {{0}};
    /* 30 passes a world, one per span: the last third 1.04^20 = 2.2x the first */
    ecsb_time_plan plan = {.worlds = 2, .warmup = 0, .passes = 60, .group = 1};
    ecsb_time_result r;
    reset(ageing);
    TST_CHECK(ecsb_time_case(&fixture_impl, false, 8, &p, &plan, &r, NULL, NULL) == ECSB_OK,
              "status %s", ecsb_status_str(r.status));
    TST_CHECK(r.drift > 1.5, "an ageing world: drift %g, want about 2.2", r.drift);
    TST_CHECK(r.slice[r.slice_count - 1] > r.slice[0],
              "an ageing world: the last slice %g s per pass, the first %g", r.slice[r.slice_count - 1],
              r.slice[0]);
    reset(steady);
    TST_CHECK(ecsb_time_case(&fixture_impl, false, 8, &p, &plan, &r, NULL, NULL) == ECSB_OK,
              "status %s", ecsb_status_str(r.status));
    TST_CHECK(r.drift > 0.7 && r.drift < 1.4, "a steady world: drift %g, want about 1", r.drift);
    /* too few spans in a world to tell: no drift */
    plan = (ecsb_time_plan){.worlds = 1, .warmup = 0, .passes = 4, .group = 2};
    ecsb_time_case(&fixture_impl, false, 8, &p, &plan, &r, NULL, NULL);
    TST_CHECK(r.drift == 0, "two spans: drift %g, want 0 (not measured)", r.drift);
}

void timing_adaptive_groups_stop_after_the_asked_time(void **state)
{
    (void)state;
    reset(steady);
    ecsb_params p = {{0}};
    ecsb_time_plan plan = {.worlds = 1, .warmup = 1, .passes = 1000000, .stop_after = 0.002,
                           .checksums = ECSB_CHECKSUM_LAST};
    ecsb_time_result r;
    ecsb_time_case(&fixture_impl, false, 8, &p, &plan, &r, NULL, NULL);
    TST_CHECK(r.status == ECSB_OK && r.seconds >= 0.002 && r.passes < 1000,
              "stop_after 2 ms: timed %g s over %llu passes", r.seconds,
              (unsigned long long)r.passes);
    TST_CHECK(r.checksum == r.passes + 1, "checksum %llu after %llu timed passes and 1 warm-up",
              (unsigned long long)r.checksum, (unsigned long long)r.passes);
}

/* The first timed pass spins 5 ms (a span cut by another process), the rest 200 us: of a
 * world, after one warm-up pass; of all, for fresh worlds (each has one pass). */
static double preempted_once(uint64_t pass) { return pass == 1 ? 5e-3 : 200e-6; }
static double preempted_first(uint64_t pass)
{
    (void)pass;
    return passed == 0 ? 5e-3 : 200e-6;
}

void timing_calibration_outlasts_one_preempted_span(void **state)
{
    (void)state;
    ecsb_params p = {{0}};
    for (int fresh = 0; fresh < 2; fresh++) {
        reset(fresh ? preempted_first : preempted_once);
        ecsb_time_plan plan = {.worlds = 1, .warmup = fresh ? 0 : 1, .passes = 1000000,
                               .stop_after = 0.002};
        ecsb_time_result r;
        ecsb_time_case(&fixture_impl, fresh, 8, &p, &plan, &r, NULL, NULL);
        TST_CHECK(r.status == ECSB_OK && r.least_pass < 1e-3 && r.slice_count >= 3,
                  "%s: a 5 ms first span, then 200 us passes: least pass %g s over %u spans; "
                  "want the 200 us of a later span", fresh ? "fresh" : "repeated", r.least_pass,
                  r.slice_count);
    }
    /* long spans stop alone: 100 x stop_after in one span */
    reset(steady);
    ecsb_time_plan plan = {.worlds = 1, .warmup = 0, .passes = 1000000, .stop_after = 1e-6,
                           .group = 1000};
    ecsb_time_result r;
    ecsb_time_case(&fixture_impl, false, 8, &p, &plan, &r, NULL, NULL);
    TST_CHECK(r.passes == 1000, "a 0.2 s span, 200 000 x stop_after: %llu passes, want one span",
              (unsigned long long)r.passes);
}

/* A timed repetition takes no checksum (each is a walk over the whole world); the check
 * takes the first world's after one pass, `ecsbench run` the last world's. */
void timing_takes_only_the_checksums_the_plan_asks_for(void **state)
{
    (void)state;
    ecsb_params p = {{0}};
    static const uint32_t asks[] = {0, ECSB_CHECKSUM_FIRST, ECSB_CHECKSUM_LAST,
                                    ECSB_CHECKSUM_FIRST | ECSB_CHECKSUM_LAST};
    for (int fresh = 0; fresh < 2; fresh++)
        for (size_t k = 0; k < sizeof asks / sizeof *asks; k++) {
            reset(NULL);
            ecsb_time_plan plan = {.worlds = 2, .warmup = 2, .passes = 6, .group = 2,
                                   .checksums = asks[k]};
            ecsb_time_result r;
            ecsb_time_case(&fixture_impl, fresh, 8, &p, &plan, &r, NULL, NULL);
            uint64_t want = (asks[k] & ECSB_CHECKSUM_FIRST ? 1 : 0) +
                            (asks[k] & ECSB_CHECKSUM_LAST ? 1 : 0);
            TST_CHECK(r.status == ECSB_OK && checksummed == want,
                      "%s worlds, checksums %u: %llu checksums taken, want %llu",
                      fresh ? "fresh" : "repeated", asks[k], (unsigned long long)checksummed,
                      (unsigned long long)want);
        }
}

/* A world that slows by 4 % a pass up to pass 40, and one that does so up to pass 15 only. */
static double settling(uint64_t pass) { return 200e-6 * pow(1.04, (double)(pass < 40 ? pass : 40)); }
static double settled(uint64_t pass) { return 200e-6 * pow(1.04, (double)(pass < 15 ? pass : 15)); }

void timing_drift_compares_the_timed_passes_with_the_warm_ups_last_third(void **state)
{
    (void)state;
    ecsb_params p = {{0}};
    /* 30 warm-up passes (the last 10 timed for drift), 9 timed: 1.04^10 = 1.48 between the
     * warm-up's last third (its least: pass 20) and the timed passes (pass 30); the timed
     * passes' own thirds would say 1.04^6 = 1.27 */
    ecsb_time_plan plan = {.worlds = 1, .warmup = 30, .passes = 9, .group = 1};
    ecsb_time_result r;
    reset(settling);
    TST_CHECK(ecsb_time_case(&fixture_impl, false, 8, &p, &plan, &r, NULL, NULL) == ECSB_OK,
              "status %s", ecsb_status_str(r.status));
    TST_CHECK(r.drift > 1.38 && r.drift < 1.7,
              "still settling when timed: drift %g, want about 1.48 (timed / warm-up's last third)",
              r.drift);
    TST_CHECK(r.passes == 9 && passed == 39 && r.slice_count == 9,
              "%llu passes timed, %llu run, %u slices: the warm-up's spans are not timed passes",
              (unsigned long long)r.passes, (unsigned long long)passed, r.slice_count);
    TST_CHECK(r.least_pass >= 200e-6 * pow(1.04, 30) * 0.99,
              "least pass %g s: a warm-up span counted as timed", r.least_pass);
    reset(settled);
    ecsb_time_case(&fixture_impl, false, 8, &p, &plan, &r, NULL, NULL);
    TST_CHECK(r.drift > 0.9 && r.drift < 1.1, "settled in its warm-up: drift %g, want about 1",
              r.drift);
}

/* The schedule of frame's deaths and expiries (scenarios/defs/frame.h): true when every slot
 * of a world of n at these parameters has turned over within `frames` frames (a child turns
 * over when its parent does: it dies with it). */
static bool frame_turned_over(uint64_t n, const ecsb_params *p, uint64_t frames)
{
    frame_world_shape sh = frame_shape(n, p);
    uint8_t *seen = calloc(n, 1);
    if (!seen)
        return false;
    for (uint64_t f = 0; f < frames; f++) {
        for (uint64_t j = 0; j < sh.deaths; j++)
            seen[frame_death_slot(&sh, f, j)] = 1;
        for (uint64_t j = 0; j < sh.fired; j++)
            seen[frame_bullet_slot(&sh, f, j)] = 1;
    }
    for (uint64_t c = sh.roots; c < sh.actors; c++) /* depth order: parents first */
        seen[c] = seen[frame_parent_slot(&sh, c, frame_depth(&sh, c))];
    uint64_t left = 0;
    for (uint64_t i = 0; i < n; i++)
        left += !seen[i];
    free(seen);
    return left == 0;
}

void timing_warmup_turns_frame_over_and_stays_one_elsewhere(void **state)
{
    (void)state;
    static const double churns[] = {0.1, 0.03, 0.01, 0.003};
    static const uint64_t sizes[] = {256, 4000, 65536, 1048576};
    for (size_t c = 0; c < sizeof churns / sizeof *churns; c++)
        for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
            ecsb_params p = ecsb_params_default(ECSB_SCENARIO_frame);
            p.v[FRAME_CHURN] = churns[c];
            ecsb_warmup w = ecsb_warmup_decide(ECSB_SCENARIO_frame, sizes[z], &p);
            bool over_budget = (double)w.passes * (double)sizes[z] > (double)ECSB_WARMUP_BUDGET;
            TST_CHECK(w.fits == !over_budget && (w.fits || w.why[0]),
                      "frame at %llu, churn %g: %llu warm-up frames, fits %d: want fits exactly "
                      "when within %llu entity-passes, and a reason when not",
                      (unsigned long long)sizes[z], churns[c], (unsigned long long)w.passes, w.fits,
                      (unsigned long long)ECSB_WARMUP_BUDGET);
            /* (nothing turns over where churn * n / 2 rounds to 0: one frame is steady; the
             * schedule walk costs a frame's slots per frame: up to 65,536) */
            if (sizes[z] <= 65536 && frame_shape(sizes[z], &p).deaths > 0)
                TST_CHECK(frame_turned_over(sizes[z], &p, w.passes),
                          "frame at %llu, churn %g: timed after %llu warm-up frames, before every "
                          "slot has turned over", (unsigned long long)sizes[z], churns[c],
                          (unsigned long long)w.passes);
        }
    ecsb_params frame = ecsb_params_default(ECSB_SCENARIO_frame);
    TST_CHECK(ecsb_warmup_decide(ECSB_SCENARIO_frame, 65536, &frame).fits,
              "frame at 65,536, default churn: its warm-up must fit (make bench runs it)");
    TST_CHECK(!ecsb_warmup_decide(ECSB_SCENARIO_frame, 1048576, &frame).fits,
              "frame at 1M: 200M entity-frames of warm-up must not fit the budget");
    ecsb_params dual = ecsb_params_default(ECSB_SCENARIO_dual_iterate);
    ecsb_warmup one = ecsb_warmup_decide(ECSB_SCENARIO_dual_iterate, 4000, &dual);
    TST_CHECK(one.passes == 1 && one.fits, "dual_iterate's warm-up is one pass");
}

void placement_pads_vary_between_blocks_stay_aligned_and_within_4_kib(void **state)
{
    (void)state;
    ecsb_placement_seed(7);
    bool seen[64] = {false};
    size_t distinct = 0;
    for (int i = 0; i < 256; i++) {
        size_t pad = ecsb_placement_pad();
        TST_CHECK(pad % ECSB_BLOCK_ALIGN == 0 && pad <= ECSB_PLACEMENT_MAX_PAD &&
                      ECSB_PLACEMENT_MAX_PAD < 4096,
                  "pad %zu: want whole cache lines, 0 .. %u", pad, ECSB_PLACEMENT_MAX_PAD);
        distinct += !seen[pad / ECSB_BLOCK_ALIGN];
        seen[pad / ECSB_BLOCK_ALIGN] = true;
    }
    TST_CHECK(distinct >= 48, "256 draws gave %zu distinct pads of 64", distinct);
    /* A block freed and allocated again lands at a new offset within the page, as a fresh
     * world's blocks do; each is 64-byte aligned and wholly writable (ASan checks). */
    bool offset[64] = {false};
    size_t offsets = 0;
    for (int i = 0; i < 32; i++) {
        unsigned char *p = ecsb_block_alloc(100000);
        TST_CHECK(p && (uintptr_t)p % ECSB_BLOCK_ALIGN == 0, "block %p not 64-byte aligned",
                  (void *)p);
        memset(p, 0xab, 100000);
        size_t line = (uintptr_t)p % 4096 / ECSB_BLOCK_ALIGN;
        offsets += !offset[line];
        offset[line] = true;
        ecsb_block_free(p);
    }
    TST_CHECK(offsets >= 8, "32 fresh blocks sat at %zu page offsets; want them spread", offsets);
    ecsb_placement_seed(0);
    TST_CHECK(ecsb_placement_pad() == 0, "without a seed the pad is 0");
    /* the same seed draws the same pads */
    ecsb_placement_seed(7);
    size_t first = ecsb_placement_pad();
    ecsb_placement_seed(7);
    TST_CHECK(ecsb_placement_pad() == first, "seed 7 drew two different first pads");
    ecsb_placement_seed(0);
}

void placement_reaches_the_floor_and_the_limit_arrays(void **state)
{
    (void)state;
    /* With a seed, the floor's and the limit's worlds draw pads: their checksums are the
     * same at every placement, and the sanitizers see every array released to its
     * allocator (a plain free of a padded block would be reported). */
    ecsb_placement_seed(11);
    for (int id = 0; id < ECSB_SCENARIO_COUNT; id++) {
        const ecsb_scenario_impl *impls[2] = {&ecsb_floor[id], &ecsb_limit[id]};
        ecsb_params p = ecsb_params_default((ecsb_scenario_id)id);
        for (int k = 0; k < 2; k++) {
            if (!impls[k]->prepare)
                continue;
            uint64_t sums[2];
            for (int w = 0; w < 2; w++) {
                ecsb_time_plan plan = {.worlds = 1, .warmup = 0, .passes = 2, .group = 1,
                                       .checksums = ECSB_CHECKSUM_LAST};
                ecsb_time_result r;
                TST_CHECK(ecsb_time_case(impls[k], ecsb_scenarios[id].consumes_setup, 300, &p,
                                         &plan, &r, NULL, NULL) == ECSB_OK,
                          "%s %s: %s", ecsb_scenarios[id].name, k ? "limit" : "floor",
                          ecsb_status_str(r.status));
                sums[w] = r.checksum;
            }
            TST_CHECK(sums[0] == sums[1], "%s %s: checksum differs between placements",
                      ecsb_scenarios[id].name, k ? "limit" : "floor");
        }
    }
    ecsb_placement_seed(0);
}

/*
 * The same work in every line: move3's `size` changes the work (the bytes a pass strides
 * over) without changing the checksum (the pass reads the same 12 bytes of each value), so
 * the checksum cannot show a line that ignores it. Each line's bytes per entity must grow by
 * at least pos and vel's growth (2 x (64 - 12) bytes per entity) from size=12 to size=64:
 * the floor, the limit and every strategy.
 */
void move3_size_reaches_the_bytes_of_every_line(void **state)
{
    (void)state;
    enum { N = 4000 };
    const ecsb_scenario_impl *lines[2 + 64];
    const char *names[2 + 64];
    size_t count = 0;
    lines[count] = &ecsb_floor[ECSB_SCENARIO_move3];
    names[count++] = "floor";
    lines[count] = &ecsb_limit[ECSB_SCENARIO_move3];
    names[count++] = "limit";
    for (size_t i = 0; i < ecsb_strategy_count && count < 66; i++) {
        lines[count] = &ecsb_strategies[i]->scenarios[ECSB_SCENARIO_move3];
        names[count++] = ecsb_strategies[i]->name;
    }
    for (size_t k = 0; k < count; k++) {
        uint64_t bytes[2], entities;
        const char *sizes[2] = {"size=12", "size=64"};
        for (int z = 0; z < 2; z++) {
            ecsb_params p = ecsb_params_default(ECSB_SCENARIO_move3);
            char err[256];
            TST_CHECK(ecsb_params_set(ECSB_SCENARIO_move3, sizes[z], &p, err, sizeof err), "%s",
                      err);
            void *st = NULL;
            TST_CHECK(lines[k]->prepare(&st, N, &p) == ECSB_OK, "move3 %s: prepare failed",
                      names[k]);
            lines[k]->memory(st, &bytes[z], &entities);
            lines[k]->release(st);
        }
        TST_CHECK(bytes[1] >= bytes[0] + (uint64_t)N * 2 * (64 - 12),
                  "move3 on %s: %llu bytes at size=12, %llu at size=64; the line ignores "
                  "size (want at least %u more)",
                  names[k], (unsigned long long)bytes[0], (unsigned long long)bytes[1],
                  N * 2 * (64 - 12));
    }
}
