/*
 * timing.h — the one function that times a case: `ecsbench bench` (inside each Google
 * Benchmark repetition, and for its check and calibration runs) and `ecsbench run` both time
 * through ecsb_time_case, so a change to how cases are timed is made here once.
 *
 * A case is one scenario implementation (a strategy's, the floor's or the limit's) at size n
 * with parameters p. Timing it:
 *
 *   for each of plan.worlds worlds:                        (a fresh world: fresh placement)
 *       prepare                                            untimed
 *       plan.warmup passes                                 untimed: the world reaches steady
 *                                                          state (ecsb_scenario_info.warmup_passes)
 *       its share of plan.passes, plan.group between two clock reads   timed
 *       checksum (if plan.checksums asks), release         untimed
 *
 * A scenario whose pass consumes its set-up (platformer, level_load) has no second pass on a
 * world: every pass gets a fresh world, all prepared untimed. Its warm-up is plan.warmup worlds
 * prepared and passed untimed (the allocator and the code warm), and its timed passes run in
 * batches of plan.group worlds, prepared together, then passed back to back between two clock
 * reads (plan.worlds is ignored: every pass is a fresh world anyway).
 *
 * Each world is built afresh, so it draws fresh placements from the shared allocator
 * (ecsb_placement_seed in harness/ecsb.h): a repetition timed over several worlds averages
 * over several placements of its arrays (docs/measuring.md).
 *
 * Out: the timed seconds, the time per pass of each span between two clock reads gathered
 * into up to ECSB_TIME_SLICES consecutive slices (per-pass times, in order), the drift of
 * each world (ecsb_time_result.drift: its timed passes against the last third of its warm-up,
 * or, after a warm-up of fewer than ECSB_DRIFT_WARMUP passes, its last third of timed spans
 * against its first third; the least time per pass of each, as preemption only adds time),
 * the memory of the first
 * world right after prepare and, as plan.checksums asks, the checksum of the last world and
 * the checksum of the first world after one warm-up pass (untimed: taken during the warm-up).
 *
 * This file needs only harness/ecsb.h: it is part of the core library, so the C tests (under
 * ASan and UBSan) exercise it directly.
 */
#ifndef ECSB_TIMING_H
#define ECSB_TIMING_H

#include <stdbool.h>
#include <stdint.h>

#include "harness/ecsb.h"

/* A calibration (plan.stop_after) times at least 3 spans, so that its least time per pass
 * survives one span cut by another process (a 3 ms span of 0.3 us passes made a cell plan
 * 7 passes), unless the spans are long: 100 times stop_after is reached sooner. */
#define ECSB_STOP_LEAST_SPANS 3u
#define ECSB_STOP_ALONE 100.0
/* A warm-up of at least this many passes is timed in its last third, and drift compares the
 * timed passes with it: a world still changing when timing starts shows. */
#define ECSB_DRIFT_WARMUP 6u
/* Consecutive slices the per-pass times are gathered into. */
#define ECSB_TIME_SLICES 12u
/* An adaptive group (plan.group == 0) grows until a span takes this long. */
#define ECSB_ADAPTIVE_SPAN_SECONDS 0.001
/* Most fresh worlds prepared at once, and most entities in them all (memory). */
#define ECSB_BATCH_WORLDS 4096u
#define ECSB_BATCH_ENTITIES 524288u
/*
 * The clock reads around a span stay under 1/ECSB_CLOCK_SHARE_INV (0.5%) of it: a group is at
 * least that many times a pair of clock reads, given the time of one pass.
 */
#define ECSB_CLOCK_SHARE_INV 200.0

typedef struct ecsb_time_plan {
    uint64_t worlds; /* worlds the timed passes are spread over (>= 1; fresh scenarios: ignored) */
    uint64_t warmup; /* untimed passes on each world before its timed ones (fresh: worlds) */
    uint64_t passes; /* timed passes in all (>= 1) */
    uint64_t group;  /* timed passes between two clock reads; 0: adaptive (grows from 1) */
    double stop_after; /* > 0: stop once the timed seconds reach this over at least
                          ECSB_STOP_LEAST_SPANS spans, or reach ECSB_STOP_ALONE times it */
    uint32_t checksums; /* which checksums to take (ECSB_CHECKSUM_*; 0: none) */
} ecsb_time_plan;

/* The checksums a timing takes, untimed: each walks the whole world by entity (in a shuffled
 * or aged 1M world, several seconds of cache misses), so a timed repetition takes none. */
enum {
    ECSB_CHECKSUM_FIRST = 1, /* the first world after its first warm-up pass (plan.warmup >= 1) */
    ECSB_CHECKSUM_LAST = 2,  /* the last world after all its passes */
};

typedef struct ecsb_time_result {
    ecsb_status status;   /* ECSB_OK, or the first failure */
    const char *step;     /* on failure: "prepare", "warm-up" or "pass" */
    uint64_t passes;      /* timed passes run */
    uint64_t checksum;    /* ECSB_CHECKSUM_LAST: of the last world, after all its passes */
    uint64_t first_checksum; /* ECSB_CHECKSUM_FIRST: of the first world after its first
                                (warm-up) pass, the checksum of a fresh world passed once:
                                the check's, so a calibration checks too */
    double seconds;       /* timed passes, summed */
    double least_pass;    /* least time per pass over the spans (the calibration estimate) */
    double prepare_seconds; /* one prepare, the least seen */
    double slice[ECSB_TIME_SLICES]; /* seconds per pass in consecutive slices of the spans */
    uint32_t slice_count;
    double drift;         /* geometric mean over worlds of (least time per pass timed / least
                             in the last third of the warm-up), or where the warm-up has fewer
                             than ECSB_DRIFT_WARMUP passes (a cold first pass says nothing of
                             drift) of (least in the last third of the timed spans / least in
                             the first third); 0 when no world had 3 spans to compare */
    uint64_t bytes, entities; /* the first world's memory right after prepare */
} ecsb_time_result;

/* Called after each span with the timed passes done and planned and the seconds they took
 * (a long run's progress). */
typedef void (*ecsb_time_watch)(void *ctx, uint64_t done, uint64_t total, double seconds);

/*
 * Time impl (a scenario whose pass consumes its set-up when `fresh`) at (n, p) by `plan`.
 * Returns r->status. `watch` may be NULL.
 */
ecsb_status ecsb_time_case(const ecsb_scenario_impl *impl, bool fresh, uint64_t n,
                           const ecsb_params *p, const ecsb_time_plan *plan, ecsb_time_result *r,
                           ecsb_time_watch watch, void *watch_ctx);

/*
 * The warm-up of a cell, decided here only (ecsb_warmup_decide), from the scenario, n and
 * parameters, never from the strategies a run selects or their speed: the untimed passes
 * before a world is timed are the scenario's rule (ecsb_scenario_info.warmup_passes: one pass
 * for most; frame's turnover of every slot), in full, at least 1 (the first pass over a
 * freshly built heap pays page faults and cold caches). A warm-up is never shortened: where
 * the rule asks more than ECSB_WARMUP_BUDGET entity-passes (passes x n) of each world, the
 * cell does not fit (fits = false, why says so) and make bench leaves it out with a "not
 * running" line, as it does for a strategy's size cap; `ecsbench run` warns and runs it.
 * The same warm-up for every line of a cell and for `ecsbench run`.
 */
/* entity-passes per world: frame (200 frames at churn 0.01) up to 262,144 entities; at 1M its
 * warm-up alone took 11 s on the floor (docs/measuring.md) */
#define ECSB_WARMUP_BUDGET (1ull << 26)
typedef struct ecsb_warmup {
    uint64_t passes; /* untimed passes (or fresh worlds) before the timed ones: the rule's */
    bool fits;       /* false: the rule's warm-up exceeds ECSB_WARMUP_BUDGET at this n */
    char why[160];   /* when !fits: why, for the "not running" line */
} ecsb_warmup;
ecsb_warmup ecsb_warmup_decide(ecsb_scenario_id s, uint64_t n, const ecsb_params *p);

/* The smallest group whose clock reads stay under 0.5% of its span, for passes of
 * pass_seconds; at least 1. */
uint64_t ecsb_clock_group(double pass_seconds);
/* Fresh worlds per batch: ecsb_clock_group, capped by ECSB_BATCH_WORLDS and
 * ECSB_BATCH_ENTITIES. */
uint64_t ecsb_fresh_batch(uint64_t n, double pass_seconds);
/* Seconds one pair of clock reads costs here (measured once, then cached). */
double ecsb_clock_pair_seconds(void);
/* CLOCK_MONOTONIC, in seconds. */
double ecsb_now(void);

#endif /* ECSB_TIMING_H */
