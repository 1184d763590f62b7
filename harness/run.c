/*
 * run.c — one scenario on one implementation (`ecsbench run`), timed with CLOCK_MONOTONIC, and
 * the helpers the suite shares with it: name lookup, default sizes, batches of fresh worlds.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

double ecsb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
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
    const uint64_t *src = set == ECSB_SIZES_SWEEP ? sweep : standard;
    size_t count = set == ECSB_SIZES_SWEEP ? sizeof sweep / sizeof *sweep
                                           : sizeof standard / sizeof *standard;
    memcpy(out, src, count * sizeof *src);
    return count;
}

/* ---- batches of fresh worlds ------------------------------------------------------------- */

uint64_t ecsb_fresh_batch(uint64_t n, double pass_seconds)
{
    double want = ceil(ECSB_CLOCK_SHARE_INV * ecsb_clock_pair_seconds() /
                       (pass_seconds > 1e-12 ? pass_seconds : 1e-12));
    double most = (double)(ECSB_BATCH_ENTITIES / (n ? n : 1));
    if (most > ECSB_BATCH_WORLDS)
        most = ECSB_BATCH_WORLDS;
    if (want > most)
        want = most;
    return want < 1 ? 1 : (uint64_t)want;
}

ecsb_status ecsb_prepare_many(const ecsb_scenario_impl *impl, uint64_t n,
                              const ecsb_params *p, void **states, uint64_t count)
{
    for (uint64_t i = 0; i < count; i++) {
        states[i] = NULL;
        ecsb_status st = impl->prepare(&states[i], n, p);
        if (st != ECSB_OK) {
            ecsb_release_many(impl, states, i);
            return st;
        }
    }
    return ECSB_OK;
}

ecsb_status ecsb_pass_many(const ecsb_scenario_impl *impl, void **states, uint64_t count,
                           double *seconds)
{
    ecsb_status st = ECSB_OK;
    double t0 = ecsb_now();
    for (uint64_t i = 0; i < count && st == ECSB_OK; i++)
        st = impl->pass(states[i]);
    *seconds = ecsb_now() - t0;
    return st;
}

void ecsb_release_many(const ecsb_scenario_impl *impl, void **states, uint64_t count)
{
    for (uint64_t i = 0; i < count; i++) {
        impl->release(states[i]);
        states[i] = NULL;
    }
}

double ecsb_clock_pair_seconds(void)
{
    static double cost;
    if (cost == 0) {
        enum { READS = 4096 };
        double t0 = ecsb_now(), t = t0;
        for (int i = 0; i < READS; i++)
            t = ecsb_now();
        cost = 2 * (t - t0) / READS;
        if (cost <= 0)
            cost = 1e-9;
    }
    return cost;
}

/* ---- one run ----------------------------------------------------------------------------- */

/* Progress of a long `run`: announced once the first passes show it will take long. */
typedef struct run_watch {
    bool on, announced;
    double t0, last;
    uint64_t total;
} run_watch;

static void watch_update(run_watch *w, uint64_t done)
{
    if (!w->on || done >= w->total)
        return;
    double now = ecsb_now(), elapsed = now - w->t0;
    double left = elapsed / (double)done * (double)(w->total - done);
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
                w->total, elapsed / (double)done, a);
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

static ecsb_status fail(ecsb_run_result *r, ecsb_status status, const char *step)
{
    r->status = status;
    r->step = step;
    return status;
}

/* Fresh worlds for every pass: the first alone, then in batches sized by its time; the last
 * world's checksum. */
static ecsb_status run_fresh(const ecsb_scenario_impl *impl, uint64_t n, const ecsb_params *p,
                             uint64_t passes, run_watch *w, ecsb_run_result *r)
{
    uint64_t batch = 1;
    void **states = calloc(ECSB_BATCH_WORLDS, sizeof *states);
    if (!states)
        return fail(r, ECSB_ERR_NOMEM, "prepare");
    ecsb_status st;
    for (uint64_t done = 0; done < passes;) {
        uint64_t b = passes - done < batch ? passes - done : batch;
        if ((st = ecsb_prepare_many(impl, n, p, states, b)) != ECSB_OK) {
            free(states);
            return fail(r, st, "prepare");
        }
        double seconds;
        st = ecsb_pass_many(impl, states, b, &seconds);
        r->seconds += seconds;
        done += b;
        if (st == ECSB_OK && done == passes)
            r->checksum = impl->checksum(states[b - 1]);
        ecsb_release_many(impl, states, b);
        if (st != ECSB_OK) {
            free(states);
            return fail(r, st, "pass");
        }
        if (done == 1)
            batch = ecsb_fresh_batch(n, seconds);
        watch_update(w, done);
    }
    free(states);
    return ECSB_OK;
}

/* One prepared state, its passes timed in chunks that grow to ~10 ms between clock reads. */
static ecsb_status run_repeated(const ecsb_scenario_impl *impl, uint64_t n,
                                const ecsb_params *p, uint64_t passes, run_watch *w,
                                ecsb_run_result *r)
{
    void *state = NULL;
    ecsb_status st = impl->prepare(&state, n, p);
    if (st != ECSB_OK)
        return fail(r, st, "prepare");
    uint64_t chunk = 1;
    for (uint64_t done = 0; done < passes;) {
        uint64_t c = passes - done < chunk ? passes - done : chunk;
        double t0 = ecsb_now();
        for (uint64_t i = 0; i < c && st == ECSB_OK; i++)
            st = impl->pass(state);
        double span = ecsb_now() - t0;
        r->seconds += span;
        if (st != ECSB_OK) {
            impl->release(state);
            return fail(r, st, "pass");
        }
        done += c;
        if (span < 0.01)
            chunk *= 2;
        watch_update(w, done);
    }
    r->checksum = impl->checksum(state);
    impl->release(state);
    return ECSB_OK;
}

ecsb_status ecsb_run_scenario(const ecsb_scenario_impl *impl, ecsb_scenario_id s, uint64_t n,
                              const ecsb_params *p, uint64_t passes, bool progress,
                              ecsb_run_result *r)
{
    *r = (ecsb_run_result){.status = ECSB_OK, .step = ""};
    if (passes == 0)
        passes = 1; /* a checksum needs a prepared state */
    run_watch w = {.on = progress, .t0 = ecsb_now(), .total = passes};
    if (ecsb_scenarios[s].consumes_setup)
        return run_fresh(impl, n, p, passes, &w, r);
    return run_repeated(impl, n, p, passes, &w, r);
}
