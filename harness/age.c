/*
 * age.c — `ecsbench age <scenario> <strategy> <N> [name=value ...]`: how aged the world a
 * scenario's prepare builds on one strategy is (ecsb_world_look), one line:
 *   in_order=<fraction> pairs=<count> fingerprint=<16 hex digits>
 * in_order is the fraction of successive entities each type's query visits whose ids increase:
 * 1 when storage follows id order, about 0.5 when it follows none. A scenario whose pass
 * consumes its set-up and whose prepare leaves no entity (level_load) is looked at after one
 * pass: the world the pass loaded.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "harness/age.h"
#include "harness/runner.h"

static int age_usage(const char *why)
{
    fprintf(stderr, "ecsbench: %s\nusage: ecsbench age <scenario> <strategy> <N> "
                    "[name=value ...] (a registered strategy: the floor has no world)\n", why);
    return 2;
}

int ecsb_cmd_age(int argc, char **argv)
{
    if (argc < 5)
        return age_usage("age takes a scenario, a strategy and N");
    ecsb_scenario_id s = ecsb_scenario_find(argv[2]);
    const ecsb_strategy *st = ecsb_strategy_find(argv[3]);
    uint64_t n;
    if (s == ECSB_SCENARIO_COUNT)
        return age_usage("unknown scenario (ecsbench list names them)");
    if (!st)
        return age_usage("unknown strategy (ecsbench list names them)");
    if (!ecsb_parse_count(argv[4], ECSB_MAX_N, &n))
        return age_usage("bad N: a decimal integer 1..16777216");
    ecsb_params p = ecsb_params_default(s);
    for (int i = 5; i < argc; i++) {
        char err[512];
        if (!ecsb_params_set(s, argv[i], &p, err, sizeof err))
            return age_usage(err);
    }
    const ecsb_scenario_impl *impl = &st->scenarios[s];
    void *state = NULL;
    ecsb_status status = impl->prepare(&state, n, &p);
    ecsb_world_look look = {0};
    if (status == ECSB_OK) {
        st->look[s](state, &look);
        if (look.pairs == 0 && ecsb_scenarios[s].consumes_setup &&
            (status = impl->pass(state)) == ECSB_OK)
            st->look[s](state, &look);
    }
    if (state)
        impl->release(state);
    if (status != ECSB_OK) {
        fprintf(stderr, "ecsbench: age %s on %s at N=%" PRIu64 ": %s\n", argv[2], argv[3], n,
                ecsb_status_str(status));
        return 1;
    }
    printf("in_order=%.4f pairs=%" PRIu64 " fingerprint=%016" PRIx64 "\n", look.in_order,
           look.pairs, look.fingerprint);
    return 0;
}
