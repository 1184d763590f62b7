/*
 * sentinel.h — the machine's speed, watched while a run times (issue 31; docs/measuring.md,
 * "The sentinel"). A fixed kernel that depends on no strategy (ecsb_sentinel_kernel: a chain
 * of dependent multiplies, then a read of a 4 MiB buffer, twice the per-core L2) is timed
 * around every repetition the suite times. A repetition whose slower probe (before or after
 * it) is off the run's quiet reference (a low percentile of its probes so far) by more than the
 * margin, or that had the CPU for less than ECSB_SENTINEL_CPU_SHARE of its time, ran on a
 * disturbed machine: it is
 * timed again once a probe is clean, within the run's repeat budget (seconds), and when it
 * cannot be (budget spent, or ECSB_SENTINEL_ATTEMPTS tries all disturbed) it is kept, marked.
 *
 *     ecsb_sentinel s;
 *     ecsb_sentinel_start(&s, ECSB_SENTINEL_MARGIN, budget_seconds, NULL, NULL); // the kernel
 *     ecsb_sentinel_verdict v;
 *     ecsb_sentinel_repetition(&s, time_one_repetition, ctx, &v); // may call it again
 *     ... v.sentinel (seconds), v.disturbed (kept although disturbed), v.attempts
 *
 * Tests pass their own probe (a function returning the seconds a probe "took") to make a
 * steady or a slowed machine (tests/sentinel.c).
 */
#ifndef ECSB_SENTINEL_H
#define ECSB_SENTINEL_H

#include <stdbool.h>
#include <stdint.h>

#include "harness/ecsb.h"

/* Disturbed: a probe above the reference by more than this share (docs/measuring.md, "The
 * sentinel's margin": chosen from the probes' spread on quiet and disturbed machines of both
 * VM kinds; the benchmarks' times do not move below it). */
#define ECSB_SENTINEL_MARGIN 0.25
/* The reference: the probe this share of the run's probes so far are faster than (a low
 * percentile, not the least: one freak fast probe must not make every later one look slow),
 * exact over the ECSB_SENTINEL_LOW_KEPT fastest probes (up to 20 x that many probes). */
#define ECSB_SENTINEL_REFERENCE_SHARE 0.05
#define ECSB_SENTINEL_LOW_KEPT 512
/* Disturbed too: a repetition that had the CPU for less than this share of its wall time
 * (its thread's CPU time over its wall time): another process took its core for a while, which
 * a 0.3 ms probe between two time slices does not see (docs/measuring.md, "The sentinel's
 * margin, by measurement": a run sharing 2 CPUs with others' builds). */
#define ECSB_SENTINEL_CPU_SHARE 0.9
/* Timings of one repetition, at most (the first and up to two repeats). */
#define ECSB_SENTINEL_ATTEMPTS 3
/* Before a repeat, probes every WAIT_STEP seconds (sleeping between, so the disturbance gets
 * the core) for at most WAIT_MOST seconds until one is clean. */
#define ECSB_SENTINEL_WAIT_STEP 0.02
#define ECSB_SENTINEL_WAIT_MOST 2.0
/* A probe younger than this closes a repetition too (short repetitions share probes, so the
 * sentinel costs at most one 0.3 ms probe per PROBE_EVERY: the disturbances it is for last
 * a second or more). */
#define ECSB_SENTINEL_PROBE_EVERY 0.02
/* Probes at the start, for a first best. */
#define ECSB_SENTINEL_START_PROBES 16

/* One probe: the seconds one run of the kernel took. */
typedef double (*ecsb_sentinel_probe_fn)(void *ctx);
/* The calling thread's CPU seconds so far (tests pass their own). */
typedef double (*ecsb_sentinel_cpu_fn)(void);
/* One timing of a repetition (it keeps its result where ctx says; a repeat overwrites it). */
typedef ecsb_status (*ecsb_sentinel_attempt_fn)(void *ctx);

typedef struct ecsb_sentinel {
    /* settings */
    double margin;    /* share above the reference that counts as disturbed */
    double budget;    /* seconds the run may spend on repeats (discarded timings, waiting) */
    double wait_step; /* ECSB_SENTINEL_WAIT_STEP; tests set 0 */
    double probe_every; /* ECSB_SENTINEL_PROBE_EVERY; tests set 0 */
    ecsb_sentinel_probe_fn probe;
    void *probe_ctx;
    ecsb_sentinel_cpu_fn cpu;  /* the thread's CPU clock (ecsb_sentinel_thread_cpu) */
    double cpu_share;          /* ECSB_SENTINEL_CPU_SHARE; 0: not judged */
    /* what the run saw */
    double best, worst;  /* seconds per probe, over every probe */
    double reference;    /* the quiet reference: ECSB_SENTINEL_REFERENCE_SHARE of probes below */
    double low[ECSB_SENTINEL_LOW_KEPT]; /* the fastest probes so far, ascending */
    uint32_t low_count;
    double last;         /* the latest probe, seconds */
    double last_at;      /* when it ended (ecsb_now) */
    bool have_last;      /* a probe since the last repetition ended: it opens the next */
    uint64_t probes, repetitions;
    uint64_t noted;      /* probes noted for the reference (a retaken probe counts once) */
    uint64_t disturbed;  /* repetitions whose first timing was disturbed */
    uint64_t descheduled; /* ... of them, judged so by their CPU share */
    uint64_t repeated;   /* ... and were replaced by a clean repeat */
    uint64_t unrepeated; /* ... and were kept, marked */
    double spent;        /* seconds spent on repeats */
    double probe_seconds; /* seconds spent probing (the sentinel's own cost) */
} ecsb_sentinel;

/* The outcome of one repetition. */
typedef struct ecsb_sentinel_verdict {
    double sentinel;   /* the slower probe around the kept timing, seconds */
    double cpu_share;  /* the kept timing's CPU seconds over its wall seconds */
    bool disturbed;    /* the kept timing is disturbed (no clean repeat) */
    uint32_t attempts; /* timings made, 1 .. ECSB_SENTINEL_ATTEMPTS */
} ecsb_sentinel_verdict;

/* The kernel: a fixed compute loop and a read of a fixed 4 MiB buffer; its seconds. */
double ecsb_sentinel_kernel(void *ctx);
/* The calling thread's CPU time, seconds (CLOCK_THREAD_CPUTIME_ID). */
double ecsb_sentinel_thread_cpu(void);

/* Start watching: probe (NULL: the kernel) ECSB_SENTINEL_START_PROBES times for a first best. */
void ecsb_sentinel_start(ecsb_sentinel *s, double margin, double budget,
                         ecsb_sentinel_probe_fn probe, void *probe_ctx);

/* True when a probe of `seconds` is off the reference so far by more than the margin. */
bool ecsb_sentinel_is_disturbed(const ecsb_sentinel *s, double seconds);

/*
 * Time one repetition through the sentinel: attempt(ctx), bracketed by probes (the one
 * before is the last repetition's closing probe; the one after is that same probe when it is
 * younger than probe_every); while the bracket is disturbed, the budget
 * lasts and attempts remain, wait for a clean probe and time it again (the new timing
 * replaces the old). Returns the attempt's status (a failed attempt ends it at once).
 */
ecsb_status ecsb_sentinel_repetition(ecsb_sentinel *s, ecsb_sentinel_attempt_fn attempt,
                                     void *ctx, ecsb_sentinel_verdict *v);

#endif /* ECSB_SENTINEL_H */
