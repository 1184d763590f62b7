/*
 * main.c — the ecsbench command line.
 *
 *   ecsbench list [--json]                            strategies, references and scenarios
 *   ecsbench run <scenario> <strategy> <N> [passes]   one scenario, untimed set-up, prints
 *                                                     checksum=<16 hex> seconds=<float>
 *   ecsbench bench [flags]                            the suite (Google Benchmark runner)
 *   ecsbench machine [--out=FILE] [--quick]           the machine: fingerprint, clock,
 *                                                     bandwidth, latency (harness/machine.c)
 *   ecsbench help | --help | -h                       usage
 *   ecsbench                                          a short usage, exit 2
 *
 * Exit status: 0 success, 1 a scenario or benchmark failed (said on stderr), 2 bad arguments
 * (the message says what was wrong and what is valid).
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "harness/age.h"
#include "harness/gbench.h"
#include "harness/machine.h"
#include "harness/runner.h"
#include "harness/steady.h"

static const char floor_summary[] =
    "the same work on plain arrays: each scenario's arithmetic on packed C arrays in the "
    "articles' layout (a reference, not a lower bound: a layout may beat it)";
static const char limit_summary[] =
    "least memory traffic: the same arithmetic on arrays holding only what a pass touches "
    "(scenarios where a layout can move less than the floor)";

static void print_scenarios(FILE *out)
{
    for (int s = 0; s < ECSB_SCENARIO_COUNT; s++)
        fprintf(out, "%s%s", s ? " | " : "", ecsb_scenarios[s].name);
}

static void print_strategies(FILE *out)
{
    fprintf(out, "%s | %s (where the scenario has one)", ECSB_FLOOR_NAME, ECSB_LIMIT_NAME);
    for (size_t i = 0; i < ecsb_strategy_count; i++)
        fprintf(out, " | %s", ecsb_strategies[i]->name);
}

static void short_usage(FILE *out)
{
    fprintf(out, "usage: ecsbench list [--json]\n"
                 "       ecsbench run <scenario> <strategy> <N> [passes] [name=value ...] [--spans]\n"
                 "       ecsbench bench [--ecsb_* and --benchmark_* flags]\n"
                 "       ecsbench age <scenario> <strategy> <N> [name=value ...]\n"
                 "       ecsbench steady <scenario> <strategy> <N> [older] [name=value ...]\n"
                 "       ecsbench machine [--out=FILE] [--quick] [--max-set=BYTES] | --fingerprint\n"
                 "       ecsbench help\n");
}

static void usage(FILE *out)
{
    fprintf(out,
            "ecsbench — ECS component-storage strategies on the same scenarios\n"
            "\n"
            "Usage:\n"
            "  ecsbench list [--json]\n"
            "      one line per strategy (name, summary; a library's line ends in\n"
            "      [library: name version]), reference (floor, limit) and\n"
            "      scenario (name, summary, what one item is); --json: one JSON object with\n"
            "      every scenario's item, flags, limit, default sizes and parameters\n"
            "  ecsbench run <scenario> <strategy> <N> [passes] [name=value ...] [--spans]\n"
            "      run one scenario as bench times it (the same engine and warm-up): untimed\n"
            "      set-up, the scenario's untimed warm-up passes (frame: until its slots have\n"
            "      turned over), then `passes` timed passes (default 1; a scenario whose pass\n"
            "      consumes its set-up is prepared again, untimed, for each), then print\n"
            "      exactly: checksum=<16 hex digits> seconds=<float> (seconds = the timed\n"
            "      passes in total). Every strategy must print the floor's checksum for the\n"
            "      same scenario, N and passes. A run estimated to take over %.0f s says so\n"
            "      on stderr and shows its progress. --spans: each timed span (passes\n"
            "      between two clock reads) on stderr, in order, as `span first=<pass, from\n"
            "      0> passes=<count> seconds_per_pass=<float>`: is the world steady?\n"
            "        <scenario>  ",
            ECSB_RUN_NOTICE_SECONDS);
    print_scenarios(out);
    fprintf(out, "\n        <strategy>  ");
    print_strategies(out);
    fprintf(out,
            "\n"
            "        <N>         entities, a decimal integer 1..%u\n"
            "        [passes]    a decimal integer 1..%u\n"
            "        name=value  a scenario parameter (list shows each scenario's, with its\n"
            "                    meaning, default and range), e.g. match=1/16 order=shuffled\n"
            "  ecsbench bench [flags]\n"
            "      the suite: every scenario x (floor, limit, every strategy) x size, checked\n"
            "      against the floor (the same work on plain arrays, a reference rather than\n"
            "      a bound), then timed through Google Benchmark; benchmarks are\n"
            "      named scenario/strategy/N (make bench runs it and keeps the results)\n"
            "  ecsbench age <scenario> <strategy> <N> [name=value ...]\n"
            "      how aged a scenario's world is on one strategy: in_order=<the fraction of\n"
            "      successive visits in increasing id order: 1 in id order, ~0.5 in none>\n"
            "      pairs=<count> fingerprint=<hex>; e.g. order=aged (worlds: order=regular,\n"
            "      in order, i mod k; shuffled, membership and creation order drawn; aged,\n"
            "      lived in)\n"
            "  ecsbench steady <scenario> <strategy> <N> [older] [name=value ...]\n"
            "      is the world bench times steady? Two worlds built alike, one given the\n"
            "      warm-up bench gives, the other `older` passes more (default 300); then\n"
            "      their passes timed in turn, in blocks of 3 whose first is untimed (young,\n"
            "      old, old, young, ...: the machine's moods cost both alike):\n"
            "      young=<s a pass> old=<s a pass> ratio=<old/young, median of the pairs>\n"
            "      pairs=<count> older=<K>, then young_checksum=<hex> old_checksum=<hex>\n"
            "      (run's with passes = 3 x pairs and older + 3 x pairs)\n"
            "  ecsbench machine [--out=FILE] [--quick] [--max-set=BYTES] | --fingerprint\n"
            "      the machine, as machine.json (docs/machine.md): CPUID fingerprint, caches,\n"
            "      the clock as measured, read/write/read-modify-write bandwidth and dependent\n"
            "      load latency from 8 KiB to past the last-level cache, pinned to one CPU (at\n"
            "      most 20 s; --quick about a quarter of it); JSON to stdout, or to FILE with a\n"
            "      text report on stdout; --fingerprint: the fingerprint's key alone\n"
            "  ecsbench help | --help | -h\n"
            "      this text\n"
            "\n"
            "Exit status: 0 ok, 1 a scenario or benchmark failed (said on stderr), 2 bad\n"
            "arguments.\n"
            "\n",
            ECSB_MAX_N, ECSB_MAX_PASSES);
    ecsb_bench_usage(out);
    fprintf(out, "\nGoogle Benchmark's flags:\n");
    fflush(out);
    ecsb_gb_print_flags_help();
}

/* ---- list -------------------------------------------------------------------------------- */

static void json_string(const char *s)
{
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            printf("\\%c", *p);
        else if (*p < 0x20)
            printf("\\u%04x", *p);
        else
            putchar(*p);
    }
    putchar('"');
}

/* An entry; a library's ("flecs v4.1.6") gets "library" too (absent: a design). */
static void json_entry(const char *name, const char *summary, const char *library, bool last)
{
    printf("    {\"name\": ");
    json_string(name);
    printf(", \"summary\": ");
    json_string(summary);
    if (library) {
        printf(", \"library\": ");
        json_string(library);
    }
    printf("}%s\n", last ? "" : ",");
}

static void list_json(void)
{
    printf("{\n  \"strategies\": [\n");
    for (size_t i = 0; i < ecsb_strategy_count; i++)
        json_entry(ecsb_strategies[i]->name, ecsb_strategies[i]->summary,
                   ecsb_strategies[i]->library, i + 1 == ecsb_strategy_count);
    printf("  ],\n  \"references\": [\n");
    json_entry(ECSB_FLOOR_NAME, floor_summary, NULL, false);
    json_entry(ECSB_LIMIT_NAME, limit_summary, NULL, true);
    printf("  ],\n  \"scenarios\": [\n");
    for (int s = 0; s < ECSB_SCENARIO_COUNT; s++) {
        const ecsb_scenario_info *info = &ecsb_scenarios[s];
        printf("    {\"name\": ");
        json_string(info->name);
        printf(", \"summary\": ");
        json_string(info->summary);
        printf(", \"item\": ");
        json_string(info->item);
        printf(", \"consumes_setup\": %s, \"changes_structure\": %s, \"has_limit\": %s,",
               info->consumes_setup ? "true" : "false",
               info->changes_structure ? "true" : "false",
               ecsb_has_limit((ecsb_scenario_id)s) ? "true" : "false");
        uint64_t sizes[ECSB_MAX_SIZES];
        size_t count = ecsb_default_sizes(info->sizes, sizes);
        printf(" \"default_sizes\": [");
        for (size_t i = 0; i < count; i++)
            printf("%s%" PRIu64, i ? ", " : "", sizes[i]);
        printf("], \"params\": [");
        for (uint32_t i = 0; i < info->param_count; i++) {
            const ecsb_param_info *pi = &info->params[i];
            char text[64];
            printf("%s{\"name\": ", i ? ", " : "");
            json_string(pi->name);
            printf(", \"meaning\": ");
            json_string(pi->meaning);
            ecsb_param_format((ecsb_scenario_id)s, i, pi->def, text, sizeof text);
            printf(", \"default\": ");
            json_string(text);
            if (pi->choices) {
                printf(", \"choices\": [");
                for (size_t c = 0; pi->choices[c]; c++) {
                    printf("%s", c ? ", " : "");
                    json_string(pi->choices[c]);
                }
                printf("]");
            } else {
                printf(", \"min\": %.17g, \"max\": %.17g, \"integer\": %s", pi->min, pi->max,
                       pi->integer ? "true" : "false");
            }
            printf(", \"sweep\": [");
            for (uint32_t k = 0; k < pi->sweep_count; k++) {
                ecsb_param_format((ecsb_scenario_id)s, i, pi->sweep[k], text, sizeof text);
                printf("%s", k ? ", " : "");
                json_string(text);
            }
            printf("], \"geometric\": %s}", pi->geometric ? "true" : "false");
        }
        printf("]}%s\n", s + 1 == ECSB_SCENARIO_COUNT ? "" : ",");
    }
    printf("  ],\n  \"bench_flags\": ");
    fflush(stdout);
    ecsb_bench_flags_json(stdout);
    printf("\n}\n");
}

static int cmd_list(int argc, char **argv)
{
    bool json = argc == 3 && strcmp(argv[2], "--json") == 0;
    if (argc > 2 && !json) {
        fprintf(stderr,
                "ecsbench: list takes no arguments but --json, got '%s'; usage: ecsbench list "
                "[--json]\n",
                argv[2]);
        return 2;
    }
    if (json) {
        list_json();
        return 0;
    }
    /* One name column, as wide as the longest name (strategy, reference, scenario, param). */
    int w = (int)strlen(ECSB_FLOOR_NAME);
    for (size_t i = 0; i < ecsb_strategy_count; i++)
        w = (int)strlen(ecsb_strategies[i]->name) > w ? (int)strlen(ecsb_strategies[i]->name) : w;
    for (int s = 0; s < ECSB_SCENARIO_COUNT; s++) {
        w = (int)strlen(ecsb_scenarios[s].name) > w ? (int)strlen(ecsb_scenarios[s].name) : w;
        for (uint32_t i = 0; i < ecsb_scenarios[s].param_count; i++)
            w = (int)strlen(ecsb_scenarios[s].params[i].name) > w
                    ? (int)strlen(ecsb_scenarios[s].params[i].name)
                    : w;
    }
    for (size_t i = 0; i < ecsb_strategy_count; i++) {
        const ecsb_strategy *st = ecsb_strategies[i];
        printf("strategy  %-*s %s", w, st->name, st->summary);
        if (st->library) /* a library, not a design: set apart in tables and charts */
            printf(" [library: %s]", st->library);
        printf("\n");
    }
    printf("floor     %-*s %s (accepted as a strategy by run)\n", w, ECSB_FLOOR_NAME, floor_summary);
    printf("limit     %-*s %s (accepted as a strategy by run)\n", w, ECSB_LIMIT_NAME, limit_summary);
    for (int s = 0; s < ECSB_SCENARIO_COUNT; s++) {
        const ecsb_scenario_info *info = &ecsb_scenarios[s];
        printf("scenario  %-*s %s (item: %s)\n", w, info->name, info->summary, info->item);
        for (uint32_t i = 0; i < info->param_count; i++) {
            const ecsb_param_info *pi = &info->params[i];
            char def[64];
            ecsb_param_format((ecsb_scenario_id)s, i, pi->def, def, sizeof def);
            printf("  param   %-*s %s; default %s; ", w, pi->name, pi->meaning, def);
            if (pi->choices) {
                for (size_t c = 0; pi->choices[c]; c++)
                    printf("%s%s", c ? " | " : "", pi->choices[c]);
            } else {
                printf("%.10g .. %.10g", pi->min, pi->max);
            }
            printf("\n");
        }
    }
    return 0;
}

/* ---- run --------------------------------------------------------------------------------- */

static int cmd_run(int argc, char **argv)
{
    /* --spans, anywhere after <N>: each timed span's time per pass on stderr */
    bool spans = false;
    for (int i = 5; i < argc; i++)
        if (strcmp(argv[i], "--spans") == 0) {
            if (spans) {
                fprintf(stderr, "ecsbench: --spans given twice; give it once\n");
                return 2;
            }
            spans = true;
            memmove(&argv[i], &argv[i + 1], (size_t)(argc - i) * sizeof *argv);
            argc--;
            i--;
        } else if (strncmp(argv[i], "--", 2) == 0) {
            fprintf(stderr, "ecsbench: run has one option, --spans, not '%s'\n", argv[i]);
            return 2;
        }
    /* [passes] is the 4th argument unless it is a name=value */
    int first_param = argc >= 6 && !strchr(argv[5], '=') ? 6 : 5;
    if (argc < 5 || argc - first_param > (int)ECSB_MAX_PARAMS) {
        fprintf(stderr, "ecsbench: run takes 3 or 4 arguments and at most %u name=value, got %d\n",
                ECSB_MAX_PARAMS, argc - 2);
        fprintf(stderr, "usage: ecsbench run <scenario> <strategy> <N> [passes] [name=value ...] "
                        "[--spans]\n"
                        "  <scenario>  ");
        print_scenarios(stderr);
        fprintf(stderr, "\n  <strategy>  ");
        print_strategies(stderr);
        fprintf(stderr, "\n  <N>         1..%u\n  [passes]    1..%u (default 1)\n", ECSB_MAX_N,
                ECSB_MAX_PASSES);
        return 2;
    }
    const char *scenario = argv[2], *strategy = argv[3];
    ecsb_scenario_id s = ecsb_scenario_find(scenario);
    if (s == ECSB_SCENARIO_COUNT) {
        fprintf(stderr, "ecsbench: unknown scenario '%s'; valid: ", scenario);
        print_scenarios(stderr);
        fputc('\n', stderr);
        return 2;
    }
    const ecsb_scenario_impl *impl = ecsb_impl_find(s, strategy);
    if (!impl) {
        if (strcmp(strategy, ECSB_LIMIT_NAME) == 0)
            fprintf(stderr, "ecsbench: scenario %s has no limit line; valid: ", scenario);
        else
            fprintf(stderr, "ecsbench: unknown strategy '%s'; valid: ", strategy);
        ecsb_print_impl_names(stderr, s);
        fputc('\n', stderr);
        return 2;
    }
    uint64_t n, passes = 1;
    if (!ecsb_parse_count(argv[4], ECSB_MAX_N, &n)) {
        fprintf(stderr,
                "ecsbench: bad N '%s'; N is a decimal integer 1..%u (digits only)\n",
                argv[4], ECSB_MAX_N);
        return 2;
    }
    if (first_param == 6 && !ecsb_parse_count(argv[5], ECSB_MAX_PASSES, &passes)) {
        fprintf(stderr,
                "ecsbench: bad passes '%s'; passes is a decimal integer 1..%u (digits only)\n",
                argv[5], ECSB_MAX_PASSES);
        return 2;
    }
    ecsb_params params = ecsb_params_default(s);
    for (int i = first_param; i < argc; i++) {
        char err[512];
        size_t len = strcspn(argv[i], "=");
        for (int j = first_param; j < i; j++)
            if (strncmp(argv[j], argv[i], len) == 0 && argv[j][len] == '=') {
                fprintf(stderr,
                        "ecsbench: parameter %.*s given twice (%s and %s); give it once\n",
                        (int)len, argv[i], argv[j], argv[i]);
                return 2;
            }
        if (!ecsb_params_set(s, argv[i], &params, err, sizeof err)) {
            fprintf(stderr, "ecsbench: %s\n", err);
            return 2;
        }
    }
    const ecsb_strategy *capped = ecsb_strategy_find(strategy);
    const char *why;
    uint64_t cap = capped ? ecsb_strategy_cap(capped, s, &params, &why) : 0;
    if (cap && n > cap)
        fprintf(stderr,
                "ecsbench: warning: %s on %s is capped at N = %" PRIu64 " (%s); "
                "make bench leaves larger N out\n",
                scenario, strategy, cap, why);
    ecsb_run_result r;
    if (ecsb_run_scenario(impl, s, n, &params, passes, true, spans ? stderr : NULL, &r) != ECSB_OK) {
        fprintf(stderr, "ecsbench: %s on %s at N=%" PRIu64 ": %s failed: %s\n", scenario,
                strategy, n, r.step, ecsb_status_str(r.status));
        return 1;
    }
    printf("checksum=%016" PRIx64 " seconds=%.9f\n", r.checksum, r.seconds);
    return 0;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        }
    if (argc < 2) {
        short_usage(stderr);
        fprintf(stderr, "ecsbench: no subcommand; `ecsbench help` explains each, `make bench` "
                        "runs the suite and keeps its results\n");
        return 2;
    }
    if (strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "list") == 0)
        return cmd_list(argc, argv);
    if (strcmp(argv[1], "run") == 0)
        return cmd_run(argc, argv);
    if (strcmp(argv[1], "bench") == 0)
        return ecsb_bench_main(argc, argv);
    if (strcmp(argv[1], "age") == 0)
        return ecsb_cmd_age(argc, argv);
    if (strcmp(argv[1], "steady") == 0)
        return ecsb_cmd_steady(argc, argv);
    if (strcmp(argv[1], "machine") == 0)
        return ecsb_cmd_machine(argc, argv);
    if (argv[1][0] == '-')
        fprintf(stderr,
                "ecsbench: flags go after a subcommand: the suite is `ecsbench bench %s ...`\n",
                argv[1]);
    else
        fprintf(stderr, "ecsbench: unknown subcommand '%s'; valid: list, run, bench, age, steady, machine, "
                "help\n",
                argv[1]);
    short_usage(stderr);
    return 2;
}
