/* run.c — one scenario on one implementation, timed pass by pass with CLOCK_MONOTONIC. */
#define _POSIX_C_SOURCE 200809L
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

const ecsb_scenario_impl *ecsb_impl_find(ecsb_scenario_id s, const char *strategy)
{
    if ((unsigned)s >= ECSB_SCENARIO_COUNT || !strategy)
        return NULL;
    if (strcmp(strategy, ECSB_FLOOR_NAME) == 0)
        return &ecsb_floor[s];
    const ecsb_strategy *st = ecsb_strategy_find(strategy);
    return st ? &st->scenarios[s] : NULL;
}

static ecsb_status fail(ecsb_run_result *r, ecsb_status status, const char *step)
{
    r->status = status;
    r->step = step;
    return status;
}

ecsb_status ecsb_run_scenario(const ecsb_scenario_impl *impl, ecsb_scenario_id s, uint64_t n,
                              uint64_t passes, ecsb_run_result *r)
{
    *r = (ecsb_run_result){.status = ECSB_OK, .step = ""};
    if (passes == 0)
        passes = 1; /* a checksum needs a prepared state */
    const bool fresh_each_pass = ecsb_scenarios[s].consumes_setup;
    void *state = NULL;
    ecsb_status st;
    for (uint64_t p = 0; p < passes; p++) {
        if (p == 0 || fresh_each_pass) {
            if (state)
                impl->release(state);
            state = NULL;
            if ((st = impl->prepare(&state, n)) != ECSB_OK) {
                if (state)
                    impl->release(state);
                return fail(r, st, "prepare");
            }
        }
        double t0 = ecsb_now();
        st = impl->pass(state);
        r->seconds += ecsb_now() - t0;
        if (st != ECSB_OK) {
            impl->release(state);
            return fail(r, st, "pass");
        }
    }
    r->checksum = impl->checksum(state);
    impl->release(state);
    return ECSB_OK;
}
