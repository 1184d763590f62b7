/*
 * main.c — runs every test suite on every strategy: one cmocka group per strategy (each entry
 * of ecsb_strategies[] plus the unregistered template), named "strategy <name>", one
 * group for the floor and one for the shared entity-id unit ("entity_ids").
 *
 * Isolation: each test runs in a child process of its own (fork) under a time limit (CPU
 * seconds, so a loaded machine does not fail it, and a wall-clock backstop 6 times as long),
 * so a sanitizer abort, a crash, a hang or a leak fails that test alone and every other test
 * of every strategy still runs and reports. A failed test's teardown frees what it held
 * before its process ends, so LeakSanitizer reports only memory the strategy itself lost.
 * A test that does not apply to a strategy (a property it does not declare) skips itself with
 * tst_skip: cmocka lists it as skipped, and the last line counts it apart.
 *
 * Usage: ecsbench_tests [<strategy>|floor|entity_ids|all [<test-pattern>]]
 *   <strategy>     run only that strategy's group ("floor", "entity_ids": only that group)
 *   <test-pattern> run only tests whose name matches (cmocka pattern, * and ?)
 * Environment: ECSB_SEED=<n> [ECSB_OPS=<n>] replays one differential run (the failure message
 * prints both); ECSB_OPS alone sets the operations of every default differential run.
 * ECSB_SOAK_SECONDS=<n>: the differential runs fresh seeds for n seconds in all, shared out
 * among the strategies run.
 * ECSB_TEST_TIMES=1: after each test, a "[ CPU      ]" line with the CPU seconds (user + system)
 * its process took (to find where make test's time goes).
 * ECSB_TEST_TIMEOUT=<s>: the CPU-time limit of one test (default TEST_TIMEOUT). ECSB_NO_FORK=1:
 * run tests in this process (for a debugger); a crash then ends the run.
 * ECSB_TEST_JOBS=<n>: groups (the floor, each strategy) run in n processes at a time (default:
 * the online CPUs, at most 2), the longest first, each writing to a file of its own; every
 * group's output is printed whole, in that order, as soon as it and the groups before it are
 * done. Groups share
 * nothing (each test forks anyway), so running them side by side changes no result.
 */
#define _DEFAULT_SOURCE /* wait4; sigaction, fork, setrlimit */

#include <errno.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/support.h"
#include "tests/suites.h"

#define TEST_TIMEOUT 300        /* CPU seconds one test may take; the slowest takes about 90 */
#define WALL_FACTOR 6           /* the wall-clock backstop, for a test blocked without spinning */
#define EXIT_TEST_FAILED 3      /* a child whose test failed an assertion */
#define EXIT_TEST_SKIPPED 4     /* a child whose test does not apply to the strategy (tst_skip) */
#define EXIT_LEAK 23            /* LeakSanitizer's exit code (ASan's default) */

/*
 * A crash inside a test: cmocka catches SIGSEGV and friends and goes on with the next test, on
 * a heap the crash may have corrupted, without saying where it happened. When a sanitizer has
 * installed its own handlers (ASan does at start-up), every test runs with those instead, so a
 * wild access stops the run with a full report and stack. Tests run through this trampoline.
 */
static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
static struct sigaction sanitizer_action[sizeof crash_signals / sizeof crash_signals[0]];
static bool sanitizer_handles_crashes;

typedef struct test_entry {
    CMUnitTestFunction fn;
    void *param;      /* the test's state */
    const char *name; /* as cmocka lists it */
} test_entry;

static uint64_t test_timeout = TEST_TIMEOUT;
static bool isolate = true; /* fork per test */
static uint64_t print_times;  /* ECSB_TEST_TIMES: each test's CPU seconds */
static bool in_child;
static int skipped; /* tests that skipped themselves, over every group */

/* In a test's own process the parent reports the skip (cmocka there would go on to the next
 * test in the child); without fork, cmocka's skip() does. */
void tst_skip(const char *why)
{
    print_message("[ SKIP     ] [%s] %s\n", tst_strategy ? tst_strategy->name : "-", why);
    if (in_child) {
        fflush(stdout);
        exit(EXIT_TEST_SKIPPED);
    }
    skipped++;
    skip();
    abort(); /* skip does not return inside a test */
}

static void run_here(const test_entry *t, void **state)
{
    if (sanitizer_handles_crashes)
        for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++)
            sigaction(crash_signals[i], &sanitizer_action[i], NULL);
    if (in_child) { /* the process is the test's own: limit its CPU time */
        struct rlimit cpu = {(rlim_t)test_timeout, (rlim_t)test_timeout + 5};
        setrlimit(RLIMIT_CPU, &cpu);
    }
    alarm((unsigned)(test_timeout * WALL_FACTOR));
    t->fn(state);
    alarm(0);
}

/* Why the strategy under test says test `name` cannot apply to it (ecsb_strategy's
 * not_applicable: a library's own limits), or NULL. */
static const char *not_applicable(const char *name)
{
    const struct ecsb_not_applicable *na = tst_strategy ? tst_strategy->not_applicable : NULL;
    for (; na && na->test; na++)
        if (fnmatch(na->test, name, 0) == 0)
            return na->why;
    return NULL;
}

/* The test in a child process; its fate (exit code or signal) becomes this test's result. */
static void run_through_sanitizer(void **state)
{
    const test_entry *t = *state;
    *state = t->param;
    const char *why = t->name ? not_applicable(t->name) : NULL;
    if (why)
        tst_skip(why);
    if (!isolate) {
        run_here(t, state);
        return;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        fail_msg("fork failed: %s", strerror(errno));
    if (pid == 0) {
        in_child = true;
        run_here(t, state);
        exit(0); /* passed; LeakSanitizer checks at exit */
    }
    int status;
    struct rusage used;
    while (wait4(pid, &status, 0, &used) < 0 && errno == EINTR)
        ;
    if (print_times)
        print_message("[ CPU      ] [%s] %s %.2f s\n", tst_strategy ? tst_strategy->name : "-",
                      t->name ? t->name : "?",
                      (double)(used.ru_utime.tv_sec + used.ru_stime.tv_sec) +
                          (used.ru_utime.tv_usec + used.ru_stime.tv_usec) / 1e6);
    if (WIFEXITED(status)) {
        int code = WEXITSTATUS(status);
        if (code == 0 || code == EXIT_TEST_FAILED) {
            if (code)
                fail_msg("(the failure is described above)");
            return;
        }
        if (code == EXIT_TEST_SKIPPED) {
            skipped++;
            skip();
        }
        fail_msg("the test's process exited with status %d%s", code,
                 code == EXIT_LEAK ? ": LeakSanitizer found memory the strategy lost (report above)"
                                   : ": a sanitizer report or an exit (see above)");
    }
    int sig = WTERMSIG(status);
    if (sig == SIGXCPU)
        fail_msg("timed out: used more than %llu s of CPU time (ECSB_TEST_TIMEOUT)",
                 (unsigned long long)test_timeout);
    if (sig == SIGALRM)
        fail_msg("timed out: still running after %llu s (ECSB_TEST_TIMEOUT x %d)",
                 (unsigned long long)test_timeout, WALL_FACTOR);
    fail_msg("the test's process died of signal %d (%s)", sig, strsignal(sig));
}

/* After a failed test: free what it held; in its own process, end the process there. */
static int teardown(void **state)
{
    tst_teardown(state);
    if (in_child) {
        fflush(stdout);
        exit(EXIT_TEST_FAILED);
    }
    return 0;
}

#define STRATEGY_TEST(name)                                                                    \
    {#name, run_through_sanitizer, tst_setup, teardown, &(test_entry){name, NULL, #name}},

static const struct CMUnitTest strategy_tests[] = {
    ECSB_CONFORMANCE_TESTS(STRATEGY_TEST)
    ECSB_QUERY_TESTS(STRATEGY_TEST)
    ECSB_POINTER_TESTS(STRATEGY_TEST)
    ECSB_BAD_INPUT_TESTS(STRATEGY_TEST)
#define ECSB_SCENARIO(name, ...)                                          \
    {"scenario_" #name "_checksum_equals_the_floor", run_through_sanitizer, tst_setup, teardown,             \
     &(test_entry){scenario_checksum_equals_the_floor,                                         \
                   (void *)&tst_scenario_ids[ECSB_SCENARIO_##name],                            \
                   "scenario_" #name "_checksum_equals_the_floor"}},
#include "scenarios/scenarios.def"
#undef ECSB_SCENARIO
    ECSB_WORLDS_TESTS(STRATEGY_TEST)
    ECSB_DIFFERENTIAL_TESTS(STRATEGY_TEST)
};

static const struct CMUnitTest floor_tests[] = {ECSB_FLOOR_TESTS(STRATEGY_TEST)};
static const struct CMUnitTest entity_ids_tests[] = {ECSB_ENTITY_IDS_TESTS(STRATEGY_TEST)};

/* Registered strategies, then the template unless it is registered too. */
static size_t strategies_to_test(const ecsb_strategy **out)
{
    size_t n = 0;
    bool template_listed = false;
    for (size_t i = 0; i < ecsb_strategy_count; i++) {
        out[n++] = ecsb_strategies[i];
        template_listed |= ecsb_strategies[i] == &ecsb_strategy_template;
    }
    if (!template_listed)
        out[n++] = &ecsb_strategy_template;
    return n;
}

static bool env_u64(const char *name, uint64_t *out)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return true;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end) {
        fprintf(stderr, "ecsbench_tests: %s=%s is not a number\n", name, s);
        return false;
    }
    *out = v;
    return true;
}

static void usage(FILE *f, const ecsb_strategy **list, size_t n)
{
    fprintf(f, "usage: ecsbench_tests [<strategy>|floor|entity_ids|all [<test-pattern>]]\n"
               "  env ECSB_SEED=<n> ECSB_OPS=<n>: replay one differential run\n"
               "strategies:");
    for (size_t i = 0; i < n; i++)
        fprintf(f, " %s", list[i]->name);
    fprintf(f, "\n");
}

/* The group of the shared entity-id unit; a strategy pointer that names no strategy. */
static const ecsb_strategy entity_ids_group = {.name = "entity_ids"};

/* One group: the floor's (strategy NULL), the entity-id unit's, or a strategy's. Returns its
 * failures; *ran = its tests. */
static int run_group(const ecsb_strategy *strategy, int *ran)
{
    if (strategy == &entity_ids_group) {
        tst_strategy = NULL;
        printf("[==========] entity_ids: the shared entity-id unit\n");
        *ran = (int)(sizeof entity_ids_tests / sizeof entity_ids_tests[0]);
        return cmocka_run_group_tests_name("entity_ids", entity_ids_tests, NULL, NULL);
    }
    tst_strategy = strategy;
    if (!strategy) {
        printf("[==========] floor: each scenario's arithmetic on packed arrays\n");
        *ran = (int)(sizeof floor_tests / sizeof floor_tests[0]);
        return cmocka_run_group_tests_name("floor", floor_tests, NULL, NULL);
    }
    char group[128];
    snprintf(group, sizeof group, "strategy %s", strategy->name);
    printf("[==========] %s: %s\n", group, strategy->summary);
    *ran = (int)(sizeof strategy_tests / sizeof strategy_tests[0]);
    return cmocka_run_group_tests_name(group, strategy_tests, NULL, NULL);
}

typedef struct group_result {
    int failed, ran, skipped;
} group_result;

typedef struct group_job {
    const ecsb_strategy *strategy; /* NULL: the floor */
    FILE *out;                     /* the group's stdout and stderr */
    int pipe_read;                 /* its group_result */
    pid_t pid;                     /* 0 before it starts, -1 once reaped */
    group_result result;
} group_job;

/* Child side: the group with its output to its own file, its counts to the pipe. */
static void run_group_child(group_job *job, int pipe_write)
{
    fflush(stdout);
    dup2(fileno(job->out), STDOUT_FILENO);
    dup2(fileno(job->out), STDERR_FILENO);
    group_result r = {0};
    r.failed = run_group(job->strategy, &r.ran);
    r.skipped = skipped;
    fflush(stdout);
    fflush(stderr);
    if (write(pipe_write, &r, sizeof r) != (ssize_t)sizeof r)
        _exit(2);
    _exit(0);
}

/* Wait for one running group; its counts, or one failure when its process died. */
static void reap_group(group_job *jobs, size_t count)
{
    int status;
    pid_t pid;
    while ((pid = wait(&status)) < 0 && errno == EINTR)
        ;
    for (size_t i = 0; i < count; i++) {
        if (jobs[i].pid != pid)
            continue;
        jobs[i].pid = -1;
        if (read(jobs[i].pipe_read, &jobs[i].result, sizeof jobs[i].result) !=
            (ssize_t)sizeof jobs[i].result) {
            fprintf(jobs[i].out, "ecsbench_tests: the group's process ended without its counts "
                                 "(status 0x%x)\n", status);
            jobs[i].result = (group_result){.failed = 1, .ran = 1};
        }
        close(jobs[i].pipe_read);
        return;
    }
}

/* Copy a finished group's output to stdout. */
static void print_group_output(group_job *job)
{
    char buf[8192];
    size_t got;
    fflush(job->out);
    rewind(job->out);
    while ((got = fread(buf, 1, sizeof buf, job->out)) > 0)
        fwrite(buf, 1, got, stdout);
    fclose(job->out);
    fflush(stdout);
}

/* Every group, up to `parallel` at a time. False when a file, pipe or process could not be had. */
static bool run_groups_in_parallel(group_job *jobs, size_t count, size_t parallel)
{
    size_t started = 0, running = 0, printed = 0;
    while (printed < count) {
        if (started < count && running < parallel) {
            group_job *job = &jobs[started];
            int fds[2];
            if (!(job->out = tmpfile()) || pipe(fds) != 0)
                return false;
            fflush(stdout);
            fflush(stderr);
            pid_t pid = fork();
            if (pid < 0)
                return false;
            if (pid == 0) {
                close(fds[0]);
                run_group_child(job, fds[1]);
            }
            close(fds[1]);
            job->pipe_read = fds[0];
            job->pid = pid;
            started++;
            running++;
            continue;
        }
        while (printed < started && jobs[printed].pid == -1)
            print_group_output(&jobs[printed++]);
        if (printed < count && running > 0) {
            reap_group(jobs, started);
            running--;
        }
    }
    return true;
}

static size_t default_jobs(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus >= 2 ? 2 : 1;
}

int main(int argc, char **argv)
{
    /* Line-buffered, so the last test started is on screen when a sanitizer aborts. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++) {
        sigaction(crash_signals[i], NULL, &sanitizer_action[i]);
        sanitizer_handles_crashes |= (sanitizer_action[i].sa_flags & SA_SIGINFO) ||
                                     sanitizer_action[i].sa_handler != SIG_DFL;
    }

    const ecsb_strategy *list[64];
    size_t n = strategies_to_test(list);
    const char *only = argc > 1 && strcmp(argv[1], "all") != 0 ? argv[1] : NULL;
    if (argc > 3 || (only && (strcmp(only, "-h") == 0 || strcmp(only, "--help") == 0))) {
        usage(argc > 3 ? stderr : stdout, list, n);
        return argc > 3 ? 2 : 0;
    }
    bool known = !only || strcmp(only, "floor") == 0 || strcmp(only, "entity_ids") == 0;
    for (size_t i = 0; i < n && !known; i++)
        known = strcmp(list[i]->name, only) == 0;
    if (!known) {
        fprintf(stderr, "ecsbench_tests: unknown strategy '%s'\n", only);
        usage(stderr, list, n);
        return 2;
    }
    if (argc > 2)
        cmocka_set_test_filter(argv[2]);
    uint64_t no_fork = 0, jobs = default_jobs();
    if (!env_u64("ECSB_SEED", &tst_replay_seed) || !env_u64("ECSB_OPS", &tst_replay_ops) ||
        !env_u64("ECSB_SOAK_SECONDS", &tst_soak_seconds) ||
        !env_u64("ECSB_TEST_TIMEOUT", &test_timeout) || !env_u64("ECSB_NO_FORK", &no_fork) ||
        !env_u64("ECSB_TEST_JOBS", &jobs) || !env_u64("ECSB_TEST_TIMES", &print_times))
        return 2;
    if (jobs == 0) {
        fprintf(stderr, "ecsbench_tests: ECSB_TEST_JOBS=0: want 1 or more processes at a time\n");
        return 2;
    }
    isolate = !no_fork;
    if (tst_soak_seconds && !only) /* the whole budget, shared out */
        tst_soak_seconds = tst_soak_seconds / n ? tst_soak_seconds / n : 1;
    if (tst_soak_seconds && test_timeout < tst_soak_seconds + TEST_TIMEOUT)
        test_timeout = tst_soak_seconds + TEST_TIMEOUT;
    tst_under_cmocka = true;

    /* cmocka's standard output does not name groups: name each one, and the failed ones. */
    group_job groups[64 + 2]; /* the floor, the entity ids, the strategies */
    size_t group_count = 0;
    /* The longest groups first, so that none starts last and runs alone while the other
     * process idles. By CPU seconds (ECSB_TEST_TIMES=1, one job, under load): flat_map 34,
     * flecs 26, entt 19, hash_map 14; every other strategy 8-12, the floor's 11. */
    static const char *const long_first[] = {"flat_map", "flecs", "entt", "hash_map"};
    bool placed[64] = {false};
    for (size_t k = 0; k < sizeof long_first / sizeof long_first[0]; k++)
        for (size_t i = 0; i < n; i++)
            if (!placed[i] && strcmp(list[i]->name, long_first[k]) == 0 &&
                (!only || strcmp(list[i]->name, only) == 0)) {
                groups[group_count++] = (group_job){.strategy = list[i]};
                placed[i] = true;
            }
    for (size_t i = 0; i < n; i++)
        if (!placed[i] && (!only || strcmp(list[i]->name, only) == 0))
            groups[group_count++] = (group_job){.strategy = list[i]};
    if (!only || strcmp(only, "floor") == 0)
        groups[group_count++] = (group_job){.strategy = NULL};
    if (!only || strcmp(only, "entity_ids") == 0)
        groups[group_count++] = (group_job){.strategy = &entity_ids_group};
    bool parallel = isolate && jobs > 1 && group_count > 1;
    if (parallel) {
        printf("ecsbench_tests: %zu groups, %llu at a time (ECSB_TEST_JOBS); each group's "
               "output follows when it is done\n",
               group_count, (unsigned long long)jobs);
        if (!run_groups_in_parallel(groups, group_count, (size_t)jobs)) {
            fprintf(stderr, "ecsbench_tests: could not start a group's process: %s\n",
                    strerror(errno));
            return 2;
        }
    } else {
        for (size_t g = 0; g < group_count; g++) {
            int before = skipped;
            groups[g].result.failed = run_group(groups[g].strategy, &groups[g].result.ran);
            groups[g].result.skipped = skipped - before;
        }
    }
    int failed = 0, ran = 0;
    skipped = 0;
    char failures[1024] = "";
    for (size_t g = 0; g < group_count; g++) {
        const group_result *r = &groups[g].result;
        ran += r->ran;
        skipped += r->skipped;
        failed += r->failed;
        if (r->failed)
            snprintf(failures + strlen(failures), sizeof failures - strlen(failures), " %s (%d)",
                     groups[g].strategy ? groups[g].strategy->name : "floor", r->failed);
    }
    if (failed)
        printf("ecsbench_tests: FAILED, %d test%s in:%s\n", failed, failed == 1 ? "" : "s",
               failures);
    /* With a test-pattern filter cmocka skips tests, so only the unfiltered total is exact. */
    if (argc > 2)
        printf("ecsbench_tests: %d failed (filtered run)\n", failed);
    else
        printf("ecsbench_tests: %d passed, %d failed, %d skipped\n", ran - failed - skipped,
               failed, skipped);
    return failed ? 1 : 0;
}
