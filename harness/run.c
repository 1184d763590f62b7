/*
 * run.c — one scenario on one implementation (`ecsbench run`), timed by the engine the suite
 * uses (harness/timing.h) with the same warm-up, and the helpers the suite shares with it:
 * count parsing, name lookup, default sizes.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "harness/runner.h"

bool ecsb_parse_count(const char *text, uint64_t max, uint64_t *out)
{
    if (!text || !*text)
        return false;
    uint64_t v = 0;
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9')
            return false;
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    if (v == 0 || v > max)
        return false;
    *out = v;
    return true;
}

uint64_t ecsb_draw_seed(void)
{
    uint64_t seed = 0;
    if (getrandom(&seed, sizeof seed, GRND_NONBLOCK) != (ssize_t)sizeof seed) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed = (uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec ^
               (uint64_t)getpid() << 40;
    }
    seed >>= 1; /* below 2^63: exact in a JSON number, and any reader's integer */
    return seed ? seed : 1;
}

void ecsb_format_duration(char *buf, size_t size, double seconds)
{
    unsigned long s = seconds > 0 ? (unsigned long)(seconds + 0.5) : 0;
    if (s >= 3600)
        snprintf(buf, size, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(buf, size, "%lu:%02lu", s / 60, s % 60);
}

bool ecsb_has_limit(ecsb_scenario_id s)
{
    return (unsigned)s < ECSB_SCENARIO_COUNT && ecsb_limit[s].prepare != NULL;
}

const ecsb_scenario_impl *ecsb_impl_find(ecsb_scenario_id s, const char *strategy)
{
    if ((unsigned)s >= ECSB_SCENARIO_COUNT || !strategy)
        return NULL;
    if (strcmp(strategy, ECSB_FLOOR_NAME) == 0)
        return &ecsb_floor[s];
    if (strcmp(strategy, ECSB_LIMIT_NAME) == 0)
        return ecsb_has_limit(s) ? &ecsb_limit[s] : NULL;
    const ecsb_strategy *st = ecsb_strategy_find(strategy);
    return st ? &st->scenarios[s] : NULL;
}

void ecsb_print_impl_names(FILE *out, ecsb_scenario_id s)
{
    fprintf(out, "%s", ECSB_FLOOR_NAME);
    if (ecsb_has_limit(s))
        fprintf(out, " | %s", ECSB_LIMIT_NAME);
    for (size_t i = 0; i < ecsb_strategy_count; i++)
        fprintf(out, " | %s", ecsb_strategies[i]->name);
}

size_t ecsb_default_sizes(ecsb_size_set set, uint64_t *out)
{
    static const uint64_t sweep[] = {256, 1024, 4000, 4096, 16384, 65536, 262144, 1048576, 4194304};
    static const uint64_t standard[] = {4000, 65536, 1048576};
    static const uint64_t frame[] = {4000, 16384, 65536};
    const uint64_t *src = set == ECSB_SIZES_SWEEP ? sweep : set == ECSB_SIZES_FRAME ? frame
                                                                                   : standard;
    size_t count = set == ECSB_SIZES_SWEEP   ? sizeof sweep / sizeof *sweep
                   : set == ECSB_SIZES_FRAME ? sizeof frame / sizeof *frame
                                             : sizeof standard / sizeof *standard;
    memcpy(out, src, count * sizeof *src);
    return count;
}

/*
 * Without --ecsb_large, make bench stops at 65,536; frame at 16,384: every repetition of a
 * frame line lives its world through ~200 frames before it is timed (its steady-state rule,
 * never cut short), and with the scene graph a frame at 65,536 costs 0.4-19 ms by strategy,
 * so its three worlds at 65,536 alone (6 min 43 s planned) would take longer than the rest of
 * the run. --ecsb_large adds 65,536 for frame, not 262,144: at 4x the cost a frame, its three
 * worlds would take about 27 minutes more, past LARGE's 45. `ecsbench run` runs any N.
 */
uint64_t ecsb_default_largest(ecsb_size_set set)
{
    return set == ECSB_SIZES_FRAME ? 16384u : 65536u;
}

/* ---- one run ----------------------------------------------------------------------------- */

/*
 * Progress of a long `run`: announced once the first timed passes show it will take long.
 * The time left is the wall time per pass since the first timed span (fresh worlds' prepares
 * included) times the passes left; before a second span, the timed time per pass. Set-up and
 * warm-up are over by the first span, so they never inflate it.
 */
typedef struct run_watch {
    bool on, announced;
    double first_at, last;
    uint64_t first_done, total;
    FILE *spans;                  /* NULL, or where each span's line goes */
    uint64_t span_done;           /* timed passes and seconds at the previous span's end */
    double span_timed;
} run_watch;

static void span_line(run_watch *w, uint64_t done, double timed)
{
    if (!w->spans || done <= w->span_done)
        return;
    fprintf(w->spans, "span first=%" PRIu64 " passes=%" PRIu64 " seconds_per_pass=%.9g\n",
            w->span_done, done - w->span_done,
            (timed - w->span_timed) / (double)(done - w->span_done));
    w->span_done = done;
    w->span_timed = timed;
}

static void watch_update(void *ctx, uint64_t done, uint64_t total, double timed)
{
    run_watch *w = ctx;
    (void)total;
    span_line(w, done, timed);
    if (!w->on || done >= w->total || done == 0)
        return;
    double now = ecsb_now();
    if (w->first_done == 0) {
        w->first_done = done;
        w->first_at = now;
    }
    double per = done > w->first_done ? (now - w->first_at) / (double)(done - w->first_done)
                                      : timed / (double)done;
    double elapsed = per * (double)done, left = per * (double)(w->total - done);
    char a[32], b[32];
    if (!w->announced) {
        if (elapsed + left < ECSB_RUN_NOTICE_SECONDS)
            return;
        w->announced = true;
        w->last = now;
        ecsb_format_duration(a, sizeof a, elapsed + left);
        fprintf(stderr,
                "ecsbench: %" PRIu64 " passes at about %.3g s each will take about %s; "
                "progress every 10 s (Ctrl-C stops)\n",
                w->total, per, a);
        return;
    }
    if (now - w->last < 10)
        return;
    w->last = now;
    ecsb_format_duration(a, sizeof a, elapsed);
    ecsb_format_duration(b, sizeof b, left);
    fprintf(stderr, "ecsbench: %" PRIu64 "/%" PRIu64 " passes, %s elapsed, about %s left\n",
            done, w->total, a, b);
}

ecsb_status ecsb_run_scenario(const ecsb_scenario_impl *impl, ecsb_scenario_id s, uint64_t n,
                              const ecsb_params *p, uint64_t passes, bool progress, FILE *spans,
                              ecsb_run_result *r)
{
    *r = (ecsb_run_result){.status = ECSB_OK, .step = ""};
    run_watch w = {.on = progress, .total = passes ? passes : 1, .spans = spans};
    /* The engine bench uses, with the warm-up bench uses: one world, adaptive spans. */
    ecsb_warmup warm = ecsb_warmup_decide(s, n, p);
    if (!warm.fits)
        fprintf(stderr, "ecsbench: warning: make bench would not run %s at N=%" PRIu64 ": %s\n",
                ecsb_scenarios[s].name, n, warm.why);
    ecsb_time_plan plan = {.worlds = 1, .warmup = warm.passes, .passes = passes,
                           .checksums = ECSB_CHECKSUM_LAST};
    ecsb_time_result t;
    ecsb_placement_seed(ECSB_DEFAULT_SEED); /* fixed: runs are compared with each other */
    ecsb_time_case(impl, ecsb_scenarios[s].consumes_setup, n, p, &plan, &t, watch_update, &w);
    r->status = t.status;
    r->step = t.step;
    r->checksum = t.checksum;
    r->seconds = t.seconds;
    r->warmup = plan.warmup;
    return r->status;
}
