/* sentinel.c — the machine-speed sentinel and the repeat of disturbed repetitions
 * (sentinel.h says what and why; docs/measuring.md how the kernel, margin and budget were
 * chosen). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness/sentinel.h"
#include "harness/timing.h"

/* The kernel's fixed work: dependent multiply-adds (latency-bound: the core's clock and a
 * sibling's share of it), then a read of a buffer twice the per-core L2 (the shared cache
 * and memory path a streaming neighbour competes for). About 0.25 ms on the reference VM. */
#define KERNEL_CHAIN 40000u
#define KERNEL_BYTES (4u << 20)

static uint64_t *kernel_buffer;
static volatile uint64_t kernel_sink;

double ecsb_sentinel_kernel(void *ctx)
{
    (void)ctx;
    size_t words = KERNEL_BYTES / sizeof(uint64_t);
    if (!kernel_buffer) {
        kernel_buffer = aligned_alloc(64, KERNEL_BYTES);
        if (!kernel_buffer)
            return 0; /* no buffer: no probe (every repetition then looks clean) */
        for (size_t i = 0; i < words; i++)
            kernel_buffer[i] = i * 0x9e3779b97f4a7c15ull;
    }
    uint64_t sum = 0;
    for (size_t i = 0; i < words; i++) /* untimed: the buffer as warm as it gets, whatever */
        sum += kernel_buffer[i];       /* the repetition before left in the caches */
    double t0 = ecsb_now();
    uint64_t x = kernel_sink | 1;
    for (uint32_t i = 0; i < KERNEL_CHAIN; i++)
        x = x * 6364136223846793005ull + 1442695040888963407ull;
    for (size_t i = 0; i < words; i++)
        sum += kernel_buffer[i];
    kernel_sink = x ^ sum;
    return ecsb_now() - t0;
}

/* Note probe p among the fastest kept and move the reference to the probe that
 * REFERENCE_SHARE of all probes so far are faster than. */
static void note_probe(ecsb_sentinel *s, double p)
{
    if (!(p > 0))
        return;
    uint32_t n = s->low_count;
    if (n < ECSB_SENTINEL_LOW_KEPT || p < s->low[n - 1]) {
        uint32_t at = n < ECSB_SENTINEL_LOW_KEPT ? n : n - 1; /* the slowest kept makes room */
        while (at > 0 && s->low[at - 1] > p) {
            s->low[at] = s->low[at - 1];
            at--;
        }
        s->low[at] = p;
        if (n < ECSB_SENTINEL_LOW_KEPT)
            s->low_count++;
    }
    uint64_t k = (uint64_t)(ECSB_SENTINEL_REFERENCE_SHARE * (double)s->noted);
    s->noted++;
    if (k >= s->low_count)
        k = s->low_count - 1;
    s->reference = s->low[k];
}

/* One probe, noted in the run's range and cost; a slow one is taken again at once and the
 * lesser kept, so an interrupt in one 0.25 ms probe is not a disturbed machine. Only the
 * probes that open and close repetitions (`note`) move the reference: waiting for a clean
 * probe takes one every 20 ms while the machine is slow, and would drag it up. */
static double probe(ecsb_sentinel *s, bool note)
{
    double t0 = ecsb_now();
    double p = s->probe(s->probe_ctx);
    if (ecsb_sentinel_is_disturbed(s, p)) {
        double again = s->probe(s->probe_ctx);
        p = again < p ? again : p;
        s->probes++;
    }
    s->probes++;
    if (p > 0 && (s->best == 0 || p < s->best))
        s->best = p;
    if (note)
        note_probe(s, p);
    if (p > s->worst)
        s->worst = p;
    s->last = p;
    s->have_last = true;
    s->last_at = ecsb_now();
    s->probe_seconds += s->last_at - t0;
    return p;
}

double ecsb_sentinel_thread_cpu(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return -1; /* no CPU clock: the share is not judged */
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void ecsb_sentinel_start(ecsb_sentinel *s, double margin, double budget,
                         ecsb_sentinel_probe_fn probe_fn, void *probe_ctx)
{
    *s = (ecsb_sentinel){.margin = margin,
                         .cpu = ecsb_sentinel_thread_cpu,
                         .cpu_share = ECSB_SENTINEL_CPU_SHARE,
                         .budget = budget,
                         .wait_step = ECSB_SENTINEL_WAIT_STEP,
                         .probe_every = ECSB_SENTINEL_PROBE_EVERY,
                         .probe = probe_fn ? probe_fn : ecsb_sentinel_kernel,
                         .probe_ctx = probe_ctx};
    for (int i = 0; i < ECSB_SENTINEL_START_PROBES; i++)
        probe(s, true);
    s->have_last = false;
}

bool ecsb_sentinel_is_disturbed(const ecsb_sentinel *s, double seconds)
{
    return s->reference > 0 && seconds > s->reference * (1 + s->margin);
}

static void pause_for(double seconds)
{
    if (seconds <= 0)
        return;
    struct timespec ts = {.tv_sec = (time_t)seconds,
                          .tv_nsec = (long)((seconds - (double)(time_t)seconds) * 1e9)};
    nanosleep(&ts, NULL);
}

/* Before a repeat: probe until one is clean, for at most WAIT_MOST and what the budget has
 * left; the clean probe opens the repeat. False when none was clean. */
static bool wait_for_clean(ecsb_sentinel *s, double *before)
{
    double t0 = ecsb_now();
    for (;;) {
        pause_for(s->wait_step);
        *before = probe(s, false);
        double waited = ecsb_now() - t0;
        if (!ecsb_sentinel_is_disturbed(s, *before)) {
            s->spent += waited;
            return true;
        }
        if (waited >= ECSB_SENTINEL_WAIT_MOST || s->spent + waited >= s->budget) {
            s->spent += waited;
            return false;
        }
    }
}

ecsb_status ecsb_sentinel_repetition(ecsb_sentinel *s, ecsb_sentinel_attempt_fn attempt,
                                     void *ctx, ecsb_sentinel_verdict *v)
{
    *v = (ecsb_sentinel_verdict){0};
    double before = s->have_last ? s->last : probe(s, true);
    s->repetitions++;
    for (;;) {
        double c0 = s->cpu();
        double t0 = ecsb_now();
        ecsb_status st = attempt(ctx);
        double took = ecsb_now() - t0;
        double cpu = s->cpu() - c0;
        v->attempts++;
        if (st != ECSB_OK)
            return st;
        v->cpu_share = c0 >= 0 && took > 0 ? cpu / took : 1;
        double after = ecsb_now() - s->last_at < s->probe_every ? s->last : probe(s, true);
        v->sentinel = before > after ? before : after;
        bool descheduled = v->cpu_share < s->cpu_share;
        if (!descheduled && !ecsb_sentinel_is_disturbed(s, v->sentinel)) {
            s->repeated += v->attempts > 1;
            return ECSB_OK;
        }
        if (v->attempts == 1) {
            s->disturbed++;
            s->descheduled += descheduled;
        }
        bool repeat = v->attempts < ECSB_SENTINEL_ATTEMPTS && s->spent + took <= s->budget;
        if (repeat) {
            s->spent += took; /* a repeat discards this timing: its time went on the repeat */
            repeat = wait_for_clean(s, &before);
            if (!repeat)
                s->spent -= took; /* kept after all */
        }
        if (!repeat) {
            v->disturbed = true;
            s->unrepeated++;
            return ECSB_OK;
        }
    }
}
