/*
 * scenarios.c — every scenario, compiled against the strategy under test, reproduces the
 * floor's checksum exactly at every size, after one pass and after two (scenarios whose pass
 * consumes its set-up are prepared again before each pass, as the harness does). The floor
 * and the limit match a direct computation of what each scenario means, so a strategy, floor
 * and limit cannot agree on a wrong answer. And every kind of mistake a storage can make,
 * injected into the test-only strategy `faulty`, changes the checksum (or fails the pass), so
 * a checksum cannot be reproduced by a strategy that did not do the work.
 */
#include <stdio.h>
#include <string.h>

#include "scenarios/common.h"
#include "scenarios/defs/churn_iterate.h"
#include "scenarios/defs/dual_iterate.h"
#include "scenarios/defs/entity_cycle.h"
#include "scenarios/defs/frag_iter.h"
#include "scenarios/defs/frame.h"
#include "scenarios/defs/level_load.h"
#include "scenarios/defs/move3.h"
#include "scenarios/defs/platformer.h"
#include "scenarios/defs/random_get.h"
#include "scenarios/defs/simple_iter.h"
#include "tests/faulty.h"
#include "tests/support.h"
#include "tests/suites.h"

const ecsb_scenario_id tst_scenario_ids[ECSB_SCENARIO_COUNT] = {
#define ECSB_SCENARIO(name, ...) ECSB_SCENARIO_##name,
#include "scenarios/scenarios.def"
#undef ECSB_SCENARIO
};

static const uint64_t sizes[] = {0, 1, 2, 3, 17, 4000, 65536};
#define SIZE_COUNT (sizeof sizes / sizeof sizes[0])

/*
 * The parameter sets a scenario is checked with: its defaults, each declared parameter at
 * each value of its default sweep (the others at their defaults), and the same in every other
 * world order the scenario takes (shuffled, aged), each set once (a sweep's default value in
 * the shuffled world is the shuffled world's defaults, listed already). Returns the count.
 */
static size_t param_sets(ecsb_scenario_id id, ecsb_params *out, size_t max)
{
    const ecsb_scenario_info *info = &ecsb_scenarios[id];
    size_t count = 0;
    out[count++] = ecsb_params_default(id);
    for (int order = 0; order <= (int)info->params[ECSB_PARAM_ORDER].max; order++)
        for (uint32_t i = order ? 1 : 0; i < info->param_count; i++)
            for (uint32_t k = 0; k < info->params[i].sweep_count && count < max; k++) {
                ecsb_params p = ecsb_params_default(id);
                p.v[ECSB_PARAM_ORDER] = order;
                p.v[i] = info->params[i].sweep[k];
                size_t seen = 0;
                while (seen < count && memcmp(&p, &out[seen], sizeof p) != 0)
                    seen++;
                if (seen == count)
                    out[count++] = p;
            }
    return count;
}

/* Checksums after pass 1 and pass 2 of one implementation at size n, parameters p. */
static void checksums_with(const ecsb_scenario_impl *impl, const ecsb_scenario_info *info,
                           uint64_t n, const ecsb_params *p, const char *who, uint64_t out[2])
{
    void *state = NULL;
    ecsb_status st = ECSB_OK;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 0 || info->consumes_setup) {
            if (state)
                impl->release(state);
            state = NULL;
            st = impl->prepare(&state, n, p);
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

/* The same with the scenario's default parameters. */
static void checksums(const ecsb_scenario_impl *impl, const ecsb_scenario_info *info, uint64_t n,
                      const char *who, uint64_t out[2])
{
    ecsb_params p = ecsb_params_default((ecsb_scenario_id)(info - ecsb_scenarios));
    checksums_with(impl, info, n, &p, who, out);
}

/* Whether p is scenario id's defaults in some world order (the order itself aside). */
static bool world_defaults(ecsb_scenario_id id, const ecsb_params *p)
{
    ecsb_params d = ecsb_params_default(id);
    d.v[ECSB_PARAM_ORDER] = p->v[ECSB_PARAM_ORDER];
    return memcmp(&d, p, sizeof d) == 0;
}

/*
 * The largest size parameter set p is checked at: 65,536 at the defaults (but CAPPED_SIZE),
 * 4000 at every other set, but less in frame's aged world away from its defaults. prepare
 * lives an aged frame world in by frame itself, frame_turnover_frames of them (about
 * 2 / churn: 200 at the default churn, 2000 at 0.001), twice per set (the floor's and the
 * strategy's): at 4000 those sets were 27 of flat_map's 36 s of CPU in this test. The aged
 * world at its defaults stays at 4000 with every other world. The churn sweep's aged sets
 * (churn is what changes the life) run at AGED_FRAME_CHURN_SIZE, where every churn but 0.001
 * (which rounds to no churn there, as churn 0 is everywhere) still turns the world over:
 * 0.003 at 1 death a frame, ~500 frames. The other parameters' aged sets (types, transform,
 * parented: the world's shape) at AGED_FRAME_SIZE: 1 death a frame, 150-300 frames.
 */
#define AGED_FRAME_CHURN_SIZE 1000
#define AGED_FRAME_SIZE 300
/* The largest size at the defaults where the strategy caps the scenario at 65,536 or under
 * (ECSB_STRATEGY_CAPS: its set-up is O(N^2) there, as flat_map's churn_iterate, where the
 * check at 65,536 took 16 s of CPU of this test, and its frame): make bench runs it up to the
 * cap, this test at 16,384 (the cost of an O(N^2) set-up / 16). */
#define CAPPED_SIZE 16384
static uint64_t largest_size(ecsb_scenario_id id, size_t set, const ecsb_params *p)
{
    if (set == 0) {
        const char *why;
        uint64_t cap = ecsb_strategy_cap(tst_strategy, id, p, &why);
        return cap && cap <= 65536 ? CAPPED_SIZE : UINT64_MAX;
    }
    if (id == ECSB_SCENARIO_frame && p->v[ECSB_PARAM_ORDER] == ECSB_ORDER_AGED &&
        !world_defaults(id, p)) {
        ecsb_params d = ecsb_params_default(id);
        return p->v[FRAME_CHURN] != d.v[FRAME_CHURN] ? AGED_FRAME_CHURN_SIZE : AGED_FRAME_SIZE;
    }
    return 4000;
}

/* Every size at the defaults (but CAPPED_SIZE); the smaller ones (up to 4000) at every other
 * parameter set (but AGED_FRAME_SIZE): largest_size. */
void scenario_checksum_equals_the_floor(void **state)
{
    ecsb_scenario_id id = *(const ecsb_scenario_id *)*state;
    const ecsb_scenario_info *info = &ecsb_scenarios[id];
    ecsb_params sets[64];
    size_t set_count = param_sets(id, sets, 64);
    for (size_t ps = 0; ps < set_count; ps++)
        for (size_t k = 0; k < SIZE_COUNT; k++) {
            uint64_t n = sizes[k], want[2], got[2], largest = largest_size(id, ps, &sets[ps]);
            if (n > largest) {
                if (k == 0 || sizes[k - 1] >= largest)
                    continue;
                n = largest; /* in place of the first size above it */
            }
            char text[128];
            ecsb_params_format(id, &sets[ps], false, " ", text, sizeof text);
            checksums_with(&ecsb_floor[id], info, n, &sets[ps], "floor", want);
            checksums_with(&tst_strategy->scenarios[id], info, n, &sets[ps], tst_strategy->name,
                           got);
            for (int pass = 0; pass < 2; pass++)
                TST_CHECK(got[pass] == want[pass],
                          "%s at n = %llu, %s: checksum after %d pass%s %016llx, floor %016llx "
                          "(replay: build/ecsbench run %s %s %llu %d %s)",
                          info->name, (unsigned long long)n, text, pass + 1, pass ? "es" : "",
                          (unsigned long long)got[pass], (unsigned long long)want[pass],
                          info->name, tst_strategy->name, (unsigned long long)n, pass + 1, text);
        }
}

/* ---- the floor and the limit against the scenarios' definitions -------------------------- */

/*
 * Check the floor (and the limit, when the scenario has one) at every size after 1 and 2
 * passes against direct(n, passes), a computation written from the scenario's definition.
 */
static void check_direct(ecsb_scenario_id id, uint64_t (*direct)(uint64_t n, int passes))
{
    const ecsb_scenario_info *info = &ecsb_scenarios[id];
    for (size_t k = 0; k < SIZE_COUNT; k++) {
        uint64_t n = sizes[k], floor[2], limit[2];
        checksums(&ecsb_floor[id], info, n, "floor", floor);
        if (ecsb_limit[id].prepare)
            checksums(&ecsb_limit[id], info, n, "limit", limit);
        for (int passes = 1; passes <= 2; passes++) {
            uint64_t want = direct(n, info->consumes_setup ? 1 : passes);
            TST_CHECK(floor[passes - 1] == want,
                      "%s floor at n = %llu after %d pass(es): %016llx, direct %016llx",
                      info->name, (unsigned long long)n, passes,
                      (unsigned long long)floor[passes - 1], (unsigned long long)want);
            TST_CHECK(!ecsb_limit[id].prepare || limit[passes - 1] == want,
                      "%s limit at n = %llu after %d pass(es): %016llx, direct %016llx",
                      info->name, (unsigned long long)n, passes,
                      (unsigned long long)limit[passes - 1], (unsigned long long)want);
        }
    }
}

static uint32_t u32_steps(uint32_t v, int passes)
{
    for (int p = 0; p < passes; p++)
        v = 3 * v + 1;
    return v;
}

/*
 * platformer: round r kills the newest remaining original (n - 1 - r), then the two spawns of
 * that round; kill number j adds its hp (as uint32) times 2j + 1; nothing is left at the end.
 */
static uint64_t platformer_direct(uint64_t n, int passes)
{
    (void)passes;
    uint64_t sum = 0;
    for (uint64_t r = 0; r < n; r++)
        sum += (uint32_t)platformer_original_hp(n - 1 - r) * (6 * r + 1) +
               (uint32_t)platformer_spawn_hp(r, 0) * (6 * r + 3) +
               (uint32_t)platformer_spawn_hp(r, 1) * (6 * r + 5);
    return ecsb_mix(ecsb_mix(ecsb_mix(ECSB_CHECKSUM_SEED, sum), 3 * n), 0);
}

/* dual_iterate (and churn_iterate): `a` of each position after the passes, in order, then the
 * visits and the holders of b. serial[i] names the values position i holds. */
static uint64_t dual_iterate_fold(uint64_t n, int passes, const uint64_t *serial)
{
    uint64_t h = ECSB_CHECKSUM_SEED;
    for (uint64_t i = 0; i < n; i++) {
        double a = dual_iterate_a0(serial[i]);
        for (int p = 0; p < passes && (i & 1); p++)
            a += 1.5 * dual_iterate_b0(serial[i]);
        h = ecsb_mix(h, ecsb_double_bits(a));
    }
    return ecsb_mix(ecsb_mix(h, (uint64_t)passes * (n / 2)), n / 2);
}

static uint64_t *serials(uint64_t n)
{
    uint64_t *serial = malloc((n ? n : 1) * sizeof *serial);
    TST_CHECK(serial != NULL, "out of memory");
    for (uint64_t i = 0; i < n; i++)
        serial[i] = i;
    return serial;
}

static uint64_t dual_iterate_direct(uint64_t n, int passes)
{
    uint64_t *serial = serials(n);
    uint64_t h = dual_iterate_fold(n, passes, serial);
    free(serial);
    return h;
}

/* churn_iterate: round r gives the position it picks the values of serial n + r. */
static uint64_t churn_iterate_direct(uint64_t n, int passes)
{
    uint64_t *serial = serials(n);
    ecsb_rng rng = {CHURN_ITERATE_SEED};
    for (uint64_t r = 0; r < n; r++)
        serial[churn_iterate_position(&rng, n)] = n + r;
    uint64_t h = dual_iterate_fold(n, passes, serial);
    free(serial);
    return h;
}

/* packed_1 / packed_5: the first `updated` types stepped once per pass; all five read. */
static uint64_t packed_direct(uint64_t n, int passes, uint32_t updated)
{
    uint64_t h = ECSB_CHECKSUM_SEED;
    for (uint64_t i = 0; i < n; i++)
        for (uint32_t t = 0; t < 5; t++)
            h = ecsb_mix(h, u32_steps(ecsb_u32_start(t, i), t < updated ? passes : 0));
    return ecsb_mix(h, (uint64_t)passes * updated * n);
}

static uint64_t packed_1_direct(uint64_t n, int passes) { return packed_direct(n, passes, 1); }
static uint64_t packed_5_direct(uint64_t n, int passes) { return packed_direct(n, passes, 5); }

/* simple_iter: per pass, (A,B) swap-update on every entity, (C,D) on kind 2, (C,E) on kind 3. */
static uint64_t simple_iter_direct(uint64_t n, int passes)
{
    static const uint32_t holds[4] = {0x3, 0x7, 0xf, 0x17};
    uint64_t h = ECSB_CHECKSUM_SEED, visits = 0;
    for (uint64_t i = 0; i < n; i++) {
        unsigned kind = (unsigned)(i % 4);
        uint32_t v[5];
        for (uint32_t t = 0; t < 5; t++)
            v[t] = ecsb_u32_start(t, i);
        for (int p = 0; p < passes; p++) {
            uint32_t x = v[0];
            v[0] = 3 * v[1] + 1;
            v[1] = 3 * x + 1;
            visits++;
            if (kind >= 2) {
                uint32_t other = kind == 2 ? 3 : 4; /* (C,D) or (C,E) */
                x = v[2];
                v[2] = 3 * v[other] + 1;
                v[other] = 3 * x + 1;
                visits++;
            }
        }
        for (uint32_t t = 0; t < 5; t++)
            h = ecsb_mix(h, holds[kind] >> t & 1 ? v[t] : ECSB_ABSENT);
    }
    return ecsb_mix(h, visits);
}

/* frag_iter: entity i holds T(i % 26) and Data; Data and T25 stepped once per pass. */
static uint64_t frag_iter_direct(uint64_t n, int passes)
{
    uint64_t h = ECSB_CHECKSUM_SEED, visits = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint32_t kind = (uint32_t)(i % 26);
        visits += (uint64_t)passes * (kind == 25 ? 2 : 1);
        for (uint32_t t = 0; t < 27; t++)
            h = ecsb_mix(h, t == 26     ? u32_steps(ecsb_u32_start(t, i), passes)
                            : t == kind ? u32_steps(ecsb_u32_start(t, i), kind == 25 ? passes : 0)
                                        : ECSB_ABSENT);
    }
    return ecsb_mix(h, visits);
}

/* entity_cycle: per pass, every A spawns B = 3A + 1 and 3A + 2, all summed as they die. */
static uint64_t entity_cycle_direct(uint64_t n, int passes)
{
    uint64_t h = ECSB_CHECKSUM_SEED, sum = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint32_t a = ecsb_u32_start(0, i);
        sum += (uint64_t)passes * ((uint32_t)(3 * a + 1) + (uint64_t)(uint32_t)(3 * a + 2));
        h = ecsb_mix(ecsb_mix(h, a), ECSB_ABSENT);
    }
    h = ecsb_mix(ecsb_mix(h, sum), (uint64_t)passes * 3 * n);
    return ecsb_mix(h, n);
}

/* add_remove: A unchanged, B absent again, 2N operations per pass. */
static uint64_t add_remove_direct(uint64_t n, int passes)
{
    uint64_t h = ECSB_CHECKSUM_SEED;
    for (uint64_t i = 0; i < n; i++)
        h = ecsb_mix(ecsb_mix(h, ecsb_u32_start(0, i)), ECSB_ABSENT);
    return ecsb_mix(h, (uint64_t)passes * 2 * n);
}

/* random_get: lookup k reads entity perm[k]'s a and (odd entities) b, each weighted 2k + 1. */
static uint64_t random_get_direct(uint64_t n, int passes)
{
    uint32_t *perm = malloc((n ? n : 1) * sizeof *perm);
    TST_CHECK(perm != NULL, "out of memory");
    ecsb_permutation(perm, n, RANDOM_GET_SEED);
    uint64_t sum_a = 0, sum_b = 0, found = 0;
    for (uint64_t k = 0; k < n; k++) {
        sum_a += ecsb_double_bits(dual_iterate_a0(perm[k])) * (2 * k + 1);
        found++;
        if (perm[k] & 1) {
            sum_b += (uint32_t)dual_iterate_b0(perm[k]) * (2 * k + 1);
            found++;
        }
    }
    free(perm);
    return ecsb_mix(ecsb_mix(ecsb_mix(ECSB_CHECKSUM_SEED, passes * sum_a), passes * sum_b),
                    passes * found);
}

/* move3: entities with i % 4 == 0 hold mass; their pos moves by vel * mass per pass. */
static uint64_t move3_direct(uint64_t n, int passes)
{
    uint64_t h = ECSB_CHECKSUM_SEED, visits = 0;
    for (uint64_t i = 0; i < n; i++) {
        move3_vec pos = move3_pos0(i), vel = move3_vel0(i);
        float mass = move3_mass0(i);
        for (int p = 0; p < passes && i % 4 == 0; p++, visits++)
            for (int c = 0; c < 3; c++) {
                float dv = vel.v[c] * mass;
                pos.v[c] += dv;
            }
        for (int c = 0; c < 3; c++)
            h = ecsb_mix(h, ecsb_float_bits(pos.v[c]));
        for (int c = 0; c < 3; c++)
            h = ecsb_mix(h, ecsb_float_bits(vel.v[c]));
        h = ecsb_mix(h, i % 4 == 0 ? ecsb_float_bits(mass) : ECSB_ABSENT);
    }
    return ecsb_mix(h, visits);
}

/* level_load: A and B on all, C on odd entities, D on those with i % 4 == 3; N live. */
static uint64_t level_load_direct(uint64_t n, int passes)
{
    (void)passes;
    uint64_t h = ECSB_CHECKSUM_SEED;
    for (uint64_t i = 0; i < n; i++)
        for (uint32_t t = 0; t < 4; t++) {
            bool held = t < 2 || (t == 2 && i % 2 == 1) || (t == 3 && i % 4 == 3);
            h = ecsb_mix(h, held ? ecsb_u32_start(t, i) : ECSB_ABSENT);
        }
    return ecsb_mix(h, n);
}

#define DIRECT_TEST(name)                                                                      \
    void floor_##name##_checksum_matches_a_direct_computation(void **state)                    \
    {                                                                                          \
        (void)state;                                                                           \
        check_direct(ECSB_SCENARIO_##name, name##_direct);                                     \
    }
DIRECT_TEST(platformer)
DIRECT_TEST(dual_iterate)
DIRECT_TEST(packed_1)
DIRECT_TEST(packed_5)
DIRECT_TEST(simple_iter)
DIRECT_TEST(frag_iter)
DIRECT_TEST(entity_cycle)
DIRECT_TEST(add_remove)
DIRECT_TEST(random_get)
DIRECT_TEST(move3)
DIRECT_TEST(churn_iterate)
DIRECT_TEST(level_load)

/* Exactly the scenarios whose floor moves more than a packed layout of the matches have one. */
void limit_exists_where_a_layout_can_move_less_than_the_floor(void **state)
{
    (void)state;
    for (int id = 0; id < ECSB_SCENARIO_COUNT; id++) {
        bool want = id == ECSB_SCENARIO_dual_iterate || id == ECSB_SCENARIO_churn_iterate ||
                    id == ECSB_SCENARIO_simple_iter || id == ECSB_SCENARIO_move3;
        const ecsb_scenario_impl *l = &ecsb_limit[id];
        bool complete = l->prepare && l->pass && l->checksum && l->release && l->memory;
        bool empty = !l->prepare && !l->pass && !l->checksum && !l->release && !l->memory;
        TST_CHECK(want ? complete : empty, "%s: limit %s", ecsb_scenarios[id].name,
                  want ? "missing or incomplete" : "present, but its header says none");
    }
}

/*
 * No starting value is 0 (a visit that skips or doubles an update of 0, or reads zeroed memory
 * in its place, would leave no trace), up to the largest sweep size 4,194,304 (twice that for
 * the serials churn_iterate hands out).
 */
void scenario_starting_values_are_never_zero(void **state)
{
    (void)state;
    const uint64_t largest = 4194304;
    for (uint64_t i = 0; i < 2 * largest; i++) {
        TST_CHECK(dual_iterate_a0(i) != 0 && dual_iterate_b0(i) != 0,
                  "dual_iterate's values of serial %llu: a %g, b %d", (unsigned long long)i,
                  dual_iterate_a0(i), dual_iterate_b0(i));
        if (i >= largest)
            continue;
        TST_CHECK(platformer_original_hp(i) != 0 && platformer_spawn_hp(i, 0) != 0 &&
                      platformer_spawn_hp(i, 1) != 0,
                  "platformer's hp %llu is 0", (unsigned long long)i);
        for (uint32_t t = 0; t < ECSB_MAX_TYPES; t++)
            TST_CHECK(ecsb_u32_start(t, i) != 0, "u32 value of type %u on entity %llu is 0",
                      (unsigned)t, (unsigned long long)i);
        move3_vec pos = move3_pos0(i), vel = move3_vel0(i);
        for (int c = 0; c < 3; c++)
            TST_CHECK(pos.v[c] != 0 && vel.v[c] != 0 && move3_mass0(i) != 0,
                      "move3's values of entity %llu: a 0", (unsigned long long)i);
    }
}

/*
 * frame's world at its defaults looks like a game's: 24 types, each rare one held by some but
 * under 1 % of the entities, most entities holding 7 to 11 types; half the actors are
 * children 1 to 3 levels deep, each parent one level up and at a lower slot (so slot order is
 * depth order, the floor's); and a frame's births alternate actors and bullets (each one of
 * the kill list born exactly once, parents before children), so ids freed by one kind go to
 * the other.
 */
void scenario_frame_world_has_rare_types_a_scene_graph_and_births_that_mix_kinds(void **state)
{
    (void)state;
    const uint64_t n = 65536;
    ecsb_params p = ecsb_params_default(ECSB_SCENARIO_frame);
    frame_world_shape sh = frame_shape(n, &p);
    TST_CHECK(sh.types == 24 && sh.commons == 4 && sh.rares == 5 && sh.floats == 16,
              "frame's defaults: %u types (%u common, %u rare), %u transform floats",
              sh.types, sh.commons, sh.rares, sh.floats);
    uint64_t held[ECSB_MAX_TYPES] = {0}, typical = 0, children = 0, levels[FRAME_DEPTH + 1] = {0};
    for (uint64_t slot = 0; slot < n; slot++) {
        bool actor = slot < sh.actors;
        uint32_t depth = frame_depth(&sh, slot);
        uint32_t count = 7 + (actor && frame_born_burning(slot)) + (actor && frame_has_target(slot)) +
                         2 * (depth > 0) + frame_hidden(slot);
        levels[depth]++;
        if (depth) {
            uint64_t parent = frame_parent_slot(&sh, slot, depth);
            children++;
            TST_CHECK(actor && parent < slot && frame_depth(&sh, parent) == depth - 1,
                      "slot %llu (depth %u): parent %llu at depth %u", (unsigned long long)slot,
                      depth, (unsigned long long)parent, frame_depth(&sh, parent));
        }
        for (uint32_t r = 0; r < sh.rares; r++)
            if (frame_holds_rare(slot, r)) {
                held[r]++;
                count++;
            }
        typical += count >= 7 && count <= 11;
    }
    for (uint32_t r = 0; r < sh.rares; r++)
        TST_CHECK(held[r] > 0 && held[r] * 100 < n, "rare type %u held by %llu of %llu", r,
                  (unsigned long long)held[r], (unsigned long long)n);
    TST_CHECK(typical * 10 >= n * 9, "only %llu of %llu entities hold 7 to 11 types",
              (unsigned long long)typical, (unsigned long long)n);
    TST_CHECK(children * 2 == sh.actors && levels[1] > 0 && levels[2] > 0 && levels[3] > 0,
              "frame's scene graph: %llu children of %llu actors, by depth %llu %llu %llu",
              (unsigned long long)children, (unsigned long long)sh.actors,
              (unsigned long long)levels[1], (unsigned long long)levels[2], (unsigned long long)levels[3]);
    /* frame 0's kill list: the due roots, then their subtrees, parents first */
    frame_tree tree = {0};
    TST_CHECK(frame_tree_build(&tree, &sh), "out of memory");
    uint8_t *dead = calloc(n, 1), *listed = calloc(n, 1);
    uint32_t *kill = calloc(sh.actors, sizeof *kill);
    TST_CHECK(dead && listed && kill, "out of memory");
    uint64_t missed = 0;
    for (uint64_t j = 0; j < sh.deaths; j++)
        dead[frame_death_slot(&sh, 0, j)] = 1;
    uint64_t kills = frame_kill_list(&sh, &tree, 0, dead, kill, &missed);
    TST_CHECK(missed == 0 && kills > sh.deaths, "%llu roots due, %llu killed, %llu missed",
              (unsigned long long)sh.deaths, (unsigned long long)kills, (unsigned long long)missed);
    for (uint64_t k = 0; k < kills; k++) {
        uint32_t depth = frame_depth(&sh, kill[k]);
        TST_CHECK(!listed[kill[k]]++ && (depth == 0 || listed[frame_parent_slot(&sh, kill[k], depth)]),
                  "kill list entry %llu: slot %u listed twice or before its parent",
                  (unsigned long long)k, kill[k]);
    }
    for (uint64_t c = sh.roots; c < sh.actors; c++) /* every child of a killed parent is killed */
        TST_CHECK(!listed[frame_parent_slot(&sh, c, frame_depth(&sh, c))] || listed[c],
                  "slot %llu outlives its parent", (unsigned long long)c);
    uint8_t seen[2][4096] = {{0}};
    TST_CHECK(sh.fired <= 4096 && kills <= 4096, "frame's shape: %llu killed, %llu fired",
              (unsigned long long)kills, (unsigned long long)sh.fired);
    bool last = true;
    for (uint64_t k = 0, j; k < 2 * (kills < sh.fired ? kills : sh.fired); k++) {
        bool bullet = frame_birth(&sh, kills, k, &j);
        TST_CHECK(j < 4096 && !seen[bullet][j]++, "birth %llu: %s %llu twice", (unsigned long long)k,
                  bullet ? "bullet" : "actor", (unsigned long long)j);
        TST_CHECK(bullet != last, "births %llu and %llu are of the same kind",
                  (unsigned long long)k - 1, (unsigned long long)k);
        last = bullet;
    }
    for (uint64_t k = 2 * (kills < sh.fired ? kills : sh.fired), j; k < kills + sh.fired; k++) {
        bool bullet = frame_birth(&sh, kills, k, &j);
        TST_CHECK(j < 4096 && !seen[bullet][j]++, "birth %llu: %s %llu twice", (unsigned long long)k,
                  bullet ? "bullet" : "actor", (unsigned long long)j);
    }
    free(dead);
    free(listed);
    free(kill);
    frame_tree_free(&tree);
}

/* ---- injected mistakes change every checksum ---------------------------------------------- */

#define F(kind) (1u << TST_FAULT_##kind)
#define VISIT_FAULTS (F(VISIT_MISS) | F(VISIT_DOUBLE) | F(VISIT_EXTRA) | F(VISIT_SWAP) | F(VISIT_LOSE))
#define GET_FAULTS (F(GET_MISS) | F(GET_EXTRA) | F(GET_SWAP) | F(GET_LOSE))

/*
 * The mistakes each scenario's pass gives `faulty` a chance to make (at n = 17 or 300): the
 * kinds its operations allow (a one-type query has no pair to swap, an entity holding one
 * type has no other value to lose, a pass whose every get hits has no miss to fake, a query
 * not asking for handles has none to hand wrong).
 */
static const uint32_t exposed[ECSB_SCENARIO_COUNT] = {
    [ECSB_SCENARIO_platformer] = F(GET_MISS) | F(GET_SWAP) | F(GET_LOSE) | F(ADD_MISS) |
                                 F(REMOVE_MISS) | F(DESTROY_MISS),
    [ECSB_SCENARIO_dual_iterate] = VISIT_FAULTS,
    [ECSB_SCENARIO_packed_1] = F(VISIT_MISS) | F(VISIT_DOUBLE) | F(VISIT_LOSE),
    [ECSB_SCENARIO_packed_5] = F(VISIT_MISS) | F(VISIT_DOUBLE) | F(VISIT_LOSE),
    [ECSB_SCENARIO_simple_iter] = VISIT_FAULTS,
    [ECSB_SCENARIO_frag_iter] = F(VISIT_MISS) | F(VISIT_DOUBLE) | F(VISIT_EXTRA) | F(VISIT_LOSE),
    [ECSB_SCENARIO_entity_cycle] = F(VISIT_MISS) | F(VISIT_DOUBLE) | F(VISIT_EXTRA) |
                                   F(VISIT_LOSE) | F(VISIT_HANDLE) | F(ADD_MISS) |
                                   F(DESTROY_MISS),
    [ECSB_SCENARIO_add_remove] = F(ADD_MISS) | F(ADD_LOSE) | F(REMOVE_MISS) | F(REMOVE_LOSE),
    [ECSB_SCENARIO_random_get] = GET_FAULTS,
    [ECSB_SCENARIO_move3] = VISIT_FAULTS,
    [ECSB_SCENARIO_churn_iterate] = VISIT_FAULTS,
    [ECSB_SCENARIO_level_load] = F(ADD_MISS), /* spawns: no value written yet to lose */
    [ECSB_SCENARIO_frame] = VISIT_FAULTS | F(VISIT_EXCLUDED) | GET_FAULTS | F(ADD_MISS) |
                            F(ADD_LOSE) | F(REMOVE_MISS) | F(REMOVE_LOSE) | F(DESTROY_MISS) |
                            F(TAG_LOSE),
};

/*
 * Mistakes that are no mistake for a scenario: what it computes cannot depend on them.
 * platformer removes hp and then destroys the entity, which drops the hp anyway.
 */
static const uint32_t harmless[ECSB_SCENARIO_COUNT] = {
    [ECSB_SCENARIO_platformer] = F(REMOVE_MISS),
};

typedef struct faulty_run {
    ecsb_status status; /* of prepare, then of the pass */
    uint64_t checksum;
    uint64_t opportunities_of[TST_FAULT_COUNT]; /* with no fault armed: of every kind */
    bool applied;
} faulty_run;

/* One pass of scenario `id` on faulty at size n and parameters p, with `fault` armed at `at`
 * during the pass; TST_FAULT_NONE: a correct pass that counts every kind's opportunities
 * (one pass for what took one per kind). (Forking a prepared world for each mistake instead
 * of preparing it again cost more: ~20 ms of system time a fork under the sanitizers.) */
static faulty_run run_faulty(ecsb_scenario_id id, uint64_t n, const ecsb_params *p,
                             tst_fault fault, uint64_t at)
{
    const ecsb_scenario_impl *impl = &ecsb_strategy_faulty.scenarios[id];
    faulty_run r = {0};
    void *state = NULL;
    tst_fault_disarm();
    if ((r.status = impl->prepare(&state, n, p)) != ECSB_OK)
        return r;
    if (fault == TST_FAULT_NONE)
        tst_fault_count_all();
    else
        tst_fault_arm(fault, at);
    r.status = impl->pass(state);
    for (tst_fault f = TST_FAULT_NONE; f < TST_FAULT_COUNT; f++)
        r.opportunities_of[f] = tst_fault_opportunities_of(f);
    r.applied = tst_fault_applied();
    tst_fault_disarm();
    if (r.status == ECSB_OK)
        r.checksum = impl->checksum(state);
    impl->release(state);
    return r;
}

#define FAULT_POSITIONS 100u /* opportunities tried per mistake kind and size, at most */
/* ... and with each further parameter set: its worlds are what differs, not the positions in a
 * pass (frame's aged world is lived in for 200 frames in every prepare: 100 positions of each
 * mistake took over 300 s of CPU under the sanitizers) */
#define FAULT_POSITIONS_PER_SET 4u
/* frame's aged world away from its defaults: every prepare lives it in for
 * frame_turnover_frames (158 frames at N = 300, 104 at 200: 1 root dies a frame either way,
 * and the same churn values round to none), each set ~80 prepares at 4 positions; at 300
 * these sets were 21 of this test's 25 s of CPU. They run at 200, each mistake at its first
 * and last opportunity. */
#define AGED_FRAME_FAULT_SIZE 200u
#define AGED_FRAME_FAULT_POSITIONS 2u

/*
 * Each mistake kind at up to FAULT_POSITIONS opportunities, at N = 17 and 300 with the default
 * parameters, and at up to FAULT_POSITIONS_PER_SET at N = 300 with every other parameter set
 * (param_sets; frame's aged world away from its defaults: AGED_FRAME_FAULT_*).
 */
static void injected_mistakes_change_the_checksum(ecsb_scenario_id id)
{
    static const uint64_t fault_sizes[] = {17, 300};
    const char *name = ecsb_scenarios[id].name;
    uint32_t applied = 0;
    ecsb_params sets[64];
    size_t set_count = param_sets(id, sets, 64);
    for (size_t run = 0; run < 2 + (set_count - 1); run++) {
        size_t s = run < 2 ? run : 1;
        const ecsb_params *p = &sets[run < 2 ? 0 : run - 1];
        uint64_t n = fault_sizes[s], want[2];
        uint64_t most = run < 2 ? FAULT_POSITIONS : FAULT_POSITIONS_PER_SET;
        if (run >= 2 && id == ECSB_SCENARIO_frame && p->v[ECSB_PARAM_ORDER] == ECSB_ORDER_AGED &&
            !world_defaults(id, p)) {
            n = AGED_FRAME_FAULT_SIZE;
            most = AGED_FRAME_FAULT_POSITIONS;
        }
        checksums_with(&ecsb_floor[id], &ecsb_scenarios[id], n, p, "floor", want);
        faulty_run clean = run_faulty(id, n, p, TST_FAULT_NONE, 0); /* counts every kind */
        TST_CHECK(clean.status == ECSB_OK && clean.checksum == want[0],
                  "%s at n = %llu: faulty with no mistake armed: %s, checksum %016llx, floor "
                  "%016llx", name, (unsigned long long)n, ecsb_status_str(clean.status),
                  (unsigned long long)clean.checksum, (unsigned long long)want[0]);
        for (tst_fault f = TST_FAULT_NONE + 1; f < TST_FAULT_COUNT; f++) {
            /* Every opportunity, or FAULT_POSITIONS of them evenly spread, first and last in. */
            uint64_t count = clean.opportunities_of[f];
            uint64_t tries = count < most ? count : most;
            for (uint64_t k = 0; k < tries; k++) {
                uint64_t at = tries == 1 ? 0 : k * (count - 1) / (tries - 1);
                faulty_run r = run_faulty(id, n, p, f, at);
                if (!r.applied)
                    continue;
                applied |= 1u << f;
                TST_CHECK(r.status != ECSB_OK || r.checksum != want[0] || (harmless[id] >> f & 1),
                          "%s at n = %llu: %s (opportunity %llu of %llu) left the checksum "
                          "unchanged", name, (unsigned long long)n, tst_fault_name(f),
                          (unsigned long long)at, (unsigned long long)count);
            }
        }
    }
    for (tst_fault f = TST_FAULT_NONE + 1; f < TST_FAULT_COUNT; f++)
        TST_CHECK((applied >> f & 1) == (exposed[id] >> f & 1),
                  "%s: %s was %s; the table of mistakes its pass exposes says otherwise", name,
                  tst_fault_name(f), applied >> f & 1 ? "injected" : "never injected");
}

#define FAULT_TEST(name)                                                                       \
    void injected_mistakes_change_the_##name##_checksum(void **state)                          \
    {                                                                                          \
        (void)state;                                                                           \
        injected_mistakes_change_the_checksum(ECSB_SCENARIO_##name);                           \
    }
FAULT_TEST(platformer)
FAULT_TEST(dual_iterate)
FAULT_TEST(packed_1)
FAULT_TEST(packed_5)
FAULT_TEST(simple_iter)
FAULT_TEST(frag_iter)
FAULT_TEST(entity_cycle)
FAULT_TEST(add_remove)
FAULT_TEST(random_get)
FAULT_TEST(move3)
FAULT_TEST(churn_iterate)
FAULT_TEST(level_load)
FAULT_TEST(frame)

/* ---- repeated passes: no lazy structures -------------------------------------------------- */

/* Counts every allocation and free of the scenarios' worlds; the memory is the C library's. */
static size_t counted_calls;

static void *counting_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    counted_calls++;
    return ecsb_libc_allocator.realloc(ctx, ptr, old_size, new_size);
}

static void counting_free(void *ctx, void *ptr, size_t size)
{
    counted_calls++;
    ecsb_libc_allocator.free(ctx, ptr, size);
}

static const ecsb_allocator counting_allocator = {counting_realloc, counting_free, NULL};

/*
 * The rule the harness relies on: structures for declared queries are built in add/remove/
 * destroy, never lazily in a timed pass (repetitions would hide their cost). So a pass of a
 * scenario that changes no structure makes no allocation through the world's allocator and
 * leaves world_bytes as it was, the first pass as much as the second.
 */
void scenario_passes_that_change_no_structure_allocate_nothing(void **state)
{
    (void)state;
    static const uint64_t ns[] = {17, 5000};
    for (int id = 0; id < ECSB_SCENARIO_COUNT; id++) {
        const ecsb_scenario_info *info = &ecsb_scenarios[id];
        if (info->changes_structure)
            continue;
        const ecsb_scenario_impl *impl = &tst_strategy->scenarios[id];
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
            void *st = NULL;
            ecsb_scenario_allocator = &counting_allocator;
            ecsb_params defaults = ecsb_params_default((ecsb_scenario_id)id);
            ecsb_status s = impl->prepare(&st, ns[k], &defaults);
            if (s != ECSB_OK) {
                ecsb_scenario_allocator = NULL;
                TST_FAIL("%s prepare(n = %llu): %s", info->name, (unsigned long long)ns[k],
                         ecsb_status_str(s));
            }
            uint64_t bytes0, bytes1, entities;
            impl->memory(st, &bytes0, &entities);
            size_t calls = counted_calls;
            for (int pass = 0; pass < 2 && s == ECSB_OK; pass++)
                s = impl->pass(st);
            size_t during = counted_calls - calls;
            impl->memory(st, &bytes1, &entities);
            impl->release(st);
            ecsb_scenario_allocator = NULL;
            TST_CHECK(s == ECSB_OK, "%s pass (n = %llu): %s", info->name,
                      (unsigned long long)ns[k], ecsb_status_str(s));
            TST_CHECK(during == 0 && bytes0 == bytes1,
                      "%s at n = %llu: two passes made %zu allocator calls and world_bytes went "
                      "%llu -> %llu; a pass that changes no structure must allocate nothing "
                      "(build query structures in add/remove, not lazily)",
                      info->name, (unsigned long long)ns[k], during,
                      (unsigned long long)bytes0, (unsigned long long)bytes1);
        }
    }
}
