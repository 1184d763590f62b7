/* timing.c — ecsb_time_case, the one timing engine (timing.h says what it does and why). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "harness/timing.h"

double ecsb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
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

uint64_t ecsb_clock_group(double pass_seconds)
{
    double want = ceil(ECSB_CLOCK_SHARE_INV * ecsb_clock_pair_seconds() /
                       (pass_seconds > 1e-12 ? pass_seconds : 1e-12));
    return want < 1 ? 1 : want > 1e9 ? 1000000000u : (uint64_t)want;
}

uint64_t ecsb_fresh_batch(uint64_t n, double pass_seconds)
{
    uint64_t want = ecsb_clock_group(pass_seconds);
    uint64_t most = ECSB_BATCH_ENTITIES / (n ? n : 1);
    if (most > ECSB_BATCH_WORLDS)
        most = ECSB_BATCH_WORLDS;
    if (want > most)
        want = most;
    return want < 1 ? 1 : want;
}

ecsb_warmup ecsb_warmup_decide(ecsb_scenario_id s, uint64_t n, const ecsb_params *p)
{
    const ecsb_scenario_info *info = &ecsb_scenarios[s];
    ecsb_warmup w = {.passes = info->warmup_passes ? info->warmup_passes(n, p) : 1, .fits = true};
    if (w.passes == 0)
        w.passes = 1;
    if (w.passes > ECSB_WARMUP_BUDGET / (n ? n : 1)) {
        w.fits = false;
        snprintf(w.why, sizeof w.why,
                 "its warm-up, %llu passes to steady state, is more than %llu entity-passes",
                 (unsigned long long)w.passes, (unsigned long long)ECSB_WARMUP_BUDGET);
    }
    return w;
}

/* True when a timing with plan.stop_after has timed enough: `seconds` over `spans` spans. */
static bool stop_now(const ecsb_time_plan *plan, double seconds, size_t spans)
{
    return plan->stop_after > 0 && seconds >= plan->stop_after &&
           (spans >= ECSB_STOP_LEAST_SPANS || seconds >= ECSB_STOP_ALONE * plan->stop_after);
}

/* ---- the spans of one timing ------------------------------------------------------------ */

/* One span between two clock reads: which world, where its passes start in that world's
 * timed passes, how many, how long. */
typedef struct span {
    uint64_t world, first, count;
    double seconds;
    bool warm; /* a span of the warm-up's last third, timed for drift only */
} span;

typedef struct spans {
    span *v;
    size_t count, cap;
} spans;

static bool spans_add(spans *s, span x)
{
    if (s->count == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        span *grown = realloc(s->v, cap * sizeof *grown);
        if (!grown)
            return false;
        s->v = grown;
        s->cap = cap;
    }
    s->v[s->count++] = x;
    return true;
}

/* Slices, least pass and drift from the spans; world_passes[w] = timed passes of world w.
 * Warm-up spans count for drift only. */
static void summarise(const spans *s, const uint64_t *world_passes, uint64_t worlds,
                      ecsb_time_result *r)
{
    size_t timed = 0;
    for (size_t i = 0; i < s->count; i++)
        timed += !s->v[i].warm;
    r->slice_count = timed < ECSB_TIME_SLICES ? (uint32_t)timed : ECSB_TIME_SLICES;
    double sec[ECSB_TIME_SLICES] = {0}, cnt[ECSB_TIME_SLICES] = {0};
    for (size_t i = 0, t = 0; i < s->count; i++) {
        const span *x = &s->v[i];
        if (x->warm)
            continue;
        size_t k = t * r->slice_count / timed;
        sec[k] += x->seconds;
        cnt[k] += (double)x->count;
        double per = x->seconds / (double)x->count;
        if (t == 0 || per < r->least_pass)
            r->least_pass = per;
        t++;
    }
    for (uint32_t k = 0; k < r->slice_count; k++)
        r->slice[k] = sec[k] / cnt[k];
    /* Drift, per world: where its warm-up's last third was timed, the least time per pass of
     * its timed spans against the least of those warm-up spans (a world still settling when
     * timing began shows); else the least of the timed spans whose middle lies in the last
     * third of its timed passes against the least of those in the first third. The least,
     * because preemption only ever adds time: a span cut by another process must not read as
     * a world that changed. Worlds with fewer than 3 spans to compare say nothing. */
    double log_sum = 0;
    uint64_t measured = 0;
    for (uint64_t w = 0; w < worlds; w++) {
        double first = 0, last = 0, warm = 0, all = 0;
        size_t in_world = 0, warm_spans = 0;
        for (size_t i = 0; i < s->count; i++) {
            const span *x = &s->v[i];
            if (x->world != w)
                continue;
            double per = x->seconds / (double)x->count;
            if (x->warm) {
                warm_spans++;
                warm = warm == 0 || per < warm ? per : warm;
                continue;
            }
            in_world++;
            all = all == 0 || per < all ? per : all;
            double mid = (double)x->first + (double)x->count / 2;
            double third = (double)world_passes[w] / 3;
            if (mid < third)
                first = first == 0 || per < first ? per : first;
            else if (mid >= 2 * third)
                last = last == 0 || per < last ? per : last;
        }
        if (warm_spans > 0) {
            if (warm_spans + in_world < 3 || warm <= 0 || all <= 0)
                continue;
            first = warm;
            last = all;
        } else if (in_world < 3 || first <= 0 || last <= 0) {
            continue;
        }
        log_sum += log(last / first);
        measured++;
    }
    r->drift = measured ? exp(log_sum / (double)measured) : 0;
}

static ecsb_status fail(ecsb_time_result *r, ecsb_status status, const char *step)
{
    r->status = status;
    r->step = step;
    return status;
}

static void note_prepare(ecsb_time_result *r, double seconds)
{
    if (r->prepare_seconds == 0 || seconds < r->prepare_seconds)
        r->prepare_seconds = seconds;
}

/* ---- fresh worlds: every pass on its own world -------------------------------------------- */

static void release_all(const ecsb_scenario_impl *impl, void **states, uint64_t count)
{
    for (uint64_t i = 0; i < count; i++) {
        impl->release(states[i]);
        states[i] = NULL;
    }
}

static ecsb_status prepare_all(const ecsb_scenario_impl *impl, uint64_t n, const ecsb_params *p,
                               void **states, uint64_t count)
{
    for (uint64_t i = 0; i < count; i++) {
        states[i] = NULL;
        ecsb_status st = impl->prepare(&states[i], n, p);
        if (st != ECSB_OK) {
            release_all(impl, states, i);
            return st;
        }
    }
    return ECSB_OK;
}

static ecsb_status time_fresh(const ecsb_scenario_impl *impl, uint64_t n, const ecsb_params *p,
                              const ecsb_time_plan *plan, ecsb_time_result *r, spans *sp,
                              ecsb_time_watch watch, void *watch_ctx)
{
    uint64_t cap = plan->group ? plan->group : ECSB_BATCH_WORLDS;
    if (cap > ECSB_BATCH_WORLDS)
        cap = ECSB_BATCH_WORLDS;
    void **states = calloc(cap, sizeof *states);
    if (!states)
        return fail(r, ECSB_ERR_NOMEM, "prepare");
    ecsb_status st = ECSB_OK;
    for (uint64_t w = 0; w < plan->warmup && st == ECSB_OK; w++) {
        if ((st = prepare_all(impl, n, p, states, 1)) != ECSB_OK)
            break;
        st = impl->pass(states[0]);
        if (w == 0 && st == ECSB_OK && (plan->checksums & ECSB_CHECKSUM_FIRST))
            r->first_checksum = impl->checksum(states[0]);
        release_all(impl, states, 1);
    }
    if (st != ECSB_OK) {
        free(states);
        return fail(r, st, "warm-up");
    }
    uint64_t group = plan->group ? cap : 1;
    for (uint64_t done = 0; done < plan->passes;) {
        uint64_t b = plan->passes - done < group ? plan->passes - done : group;
        double t0 = ecsb_now();
        if ((st = prepare_all(impl, n, p, states, b)) != ECSB_OK) {
            free(states);
            return fail(r, st, "prepare");
        }
        note_prepare(r, (ecsb_now() - t0) / (double)b);
        if (done == 0)
            impl->memory(states[0], &r->bytes, &r->entities);
        t0 = ecsb_now();
        for (uint64_t i = 0; i < b && st == ECSB_OK; i++)
            st = impl->pass(states[i]);
        double seconds = ecsb_now() - t0;
        if (st != ECSB_OK) {
            release_all(impl, states, b);
            free(states);
            return fail(r, st, "pass");
        }
        r->seconds += seconds;
        done += b;
        bool last = done == plan->passes || stop_now(plan, r->seconds, sp->count + 1);
        if (last && (plan->checksums & ECSB_CHECKSUM_LAST))
            r->checksum = impl->checksum(states[b - 1]);
        release_all(impl, states, b);
        if (!spans_add(sp, (span){0, done - b, b, seconds, false})) {
            free(states);
            return fail(r, ECSB_ERR_NOMEM, "pass");
        }
        r->passes = done;
        if (watch)
            watch(watch_ctx, done, plan->passes, r->seconds);
        if (last)
            break;
        if (!plan->group) { /* adaptive: batches sized by the least pass so far */
            group = ecsb_fresh_batch(n, seconds / (double)b);
            if (group > cap)
                group = cap;
        }
    }
    free(states);
    uint64_t all = r->passes;
    summarise(sp, &all, 1, r);
    return ECSB_OK;
}

/* ---- repeated passes on a world ------------------------------------------------------------ */

static ecsb_status time_repeated(const ecsb_scenario_impl *impl, uint64_t n, const ecsb_params *p,
                                 const ecsb_time_plan *plan, ecsb_time_result *r, spans *sp,
                                 ecsb_time_watch watch, void *watch_ctx)
{
    uint64_t worlds = plan->worlds ? plan->worlds : 1;
    if (worlds > plan->passes)
        worlds = plan->passes;
    uint64_t *world_passes = calloc(worlds, sizeof *world_passes);
    if (!world_passes)
        return fail(r, ECSB_ERR_NOMEM, "prepare");
    ecsb_status st = ECSB_OK;
    bool stopped = false;
    size_t warm_spans = 0; /* spans of warm-ups (for drift), not timed */
    for (uint64_t w = 0; w < worlds && !stopped; w++) {
        uint64_t share = plan->passes / worlds + (w < plan->passes % worlds);
        void *state = NULL;
        double t0 = ecsb_now();
        if ((st = impl->prepare(&state, n, p)) != ECSB_OK) {
            free(world_passes);
            return fail(r, st, "prepare");
        }
        note_prepare(r, ecsb_now() - t0);
        if (w == 0)
            impl->memory(state, &r->bytes, &r->entities);
        /* The warm-up: its last third (of a warm-up of ECSB_DRIFT_WARMUP passes or more) in
         * spans of the timed group, for drift. */
        const uint64_t warm_timed = plan->warmup >= ECSB_DRIFT_WARMUP ? plan->warmup / 3 : 0;
        uint64_t group = plan->group ? plan->group : 1;
        for (uint64_t i = 0; i < plan->warmup && st == ECSB_OK;) {
            if (i < plan->warmup - warm_timed) {
                st = impl->pass(state);
                if (w == 0 && i == 0 && st == ECSB_OK && (plan->checksums & ECSB_CHECKSUM_FIRST))
                    r->first_checksum = impl->checksum(state);
                i++;
                continue;
            }
            uint64_t b = plan->warmup - i < group ? plan->warmup - i : group;
            t0 = ecsb_now();
            for (uint64_t j = 0; j < b && st == ECSB_OK; j++)
                st = impl->pass(state);
            double seconds = ecsb_now() - t0;
            if (st == ECSB_OK && !spans_add(sp, (span){w, i, b, seconds, true}))
                st = ECSB_ERR_NOMEM;
            warm_spans++;
            i += b;
            if (!plan->group && seconds < ECSB_ADAPTIVE_SPAN_SECONDS)
                group *= 2;
        }
        const char *step = "warm-up";
        for (uint64_t done = 0; st == ECSB_OK && done < share;) {
            step = "pass";
            uint64_t b = share - done < group ? share - done : group;
            t0 = ecsb_now();
            for (uint64_t i = 0; i < b && st == ECSB_OK; i++)
                st = impl->pass(state);
            double seconds = ecsb_now() - t0;
            if (st != ECSB_OK)
                break;
            r->seconds += seconds;
            r->passes += b;
            world_passes[w] = done + b;
            if (!spans_add(sp, (span){w, done, b, seconds, false})) {
                st = ECSB_ERR_NOMEM;
                break;
            }
            done += b;
            if (watch)
                watch(watch_ctx, r->passes, plan->passes, r->seconds);
            if (stop_now(plan, r->seconds, sp->count - warm_spans)) {
                stopped = true;
                break;
            }
            if (!plan->group && seconds < ECSB_ADAPTIVE_SPAN_SECONDS)
                group *= 2;
        }
        if (st != ECSB_OK) {
            impl->release(state);
            free(world_passes);
            return fail(r, st, step);
        }
        if ((w + 1 == worlds || stopped) && (plan->checksums & ECSB_CHECKSUM_LAST))
            r->checksum = impl->checksum(state);
        impl->release(state);
    }
    summarise(sp, world_passes, worlds, r);
    free(world_passes);
    return ECSB_OK;
}

ecsb_status ecsb_time_case(const ecsb_scenario_impl *impl, bool fresh, uint64_t n,
                           const ecsb_params *p, const ecsb_time_plan *plan, ecsb_time_result *r,
                           ecsb_time_watch watch, void *watch_ctx)
{
    *r = (ecsb_time_result){.status = ECSB_OK, .step = ""};
    ecsb_time_plan pl = *plan;
    if (pl.passes == 0)
        pl.passes = 1; /* a checksum needs a passed world */
    spans sp = {0};
    ecsb_status st = fresh ? time_fresh(impl, n, p, &pl, r, &sp, watch, watch_ctx)
                           : time_repeated(impl, n, p, &pl, r, &sp, watch, watch_ctx);
    free(sp.v);
    return st;
}
