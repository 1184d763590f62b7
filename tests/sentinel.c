/*
 * sentinel.c — the machine-speed sentinel (harness/sentinel.h) on a fake machine: probes that
 * report the time the test chooses, probe by probe, and repetitions that count themselves. A
 * steady machine repeats and marks nothing; a slowed span gets the repetitions timed in it
 * timed again, the repeat replacing the disturbed timing; with no budget they are marked, not
 * repeated; a machine that stays slow spends at most the budget, then marks.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "harness/sentinel.h"
#include "harness/timing.h"
#include "tests/support.h"
#include "tests/suites.h"

#define STEADY 1e-3 /* seconds a probe takes on the fake machine at full speed */
#define SLOWED 1.5e-3

/* The fake machine: probe k (counted from 0) is slow when slow_from <= k < slow_to; probes
 * spread 0, 1 and 2 % above STEADY, or by `spread` when set (a steady machine whose probes are
 * broad, as on the Intel VM: docs/measuring.md); probe `freak` alone runs at half the time. */
static uint64_t probe_count, slow_from, slow_to, freak = UINT64_MAX;
static double spread = 0.02;

static double fake_probe(void *ctx)
{
    (void)ctx;
    uint64_t k = probe_count++;
    if (k == freak)
        return STEADY / 2;
    /* 0, 1/2 and all of spread above, in runs of 4 probes (a retake mostly sees the same) */
    double jitter = 1 + spread * (double)((k / 4) % 3) / 2;
    return (k >= slow_from && k < slow_to ? SLOWED : STEADY) * jitter;
}

/* A repetition: which timing of the run it is (a repeat overwrites the kept value). */
typedef struct timing {
    uint64_t made; /* timings made in the whole run */
    uint64_t kept; /* the number of the timing the repetition keeps */
} timing;

static ecsb_status fake_attempt(void *ctx)
{
    timing *t = ctx;
    t->kept = ++t->made;
    return ECSB_OK;
}

/* The fake thread CPU clock: the wall clock less what the fake machine stole (a repetition
 * that lost its core for a while). */
static double stolen;

static double fake_cpu(void)
{
    return ecsb_now() - stolen;
}

static void fake_machine(ecsb_sentinel *s, double budget, uint64_t from, uint64_t to)
{
    probe_count = 0;
    slow_from = from;
    slow_to = to;
    freak = UINT64_MAX;
    spread = 0.02;
    ecsb_sentinel_start(s, ECSB_SENTINEL_MARGIN, budget, fake_probe, NULL);
    s->wait_step = 0;
    s->probe_every = 0;
    s->cpu = fake_cpu;
    stolen = 0;
}

void sentinel_stays_quiet_on_a_steady_machine(void **state)
{
    (void)state;
    ecsb_sentinel s;
    fake_machine(&s, 10, UINT64_MAX, UINT64_MAX);
    timing t = {0};
    for (int i = 0; i < 50; i++) {
        ecsb_sentinel_verdict v;
        TST_CHECK(ecsb_sentinel_repetition(&s, fake_attempt, &t, &v) == ECSB_OK, "status");
        TST_CHECK(v.attempts == 1 && !v.disturbed, "repetition %d: %u timings, disturbed %d", i,
                  v.attempts, v.disturbed);
        TST_CHECK(v.sentinel >= STEADY && v.sentinel <= STEADY * 1.021, "sentinel %g", v.sentinel);
    }
    TST_CHECK(s.repetitions == 50 && s.disturbed == 0 && s.repeated == 0 && s.unrepeated == 0,
              "steady: %llu disturbed, %llu repeated, %llu unrepeated",
              (unsigned long long)s.disturbed, (unsigned long long)s.repeated,
              (unsigned long long)s.unrepeated);
    TST_CHECK(t.made == 50 && s.spent == 0, "steady: %llu timings, %g s spent on repeats",
              (unsigned long long)t.made, s.spent);
    TST_CHECK(s.best == STEADY && s.worst <= STEADY * 1.021, "range %g .. %g", s.best, s.worst);
}

/* Probes 0..15 open the run (ECSB_SENTINEL_START_PROBES); a span from probe 30 is slowed. */
void sentinel_repeats_what_a_slowed_span_disturbed_and_keeps_the_repeat(void **state)
{
    (void)state;
    ecsb_sentinel s;
    fake_machine(&s, 10, 30, 36);
    timing t = {0};
    uint64_t repeated_here = 0;
    for (int i = 0; i < 40; i++) {
        ecsb_sentinel_verdict v;
        uint64_t made_before = t.made;
        TST_CHECK(ecsb_sentinel_repetition(&s, fake_attempt, &t, &v) == ECSB_OK, "status");
        TST_CHECK(!v.disturbed, "repetition %d kept disturbed with budget left", i);
        TST_CHECK(v.sentinel < STEADY * (1 + ECSB_SENTINEL_MARGIN),
                  "repetition %d keeps a slowed timing (sentinel %g)", i, v.sentinel);
        /* the kept timing is the last one made: the repeat replaced the disturbed one */
        TST_CHECK(t.kept == made_before + v.attempts && t.kept == t.made,
                  "repetition %d keeps timing %llu of %llu", i, (unsigned long long)t.kept,
                  (unsigned long long)t.made);
        repeated_here += v.attempts > 1;
    }
    TST_CHECK(s.disturbed >= 1 && s.repeated == s.disturbed && s.unrepeated == 0 &&
                  repeated_here == s.repeated,
              "slowed span: %llu disturbed, %llu repeated, %llu unrepeated",
              (unsigned long long)s.disturbed, (unsigned long long)s.repeated,
              (unsigned long long)s.unrepeated);
    TST_CHECK(s.worst >= SLOWED && s.best == STEADY, "range %g .. %g", s.best, s.worst);
}

void sentinel_marks_not_repeats_when_the_budget_is_0(void **state)
{
    (void)state;
    ecsb_sentinel s;
    fake_machine(&s, 0, 30, 36);
    timing t = {0};
    uint64_t marked = 0;
    for (int i = 0; i < 40; i++) {
        ecsb_sentinel_verdict v;
        TST_CHECK(ecsb_sentinel_repetition(&s, fake_attempt, &t, &v) == ECSB_OK, "status");
        TST_CHECK(v.attempts == 1, "repetition %d timed %u times with no budget", i, v.attempts);
        TST_CHECK(v.disturbed == (v.sentinel > STEADY * (1 + ECSB_SENTINEL_MARGIN)),
                  "repetition %d: sentinel %g, marked %d", i, v.sentinel, v.disturbed);
        marked += v.disturbed;
    }
    TST_CHECK(marked >= 1 && s.disturbed == marked && s.unrepeated == marked && s.repeated == 0,
              "no budget: %llu marked, %llu disturbed, %llu repeated", (unsigned long long)marked,
              (unsigned long long)s.disturbed, (unsigned long long)s.repeated);
    TST_CHECK(t.made == 40 && s.spent == 0, "%llu timings, %g s spent",
              (unsigned long long)t.made, s.spent);
}

/* From probe 20 on the machine stays slow: repeats spend at most the budget (and one wait
 * beyond it), then every repetition is marked. */
void sentinel_spends_at_most_its_budget_on_a_machine_that_stays_slow(void **state)
{
    (void)state;
    ecsb_sentinel s;
    fake_machine(&s, 0.02, 20, UINT64_MAX);
    timing t = {0};
    for (int i = 0; i < 10; i++) {
        ecsb_sentinel_verdict v;
        TST_CHECK(ecsb_sentinel_repetition(&s, fake_attempt, &t, &v) == ECSB_OK, "status");
        TST_CHECK(v.attempts <= ECSB_SENTINEL_ATTEMPTS, "%u timings", v.attempts);
        TST_CHECK(i < 4 || v.disturbed, "repetition %d on a slow machine not marked", i);
    }
    TST_CHECK(s.spent <= 0.02 + 0.05, "spent %g s of a 0.02 s budget", s.spent);
    TST_CHECK(s.repeated == 0 && s.unrepeated == s.disturbed && s.unrepeated >= 6,
              "slow machine: %llu repeated, %llu unrepeated of %llu disturbed",
              (unsigned long long)s.repeated, (unsigned long long)s.unrepeated,
              (unsigned long long)s.disturbed);
}

/* Repetitions shorter than probe_every share one probe; a longer one gets its own. */
static ecsb_status slow_attempt(void *ctx)
{
    double until = ecsb_now() + *(double *)ctx;
    while (ecsb_now() < until)
        ;
    return ECSB_OK;
}

void sentinel_short_repetitions_share_a_probe(void **state)
{
    (void)state;
    ecsb_sentinel s;
    fake_machine(&s, 10, UINT64_MAX, UINT64_MAX);
    s.probe_every = 0.05;
    double spin = 0;
    ecsb_sentinel_verdict v;
    uint64_t before = probe_count;
    for (int i = 0; i < 20; i++)
        ecsb_sentinel_repetition(&s, slow_attempt, &spin, &v);
    TST_CHECK(probe_count - before == 1, "20 instant repetitions took %llu probes, want 1",
              (unsigned long long)(probe_count - before));
    spin = 0.06;
    before = probe_count;
    for (int i = 0; i < 3; i++)
        ecsb_sentinel_repetition(&s, slow_attempt, &spin, &v);
    TST_CHECK(probe_count - before == 3, "3 repetitions of 60 ms took %llu probes, want 3",
              (unsigned long long)(probe_count - before));
}

void sentinel_kernel_takes_time_and_sets_the_first_best(void **state)
{
    (void)state;
    double a = ecsb_sentinel_kernel(NULL), b = ecsb_sentinel_kernel(NULL);
    TST_CHECK(a > 1e-6 && b > 1e-6 && a < 1 && b < 1, "kernel took %g s and %g s", a, b);
    ecsb_sentinel s;
    ecsb_sentinel_start(&s, ECSB_SENTINEL_MARGIN, 0, NULL, NULL);
    TST_CHECK(s.probes >= ECSB_SENTINEL_START_PROBES && s.best > 0 && s.best <= s.worst,
              "start: %llu probes, best %g, worst %g", (unsigned long long)s.probes, s.best,
              s.worst);
    double edge = s.reference * (1 + ECSB_SENTINEL_MARGIN);
    TST_CHECK(s.reference >= s.best && ecsb_sentinel_is_disturbed(&s, edge * 1.01) &&
                  !ecsb_sentinel_is_disturbed(&s, edge * 0.99),
              "the margin is not %g of the reference %g (best %g)", ECSB_SENTINEL_MARGIN,
              s.reference, s.best);
}

/* A machine whose probes spread 15 % while its speed holds (the Intel VM's quiet probes
 * spread 5-20 % above their best with the benchmarks' times unmoved) stays quiet; a 10 %
 * margin flagged most of that VM's repetitions. */
void sentinel_stays_quiet_on_a_steady_machine_with_broad_probes(void **state)
{
    (void)state;
    ecsb_sentinel s;
    fake_machine(&s, 10, UINT64_MAX, UINT64_MAX);
    spread = 0.15;
    timing t = {0};
    for (int i = 0; i < 60; i++) {
        ecsb_sentinel_verdict v;
        TST_CHECK(ecsb_sentinel_repetition(&s, fake_attempt, &t, &v) == ECSB_OK, "status");
        TST_CHECK(v.attempts == 1 && !v.disturbed, "repetition %d (sentinel %g, reference %g): "
                  "%u timings, disturbed %d", i, v.sentinel, s.reference, v.attempts,
                  v.disturbed);
    }
    TST_CHECK(s.disturbed == 0 && t.made == 60, "broad steady probes: %llu disturbed",
              (unsigned long long)s.disturbed);
}

/* One probe twice as fast as the machine ever is (a freak: a clock read across a migration)
 * must not make every later probe look slow: the reference is a low percentile, not the
 * least; and a span slowed after it is still flagged. */
void sentinel_reference_ignores_one_freak_fast_probe(void **state)
{
    (void)state;
    ecsb_sentinel s;
    fake_machine(&s, 10, 200, 206);
    freak = probe_count + 4; /* the fifth repetition's closing probe */
    timing t = {0};
    uint64_t disturbed_before_slow = 0;
    for (int i = 0; i < 240; i++) {
        ecsb_sentinel_verdict v;
        TST_CHECK(ecsb_sentinel_repetition(&s, fake_attempt, &t, &v) == ECSB_OK, "status");
        if (probe_count < 200)
            disturbed_before_slow = s.disturbed;
    }
    TST_CHECK(s.best == STEADY / 2, "the freak probe is the best (%g)", s.best);
    TST_CHECK(disturbed_before_slow == 0, "%llu steady repetitions flagged after one freak "
              "fast probe (reference %g)", (unsigned long long)disturbed_before_slow,
              s.reference);
    TST_CHECK(s.disturbed >= 1 && s.repeated == s.disturbed, "the slowed span: %llu disturbed, "
              "%llu repeated", (unsigned long long)s.disturbed, (unsigned long long)s.repeated);
}

/* A repetition that spins 2 ms, of which timings 10 and 11 of the run lose half their wall
 * time to another process (their thread's CPU clock advances half as much, whatever the real
 * machine's load): the probes stay steady, but the CPU share flags the tenth repetition's
 * first two timings and its third is kept; judged without the share (cpu_share 0), none is. */
static ecsb_status losing_attempt(void *ctx)
{
    timing *t = ctx;
    t->kept = ++t->made;
    double t0 = ecsb_now(), until = t0 + 0.002;
    while (ecsb_now() < until)
        ;
    if (t->made == 10 || t->made == 11)
        stolen += (ecsb_now() - t0) / 2;
    return ECSB_OK;
}

void sentinel_flags_a_repetition_that_lost_its_core(void **state)
{
    (void)state;
    for (int judged = 1; judged >= 0; judged--) {
        ecsb_sentinel s;
        fake_machine(&s, 10, UINT64_MAX, UINT64_MAX);
        if (!judged)
            s.cpu_share = 0;
        timing t = {0};
        for (int i = 0; i < 15; i++) {
            ecsb_sentinel_verdict v;
            TST_CHECK(ecsb_sentinel_repetition(&s, losing_attempt, &t, &v) == ECSB_OK, "status");
            TST_CHECK(!v.disturbed && (!judged || v.cpu_share >= ECSB_SENTINEL_CPU_SHARE),
                      "repetition %d kept with a CPU share of %g", i, v.cpu_share);
        }
        if (judged)
            TST_CHECK(s.disturbed == 1 && s.descheduled == 1 && s.repeated == 1 && t.made == 17,
                      "lost its core: %llu disturbed, %llu by their CPU share, %llu repeated",
                      (unsigned long long)s.disturbed, (unsigned long long)s.descheduled,
                      (unsigned long long)s.repeated);
        else
            TST_CHECK(s.disturbed == 0, "not judged by the CPU share, yet %llu disturbed",
                      (unsigned long long)s.disturbed);
    }
}
