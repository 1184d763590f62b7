/*
 * steady.c — `ecsbench steady <scenario> <strategy> <N> [older] [name=value ...]`: is the
 * world make bench times the steady one? Two worlds are built alike (the scenario's prepare);
 * the *young* one gets the warm-up make bench gives (ecsb_warmup_decide), the *old* one that
 * warm-up and `older` passes more (default 300). Then their passes are timed in turn, in blocks
 * of STEADY_BLOCK passes whose first is untimed (the world's data back in cache, as in make
 * bench, which times one world's passes back to back), in the order young, old, old, young,
 * ... (ABBA: a machine speeding up or slowing down through the check costs both alike),
 * STEADY_PAIRS pairs of blocks. Prints two lines:
 *   young=<seconds per pass> old=<seconds per pass> ratio=<old/young> pairs=<count> older=<K>
 *   young_checksum=<hex> old_checksum=<hex>
 * young and old are the medians of their blocks' times per pass; ratio is the median of the
 * pairs' ratios; the checksums are the worlds' at the end, those of `ecsbench run <same> P`
 * with P = pairs x STEADY_BLOCK and P = older + that (a test can tell that each world lived
 * what it says). A neighbour that slows the machine for a while slows both worlds of the
 * pairs it covers, so the ratio holds where two processes' times would not
 * (frame_steady_check.py reads it). A scenario whose pass consumes its set-up (a fresh world
 * each pass) has no age: exit 2.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "harness/machine.h"
#include "harness/runner.h"
#include "harness/steady.h"

static int steady_usage(const char *why)
{
    fprintf(stderr,
            "ecsbench: %s\nusage: ecsbench steady <scenario> <strategy> <N> [older] "
            "[name=value ...]\n  older: passes the old world lives beyond the warm-up, "
            "1..%u (default %u)\n",
            why, STEADY_MAX_OLDER, STEADY_DEFAULT_OLDER);
    return 2;
}

/* One block on a world: a pass untimed, then the rest timed; *seconds per timed pass. */
static ecsb_status timed_block(const ecsb_scenario_impl *impl, void *state, double *seconds)
{
    ecsb_status st = impl->pass(state);
    double t0 = ecsb_now();
    for (unsigned i = 1; i < STEADY_BLOCK && st == ECSB_OK; i++)
        st = impl->pass(state);
    *seconds = (ecsb_now() - t0) / (STEADY_BLOCK - 1);
    return st;
}

/* The young world, then the old one, then the pairs; *step names what failed. */
static ecsb_status measure(const ecsb_scenario_impl *impl, uint64_t n, const ecsb_params *p,
                           uint64_t warmup, uint64_t older, double *young, double *old,
                           double *ratio, uint64_t checksum[2], const char **step)
{
    void *world[2] = {NULL, NULL};
    double t[2][STEADY_PAIRS], r[STEADY_PAIRS];
    ecsb_status st = ECSB_OK;
    for (int w = 0; w < 2 && st == ECSB_OK; w++) {
        *step = "prepare";
        if ((st = impl->prepare(&world[w], n, p)) != ECSB_OK)
            break;
        *step = w == 0 ? "warm-up" : "aging the old world";
        uint64_t passes = warmup + (w == 1 ? older : 0);
        for (uint64_t i = 0; i < passes && st == ECSB_OK; i++)
            st = impl->pass(world[w]);
    }
    *step = "pass";
    for (size_t i = 0; i < STEADY_PAIRS && st == ECSB_OK; i++) {
        int first = (int)(i % 2); /* young, old | old, young | ... */
        st = timed_block(impl, world[first], &t[first][i]);
        if (st == ECSB_OK)
            st = timed_block(impl, world[1 - first], &t[1 - first][i]);
        if (st == ECSB_OK)
            r[i] = t[0][i] > 0 ? t[1][i] / t[0][i] : 1;
    }
    for (int w = 0; w < 2; w++)
        if (world[w]) {
            if (st == ECSB_OK)
                checksum[w] = impl->checksum(world[w]);
            impl->release(world[w]);
        }
    if (st != ECSB_OK)
        return st;
    *young = ecsb_spread_of(t[0], STEADY_PAIRS).median;
    *old = ecsb_spread_of(t[1], STEADY_PAIRS).median;
    *ratio = ecsb_spread_of(r, STEADY_PAIRS).median;
    return ECSB_OK;
}

int ecsb_cmd_steady(int argc, char **argv)
{
    if (argc < 5)
        return steady_usage("steady takes a scenario, a strategy and N");
    ecsb_scenario_id s = ecsb_scenario_find(argv[2]);
    if (s == ECSB_SCENARIO_COUNT)
        return steady_usage("unknown scenario (ecsbench list names them)");
    const ecsb_scenario_impl *impl = ecsb_impl_find(s, argv[3]);
    if (!impl)
        return steady_usage("unknown strategy (ecsbench list names them; floor and limit too)");
    if (ecsb_scenarios[s].consumes_setup)
        return steady_usage("this scenario builds a fresh world for every pass: its worlds have "
                            "no age to compare");
    uint64_t n, older = STEADY_DEFAULT_OLDER;
    if (!ecsb_parse_count(argv[4], ECSB_MAX_N, &n))
        return steady_usage("bad N: a decimal integer 1..16777216");
    int first_param = 5;
    if (argc > 5 && !strchr(argv[5], '=')) {
        if (!ecsb_parse_count(argv[5], STEADY_MAX_OLDER, &older))
            return steady_usage("bad older: a decimal integer 1..100000");
        first_param = 6;
    }
    ecsb_params p = ecsb_params_default(s);
    for (int i = first_param; i < argc; i++) {
        char err[512];
        if (!ecsb_params_set(s, argv[i], &p, err, sizeof err))
            return steady_usage(err);
    }
    ecsb_placement_seed(ECSB_DEFAULT_SEED); /* as run: checks are compared with each other */
    uint64_t warmup = ecsb_warmup_decide(s, n, &p).passes;
    double young = 0, old = 0, ratio = 0;
    uint64_t checksum[2] = {0, 0};
    const char *step = "";
    ecsb_status st = measure(impl, n, &p, warmup, older, &young, &old, &ratio, checksum, &step);
    if (st != ECSB_OK) {
        fprintf(stderr, "ecsbench: steady %s on %s at N=%" PRIu64 ": %s failed: %s\n", argv[2],
                argv[3], n, step, ecsb_status_str(st));
        return 1;
    }
    printf("young=%.9g old=%.9g ratio=%.4f pairs=%u older=%" PRIu64 "\n", young, old, ratio,
           STEADY_PAIRS, older);
    printf("young_checksum=%016" PRIx64 " old_checksum=%016" PRIx64 "\n", checksum[0],
           checksum[1]);
    return 0;
}
