/*
 * scenarios.c — the scenario table: names, summaries, parameters, and items per pass (the
 * time unit); parsing and printing parameter values.
 *
 * Adding a parameter to a scenario: declare it in the scenario's *_params[] below (name,
 * meaning, default = the value that reproduces the scenario as it was, range, default sweep),
 * give its index a name beside the scenario's helpers in scenarios/common.h, read it from the
 * `p` its body, floor and limit get in prepare (p->v[index]), and make items_per_pass follow
 * it. Every scenario takes order=regular|shuffled|aged (ORDER_ALL, parameter 0): a new one's
 * body, floor and limit take creation order, membership and removal order from
 * ecsb_world_order, and its body lives an aged world through scenario_populate or scenario_age
 * (scenarios/body.h; dual_iterate shows how).
 * tests/scenarios.c checks every strategy against the floor at non-default values.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/ecsb.h"
#include "scenarios/common.h"
#include "scenarios/defs/add_remove.h"
#include "scenarios/defs/dual_iterate.h"
#include "scenarios/defs/frag_iter.h"
#include "scenarios/defs/frame.h"
#include "scenarios/defs/move3.h"
#include "scenarios/defs/simple_iter.h"

/* platformer: N rounds of 2 adds + 3 removes. */
static uint64_t platformer_items(uint64_t n, const ecsb_params *p) { (void)p; return 5 * n; }
/* dual_iterate: the odd ids hold both types. */
static uint64_t dual_iterate_items(uint64_t n, const ecsb_params *p)
{
    return dual_iterate_holders(n, p->v[DUAL_ITERATE_MATCH]);
}
/* packed_1: every A; packed_5: every A, B, C, D and E. */
static uint64_t packed_1_items(uint64_t n, const ecsb_params *p) { (void)p; return n; }
static uint64_t packed_5_items(uint64_t n, const ecsb_params *p) { (void)p; return 5 * n; }
/* simple_iter: (A,B) matches every entity, (C,D) and (C,E) one kind each. */
static uint64_t simple_iter_items(uint64_t n, const ecsb_params *p)
{
    (void)p; /* the same counts in both orders */
    return n + simple_iter_of_kind(n, 2) + simple_iter_of_kind(n, 3);
}
/* frag_iter: every Data, then the holders of T25 (every 26th entity). */
static uint64_t frag_iter_items(uint64_t n, const ecsb_params *p) { return n + frag_iter_lasts(n, frag_iter_kinds(p)); }
/* entity_cycle: 2N created, 2N destroyed. */
static uint64_t entity_cycle_items(uint64_t n, const ecsb_params *p) { (void)p; return 4 * n; }
/* add_remove: N adds, N removes. */
static uint64_t add_remove_items(uint64_t n, const ecsb_params *p) { (void)p; return 2 * n; }
/* random_get: two lookups per entity. */
static uint64_t random_get_items(uint64_t n, const ecsb_params *p) { (void)p; return 2 * n; }
/* move3: every 4th entity holds mass. */
static uint64_t move3_items(uint64_t n, const ecsb_params *p) { (void)p; return move3_matched(n); }
/* churn_iterate: dual_iterate's pairs. */
static uint64_t churn_iterate_items(uint64_t n, const ecsb_params *p) { return dual_iterate_items(n, p); }
/* frame: every entity, once a frame. */
static uint64_t frame_items(uint64_t n, const ecsb_params *p) { (void)p; return n; }
/* level_load: every entity created. */
static uint64_t level_load_items(uint64_t n, const ecsb_params *p) { (void)p; return n; }

/* ---- warm-up: passes before a world is timed (ecsb_scenario_info.warmup_passes) -------- */

/* One pass: the world after a pass is in the state the next pass finds (values changed,
 * structure restored), so one untimed pass warms the caches, page tables and allocator. */
static uint64_t one_warmup(uint64_t n, const ecsb_params *p) { (void)n; (void)p; return 1; }
#define platformer_warmup one_warmup
#define dual_iterate_warmup one_warmup
#define packed_1_warmup one_warmup
#define packed_5_warmup one_warmup
#define simple_iter_warmup one_warmup
#define frag_iter_warmup one_warmup
#define entity_cycle_warmup one_warmup
#define add_remove_warmup one_warmup
#define random_get_warmup one_warmup
#define move3_warmup one_warmup
#define churn_iterate_warmup one_warmup
#define level_load_warmup one_warmup
/* frame: the frames for every slot to turn over once (actors die d per frame in turn, bullets
 * live FRAME_BULLET_LIFE frames), so the world timed is one that has lived, not the level as
 * loaded: by then every id freed in a frame has gone to whichever kind was born next
 * (frame_birth alternates actors and bullets), so which ids hold bullets and which actors no
 * longer follows the set-up's blocks. */
static uint64_t frame_warmup(uint64_t n, const ecsb_params *p) { frame_world_shape s = frame_shape(n, p); return frame_turnover_frames(&s); }

/* ---- parameters ----------------------------------------------------------------------- */

static const char *const order_choices[] = {"regular", "shuffled", "aged", NULL};
#define ORDER_MEANING "the world: regular (in order, i mod k), shuffled (membership and creation order drawn from a fixed seed) or aged (lived in: deaths at random, components gained and lost, births in waves around N, then N as built)"
#define ORDER_ALL {"order", ORDER_MEANING, 0, 0, 2, true, order_choices, {0, 1, 2}, 3, false, 0}
#define MATCH {"match", "the fraction of entities holding b (1/2: the odd ones)", 0.5, 1.0 / 256, 1, \
               false, NULL, {1.0 / 256, 1.0 / 64, 1.0 / 16, 1.0 / 4, 1.0 / 2, 1}, 6, true, 0}

static const char *const queries_choices[] = {"declared", "none", NULL};
#define QUERIES {"queries", "the queries its systems declare: declared (as a program would; their upkeep is timed) or none", \
                 0, 0, 1, true, queries_choices, {0, 1}, 2, false, 0}
static const ecsb_param_info platformer_params[] = {ORDER_ALL, QUERIES};
static const ecsb_param_info entity_cycle_params[] = {ORDER_ALL, QUERIES};
#define HELD {"held", "how many other u32 components each entity carries (a table layout moves them all on each add and remove)", \
              0, 0, ADD_REMOVE_MAX_HELD, true, NULL, {0, 1, 2, 4, 8, 16}, 6, false, 0}
static const ecsb_param_info add_remove_params[] = {ORDER_ALL, QUERIES, HELD};
static const ecsb_param_info level_load_params[] = {ORDER_ALL, QUERIES};

static const ecsb_param_info dual_iterate_params[] = {ORDER_ALL, MATCH};
static const ecsb_param_info simple_iter_params[] = {ORDER_ALL};
static const ecsb_param_info packed_1_params[] = {ORDER_ALL};
static const ecsb_param_info packed_5_params[] = {ORDER_ALL};
#define KINDS {"kinds", "the number of distinct component sets: Data, one of T0 .. T25, extra types by bits (fragmentation)", \
               26, 1, FRAG_ITER_MAX_KINDS, true, NULL, {1, 4, 26, 104, 416, 832}, 6, true, 0}
static const ecsb_param_info frag_iter_params[] = {ORDER_ALL, KINDS};
#define MOVE3_SIZE_PARAM {"size", "bytes per pos and vel value, of which the pass uses the first 12 (cold bytes in hot components)", \
                          12, 12, 256, true, NULL, {12, 16, 32, 64, 128, 256}, 6, true, 4}
static const ecsb_param_info move3_params[] = {ORDER_ALL, MOVE3_SIZE_PARAM};
static const ecsb_param_info random_get_params[] = {ORDER_ALL};
#define CHURN {"churn", "the fraction of the entities born and dying per frame (half bullets, half actors)", \
               0.01, 0, 0.1, false, NULL, {0, 0.001, 0.003, 0.01, 0.03, 0.1}, 6, false, 0}
/* frame's defaults are a typical game's: 24 types (an engine's entity holds a handful of
 * components, drawn from a few dozen types; the 24), a 64-byte world transform (the 4x4
 * float matrix of Unity's LocalToWorld, Unreal's FMatrix44f), half the actors parented (a
 * turret on a tank, a weapon in a hand, a light on a car: the scene graph's share). */
#define FRAME_TYPES_INFO {"types", "component types: 15 core (transform, local, parent and 5 tags among them), 4 common extras (one per entity), the rest rare (each on 0.4 % of the entities)", \
                          24, FRAME_CORE_TYPES, ECSB_MAX_TYPES, true, NULL, {15, 19, 24, 28, 32}, 5, false, 0}
#define FRAME_TRANSFORM_INFO {"transform", "bytes of the world transform every entity holds and the propagation writes (64: a 4x4 float matrix; more: cold bytes after it)", \
                              64, 64, 256, true, NULL, {64, 96, 128, 192, 256}, 5, true, 4}
#define FRAME_PARENTED_INFO {"parented", "the share of the actors with a parent (a scene graph 1 to 3 levels deep below the roots)", \
                             0.5, 0, 0.9, false, NULL, {0, 0.25, 0.5, 0.75, 0.9}, 5, false, 0}
static const ecsb_param_info frame_params[] = {ORDER_ALL, CHURN, FRAME_TYPES_INFO, FRAME_TRANSFORM_INFO,
                                               FRAME_PARENTED_INFO};
#define ROUNDS {"rounds", "the churn before the pass: rounds of destroy-and-create, as a multiple of N", 1, 0, 4, \
                false, NULL, {0, 0.25, 0.5, 1, 2, 4}, 6, false, 0}
static const ecsb_param_info churn_iterate_params[] = {ORDER_ALL, MATCH, ROUNDS};

/* Bytes per item a pass must read and write in the limit's layout (the floor's where there is
 * no limit) and the machine kernel doing the same operation (ecsb_scenario_traffic). */
#define NO_TRAFFIC {0, 0, NULL}
#define platformer_traffic NO_TRAFFIC
/* a += 1.5 * b per matched pair: double a read and written, int32 b read */
#define dual_iterate_traffic {8 + 4, 8, "rmw_pair"}
/* v = 3v + 1 on a u32 */
#define packed_1_traffic {4, 4, "rmw_u32"}
#define packed_5_traffic {4, 4, "rmw_u32"}
/* each system swaps two u32 values of the matched entity */
#define simple_iter_traffic {4 + 4, 4 + 4, "swap_u32"}
/* Data (u32) updated */
#define frag_iter_traffic {4, 4, "rmw_u32"}
#define entity_cycle_traffic NO_TRAFFIC
#define add_remove_traffic NO_TRAFFIC
#define random_get_traffic NO_TRAFFIC
/* pos (3 floats) += vel (3 floats) * mass (a float): 28 bytes read, pos's 12 written; priced
 * by the kernel of the same shape (two streams read, the first written) */
#define move3_traffic {12 + 12 + 4, 12, "rmw_pair"}
#define churn_iterate_traffic {8 + 4, 8, "rmw_pair"}
#define frame_traffic NO_TRAFFIC
#define level_load_traffic NO_TRAFFIC

const ecsb_scenario_traffic ecsb_traffic[ECSB_SCENARIO_COUNT] = {
#define ECSB_SCENARIO(name_, summary_, item_, consumes_, structure_, sizes_) \
    [ECSB_SCENARIO_##name_] = name_##_traffic,
#include "scenarios/scenarios.def"
#undef ECSB_SCENARIO
};

const ecsb_scenario_info ecsb_scenarios[ECSB_SCENARIO_COUNT] = {
#define ECSB_SCENARIO(name_, summary_, item_, consumes_, structure_, sizes_)                  \
    [ECSB_SCENARIO_##name_] = {.name = #name_,                                                 \
                               .summary = summary_,                                            \
                               .item = item_,                                                  \
                               .consumes_setup = consumes_,                                    \
                               .changes_structure = structure_,                                \
                               .sizes = sizes_,                                                \
                               .items_per_pass = name_##_items,                                \
                               .warmup_passes = name_##_warmup,                                \
                               .params = name_##_params,                                       \
                               .param_count = sizeof name_##_params / sizeof name_##_params[0]},
#include "scenarios/scenarios.def"
#undef ECSB_SCENARIO
};

const ecsb_allocator *ecsb_scenario_allocator;
bool ecsb_scenario_grow_from_empty;

ecsb_scenario_id ecsb_scenario_find(const char *name)
{
    for (int i = 0; i < ECSB_SCENARIO_COUNT; i++)
        if (strcmp(ecsb_scenarios[i].name, name) == 0)
            return (ecsb_scenario_id)i;
    return ECSB_SCENARIO_COUNT;
}

ecsb_params ecsb_params_default(ecsb_scenario_id s)
{
    ecsb_params p = {{0}};
    for (uint32_t i = 0; i < ecsb_scenarios[s].param_count; i++)
        p.v[i] = ecsb_scenarios[s].params[i].def;
    return p;
}

int ecsb_param_find(ecsb_scenario_id s, const char *name, size_t len)
{
    for (uint32_t i = 0; i < ecsb_scenarios[s].param_count; i++) {
        const char *pn = ecsb_scenarios[s].params[i].name;
        if (strlen(pn) == len && strncmp(pn, name, len) == 0)
            return (int)i;
    }
    return -1;
}

/* The valid values of parameter pi, for messages: "regular | shuffled" or "0.00390625 .. 1". */
static void valid_values(const ecsb_param_info *pi, char *buf, size_t size)
{
    if (pi->choices) {
        buf[0] = '\0';
        for (size_t c = 0; pi->choices[c]; c++)
            snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", c ? " | " : "",
                     pi->choices[c]);
    } else {
        if (pi->multiple_of)
            snprintf(buf, size, "a multiple of %.10g, %.10g .. %.10g", pi->multiple_of, pi->min,
                     pi->max);
        else
            snprintf(buf, size, "%s %.10g .. %.10g", pi->integer ? "a whole number" : "a number",
                     pi->min, pi->max);
    }
}

bool ecsb_params_set(ecsb_scenario_id s, const char *assignment, ecsb_params *p, char *err,
                     size_t err_size)
{
    const ecsb_scenario_info *info = &ecsb_scenarios[s];
    const char *eq = strchr(assignment, '=');
    int i = eq ? ecsb_param_find(s, assignment, (size_t)(eq - assignment)) : -1;
    if (i < 0) {
        char names[256] = "";
        for (uint32_t k = 0; k < info->param_count; k++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                     k ? ", " : "", info->params[k].name);
        snprintf(err, err_size, "%s: '%s' %s; %s's parameters are: %s", info->name, assignment,
                 eq ? "names no parameter" : "is not name=value", info->name, names);
        return false;
    }
    const ecsb_param_info *pi = &info->params[i];
    const char *text = eq + 1;
    char valid[256];
    valid_values(pi, valid, sizeof valid);
    double v = NAN;
    if (pi->choices) {
        for (size_t c = 0; pi->choices[c]; c++)
            if (strcmp(pi->choices[c], text) == 0)
                v = (double)c;
    } else if (*text) {
        char *end;
        double num = strtod(text, &end);
        if (*end == '/' && end != text) { /* a fraction: 1/256 */
            char *end2;
            double den = strtod(end + 1, &end2);
            num = end2 != end + 1 && den != 0 ? num / den : NAN;
            end = end2;
        }
        if (*end == '\0' && isfinite(num) && num >= pi->min && num <= pi->max &&
            (!pi->integer || num == floor(num)) &&
            (!pi->multiple_of || fmod(num, pi->multiple_of) == 0))
            v = num;
    }
    if (isnan(v)) {
        snprintf(err, err_size, "%s: %s=%s is not valid; %s takes %s (%s)", info->name, pi->name,
                 text, pi->name, valid, pi->meaning);
        return false;
    }
    p->v[i] = v;
    return true;
}

void ecsb_param_format(ecsb_scenario_id s, uint32_t i, double value, char *buf, size_t size)
{
    const ecsb_param_info *pi = &ecsb_scenarios[s].params[i];
    if (pi->choices)
        snprintf(buf, size, "%s", pi->choices[(size_t)value]);
    else
        snprintf(buf, size, "%.10g", value);
}

void ecsb_params_format(ecsb_scenario_id s, const ecsb_params *p, bool only_changed,
                        const char *sep, char *buf, size_t size)
{
    const ecsb_scenario_info *info = &ecsb_scenarios[s];
    buf[0] = '\0';
    bool first = true;
    for (uint32_t i = 0; i < info->param_count; i++) {
        if (only_changed && p->v[i] == info->params[i].def)
            continue;
        char value[64];
        ecsb_param_format(s, i, p->v[i], value, sizeof value);
        snprintf(buf + strlen(buf), size - strlen(buf), "%s%s=%s", first ? "" : sep,
                 info->params[i].name, value);
        first = false;
    }
}
