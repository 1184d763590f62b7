/*
 * bench.c — the suite: `ecsbench [--benchmark_* flags] [--ecsb_* flags]`.
 *
 * Registers one Google Benchmark benchmark per scenario x (floor, then every registered
 * strategy in registry order) x size, named scenario/strategy/N, and runs them with
 * repetitions and random interleaving on by default (later flags override the defaults).
 *
 * Nothing is timed before it is checked: the first time a benchmark runs, its strategy does
 * prepare + one pass + checksum untimed and must reproduce the floor's checksum at the same
 * (scenario, N). A wrong checksum or a failed status becomes an error row (SkipWithError, with
 * the expected and actual checksum or the status text), never a time.
 *
 * Timing. A scenario whose pass consumes its set-up (platformer) uses manual time: each
 * iteration prepares untimed, times one pass with CLOCK_MONOTONIC, and releases untimed.
 * The others prepare once per Google Benchmark call and time whole batches of passes.
 * Every run carries the counters items_per_pass and n: time per item = real_time / items.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/gbench.h"
#include "harness/runner.h"

/* Defaults, chosen so the full suite takes under 5 minutes on a 2-core VM, QUICK under 1. */
#define DEFAULT_REPETITIONS "5"
#define DEFAULT_MIN_TIME "0.1"
#define QUICK_MIN_TIME "0.02"
#define MAX_EXTRA_CONTEXT 16u

static const uint64_t default_sizes[] = {256,    1024,   4000,    4096,   16384,
                                         65536,  262144, 1048576, 4194304};
static const uint64_t quick_sizes[] = {256, 4000, 16384};

/* The floor's outcome at one (scenario, N): the reference every strategy must reproduce. */
typedef struct floor_ref {
    bool done;
    ecsb_run_result result;
} floor_ref;

typedef struct bench_case {
    ecsb_scenario_id scenario;
    const char *strategy;
    const ecsb_scenario_impl *impl;
    uint64_t n;
    floor_ref *ref;
    bool checked;
    char error[384]; /* empty while the case is good */
} bench_case;

/* ---- checking and timing ----------------------------------------------------------------- */

static void check_case(bench_case *c)
{
    const char *scenario = ecsb_scenarios[c->scenario].name;
    c->checked = true;
    if (!c->ref->done) {
        ecsb_run_scenario(&ecsb_floor[c->scenario], c->scenario, c->n, 1, &c->ref->result);
        c->ref->done = true;
    }
    const ecsb_run_result *ref = &c->ref->result;
    if (ref->status != ECSB_OK) {
        snprintf(c->error, sizeof c->error,
                 "%s at N=%" PRIu64 ": no reference checksum: the floor's %s failed: %s",
                 scenario, c->n, ref->step, ecsb_status_str(ref->status));
        return;
    }
    if (c->impl == &ecsb_floor[c->scenario])
        return;
    ecsb_run_result r;
    if (ecsb_run_scenario(c->impl, c->scenario, c->n, 1, &r) != ECSB_OK) {
        snprintf(c->error, sizeof c->error, "%s on %s at N=%" PRIu64 ": %s failed: %s",
                 scenario, c->strategy, c->n, r.step, ecsb_status_str(r.status));
        return;
    }
    if (r.checksum != ref->checksum)
        snprintf(c->error, sizeof c->error,
                 "%s on %s at N=%" PRIu64 ": wrong checksum: expected %016" PRIx64
                 " (floor), got %016" PRIx64,
                 scenario, c->strategy, c->n, ref->checksum, r.checksum);
}

static void fail_timing(ecsb_gb_state *st, bench_case *c, const char *step, ecsb_status status)
{
    snprintf(c->error, sizeof c->error, "%s on %s at N=%" PRIu64 ": %s failed while timing: %s",
             ecsb_scenarios[c->scenario].name, c->strategy, c->n, step, ecsb_status_str(status));
    ecsb_gb_skip_with_error(st, c->error);
}

/* Untimed set-up of one case; NULL (and the benchmark marked failed) when it fails. */
static void *prepare_or_fail(ecsb_gb_state *st, bench_case *c)
{
    void *state = NULL;
    ecsb_status status = c->impl->prepare(&state, c->n);
    if (status != ECSB_OK) {
        fail_timing(st, c, "prepare", status);
        return NULL;
    }
    return state;
}

/* Manual time: prepare untimed, time one pass, release untimed; per iteration. */
static void time_fresh_passes(ecsb_gb_state *st, bench_case *c)
{
    const ecsb_scenario_impl *impl = c->impl;
    const uint64_t batch = ecsb_gb_iterations(st);
    while (ecsb_gb_keep_running_batch(st, batch)) {
        for (uint64_t i = 0; i < batch; i++) {
            void *state = prepare_or_fail(st, c);
            if (!state)
                break;
            double t0 = ecsb_now();
            ecsb_status status = impl->pass(state);
            double t1 = ecsb_now();
            impl->release(state);
            if (status != ECSB_OK) {
                fail_timing(st, c, "pass", status);
                break;
            }
            ecsb_gb_set_iteration_time(st, t1 - t0);
        }
    }
}

/* Automatic time: prepare once, time batches of passes on the same state. */
static void time_repeated_passes(ecsb_gb_state *st, bench_case *c)
{
    const ecsb_scenario_impl *impl = c->impl;
    void *state = prepare_or_fail(st, c);
    if (!state)
        return;
    ecsb_status status;
    const uint64_t batch = ecsb_gb_iterations(st);
    while (ecsb_gb_keep_running_batch(st, batch)) {
        for (uint64_t i = 0; i < batch; i++) {
            if ((status = impl->pass(state)) != ECSB_OK) {
                fail_timing(st, c, "pass", status);
                break;
            }
        }
    }
    impl->release(state);
}

static void bench_body(ecsb_gb_state *st, void *ctx)
{
    bench_case *c = ctx;
    if (!c->checked)
        check_case(c);
    if (c->error[0]) {
        ecsb_gb_skip_with_error(st, c->error);
        return;
    }
    const ecsb_scenario_info *info = &ecsb_scenarios[c->scenario];
    if (info->consumes_setup)
        time_fresh_passes(st, c);
    else
        time_repeated_passes(st, c);
    if (ecsb_gb_error_occurred(st))
        return;
    ecsb_gb_counter(st, "items_per_pass", (double)info->items_per_pass(c->n));
    ecsb_gb_counter(st, "n", (double)c->n);
    ecsb_gb_label(st, info->item);
}

/* ---- progress ---------------------------------------------------------------------------- */

typedef struct progress {
    double t0;
    bool live; /* one line redrawn in place (stderr is a terminal, stdout is not) */
    size_t last_decile;
} progress;

static void format_duration(char *buf, size_t size, double seconds)
{
    unsigned long s = seconds > 0 ? (unsigned long)(seconds + 0.5) : 0;
    if (s >= 3600)
        snprintf(buf, size, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(buf, size, "%lu:%02lu", s / 60, s % 60);
}

static void show_progress(void *ctx, size_t done, size_t total, const char *name)
{
    progress *p = ctx;
    if (total == 0)
        return;
    if (done > total)
        done = total;
    double elapsed = ecsb_now() - p->t0;
    char el[32], left[32];
    format_duration(el, sizeof el, elapsed);
    format_duration(left, sizeof left, done ? elapsed * (double)(total - done) / (double)done : 0);
    int percent = (int)(100 * done / total);
    if (p->live) {
        fprintf(stderr, "\r\033[K[%zu/%zu %3d%%] %s elapsed, ~%s left  %s", done, total, percent,
                el, left, name);
    } else {
        size_t decile = 10 * done / total;
        if (decile <= p->last_decile)
            return;
        p->last_decile = decile;
        fprintf(stderr, "progress: %zu/%zu repetitions (%d%%), %s elapsed, ~%s left\n", done,
                total, percent, el, left);
    }
    fflush(stderr);
}

/* ---- flags ------------------------------------------------------------------------------- */

void ecsb_bench_usage(FILE *out)
{
    fprintf(out,
            "Suite flags (ecsbench's own; every --benchmark_* flag below works too, and a\n"
            "later flag overrides an earlier one and the defaults):\n"
            "  --ecsb_sizes=N,N,...     sizes to run, each 1..%u, at most %u (default:\n"
            "                           256,1024,4000,4096,16384,65536,262144,1048576,\n"
            "                           4194304)\n"
            "  --ecsb_quick             sizes 256,4000,16384, --benchmark_min_time="
            QUICK_MIN_TIME "\n"
            "                           (unless --ecsb_sizes / --benchmark_min_time say\n"
            "                           otherwise)\n"
            "  --ecsb_run_id=ID         run id for the JSON context ([A-Za-z0-9._-], default:\n"
            "                           UTC time + host, e.g. 20261121T214500Z-vm)\n"
            "  --ecsb_context=KEY=VALUE extra JSON context entry; KEY gets the ecsb_ prefix\n"
            "  --ecsb_progress=auto|off progress on stderr (auto: a live line on a terminal\n"
            "                           when stdout is redirected, else a line per 10%%)\n"
            "Defaults given to Google Benchmark (before your flags, so yours win):\n"
            "  --benchmark_repetitions=" DEFAULT_REPETITIONS
            " --benchmark_enable_random_interleaving=true\n"
            "  --benchmark_min_time=" DEFAULT_MIN_TIME " (" QUICK_MIN_TIME " with --ecsb_quick)\n"
            "Benchmarks are named scenario/strategy/N. Manual-timing ones (scenarios whose\n"
            "pass consumes its set-up: platformer) are matched by --benchmark_filter as\n"
            "scenario/strategy/N/manual_time, but reported without the suffix.\n"
            "Each run reports real_time per pass and the counters items_per_pass and n\n"
            "(time per item = real_time / items_per_pass). A strategy whose checksum differs\n"
            "from the floor's, or whose prepare or pass fails, is an error row, never a time.\n",
            ECSB_MAX_N, ECSB_MAX_SIZES);
}

typedef struct settings {
    uint64_t sizes[ECSB_MAX_SIZES];
    size_t size_count;
    bool sizes_given, quick, progress;
    const char *run_id;
    char context_key[MAX_EXTRA_CONTEXT][64];
    const char *context_value[MAX_EXTRA_CONTEXT];
    size_t context_count;
} settings;

static int usage_error(const char *fmt, const char *arg, const char *hint)
{
    fprintf(stderr, "ecsbench: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s%s(see: ecsbench --help)\n", hint ? hint : "", hint ? "\n" : "");
    return 2;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static bool parse_sizes(const char *list, settings *s)
{
    char buf[1024];
    if (strlen(list) >= sizeof buf)
        return false;
    strcpy(buf, list);
    s->size_count = 0;
    char *p = buf;
    for (;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        uint64_t n;
        if (!ecsb_parse_count(p, ECSB_MAX_N, &n) || s->size_count == ECSB_MAX_SIZES)
            return false;
        s->sizes[s->size_count++] = n;
        if (!comma)
            break;
        p = comma + 1;
    }
    qsort(s->sizes, s->size_count, sizeof s->sizes[0], compare_u64);
    size_t kept = 0;
    for (size_t i = 0; i < s->size_count; i++)
        if (kept == 0 || s->sizes[kept - 1] != s->sizes[i])
            s->sizes[kept++] = s->sizes[i];
    s->size_count = kept;
    return true;
}

static bool valid_run_id(const char *id)
{
    size_t len = strlen(id);
    if (len == 0 || len > 100 || id[0] == '.' || id[0] == '-')
        return false;
    for (const char *p = id; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '.' || *p == '_' || *p == '-'))
            return false;
    return true;
}

static bool add_context(const char *kv, settings *s)
{
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv || eq - kv > 50 || s->context_count == MAX_EXTRA_CONTEXT)
        return false;
    size_t klen = (size_t)(eq - kv);
    for (size_t i = 0; i < klen; i++)
        if (!((kv[i] >= 'a' && kv[i] <= 'z') || (kv[i] >= '0' && kv[i] <= '9') || kv[i] == '_'))
            return false;
    bool prefixed = klen > 5 && strncmp(kv, "ecsb_", 5) == 0;
    snprintf(s->context_key[s->context_count], sizeof s->context_key[0], "%s%.*s",
             prefixed ? "" : "ecsb_", (int)klen, kv);
    s->context_value[s->context_count++] = eq + 1;
    return true;
}

/* Parse one --ecsb_* argument into s; returns 0, or 2 after printing what was wrong. */
static int parse_ecsb_flag(const char *arg, settings *s)
{
    const char *v;
    if (strcmp(arg, "--ecsb_quick") == 0 || strcmp(arg, "--ecsb_quick=true") == 0) {
        s->quick = true;
    } else if (strcmp(arg, "--ecsb_quick=false") == 0) {
        s->quick = false;
    } else if (strncmp(arg, "--ecsb_sizes=", 13) == 0) {
        if (!parse_sizes(arg + 13, s))
            return usage_error("bad %s", arg,
                               "--ecsb_sizes takes a comma-separated list of decimal sizes, "
                               "each 1..16777216, at most 32 of them, e.g. --ecsb_sizes=256,4000");
        s->sizes_given = true;
    } else if (strncmp(arg, "--ecsb_run_id=", 14) == 0) {
        v = arg + 14;
        if (!valid_run_id(v))
            return usage_error("bad %s", arg,
                               "a run id is 1..100 characters of A-Z a-z 0-9 . _ -, "
                               "not starting with . or -");
        s->run_id = v;
    } else if (strncmp(arg, "--ecsb_context=", 15) == 0) {
        if (!add_context(arg + 15, s))
            return usage_error("bad %s", arg,
                               "--ecsb_context takes KEY=VALUE, KEY 1..50 characters of "
                               "a-z 0-9 _ (at most 16 of them)");
    } else if (strncmp(arg, "--ecsb_progress=", 16) == 0) {
        v = arg + 16;
        if (strcmp(v, "auto") == 0)
            s->progress = true;
        else if (strcmp(v, "off") == 0)
            s->progress = false;
        else
            return usage_error("bad %s", arg, "--ecsb_progress is auto or off");
    } else {
        return usage_error("unknown flag %s", arg,
                           "ecsbench's own flags are --ecsb_sizes=, --ecsb_quick, "
                           "--ecsb_run_id=, --ecsb_context=, --ecsb_progress=");
    }
    return 0;
}

/*
 * Google Benchmark 1.7.1 answers a bad value of these flags by printing its usage and exiting
 * 0 (formats) or silently (time unit): check them first, so bad input exits 2 with a message.
 */
static int check_gb_choice_flags(int argc, char **argv)
{
    static const struct {
        const char *flag;
        const char *choices[5];
    } flags[] = {
        {"--benchmark_format=", {"console", "json", "csv"}},
        {"--benchmark_out_format=", {"console", "json", "csv"}},
        {"--benchmark_time_unit=", {"ns", "us", "ms", "s"}},
    };
    for (int i = 1; i < argc; i++) {
        for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++) {
            size_t len = strlen(flags[f].flag);
            if (strncmp(argv[i], flags[f].flag, len) != 0)
                continue;
            bool ok = false;
            char valid[64] = "";
            for (const char *const *c = flags[f].choices; *c; c++) {
                ok = ok || strcmp(argv[i] + len, *c) == 0;
                snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s%s",
                         c == flags[f].choices ? "valid values: " : ", ", *c);
            }
            if (!ok)
                return usage_error("bad %s", argv[i], valid);
        }
    }
    return 0;
}

/* ---- the suite --------------------------------------------------------------------------- */

static bool register_all(const settings *s, bench_case **cases_out, floor_ref **refs_out)
{
    const size_t impls = 1 + ecsb_strategy_count;
    const size_t count = (size_t)ECSB_SCENARIO_COUNT * impls * s->size_count;
    bench_case *cases = calloc(count, sizeof *cases);
    floor_ref *refs = calloc((size_t)ECSB_SCENARIO_COUNT * s->size_count, sizeof *refs);
    if (!cases || !refs) {
        free(cases);
        free(refs);
        return false;
    }
    size_t k = 0;
    for (int sc = 0; sc < ECSB_SCENARIO_COUNT; sc++) {
        const ecsb_scenario_info *info = &ecsb_scenarios[sc];
        for (size_t im = 0; im < impls; im++) {
            for (size_t z = 0; z < s->size_count; z++) {
                bench_case *c = &cases[k++];
                c->scenario = (ecsb_scenario_id)sc;
                c->strategy = im == 0 ? ECSB_FLOOR_NAME : ecsb_strategies[im - 1]->name;
                c->impl = im == 0 ? &ecsb_floor[sc] : &ecsb_strategies[im - 1]->scenarios[sc];
                c->n = s->sizes[z];
                c->ref = &refs[(size_t)sc * s->size_count + z];
                char name[256];
                snprintf(name, sizeof name, "%s/%s/%" PRIu64, info->name, c->strategy, c->n);
                if (!ecsb_gb_register(name, bench_body, c,
                                      info->consumes_setup ? ECSB_GB_MANUAL_TIME
                                                           : ECSB_GB_AUTO_TIME))
                    return false;
            }
        }
    }
    *cases_out = cases;
    *refs_out = refs;
    return true;
}

int ecsb_bench_main(int argc, char **argv)
{
    static char flag_reps[] = "--benchmark_repetitions=" DEFAULT_REPETITIONS;
    static char flag_interleave[] = "--benchmark_enable_random_interleaving=true";
    static char flag_min_time[] = "--benchmark_min_time=" DEFAULT_MIN_TIME;
    static char flag_quick_min_time[] = "--benchmark_min_time=" QUICK_MIN_TIME;

    settings s = {.progress = true};
    char **gb_argv = calloc((size_t)argc + 4, sizeof *gb_argv);
    if (!gb_argv) {
        fprintf(stderr, "ecsbench: out of memory\n");
        return 1;
    }
    int gb_argc = 0;
    gb_argv[gb_argc++] = argv[0];
    gb_argv[gb_argc++] = flag_reps;
    gb_argv[gb_argc++] = flag_interleave;
    int min_time_slot = gb_argc++;
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--ecsb_", 7) == 0) {
            int rc = parse_ecsb_flag(argv[i], &s);
            if (rc) {
                free(gb_argv);
                return rc;
            }
        } else {
            gb_argv[gb_argc++] = argv[i];
        }
    }
    gb_argv[min_time_slot] = s.quick ? flag_quick_min_time : flag_min_time;
    gb_argv[gb_argc] = NULL;
    if (!s.sizes_given) {
        const uint64_t *src = s.quick ? quick_sizes : default_sizes;
        s.size_count = s.quick ? sizeof quick_sizes / sizeof *quick_sizes
                               : sizeof default_sizes / sizeof *default_sizes;
        memcpy(s.sizes, src, s.size_count * sizeof *src);
    }

    int bad = check_gb_choice_flags(gb_argc, gb_argv);
    if (bad) {
        free(gb_argv);
        return bad;
    }
    ecsb_gb_initialize(&gb_argc, gb_argv);
    if (gb_argc > 1) {
        int rc = usage_error("unknown argument or bad flag value: %s", gb_argv[1],
                             "valid: the subcommands list, run, help; --benchmark_* flags "
                             "(values as Google Benchmark 1.7.1 takes them, e.g. "
                             "--benchmark_min_time=0.5, no unit suffix); --ecsb_* flags");
        free(gb_argv);
        return rc;
    }
    free(gb_argv);
    char value[64];
    if (ecsb_gb_repetitions() < 1) {
        snprintf(value, sizeof value, "%d", ecsb_gb_repetitions());
        return usage_error("bad --benchmark_repetitions=%s", value, "it must be at least 1");
    }
    if (!(ecsb_gb_min_time() > 0)) {
        snprintf(value, sizeof value, "%g", ecsb_gb_min_time());
        return usage_error("bad --benchmark_min_time=%s", value,
                           "it must be more than 0 (seconds, no unit suffix)");
    }

    bench_case *cases;
    floor_ref *refs;
    if (!register_all(&s, &cases, &refs)) {
        fprintf(stderr, "ecsbench: out of memory registering benchmarks\n");
        return 1;
    }

    char run_id[128];
    if (s.run_id)
        snprintf(run_id, sizeof run_id, "%s", s.run_id);
    else
        ecsb_default_run_id(run_id, sizeof run_id);
    ecsb_provenance_record(&(ecsb_provenance){.run_id = run_id,
                                              .sizes = s.sizes,
                                              .size_count = s.size_count,
                                              .quick = s.quick,
                                              .argc = argc,
                                              .argv = argv});
    for (size_t i = 0; i < s.context_count; i++)
        ecsb_gb_add_context(s.context_key[i], s.context_value[i]);

    progress p = {.t0 = ecsb_now(),
                  .live = isatty(STDERR_FILENO) && !isatty(STDOUT_FILENO)};
    bool listing = ecsb_gb_list_tests();
    if (s.progress && !listing) {
        size_t selected = ecsb_gb_count_selected();
        fprintf(stderr,
                "ecsbench: run %s: %zu benchmarks x %d repetitions, min time %g s, "
                "random interleaving %s\n",
                run_id, selected, ecsb_gb_repetitions(), ecsb_gb_min_time(),
                ecsb_gb_random_interleaving() ? "on" : "off");
    }
    size_t selected = ecsb_gb_run(s.progress ? show_progress : NULL, &p);
    if (p.live)
        fputc('\n', stderr);

    int rc = 0;
    if (selected == 0) {
        char filter[256];
        ecsb_gb_filter(filter, sizeof filter);
        rc = usage_error("--benchmark_filter=%s selects no benchmark", filter,
                         "names are scenario/strategy/N; list them with "
                         "--benchmark_list_tests=true");
    } else if (!listing) {
        size_t failed = 0, total = (size_t)ECSB_SCENARIO_COUNT * (1 + ecsb_strategy_count) *
                                   s.size_count;
        for (size_t i = 0; i < total; i++)
            if (cases[i].error[0]) {
                failed++;
                fprintf(stderr, "ecsbench: error: %s\n", cases[i].error);
            }
        if (s.progress)
            fprintf(stderr, "ecsbench: done in %.1f s%s\n", ecsb_now() - p.t0,
                    failed ? "; the benchmarks above are error rows, not times" : "");
    }
    free(cases);
    free(refs);
    return rc;
}
