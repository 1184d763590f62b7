/*
 * main.c — the ecsbench command line.
 *
 *   ecsbench [--benchmark_* flags] [--ecsb_* flags]   the suite (Google Benchmark runner)
 *   ecsbench list                                     strategies and scenarios, one per line
 *   ecsbench run <scenario> <strategy> <N> [passes]   one scenario, untimed set-up, prints
 *                                                     checksum=<16 hex> seconds=<float>
 *   ecsbench help | --help | -h                       usage
 *
 * Exit status: 0 success, 1 the scenario failed (its status is printed), 2 bad arguments
 * (the message says what was wrong and what is valid).
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "harness/gbench.h"
#include "harness/runner.h"

static void print_names(FILE *out, bool scenarios)
{
    if (scenarios) {
        for (int s = 0; s < ECSB_SCENARIO_COUNT; s++)
            fprintf(out, "%s%s", s ? " | " : "", ecsb_scenarios[s].name);
        return;
    }
    fprintf(out, "%s", ECSB_FLOOR_NAME);
    for (size_t i = 0; i < ecsb_strategy_count; i++)
        fprintf(out, " | %s", ecsb_strategies[i]->name);
}

static void usage(FILE *out)
{
    fprintf(out,
            "ecsbench — ECS component-storage strategies on the same scenarios\n"
            "\n"
            "Usage:\n"
            "  ecsbench [--benchmark_* flags] [--ecsb_* flags]\n"
            "      run the suite: every scenario x (floor + every strategy) x size, through\n"
            "      Google Benchmark; benchmarks are named scenario/strategy/N\n"
            "  ecsbench list\n"
            "      one line per strategy (name, summary), the floor, and per scenario\n"
            "      (name, summary, what one item is)\n"
            "  ecsbench run <scenario> <strategy> <N> [passes]\n"
            "      run one scenario: untimed set-up, `passes` timed passes (default 1; a\n"
            "      scenario whose pass consumes its set-up is prepared again, untimed, before\n"
            "      each), then print exactly: checksum=<16 hex digits> seconds=<float>\n"
            "      (seconds = the timed passes in total). Every strategy must print the\n"
            "      floor's checksum for the same scenario, N and passes.\n"
            "        <scenario>  ");
    print_names(out, true);
    fprintf(out, "\n        <strategy>  ");
    print_names(out, false);
    fprintf(out,
            "\n"
            "        <N>         entities, a decimal integer 1..%u\n"
            "        [passes]    a decimal integer 1..%u\n"
            "  ecsbench help | --help | -h\n"
            "      this text\n"
            "\n"
            "Exit status: 0 ok, 1 the scenario failed (status printed), 2 bad arguments.\n"
            "\n",
            ECSB_MAX_N, ECSB_MAX_PASSES);
    ecsb_bench_usage(out);
    fprintf(out, "\nGoogle Benchmark flags:\n");
    fflush(out);
    ecsb_gb_print_flags_help();
}

static int cmd_list(int argc, char **argv)
{
    if (argc > 2) {
        fprintf(stderr, "ecsbench: list takes no arguments, got '%s'; usage: ecsbench list\n",
                argv[2]);
        return 2;
    }
    for (size_t i = 0; i < ecsb_strategy_count; i++)
        printf("strategy  %-14s %s\n", ecsb_strategies[i]->name, ecsb_strategies[i]->summary);
    printf("floor     %-14s %s\n", ECSB_FLOOR_NAME,
           "lower bound: each scenario's arithmetic on plain packed C arrays "
           "(accepted as a strategy by run)");
    for (int s = 0; s < ECSB_SCENARIO_COUNT; s++)
        printf("scenario  %-14s %s (item: %s)\n", ecsb_scenarios[s].name,
               ecsb_scenarios[s].summary, ecsb_scenarios[s].item);
    return 0;
}

static int cmd_run(int argc, char **argv)
{
    if (argc < 5 || argc > 6) {
        fprintf(stderr, "ecsbench: run takes 3 or 4 arguments, got %d\n", argc - 2);
        fprintf(stderr, "usage: ecsbench run <scenario> <strategy> <N> [passes]\n"
                        "  <scenario>  ");
        print_names(stderr, true);
        fprintf(stderr, "\n  <strategy>  ");
        print_names(stderr, false);
        fprintf(stderr, "\n  <N>         1..%u\n  [passes]    1..%u (default 1)\n", ECSB_MAX_N,
                ECSB_MAX_PASSES);
        return 2;
    }
    const char *scenario = argv[2], *strategy = argv[3];
    ecsb_scenario_id s = ecsb_scenario_find(scenario);
    if (s == ECSB_SCENARIO_COUNT) {
        fprintf(stderr, "ecsbench: unknown scenario '%s'; valid: ", scenario);
        print_names(stderr, true);
        fputc('\n', stderr);
        return 2;
    }
    const ecsb_scenario_impl *impl = ecsb_impl_find(s, strategy);
    if (!impl) {
        fprintf(stderr, "ecsbench: unknown strategy '%s'; valid: ", strategy);
        print_names(stderr, false);
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
    if (argc == 6 && !ecsb_parse_count(argv[5], ECSB_MAX_PASSES, &passes)) {
        fprintf(stderr,
                "ecsbench: bad passes '%s'; passes is a decimal integer 1..%u (digits only)\n",
                argv[5], ECSB_MAX_PASSES);
        return 2;
    }
    ecsb_run_result r;
    if (ecsb_run_scenario(impl, s, n, passes, &r) != ECSB_OK) {
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
    if (argc < 2 || argv[1][0] == '-')
        return ecsb_bench_main(argc, argv);
    if (strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "list") == 0)
        return cmd_list(argc, argv);
    if (strcmp(argv[1], "run") == 0)
        return cmd_run(argc, argv);
    fprintf(stderr,
            "ecsbench: unknown subcommand '%s'; valid: list, run, help, or no subcommand "
            "(the suite, with --benchmark_* / --ecsb_* flags)\n",
            argv[1]);
    return 2;
}
