/*
 * scenarios.c — every scenario, compiled against the strategy under test, reproduces the
 * floor's checksum exactly at every size, after one pass and after two (scenarios whose pass
 * consumes its set-up are prepared again before each pass, as the harness does). And the floor
 * itself matches a direct computation of what each scenario means, so strategy and floor
 * cannot agree on a wrong answer.
 */
#include <stdio.h>
#include <string.h>

#include "scenarios/common.h"
#include "tests/support.h"
#include "tests/suites.h"

const ecsb_scenario_id tst_scenario_ids[ECSB_SCENARIO_COUNT] = {
#define ECSB_SCENARIO(name, ...) ECSB_SCENARIO_##name,
#include "scenarios/scenarios.def"
#undef ECSB_SCENARIO
};

static const uint64_t sizes[] = {0, 1, 2, 3, 17, 4000, 65536};

/* Checksums after pass 1 and pass 2 of one implementation at size n. */
static void checksums(const ecsb_scenario_impl *impl, const ecsb_scenario_info *info, uint64_t n,
                      const char *who, uint64_t out[2])
{
    void *state = NULL;
    ecsb_status st = ECSB_OK;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 0 || info->consumes_setup) {
            if (state)
                impl->release(state);
            state = NULL;
            st = impl->prepare(&state, n);
            TST_CHECK(st == ECSB_OK && state, "%s %s prepare(n = %llu): %s", who, info->name,
                      (unsigned long long)n, ecsb_status_str(st));
        }
        st = impl->pass(state);
        if (st != ECSB_OK) {
            impl->release(state);
            TST_FAIL("%s %s pass %d (n = %llu): %s", who, info->name, pass + 1,
                     (unsigned long long)n, ecsb_status_str(st));
        }
        out[pass] = impl->checksum(state);
    }
    impl->release(state);
}

void scenario_checksum_equals_the_floor(void **state)
{
    ecsb_scenario_id id = *(const ecsb_scenario_id *)*state;
    const ecsb_scenario_info *info = &ecsb_scenarios[id];
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        uint64_t n = sizes[k], want[2], got[2];
        checksums(&ecsb_floor[id], info, n, "floor", want);
        checksums(&tst_strategy->scenarios[id], info, n, tst_strategy->name, got);
        for (int pass = 0; pass < 2; pass++)
            TST_CHECK(got[pass] == want[pass],
                      "%s at n = %llu: checksum after %d pass%s %016llx, floor %016llx",
                      info->name, (unsigned long long)n, pass + 1, pass ? "es" : "",
                      (unsigned long long)got[pass], (unsigned long long)want[pass]);
    }
}

/* ---- the floor against the scenarios' definitions ----------------------------------------- */

static uint64_t floor_checksum(ecsb_scenario_id id, uint64_t n, int passes)
{
    uint64_t out[2];
    checksums(&ecsb_floor[id], &ecsb_scenarios[id], n, "floor", out);
    return out[passes - 1];
}

/*
 * platformer: round r kills the newest remaining original (n - 1 - r), then the two spawns of
 * that round, mixing each one's hp before it dies; nothing is left at the end.
 */
void floor_platformer_checksum_matches_a_direct_computation(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        uint64_t n = sizes[k], h = ECSB_CHECKSUM_SEED;
        for (uint64_t r = 0; r < n; r++) {
            h = ecsb_mix(h, (uint32_t)platformer_original_hp(n - 1 - r));
            h = ecsb_mix(h, (uint32_t)platformer_spawn_hp(r, 0));
            h = ecsb_mix(h, (uint32_t)platformer_spawn_hp(r, 1));
        }
        h = ecsb_mix(h, 0);
        uint64_t got = floor_checksum(ECSB_SCENARIO_platformer, n, 1);
        TST_CHECK(got == h, "platformer floor at n = %llu: %016llx, direct %016llx",
                  (unsigned long long)n, (unsigned long long)got, (unsigned long long)h);
        TST_CHECK(floor_checksum(ECSB_SCENARIO_platformer, n, 2) == h,
                  "platformer floor at n = %llu: a second prepared pass differs",
                  (unsigned long long)n);
    }
}

/* dual_iterate: after p passes, a = a0 + p * 1.5 * b on odd entities, a0 elsewhere. */
void floor_dual_iterate_checksum_matches_a_direct_computation(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (int passes = 1; passes <= 2; passes++) {
            uint64_t n = sizes[k], h = ECSB_CHECKSUM_SEED;
            for (uint64_t i = 0; i < n; i++) {
                double a = dual_iterate_a0(i);
                for (int p = 0; p < passes && (i & 1); p++)
                    a += 1.5 * dual_iterate_b0(i);
                h = ecsb_mix(h, ecsb_double_bits(a));
            }
            h = ecsb_mix(h, n / 2);
            uint64_t got = floor_checksum(ECSB_SCENARIO_dual_iterate, n, passes);
            TST_CHECK(got == h, "dual_iterate floor at n = %llu after %d passes: %016llx, "
                      "direct %016llx", (unsigned long long)n, passes, (unsigned long long)got,
                      (unsigned long long)h);
        }
}
