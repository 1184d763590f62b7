/*
 * provenance.c — what a run needs to be understood later, recorded in the JSON "context"
 * under ecsb_* keys (Google Benchmark adds its own: date, host_name, executable, num_cpus,
 * mhz_per_cpu, caches, load_avg, library_build_type).
 *
 * Build flags come from the Makefile when it defines ECSB_BUILD_CC / ECSB_BUILD_CFLAGS /
 * ECSB_BUILD_CXXFLAGS for this file; otherwise they are recorded as unknown here and
 * scripts/bench.sh adds the compilers' own record (DW_AT_producer) as ecsb_build_producer.
 * The Makefile also hands over a table of every compiled source and its SHA-256 (the first 16
 * hex digits), ECSB_SOURCE_HASHES, so a run says exactly what ran, untracked files included.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness/gbench.h"
#include "harness/runner.h"

#ifndef ECSB_BUILD_CFLAGS
#define ECSB_BUILD_CFLAGS "unknown (the Makefile did not pass -DECSB_BUILD_CFLAGS)"
#endif
#ifndef ECSB_BUILD_CXXFLAGS
#define ECSB_BUILD_CXXFLAGS "unknown (the Makefile did not pass -DECSB_BUILD_CXXFLAGS)"
#endif
#ifndef ECSB_GBENCH_VERSION
#define ECSB_GBENCH_VERSION "unknown" /* Google Benchmark version built against */
#endif
#ifndef ECSB_BUILD_CC
#define ECSB_BUILD_CC "unknown"
#endif

#if defined(__clang__)
#define ECSB_C_COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define ECSB_C_COMPILER "gcc " __VERSION__
#else
#define ECSB_C_COMPILER "unknown C compiler"
#endif

static void short_host(char *buf, size_t size)
{
    if (gethostname(buf, size) != 0 || !buf[0]) {
        snprintf(buf, size, "host");
        return;
    }
    buf[size - 1] = '\0';
    char *dot = strchr(buf, '.');
    if (dot)
        *dot = '\0';
}

void ecsb_default_run_id(char *buf, size_t size)
{
    char host[256];
    short_host(host, sizeof host);
    for (char *p = host; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '-'))
            *p = '-';
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
    snprintf(buf, size, "%s-%s", stamp, host);
}

/* First "model name" of /proc/cpuinfo, or "unknown". */
static void cpu_model(char *buf, size_t size)
{
    snprintf(buf, size, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0)
            continue;
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        char *v = colon + 1;
        while (*v == ' ' || *v == '\t')
            v++;
        v[strcspn(v, "\n")] = '\0';
        snprintf(buf, size, "%s", v);
        break;
    }
    fclose(f);
}

/* First line of a shell command's output (trailing newline dropped); false if none. */
static bool command_line_out(const char *cmd, char *buf, size_t size)
{
    FILE *f = popen(cmd, "r");
    if (!f)
        return false;
    buf[0] = '\0';
    bool got = fgets(buf, (int)size, f) != NULL;
    /* Drain the rest so the command is not killed by SIGPIPE. */
    char sink[256];
    while (fgets(sink, sizeof sink, f))
        ;
    int status = pclose(f);
    buf[strcspn(buf, "\n")] = '\0';
    return got && status == 0;
}

/*
 * The git commit of the tree holding this executable, and its state in the folders the binary
 * is built from: "clean", or "dirty" with the changes (`git status --porcelain` lines, untracked
 * files included, e.g. "?? strategies/new.c") in *changes.
 */
static void git_state(char *commit, size_t csize, char *dirty, size_t dsize, char *changes,
                      size_t chsize)
{
    snprintf(commit, csize, "unknown");
    snprintf(dirty, dsize, "unknown");
    changes[0] = '\0';
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        return;
    exe[len] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash || strchr(exe, '\''))
        return; /* no folder, or one the shell quoting below cannot carry */
    *slash = '\0';
    char cmd[PATH_MAX + 256], out[128];
    snprintf(cmd, sizeof cmd, "git -C '%s' rev-parse HEAD 2>/dev/null", exe);
    if (!command_line_out(cmd, out, sizeof out) || !out[0])
        return;
    snprintf(commit, csize, "%s", out);
    snprintf(cmd, sizeof cmd,
             "cd '%s' && cd \"$(git rev-parse --show-toplevel)\" && git status --porcelain "
             "-- harness scenarios strategies Makefile 2>/dev/null",
             exe);
    FILE *f = popen(cmd, "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        size_t used = strlen(changes);
        if (used + strlen(line) + 3 < chsize)
            snprintf(changes + used, chsize - used, "%s%s", used ? "; " : "", line);
    }
    if (pclose(f) == 0)
        snprintf(dirty, dsize, "%s", changes[0] ? "dirty" : "clean");
}

/* Append to a bounded string; silently truncates. */
static void append(char *buf, size_t size, const char *text)
{
    size_t used = strlen(buf);
    if (used < size - 1)
        snprintf(buf + used, size - used, "%s", text);
}

/* Does the shell need `arg` quoted? */
static bool needs_quotes(const char *arg)
{
    if (!*arg)
        return true;
    for (const char *p = arg; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              strchr("_-./=:,+@%", *p)))
            return true;
    return false;
}

static bool run_specific(const char *arg)
{
    static const char *const dropped[] = {"--benchmark_out=", "--benchmark_out_format=",
                                          "--ecsb_run_id=", "--ecsb_context=",
                                          "--ecsb_progress="};
    for (size_t i = 0; i < sizeof dropped / sizeof dropped[0]; i++)
        if (strncmp(arg, dropped[i], strlen(dropped[i])) == 0)
            return true;
    return false;
}

void ecsb_rerun_command(int argc, char **argv, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int i = 0; i < argc; i++) {
        if (i > 1 && run_specific(argv[i]))
            continue;
        append(buf, size, i ? " " : "");
        if (!needs_quotes(argv[i])) {
            append(buf, size, argv[i]);
            continue;
        }
        append(buf, size, "'");
        for (const char *p = argv[i]; *p; p++) {
            char c[2] = {*p, '\0'};
            append(buf, size, *p == '\'' ? "'\\''" : c);
        }
        append(buf, size, "'");
    }
}

/* The build's sources and their hashes: generated by the Makefile (build/.../source_hashes.h). */
static const char *const source_hashes[][2] = {
#ifdef ECSB_SOURCE_HASHES
#include ECSB_SOURCE_HASHES
#endif
    {NULL, NULL},
};

void ecsb_provenance_record(const ecsb_provenance *p)
{
    const ecsb_bench_settings *s = p->settings;
    char buf[8192], tmp[512];

    ecsb_gb_add_context("ecsb_run_id", p->run_id);

    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(tmp, sizeof tmp, "%Y-%m-%dT%H:%M:%SZ", &tm);
    ecsb_gb_add_context("ecsb_date_utc", tmp);

    short_host(tmp, sizeof tmp);
    ecsb_gb_add_context("ecsb_host", tmp);
    cpu_model(tmp, sizeof tmp);
    ecsb_gb_add_context("ecsb_cpu_model", tmp);

    ecsb_gb_add_context("ecsb_compiler", ECSB_C_COMPILER);
    ecsb_gb_add_context("ecsb_cxx_compiler", ecsb_gb_cxx_compiler());
    ecsb_gb_add_context("ecsb_cc", ECSB_BUILD_CC);
    ecsb_gb_add_context("ecsb_cflags", ECSB_BUILD_CFLAGS);
    ecsb_gb_add_context("ecsb_cxxflags", ECSB_BUILD_CXXFLAGS);
    ecsb_gb_add_context("ecsb_gbench_version", ECSB_GBENCH_VERSION);

    char commit[128], dirty[32];
    git_state(commit, sizeof commit, dirty, sizeof dirty, buf, sizeof buf);
    ecsb_gb_add_context("ecsb_git_commit", commit);
    ecsb_gb_add_context("ecsb_git_dirty", dirty);
    ecsb_gb_add_context("ecsb_git_changes", buf);

    buf[0] = '\0';
    for (size_t i = 0; source_hashes[i][0]; i++) {
        append(buf, sizeof buf, i ? "," : "");
        append(buf, sizeof buf, source_hashes[i][0]);
        append(buf, sizeof buf, "=");
        append(buf, sizeof buf, source_hashes[i][1]);
    }
    ecsb_gb_add_context("ecsb_sources_sha256",
                        buf[0] ? buf : "unknown (built without the Makefile's source list)");

    ecsb_gb_add_context("ecsb_sizes", p->sizes);
    ecsb_gb_add_context("ecsb_repetitions", p->repetitions);
    snprintf(tmp, sizeof tmp, "%g", ecsb_bench_min_time(s));
    ecsb_gb_add_context("ecsb_min_time", tmp);
    ecsb_gb_add_context("ecsb_random_interleaving", s->interleave ? "true" : "false");
    ecsb_gb_add_context("ecsb_filter", s->filter ? s->filter : "");
    ecsb_gb_add_context("ecsb_quick", s->quick ? "true" : "false");
    snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)s->seed);
    ecsb_gb_add_context("ecsb_seed", tmp);
    ecsb_gb_add_context("ecsb_seed_drawn", s->seed_given ? "false" : "true");

    /* The registered strategies that are libraries, not designs (ecsb_strategy.library):
     * tables, charts and choose.md set them apart. Empty when none are. */
    buf[0] = '\0';
    for (size_t i = 0, n = 0; i < ecsb_strategy_count; i++)
        if (ecsb_strategies[i]->library) {
            append(buf, sizeof buf, n++ ? "," : "");
            append(buf, sizeof buf, ecsb_strategies[i]->name);
        }
    ecsb_gb_add_context("ecsb_libraries", buf);

    buf[0] = '\0';
    append(buf, sizeof buf, ECSB_FLOOR_NAME);
    bool any_limit = false;
    for (int sc = 0; sc < ECSB_SCENARIO_COUNT; sc++)
        any_limit |= s->scenario_on[sc] && ecsb_has_limit((ecsb_scenario_id)sc);
    if (any_limit)
        append(buf, sizeof buf, "," ECSB_LIMIT_NAME);
    for (size_t i = 0; i < ecsb_strategy_count; i++) {
        if (!s->strategy_on[i])
            continue;
        append(buf, sizeof buf, ",");
        append(buf, sizeof buf, ecsb_strategies[i]->name);
    }
    ecsb_gb_add_context("ecsb_strategies", buf);
    buf[0] = '\0';
    for (int sc = 0; sc < ECSB_SCENARIO_COUNT; sc++) {
        if (!s->scenario_on[sc])
            continue;
        append(buf, sizeof buf, buf[0] ? "," : "");
        append(buf, sizeof buf, ecsb_scenarios[sc].name);
        char key[128];
        snprintf(key, sizeof key, "ecsb_item_%s", ecsb_scenarios[sc].name);
        ecsb_gb_add_context(key, ecsb_scenarios[sc].item);
        const ecsb_scenario_traffic *t = &ecsb_traffic[sc];
        if (t->kernel) { /* the hardware line's bytes per item (docs/machine.md) */
            snprintf(key, sizeof key, "ecsb_traffic_%s", ecsb_scenarios[sc].name);
            snprintf(tmp, sizeof tmp, "read=%g,write=%g,kernel=%s", t->read_bytes,
                     t->write_bytes, t->kernel);
            ecsb_gb_add_context(key, tmp);
        }
    }
    ecsb_gb_add_context("ecsb_scenarios", buf);

    ecsb_rerun_command(p->argc, p->argv, buf, sizeof buf);
    ecsb_gb_add_context("ecsb_command", buf);
}
