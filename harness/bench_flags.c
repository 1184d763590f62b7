/*
 * bench_flags.c — the flags of `ecsbench bench`: which benchmarks (scenarios, strategies,
 * sizes, a name filter), how long each is timed (repetitions, min time per repetition), where
 * the results go. ecsbench handles these itself; every other --benchmark_* flag goes to
 * Google Benchmark's Initialize, and an argument neither knows is an error (exit 2).
 *
 * Defaults (the budget: the full suite in 5 minutes on a 2-core VM with every strategy
 * registered, both world orders): each scenario's default sizes up to DEFAULT_LARGEST (the
 * larger ones, 262,144 .. 4,194,304, with --ecsb_large: every repetition of a 1M world prepares
 * it afresh, so they take three times the rest together); each repetition times at least DEFAULT_MIN_TIME of passes
 * (and at least 3 passes, after a warm-up pass: bench.c); 5 repetitions at every size, the
 * fewest with which an exact two-sided Mann-Whitney U test can reach p < 0.05 (with 3 it
 * cannot go below p = 0.1, so no difference between two cells could ever be called real).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/runner.h"

#define DEFAULT_MIN_TIME 0.025
#define QUICK_MIN_TIME 0.004
#define DEFAULT_REPETITIONS 5
#define QUICK_REPETITIONS 5
#define MAX_REPETITIONS 1000u
#define MAX_MIN_TIME 3600.0
#define DEFAULT_LARGEST 65536u /* default sizes above it need --ecsb_large */

static const uint64_t quick_sizes[] = {256, 4000, 16384};

int ecsb_bench_repetitions(const ecsb_bench_settings *s, uint64_t n, double seconds)
{
    if (s->repetitions)
        return s->repetitions;
    (void)n;       /* the same at every size: see the defaults above */
    (void)seconds;
    return s->quick ? QUICK_REPETITIONS : DEFAULT_REPETITIONS;
}

double ecsb_bench_min_time(const ecsb_bench_settings *s)
{
    if (s->min_time > 0)
        return s->min_time;
    return s->quick ? QUICK_MIN_TIME : DEFAULT_MIN_TIME;
}

/* Calls fn(value, ctx) for each comma-separated value of "NAME=V1,V2" with "NAME=Vi" built in
 * buf; stops and returns false when fn does. */
static bool each_param_value(const char *flag, bool (*fn)(const char *assignment, void *ctx),
                             void *ctx)
{
    const char *eq = strchr(flag, '=');
    if (!eq)
        return fn(flag, ctx);
    size_t name_len = (size_t)(eq - flag);
    for (const char *v = eq + 1;;) {
        const char *end = strchr(v, ',');
        size_t len = end ? (size_t)(end - v) : strlen(v);
        char buf[256];
        snprintf(buf, sizeof buf, "%.*s=%.*s", (int)name_len, flag, (int)len, v);
        if (!fn(buf, ctx))
            return false;
        if (!end)
            return true;
        v = end + 1;
    }
}

typedef struct param_check {
    char *err;
    size_t err_size;
} param_check;

/* One value: valid for at least one scenario that declares its name. */
static bool check_param_value(const char *assignment, void *ctx)
{
    param_check *c = ctx;
    const char *eq = strchr(assignment, '=');
    bool declared = false;
    for (int sc = 0; sc < ECSB_SCENARIO_COUNT && eq; sc++) {
        if (ecsb_param_find((ecsb_scenario_id)sc, assignment, (size_t)(eq - assignment)) < 0)
            continue;
        declared = true;
        ecsb_params p = ecsb_params_default((ecsb_scenario_id)sc);
        if (ecsb_params_set((ecsb_scenario_id)sc, assignment, &p, c->err, c->err_size))
            return true;
    }
    if (!declared) {
        char names[512] = "";
        for (int sc = 0; sc < ECSB_SCENARIO_COUNT; sc++)
            for (uint32_t i = 0; i < ecsb_scenarios[sc].param_count; i++) {
                const char *n = ecsb_scenarios[sc].params[i].name;
                if (!strstr(names, n))
                    snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                             names[0] ? ", " : "", n);
            }
        snprintf(c->err, c->err_size,
                 "'%s' names no scenario parameter (want NAME=V1,V2; parameters: %s)",
                 assignment, names);
    }
    return false;
}

static bool check_param_flag(const char *flag, char *err, size_t err_size)
{
    param_check c = {err, err_size};
    return each_param_value(flag, check_param_value, &c);
}

typedef struct param_expand {
    ecsb_scenario_id sc;
    const ecsb_params *base;
    ecsb_params *out;
    size_t count, max;
} param_expand;

static bool expand_param_value(const char *assignment, void *ctx)
{
    param_expand *e = ctx;
    ecsb_params p = *e->base;
    char err[256];
    if (ecsb_params_set(e->sc, assignment, &p, err, sizeof err) && e->count < e->max)
        e->out[e->count++] = p;
    return true;
}

size_t ecsb_bench_param_sets(const ecsb_bench_settings *s, ecsb_scenario_id sc, ecsb_params *out,
                             size_t max)
{
    size_t count = 1;
    out[0] = ecsb_params_default(sc);
    for (size_t f = 0; f < s->param_flag_count; f++) {
        const char *flag = s->param_flag[f], *eq = strchr(flag, '=');
        if (!eq || ecsb_param_find(sc, flag, (size_t)(eq - flag)) < 0)
            continue;
        ecsb_params next[ECSB_MAX_PARAM_SETS];
        param_expand e = {sc, NULL, next, 0, max < ECSB_MAX_PARAM_SETS ? max : ECSB_MAX_PARAM_SETS};
        for (size_t i = 0; i < count; i++) {
            e.base = &out[i];
            each_param_value(flag, expand_param_value, &e);
        }
        if (e.count == 0) /* no value it accepts: it keeps what it had */
            continue;
        memcpy(out, next, e.count * sizeof *out);
        count = e.count;
    }
    return count;
}

size_t ecsb_bench_sizes(const ecsb_bench_settings *s, ecsb_scenario_id sc, uint64_t *out)
{
    if (s->size_count) {
        memcpy(out, s->sizes, s->size_count * sizeof *out);
        return s->size_count;
    }
    if (s->quick) {
        memcpy(out, quick_sizes, sizeof quick_sizes);
        return sizeof quick_sizes / sizeof *quick_sizes;
    }
    size_t count = ecsb_default_sizes(ecsb_scenarios[sc].sizes, out);
    if (!s->large)
        while (count > 0 && out[count - 1] > DEFAULT_LARGEST) /* ascending */
            count--;
    return count;
}

bool ecsb_bench_selected(const ecsb_bench_settings *s, const char *name)
{
    if (!s->has_filter)
        return true;
    return (regexec(&s->filter_re, name, 0, NULL, 0) == 0) != s->filter_negated;
}

void ecsb_bench_usage(FILE *out)
{
    fprintf(out,
            "Flags of ecsbench bench (a later flag overrides an earlier one):\n"
            "  --ecsb_scenarios=A,B       only these scenarios (default: all)\n"
            "  --ecsb_strategies=X,Y      only these strategies (default: all); the floor, and\n"
            "                             the limit where a scenario has one, always run\n"
            "  --ecsb_sizes=N,N,...       these sizes for every scenario, each 1..%u, at most\n"
            "                             %u (default: each scenario's own up to %u, see list\n"
            "                             --json)\n"
            "  --ecsb_large               the default sizes above %u too (262144 .. 4194304:\n"
            "                             three times as long; the reference run has them)\n"
            "  --ecsb_param=NAME=V1,V2    run every scenario that declares parameter NAME at each\n"
            "                             value it accepts (repeatable: every combination; the\n"
            "                             others keep their defaults; list shows them); names\n"
            "                             get /name=value[,name=value] for values not the default\n"
            "  --ecsb_quick               sizes 256,4000,16384, %d repetitions of %g s (unless\n"
            "                             other flags say otherwise)\n"
            "  --ecsb_plan                check and calibrate every benchmark, print the plan\n"
            "                             (repetitions, passes, batch, estimated time), time nothing\n"
            "  --ecsb_run_id=ID           run id for the JSON context ([A-Za-z0-9._-], default:\n"
            "                             UTC time + host, e.g. 20261121T214500Z-vm)\n"
            "  --ecsb_context=KEY=VALUE   extra JSON context entry; KEY gets the ecsb_ prefix\n"
            "  --ecsb_progress=auto|off   progress on stderr (auto: a live line on a terminal\n"
            "                             when stdout is redirected, else a line per 10%%)\n"
            "  --benchmark_filter=REGEX   only names matching it (POSIX extended; -REGEX: not\n"
            "                             matching)\n"
            "  --benchmark_list_tests     print the selected names, run nothing\n"
            "  --benchmark_repetitions=R  repetitions of every benchmark (default: %d)\n"
            "  --benchmark_min_time=S     seconds of passes per repetition, at least 3 passes\n"
            "                             after an untimed warm-up pass\n"
            "                             (default: %g)\n"
            "  --benchmark_enable_random_interleaving=true|false   (default: true)\n"
            "  --benchmark_out=FILE --benchmark_out_format=json|console   (default: json)\n"
            "Every other --benchmark_* flag below goes to Google Benchmark.\n"
            "Before anything is timed, every benchmark runs once untimed: its checksum must\n"
            "equal the floor's at the same scenario and N, else it is an error row (and\n"
            "ecsbench bench exits 1 after writing its results). That run also calibrates the\n"
            "passes per repetition. A scenario whose pass consumes its set-up (platformer)\n"
            "times batches of freshly prepared worlds between two clock reads.\n"
            "Rows are named scenario/strategy/N and carry real_time per pass and the counters\n"
            "items_per_pass, n, bytes and entities (the storage right after set-up with the\n"
            "scenario's capacity hint) and bytes_grown (the same, grown from empty).\n",
            ECSB_MAX_N, ECSB_MAX_SIZES, DEFAULT_LARGEST, DEFAULT_LARGEST, QUICK_REPETITIONS, QUICK_MIN_TIME, DEFAULT_REPETITIONS,
            DEFAULT_MIN_TIME);
}

/* ---- parsing ----------------------------------------------------------------------------- */

static int usage_error(const char *fmt, const char *arg, const char *hint)
{
    fprintf(stderr, "ecsbench: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s%s(see: ecsbench help)\n", hint ? hint : "", hint ? "\n" : "");
    return 2;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/*
 * Split a comma-separated list into buf (NUL-separated) and call fn on each item; false when
 * the list is too long or an item is empty, or fn says no.
 */
typedef bool (*item_fn)(const char *item, ecsb_bench_settings *s);
static bool each_item(const char *list, item_fn fn, ecsb_bench_settings *s)
{
    char buf[1024];
    if (strlen(list) >= sizeof buf)
        return false;
    strcpy(buf, list);
    char *p = buf;
    for (;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (!*p || !fn(p, s))
            return false;
        if (!comma)
            return true;
        p = comma + 1;
    }
}

static bool add_size(const char *item, ecsb_bench_settings *s)
{
    uint64_t n;
    if (!ecsb_parse_count(item, ECSB_MAX_N, &n) || s->size_count == ECSB_MAX_SIZES)
        return false;
    s->sizes[s->size_count++] = n;
    return true;
}

static char bad_name[128]; /* the name add_scenario / add_strategy did not know */

static bool add_scenario(const char *item, ecsb_bench_settings *s)
{
    ecsb_scenario_id id = ecsb_scenario_find(item);
    if (id == ECSB_SCENARIO_COUNT) {
        snprintf(bad_name, sizeof bad_name, "%.120s", item);
        return false;
    }
    s->scenario_on[id] = true;
    return true;
}

static bool add_strategy(const char *item, ecsb_bench_settings *s)
{
    if (strcmp(item, ECSB_FLOOR_NAME) == 0 || strcmp(item, ECSB_LIMIT_NAME) == 0)
        return true; /* the references run anyway */
    for (size_t i = 0; i < ecsb_strategy_count; i++)
        if (strcmp(ecsb_strategies[i]->name, item) == 0) {
            s->strategy_on[i] = true;
            return true;
        }
    snprintf(bad_name, sizeof bad_name, "%.120s", item);
    return false;
}

/* An unknown or empty name in a list: what was wrong, and every valid name. */
static int name_error(const char *flag, const char *arg, bool scenarios)
{
    if (bad_name[0])
        fprintf(stderr, "ecsbench: unknown name '%s' in %s\nvalid: ", bad_name, arg);
    else
        fprintf(stderr, "ecsbench: an empty name, or too long a list, in %s\nvalid: ", arg);
    if (scenarios) {
        for (int i = 0; i < ECSB_SCENARIO_COUNT; i++)
            fprintf(stderr, "%s%s", i ? ", " : "", ecsb_scenarios[i].name);
    } else {
        for (size_t i = 0; i < ecsb_strategy_count; i++)
            fprintf(stderr, "%s%s", i ? ", " : "", ecsb_strategies[i]->name);
        fprintf(stderr, " (%s and %s always run)", ECSB_FLOOR_NAME, ECSB_LIMIT_NAME);
    }
    fprintf(stderr, "\n%s takes a comma-separated list of these names\n", flag);
    return 2;
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

static bool add_context(const char *kv, ecsb_bench_settings *s)
{
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv || eq - kv > 50 || s->context_count == ECSB_MAX_EXTRA_CONTEXT)
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

/* "--name" or "--name=value" with arg starting "--name": the value ("" for none), else NULL. */
static const char *flag_value(const char *arg, const char *name)
{
    size_t len = strlen(name);
    if (strncmp(arg, name, len) != 0)
        return NULL;
    if (arg[len] == '\0')
        return "";
    return arg[len] == '=' ? arg + len + 1 : NULL;
}

/* A boolean flag's value: "" (flag alone), true/false, 1/0, yes/no. */
static bool parse_bool(const char *v, bool *out)
{
    if (!*v || !strcmp(v, "true") || !strcmp(v, "1") || !strcmp(v, "yes"))
        *out = true;
    else if (!strcmp(v, "false") || !strcmp(v, "0") || !strcmp(v, "no"))
        *out = false;
    else
        return false;
    return true;
}

static bool parse_seconds(const char *v, double *out)
{
    char *end;
    if (!*v || !((*v >= '0' && *v <= '9') || *v == '.'))
        return false;
    double x = strtod(v, &end);
    if (*end || !isfinite(x) || !(x > 0) || x > MAX_MIN_TIME)
        return false;
    *out = x;
    return true;
}

static int set_filter(const char *v, ecsb_bench_settings *s)
{
    if (s->has_filter)
        regfree(&s->filter_re);
    s->has_filter = false;
    s->filter = v;
    s->filter_negated = v[0] == '-';
    const char *re = v + s->filter_negated;
    if (!*re || strcmp(re, "all") == 0)
        return 0;
    if (regcomp(&s->filter_re, re, REG_EXTENDED | REG_NOSUB) != 0) {
        return usage_error("bad --benchmark_filter=%s", v,
                           "it takes a POSIX extended regular expression over names "
                           "scenario/strategy/N, e.g. '^dual_iterate/(floor|sparse_set)/'");
    }
    s->has_filter = true;
    return 0;
}

/* A flag ecsbench handles: 0 done, 1 not ours, 2 bad (printed). */
static int parse_own_flag(const char *arg, ecsb_bench_settings *s, bool *scenarios_given,
                          bool *strategies_given)
{
    const char *v;
    bool b;
    if ((v = flag_value(arg, "--ecsb_quick"))) {
        if (!parse_bool(v, &s->quick))
            return usage_error("bad %s", arg, "--ecsb_quick takes no value, or true/false");
    } else if ((v = flag_value(arg, "--ecsb_large"))) {
        if (!parse_bool(v, &s->large))
            return usage_error("bad %s", arg, "--ecsb_large takes no value, or true/false");
    } else if ((v = flag_value(arg, "--ecsb_plan"))) {
        if (!parse_bool(v, &s->plan_only))
            return usage_error("bad %s", arg, "--ecsb_plan takes no value, or true/false");
    } else if ((v = flag_value(arg, "--ecsb_sizes"))) {
        s->size_count = 0;
        if (!each_item(v, add_size, s))
            return usage_error("bad %s", arg,
                               "--ecsb_sizes takes a comma-separated list of decimal sizes, "
                               "each 1..16777216, at most 32 of them, e.g. --ecsb_sizes=256,4000");
        qsort(s->sizes, s->size_count, sizeof s->sizes[0], compare_u64);
        size_t kept = 0;
        for (size_t i = 0; i < s->size_count; i++)
            if (kept == 0 || s->sizes[kept - 1] != s->sizes[i])
                s->sizes[kept++] = s->sizes[i];
        s->size_count = kept;
    } else if ((v = flag_value(arg, "--ecsb_scenarios"))) {
        memset(s->scenario_on, 0, sizeof s->scenario_on);
        bad_name[0] = '\0';
        if (!each_item(v, add_scenario, s))
            return name_error("--ecsb_scenarios", arg, true);
        *scenarios_given = true;
    } else if ((v = flag_value(arg, "--ecsb_strategies"))) {
        memset(s->strategy_on, 0, sizeof s->strategy_on);
        bad_name[0] = '\0';
        if (!each_item(v, add_strategy, s))
            return name_error("--ecsb_strategies", arg, false);
        *strategies_given = true;
    } else if ((v = flag_value(arg, "--ecsb_run_id"))) {
        if (!valid_run_id(v))
            return usage_error("bad %s", arg,
                               "a run id is 1..100 characters of A-Z a-z 0-9 . _ -, "
                               "not starting with . or -");
        s->run_id = v;
    } else if ((v = flag_value(arg, "--ecsb_context"))) {
        if (!add_context(v, s))
            return usage_error("bad %s", arg,
                               "--ecsb_context takes KEY=VALUE, KEY 1..50 characters of "
                               "a-z 0-9 _ (at most 16 of them)");
    } else if ((v = flag_value(arg, "--ecsb_param"))) {
        char err[512];
        if (s->param_flag_count == ECSB_MAX_PARAM_FLAGS)
            return usage_error("too many: %s", arg, "at most 8 --ecsb_param flags");
        if (!check_param_flag(v, err, sizeof err))
            return usage_error("bad %s", arg, err);
        s->param_flag[s->param_flag_count++] = v;
    } else if ((v = flag_value(arg, "--ecsb_progress"))) {
        if (strcmp(v, "auto") == 0)
            s->progress = true;
        else if (strcmp(v, "off") == 0)
            s->progress = false;
        else
            return usage_error("bad %s", arg, "--ecsb_progress is auto or off");
    } else if (strncmp(arg, "--ecsb_", 7) == 0) {
        return usage_error("unknown flag %s", arg,
                           "ecsbench's own flags are --ecsb_scenarios=, --ecsb_strategies=, "
                           "--ecsb_sizes=, --ecsb_param=, --ecsb_quick, --ecsb_large, --ecsb_plan, "
                           "--ecsb_run_id=, --ecsb_context=, --ecsb_progress=");
    } else if ((v = flag_value(arg, "--benchmark_filter"))) {
        return set_filter(v, s);
    } else if ((v = flag_value(arg, "--benchmark_list_tests"))) {
        if (!parse_bool(v, &s->list_tests))
            return usage_error("bad %s", arg, "it takes true or false");
    } else if ((v = flag_value(arg, "--benchmark_enable_random_interleaving"))) {
        if (!parse_bool(v, &b))
            return usage_error("bad %s", arg, "it takes true or false");
        s->interleave = b;
    } else if ((v = flag_value(arg, "--benchmark_repetitions"))) {
        uint64_t r;
        if (!ecsb_parse_count(v, MAX_REPETITIONS, &r))
            return usage_error("bad %s", arg, "repetitions: a decimal integer 1..1000");
        s->repetitions = (int)r;
    } else if ((v = flag_value(arg, "--benchmark_min_time"))) {
        if (!parse_seconds(v, &s->min_time))
            return usage_error("bad %s", arg,
                               "seconds of passes per repetition: a number above 0, at most "
                               "3600, without a unit, e.g. --benchmark_min_time=0.05");
    } else if ((v = flag_value(arg, "--benchmark_out_format"))) {
        if (strcmp(v, "json") == 0)
            s->out_format = ECSB_GB_OUT_JSON;
        else if (strcmp(v, "console") == 0)
            s->out_format = ECSB_GB_OUT_CONSOLE;
        else
            return usage_error("bad %s", arg,
                               "valid values: json, console (Google Benchmark's CSV is "
                               "deprecated: make bench writes results.csv from the JSON)");
    } else if ((v = flag_value(arg, "--benchmark_out"))) {
        if (!*v)
            return usage_error("bad %s", arg, "--benchmark_out=FILE names the output file");
        s->out_path = v;
    } else {
        return 1;
    }
    return 0;
}

/*
 * Google Benchmark 1.7.1 answers a bad value of these flags by printing its usage and exiting
 * 0 (format) or silently (time unit): check them first, so bad input exits 2 with a message.
 */
static int check_gb_choice_flag(const char *arg)
{
    static const struct {
        const char *flag;
        const char *choices[5];
    } flags[] = {
        {"--benchmark_format=", {"console", "json", "csv"}},
        {"--benchmark_time_unit=", {"ns", "us", "ms", "s"}},
    };
    for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++) {
        size_t len = strlen(flags[f].flag);
        if (strncmp(arg, flags[f].flag, len) != 0)
            continue;
        char valid[64] = "";
        for (const char *const *c = flags[f].choices; *c; c++) {
            if (strcmp(arg + len, *c) == 0)
                return 0;
            strcat(valid, valid[0] ? ", " : "");
            strcat(valid, *c);
        }
        fprintf(stderr, "ecsbench: bad %s\nvalid values: %s\n", arg, valid);
        return 2;
    }
    return 0;
}

int ecsb_bench_parse(int argc, char **argv, ecsb_bench_settings *s)
{
    static char interleave_on[] = "--benchmark_enable_random_interleaving=true";
    static char interleave_off[] = "--benchmark_enable_random_interleaving=false";

    *s = (ecsb_bench_settings){.progress = true, .interleave = true};
    if (ecsb_strategy_count > ECSB_MAX_STRATEGIES) {
        fprintf(stderr, "ecsbench: %zu strategies registered, the suite handles %u\n",
                ecsb_strategy_count, ECSB_MAX_STRATEGIES);
        return 2;
    }
    s->gb_argv = calloc((size_t)argc + 2, sizeof *s->gb_argv);
    if (!s->gb_argv) {
        fprintf(stderr, "ecsbench: out of memory\n");
        return 2;
    }
    s->gb_argv[s->gb_argc++] = argv[0];
    int interleave_slot = s->gb_argc++;
    bool scenarios_given = false, strategies_given = false;
    for (int i = 2; i < argc; i++) {
        int rc = parse_own_flag(argv[i], s, &scenarios_given, &strategies_given);
        if (rc == 1)
            rc = check_gb_choice_flag(argv[i]);
        else if (rc == 0)
            continue;
        if (rc)
            return rc;
        s->gb_argv[s->gb_argc++] = argv[i];
    }
    s->gb_argv[interleave_slot] = s->interleave ? interleave_on : interleave_off;
    s->gb_argv[s->gb_argc] = NULL;
    if (!scenarios_given)
        for (int i = 0; i < ECSB_SCENARIO_COUNT; i++)
            s->scenario_on[i] = true;
    if (!strategies_given)
        for (size_t i = 0; i < ecsb_strategy_count; i++)
            s->strategy_on[i] = true;

    ecsb_gb_initialize(&s->gb_argc, s->gb_argv);
    if (s->gb_argc > 1)
        return usage_error("unknown argument or bad flag value: %s", s->gb_argv[1],
                           "valid: the flags of ecsbench bench and Google Benchmark's "
                           "--benchmark_* flags (ecsbench help lists both)");
    return 0;
}

void ecsb_bench_settings_free(ecsb_bench_settings *s)
{
    if (s->has_filter)
        regfree(&s->filter_re);
    s->has_filter = false;
    free(s->gb_argv);
    s->gb_argv = NULL;
}
