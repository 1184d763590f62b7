/*
 * bench_flags.c — the flags of `ecsbench bench`: which benchmarks (scenarios, strategies,
 * sizes, a name filter), how long each is timed (repetitions, min time per repetition), where
 * the results go. ecsbench handles these itself; every other --benchmark_* flag goes to
 * Google Benchmark's Initialize, and an argument neither knows is an error (exit 2). Every
 * flag ecsbench takes is one row of the flag table (`flags[]`: name, kind, target, range,
 * what a bad value lacks, help text, a valid and an invalid example): the parser, --help and
 * `list --json` all read it.
 *
 * Defaults (the budget: the full suite in 5 minutes on a 2-core VM with every strategy
 * registered, both world orders): each scenario's default sizes up to DEFAULT_LARGEST (frame:
 * 16,384, ecsb_default_largest; the
 * larger ones, 262,144 .. 4,194,304 (frame: 65,536), with --ecsb_large: every repetition builds and warms its
 * 1M-4M worlds afresh, so they take several times the rest; --ecsb_plan estimates both); the
 * slowest line of a cell times at least DEFAULT_MIN_TIME of passes per repetition (and at
 * least 3 passes, or 0.25 s of passes where they are long, after the scenario's warm-up:
 * bench.c); 5 repetitions at every size, the
 * fewest with which an exact two-sided Mann-Whitney U test can reach p < 0.05 (with 3 it
 * cannot go below p = 0.1, so no difference between two cells could ever be called real), up
 * to 9 where a cell's repetition is cheap.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "harness/runner.h"
#include "harness/sentinel.h"

#define DEFAULT_MIN_TIME 0.025
#define QUICK_MIN_TIME 0.002
#define DEFAULT_REPETITIONS 5
/* Cheap cells get more repetitions, up to MOST_REPETITIONS, as many as fit in
 * CHEAP_CELL_SECONDS for all the lines of the cell: those are the cells of small worlds, whose
 * passes are short, so placement and the neighbours' noise weigh most there and their spread
 * between repetitions is widest, and more repetitions cost little. */
#define MOST_REPETITIONS 9
#define CHEAP_CELL_SECONDS 0.6
/* A smoke run: 3 repetitions, the fewest that give the tables a spread (not a verdict). */
#define QUICK_REPETITIONS 3
#define MAX_REPETITIONS 1000u
#define MAX_MIN_TIME 3600.0
#define DEFAULT_LARGEST 65536u
/* Repeats of disturbed repetitions may add this share of the planned timing (docs/measuring.md:
 * under scripts/disturb.sh about a quarter of the repetitions ran disturbed). */
#define DEFAULT_REPEAT_BUDGET 0.5
#define MAX_REPEAT_BUDGET 10.0 /* default sizes above it need --ecsb_large */

/* A smoke run: the smallest default size and the bar charts' 4000, two points per line; each
 * size is a third of a QUICK run's timing (issue 25: QUICK within 45 s on 2 busy cores). */
static const uint64_t quick_sizes[] = {256, 4000};

int ecsb_bench_repetitions(const ecsb_bench_settings *s, double seconds)
{
    if (s->repetitions)
        return s->repetitions;
    if (s->quick)
        return QUICK_REPETITIONS;
    double fit = floor(CHEAP_CELL_SECONDS / (seconds > 1e-6 ? seconds : 1e-6));
    return fit <= DEFAULT_REPETITIONS ? DEFAULT_REPETITIONS
           : fit >= MOST_REPETITIONS  ? MOST_REPETITIONS
                                      : (int)fit;
}

void ecsb_bench_repetitions_rule(const ecsb_bench_settings *s, char *buf, size_t size)
{
    if (s->repetitions || s->quick)
        snprintf(buf, size, "%d", s->repetitions ? s->repetitions : QUICK_REPETITIONS);
    else
        snprintf(buf, size, "%d..%d by cost", DEFAULT_REPETITIONS, MOST_REPETITIONS);
}

double ecsb_bench_min_time(const ecsb_bench_settings *s)
{
    if (s->min_time > 0)
        return s->min_time;
    return s->quick ? QUICK_MIN_TIME : DEFAULT_MIN_TIME;
}

double ecsb_bench_repeat_budget(const ecsb_bench_settings *s)
{
    return s->repeat_budget >= 0 ? s->repeat_budget : DEFAULT_REPEAT_BUDGET;
}

double ecsb_bench_cpu_share(const ecsb_bench_settings *s)
{
    return s->cpu_share >= 0 ? s->cpu_share : ECSB_SENTINEL_CPU_SHARE;
}

/* ---- lists ------------------------------------------------------------------------------ */

/* Most items in one comma-separated list. */
#define MAX_LIST_ITEMS 64

/*
 * The one list parser: "a,b,c" copied into buf and split there; items[] point into buf.
 * Returns the item count, or -1 when the list does not fit, has more than max items, or has
 * an empty item.
 */
static int split_list(const char *list, char *buf, size_t size, const char **items, int max)
{
    if (strlen(list) >= size)
        return -1;
    strcpy(buf, list);
    int count = 0;
    for (char *p = buf;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (!*p || count == max)
            return -1;
        items[count++] = p;
        if (!comma)
            return count;
        p = comma + 1;
    }
}

/* "NAME=V1,V2": NAME into name, the values split into buf/values; the value count or -1. */
static int split_param_flag(const char *flag, char *name, size_t name_size, char *buf,
                            size_t size, const char **values)
{
    const char *eq = strchr(flag, '=');
    if (!eq || eq == flag || (size_t)(eq - flag) >= name_size)
        return -1;
    snprintf(name, name_size, "%.*s", (int)(eq - flag), flag);
    return split_list(eq + 1, buf, size, values, MAX_LIST_ITEMS);
}

/* Every scenario parameter's name, once each, comma-separated, into out. */
static void all_param_names(char *out, size_t size)
{
    out[0] = '\0';
    for (int sc = 0; sc < ECSB_SCENARIO_COUNT; sc++)
        for (uint32_t i = 0; i < ecsb_scenarios[sc].param_count; i++) {
            const char *n = ecsb_scenarios[sc].params[i].name;
            if (!strstr(out, n))
                snprintf(out + strlen(out), size - strlen(out), "%s%s", out[0] ? ", " : "", n);
        }
}

/* A --ecsb_param value: NAME declared by some scenario, each value valid for at least one
 * scenario declaring NAME. False with the reason in err. */
static bool check_param_flag(const char *flag, char *err, size_t err_size)
{
    char name[64], buf[1024], one[128];
    const char *values[MAX_LIST_ITEMS];
    int count = split_param_flag(flag, name, sizeof name, buf, sizeof buf, values);
    if (count < 0) {
        snprintf(err, err_size, "want NAME=V1,V2 with no empty value, e.g. match=1/16,1/4");
        return false;
    }
    bool declared = false;
    for (int sc = 0; sc < ECSB_SCENARIO_COUNT; sc++)
        declared |= ecsb_param_find((ecsb_scenario_id)sc, name, strlen(name)) >= 0;
    if (!declared) {
        char names[512];
        all_param_names(names, sizeof names);
        snprintf(err, err_size, "'%s' names no scenario parameter (want NAME=V1,V2; parameters: %s)",
                 name, names);
        return false;
    }
    for (int v = 0; v < count; v++) {
        snprintf(one, sizeof one, "%s=%s", name, values[v]);
        bool valid = false;
        for (int sc = 0; sc < ECSB_SCENARIO_COUNT && !valid; sc++) {
            if (ecsb_param_find((ecsb_scenario_id)sc, name, strlen(name)) < 0)
                continue;
            ecsb_params p = ecsb_params_default((ecsb_scenario_id)sc);
            valid = ecsb_params_set((ecsb_scenario_id)sc, one, &p, err, err_size);
        }
        if (!valid)
            return false; /* err: the last declaring scenario's reason */
    }
    return true;
}

/*
 * After every flag: each --ecsb_param names a parameter that a selected scenario takes, and no
 * parameter is given twice (a later flag would silently replace an earlier one). Returns 0,
 * or 2 after saying which.
 */
static int check_param_selection(const ecsb_bench_settings *s)
{
    char names[ECSB_MAX_PARAM_FLAGS][64], buf[1024];
    const char *values[MAX_LIST_ITEMS];
    for (size_t f = 0; f < s->param_flag_count; f++) {
        split_param_flag(s->param_flag[f], names[f], sizeof names[f], buf, sizeof buf, values);
        for (size_t g = 0; g < f; g++)
            if (strcmp(names[g], names[f]) == 0) {
                fprintf(stderr,
                        "ecsbench: parameter %s given twice (--ecsb_param=%s and "
                        "--ecsb_param=%s); give its values once: --ecsb_param=%s=V1,V2\n",
                        names[f], s->param_flag[g], s->param_flag[f], names[f]);
                return 2;
            }
        bool taken = false;
        char takers[512] = "", selected[512] = "";
        for (int sc = 0; sc < ECSB_SCENARIO_COUNT; sc++) {
            bool declares = ecsb_param_find((ecsb_scenario_id)sc, names[f], strlen(names[f])) >= 0;
            taken |= declares && s->scenario_on[sc];
            if (declares)
                snprintf(takers + strlen(takers), sizeof takers - strlen(takers), "%s%s",
                         takers[0] ? ", " : "", ecsb_scenarios[sc].name);
            if (s->scenario_on[sc])
                snprintf(selected + strlen(selected), sizeof selected - strlen(selected), "%s%s",
                         selected[0] ? ", " : "", ecsb_scenarios[sc].name);
        }
        if (!taken) {
            fprintf(stderr,
                    "ecsbench: --ecsb_param=%s: no selected scenario takes parameter %s "
                    "(selected: %s; %s is taken by: %s)\n",
                    s->param_flag[f], names[f], selected, names[f], takers);
            return 2;
        }
    }
    return 0;
}

size_t ecsb_bench_param_sets(const ecsb_bench_settings *s, ecsb_scenario_id sc, ecsb_params *out,
                             size_t max)
{
    size_t count = 1;
    out[0] = ecsb_params_default(sc);
    if (max > ECSB_MAX_PARAM_SETS)
        max = ECSB_MAX_PARAM_SETS;
    for (size_t f = 0; f < s->param_flag_count; f++) {
        char name[64], buf[1024], one[128], err[256];
        const char *values[MAX_LIST_ITEMS];
        int n = split_param_flag(s->param_flag[f], name, sizeof name, buf, sizeof buf, values);
        if (n < 0 || ecsb_param_find(sc, name, strlen(name)) < 0)
            continue;
        ecsb_params next[ECSB_MAX_PARAM_SETS];
        size_t made = 0;
        for (size_t i = 0; i < count; i++)
            for (int v = 0; v < n && made < max; v++) {
                ecsb_params p = out[i];
                snprintf(one, sizeof one, "%s=%s", name, values[v]);
                if (ecsb_params_set(sc, one, &p, err, sizeof err)) /* values it takes only */
                    next[made++] = p;
            }
        if (made == 0) /* no value it accepts: it keeps what it had */
            continue;
        memcpy(out, next, made * sizeof *out);
        count = made;
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
        while (count > 0 && out[count - 1] > ecsb_default_largest(ecsb_scenarios[sc].sizes))
            count--; /* ascending */
    return count;
}

bool ecsb_bench_selected(const ecsb_bench_settings *s, const char *name)
{
    if (!s->has_filter)
        return true;
    return (regexec(&s->filter_re, name, 0, NULL, 0) == 0) != s->filter_negated;
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

/* An unknown (bad_name) or empty name in a list: what was wrong, and every valid name. */
static int name_error(const char *flag, const char *arg, const char *bad_name, bool scenarios)
{
    if (bad_name)
        fprintf(stderr, "ecsbench: unknown name '%.120s' in %s\nvalid: ", bad_name, arg);
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

static bool parse_seconds(const char *v, double max, double *out)
{
    char *end;
    if (!*v || !((*v >= '0' && *v <= '9') || *v == '.'))
        return false;
    double x = strtod(v, &end);
    if (*end || !isfinite(x) || !(x > 0) || x > max)
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

/* ---- the flag table ------------------------------------------------------------------------ */

/* What the parser carries between flags: whether the selection was given at all. */
typedef struct parse_state {
    bool scenarios_given, strategies_given;
} parse_state;

/* A flag's value parser: 0 taken, 1 bad (the table's hint is printed), 2 bad and printed. */
typedef int (*flag_parser)(const char *v, const char *arg, ecsb_bench_settings *s,
                           parse_state *ps);

typedef enum flag_kind {
    FLAG_BOOL,    /* bool at `offset`: no value, true/false, 1/0, yes/no */
    FLAG_COUNT,   /* int at `offset`: a decimal integer 1..max */
    FLAG_SECONDS, /* double at `offset`: seconds above 0, at most max */
    FLAG_CUSTOM,  /* `parse` decides */
} flag_kind;

/*
 * One flag ecsbench takes itself (as redis's config table: one row per flag, read by the parser,
 * by --help and by `list --json`, so they cannot drift apart). help is a printf format over
 * help_args (doubles: %.0f for counts); its lines go under each other in help. example and
 * bad are a valid and an invalid value (test_cli.sh gives every flag both).
 */
typedef struct bench_flag {
    const char *name;  /* "--ecsb_sizes" */
    const char *form;  /* how help shows it, "--ecsb_sizes=N,N,..." */
    flag_kind kind;
    size_t offset;     /* FLAG_BOOL, FLAG_COUNT, FLAG_SECONDS: the field in the settings */
    double max;        /* FLAG_COUNT, FLAG_SECONDS */
    flag_parser parse; /* FLAG_CUSTOM */
    const char *hint;  /* said after "bad <arg>": what the flag takes */
    const char *help;
    double help_args[3];
    const char *example, *bad;
} bench_flag;

static int parse_sizes(const char *v, const char *arg, ecsb_bench_settings *s, parse_state *ps)
{
    (void)arg;
    (void)ps;
    char buf[1024];
    const char *items[ECSB_MAX_SIZES];
    int count = split_list(v, buf, sizeof buf, items, ECSB_MAX_SIZES);
    s->size_count = 0;
    for (int i = 0; i < count; i++)
        if (!ecsb_parse_count(items[i], ECSB_MAX_N, &s->sizes[s->size_count++]))
            count = -1;
    if (count < 0)
        return 1;
    qsort(s->sizes, s->size_count, sizeof s->sizes[0], compare_u64);
    size_t kept = 0;
    for (size_t i = 0; i < s->size_count; i++)
        if (kept == 0 || s->sizes[kept - 1] != s->sizes[i])
            s->sizes[kept++] = s->sizes[i];
    s->size_count = kept;
    return 0;
}

static int parse_scenarios(const char *v, const char *arg, ecsb_bench_settings *s,
                           parse_state *ps)
{
    char buf[1024];
    const char *items[MAX_LIST_ITEMS];
    int count = split_list(v, buf, sizeof buf, items, MAX_LIST_ITEMS);
    memset(s->scenario_on, 0, sizeof s->scenario_on);
    if (count < 0)
        return name_error("--ecsb_scenarios", arg, NULL, true);
    for (int i = 0; i < count; i++) {
        ecsb_scenario_id id = ecsb_scenario_find(items[i]);
        if (id == ECSB_SCENARIO_COUNT)
            return name_error("--ecsb_scenarios", arg, items[i], true);
        s->scenario_on[id] = true;
    }
    ps->scenarios_given = true;
    return 0;
}

static int parse_strategies(const char *v, const char *arg, ecsb_bench_settings *s,
                            parse_state *ps)
{
    char buf[1024];
    const char *items[MAX_LIST_ITEMS];
    int count = split_list(v, buf, sizeof buf, items, MAX_LIST_ITEMS);
    memset(s->strategy_on, 0, sizeof s->strategy_on);
    if (count < 0)
        return name_error("--ecsb_strategies", arg, NULL, false);
    for (int i = 0; i < count; i++) {
        if (strcmp(items[i], ECSB_FLOOR_NAME) == 0 || strcmp(items[i], ECSB_LIMIT_NAME) == 0)
            continue; /* the references run anyway */
        size_t k = 0;
        while (k < ecsb_strategy_count && strcmp(ecsb_strategies[k]->name, items[i]) != 0)
            k++;
        if (k == ecsb_strategy_count)
            return name_error("--ecsb_strategies", arg, items[i], false);
        s->strategy_on[k] = true;
    }
    ps->strategies_given = true;
    return 0;
}

static int parse_seed(const char *v, const char *arg, ecsb_bench_settings *s, parse_state *ps)
{
    (void)arg;
    (void)ps;
    s->seed_given = true;
    if (strcmp(v, "0") == 0) {
        s->seed = 0; /* no pads: the heap's own placement, to compare against */
        return 0;
    }
    return ecsb_parse_count(v, UINT64_MAX, &s->seed) ? 0 : 1;
}

static int parse_cpu_share(const char *v, const char *arg, ecsb_bench_settings *s,
                           parse_state *ps)
{
    (void)arg;
    (void)ps;
    char *end;
    if (!*v || !((*v >= '0' && *v <= '9') || *v == '.'))
        return 1;
    double x = strtod(v, &end);
    if (*end || !isfinite(x) || x < 0 || x > 1)
        return 1;
    s->cpu_share = x;
    return 0;
}

static int parse_repeat_budget(const char *v, const char *arg, ecsb_bench_settings *s,
                               parse_state *ps)
{
    (void)arg;
    (void)ps;
    char *end;
    if (!*v || !((*v >= '0' && *v <= '9') || *v == '.'))
        return 1;
    double x = strtod(v, &end);
    if (*end || !isfinite(x) || x < 0 || x > MAX_REPEAT_BUDGET)
        return 1;
    s->repeat_budget = x;
    return 0;
}

static int parse_run_id(const char *v, const char *arg, ecsb_bench_settings *s, parse_state *ps)
{
    (void)arg;
    (void)ps;
    if (!valid_run_id(v))
        return 1;
    s->run_id = v;
    return 0;
}

static int parse_context(const char *v, const char *arg, ecsb_bench_settings *s,
                         parse_state *ps)
{
    (void)arg;
    (void)ps;
    return add_context(v, s) ? 0 : 1;
}

static int parse_param(const char *v, const char *arg, ecsb_bench_settings *s, parse_state *ps)
{
    (void)ps;
    char err[512];
    if (s->param_flag_count == ECSB_MAX_PARAM_FLAGS)
        return usage_error("too many: %s", arg, "at most 8 --ecsb_param flags");
    if (!check_param_flag(v, err, sizeof err))
        return usage_error("bad %s", arg, err);
    s->param_flag[s->param_flag_count++] = v;
    return 0;
}

static int parse_progress(const char *v, const char *arg, ecsb_bench_settings *s,
                          parse_state *ps)
{
    (void)arg;
    (void)ps;
    if (strcmp(v, "auto") != 0 && strcmp(v, "off") != 0)
        return 1;
    s->progress = strcmp(v, "auto") == 0;
    return 0;
}

static int parse_filter(const char *v, const char *arg, ecsb_bench_settings *s, parse_state *ps)
{
    (void)arg;
    (void)ps;
    return set_filter(v, s);
}

static int parse_out_format(const char *v, const char *arg, ecsb_bench_settings *s,
                            parse_state *ps)
{
    (void)arg;
    (void)ps;
    if (strcmp(v, "json") == 0)
        s->out_format = ECSB_GB_OUT_JSON;
    else if (strcmp(v, "console") == 0)
        s->out_format = ECSB_GB_OUT_CONSOLE;
    else
        return 1;
    return 0;
}

static int parse_out(const char *v, const char *arg, ecsb_bench_settings *s, parse_state *ps)
{
    (void)arg;
    (void)ps;
    if (!*v)
        return 1;
    s->out_path = v;
    return 0;
}

#define SETTING(field) offsetof(ecsb_bench_settings, field)

static const bench_flag flags[] = {
    {"--ecsb_scenarios", "--ecsb_scenarios=A,B", FLAG_CUSTOM, 0, 0, parse_scenarios, NULL,
     "only these scenarios (default: all)", {0}, "dual_iterate", "nope"},
    {"--ecsb_strategies", "--ecsb_strategies=X,Y", FLAG_CUSTOM, 0, 0, parse_strategies, NULL,
     "only these strategies (default: all); the floor, and\n"
     "the limit where a scenario has one, always run",
     {0}, "floor", "nope"},
    {"--ecsb_sizes", "--ecsb_sizes=N,N,...", FLAG_CUSTOM, 0, 0, parse_sizes,
     "--ecsb_sizes takes a comma-separated list of decimal sizes, each 1..16777216, at most 32 "
     "of them, e.g. --ecsb_sizes=256,4000",
     "these sizes for every scenario, each 1..%.0f, at most\n"
     "%.0f (default: each scenario's own up to %.0f, frame's\n"
     "up to 16384, see list --json)",
     {ECSB_MAX_N, ECSB_MAX_SIZES, DEFAULT_LARGEST}, "16,4", "0"},
    {"--ecsb_large", "--ecsb_large", FLAG_BOOL, SETTING(large), 0, NULL,
     "--ecsb_large takes no value, or true/false",
     "the default sizes above %.0f too (262144 .. 4194304:\n"
     "the reference run has them; each repetition builds\n"
     "and warms a fresh 1M-4M world, so they take several\n"
     "times the rest: --ecsb_plan estimates it)",
     {DEFAULT_LARGEST}, "true", "maybe"},
    {"--ecsb_param", "--ecsb_param=NAME=V1,V2", FLAG_CUSTOM, 0, 0, parse_param, NULL,
     "run every scenario that declares parameter NAME at each\n"
     "value it accepts (repeatable: every combination; the\n"
     "others keep their defaults; list shows them); names\n"
     "get /name=value[,name=value] for values not the default",
     {0}, "match=1/2", "nosuch=1"},
    {"--ecsb_quick", "--ecsb_quick", FLAG_BOOL, SETTING(quick), 0, NULL,
     "--ecsb_quick takes no value, or true/false",
     "a smoke run, not for verdicts: sizes 256,4000,\n"
     "%.0f repetitions of %g s (unless other flags say\n"
     "otherwise); the scenarios' warm-ups in full",
     {QUICK_REPETITIONS, QUICK_MIN_TIME}, "", "2"},
    {"--ecsb_plan", "--ecsb_plan", FLAG_BOOL, SETTING(plan_only), 0, NULL,
     "--ecsb_plan takes no value, or true/false",
     "check and calibrate every benchmark, print the plan\n"
     "(repetitions, passes, group, warm-up, worlds, estimated\n"
     "seconds), time nothing",
     {0}, "false", "maybe"},
    {"--ecsb_seed", "--ecsb_seed=S", FLAG_CUSTOM, 0, 0, parse_seed,
     "--ecsb_seed takes a decimal number (the placements' sequence: the same seed draws the "
     "same pads; 0: no pads)",
     "the seed of the placements: every block a world,\n"
     "floor or limit allocates is placed after a pad of\n"
     "0..63 cache lines drawn from it (default: drawn by\n"
     "each run, recorded as ecsb_seed, so --ecsb_seed=<it>\n"
     "replays its placements; 0: no pads)",
     {0}, "12345", "x"},
    {"--ecsb_repeat_budget", "--ecsb_repeat_budget=F", FLAG_CUSTOM, 0, 0, parse_repeat_budget,
     "--ecsb_repeat_budget takes a share of the planned timing, 0 .. 10, e.g. 0.5",
     "a repetition timed while the sentinel (a fixed kernel\n"
     "probed around each) ran over %.0f%% slower than its usual\n"
     "is timed again, for at most F times the planned\n"
     "timing in all (default %g; 0: marked, not repeated)",
     {ECSB_SENTINEL_MARGIN * 100, DEFAULT_REPEAT_BUDGET}, "0", "-1"},
    {"--ecsb_cpu_share", "--ecsb_cpu_share=F", FLAG_CUSTOM, 0, 0, parse_cpu_share,
     "--ecsb_cpu_share takes a share 0 .. 1, e.g. 0.9",
     "a repetition whose thread had the CPU for less than\n"
     "this share of its wall time ran disturbed (default\n"
     "%g; 0: not judged by it)",
     {ECSB_SENTINEL_CPU_SHARE}, "0.8", "1.5"},
    {"--ecsb_run_id", "--ecsb_run_id=ID", FLAG_CUSTOM, 0, 0, parse_run_id,
     "a run id is 1..100 characters of A-Z a-z 0-9 . _ -, not starting with . or -",
     "run id for the JSON context ([A-Za-z0-9._-], default:\n"
     "UTC time + host, e.g. 20261121T214500Z-vm)",
     {0}, "r1", "../x"},
    {"--ecsb_context", "--ecsb_context=KEY=VALUE", FLAG_CUSTOM, 0, 0, parse_context,
     "--ecsb_context takes KEY=VALUE, KEY 1..50 characters of a-z 0-9 _ (at most 16 of them)",
     "extra JSON context entry; KEY gets the ecsb_ prefix", {0}, "note=x", "x"},
    {"--ecsb_progress", "--ecsb_progress=auto|off", FLAG_CUSTOM, 0, 0, parse_progress,
     "--ecsb_progress is auto or off",
     "progress on stderr (auto: a live line on a terminal\n"
     "when stdout is redirected, else a line per 10%%)",
     {0}, "off", "maybe"},
    {"--benchmark_filter", "--benchmark_filter=REGEX", FLAG_CUSTOM, 0, 0, parse_filter, NULL,
     "only names matching it (POSIX extended; -REGEX: not\n"
     "matching)",
     {0}, "dual_iterate", "("},
    {"--benchmark_list_tests", "--benchmark_list_tests", FLAG_BOOL, SETTING(list_tests), 0, NULL,
     "it takes true or false", "print the selected names, run nothing", {0}, "true", "maybe"},
    {"--benchmark_repetitions", "--benchmark_repetitions=R", FLAG_COUNT, SETTING(repetitions),
     MAX_REPETITIONS, NULL, "repetitions: a decimal integer 1..1000",
     "repetitions of every benchmark (default: %.0f, up to\n"
     "%.0f where a cell is cheap)",
     {DEFAULT_REPETITIONS, MOST_REPETITIONS}, "2", "0"},
    {"--benchmark_min_time", "--benchmark_min_time=S", FLAG_SECONDS, SETTING(min_time),
     MAX_MIN_TIME, NULL,
     "seconds of passes per repetition: a number above 0, at most 3600, without a unit, e.g. "
     "--benchmark_min_time=0.05",
     "seconds of passes per repetition on the slowest line\n"
     "of a cell, at least 3 passes (or 0.25 s of long\n"
     "ones) after the scenario's untimed warm-up, the\n"
     "same for every line (default: %g)",
     {DEFAULT_MIN_TIME}, "0.01", "1s"},
    {"--benchmark_enable_random_interleaving", "--benchmark_enable_random_interleaving=true|false",
     FLAG_BOOL, SETTING(interleave), 0, NULL, "it takes true or false", "(default: true)", {0},
     "false", "maybe"},
    {"--benchmark_out", "--benchmark_out=FILE", FLAG_CUSTOM, 0, 0, parse_out,
     "--benchmark_out=FILE names the output file", "write the results to FILE too", {0},
     "/dev/null", ""},
    {"--benchmark_out_format", "--benchmark_out_format=json|console", FLAG_CUSTOM, 0, 0,
     parse_out_format,
     "valid values: json, console (Google Benchmark's CSV is deprecated: make bench writes "
     "results.csv from the JSON)",
     "(default: json)", {0}, "console", "xml"},
};
#define FLAG_COUNT_ALL (sizeof flags / sizeof flags[0])

/* One table row's value: 0 taken, 2 bad (printed). */
static int parse_flag(const bench_flag *f, const char *v, const char *arg,
                      ecsb_bench_settings *s, parse_state *ps)
{
    char *field = (char *)s + f->offset;
    int rc;
    uint64_t count;
    switch (f->kind) {
    case FLAG_BOOL:
        rc = parse_bool(v, (bool *)field) ? 0 : 1;
        break;
    case FLAG_COUNT:
        rc = ecsb_parse_count(v, (uint64_t)f->max, &count) ? 0 : 1;
        if (rc == 0)
            *(int *)field = (int)count;
        break;
    case FLAG_SECONDS:
        rc = parse_seconds(v, f->max, (double *)field) ? 0 : 1;
        break;
    default:
        rc = f->parse(v, arg, s, ps);
        break;
    }
    return rc == 1 ? usage_error("bad %s", arg, f->hint) : rc;
}

/* A flag ecsbench handles: 0 done, 1 not ours, 2 bad (printed). */
static int parse_own_flag(const char *arg, ecsb_bench_settings *s, parse_state *ps)
{
    for (size_t i = 0; i < FLAG_COUNT_ALL; i++) {
        const char *v = flag_value(arg, flags[i].name);
        if (v)
            return parse_flag(&flags[i], v, arg, s, ps);
    }
    if (strncmp(arg, "--ecsb_", 7) != 0)
        return 1;
    char own[512] = "";
    for (size_t i = 0; i < FLAG_COUNT_ALL; i++)
        if (strncmp(flags[i].name, "--ecsb_", 7) == 0)
            snprintf(own + strlen(own), sizeof own - strlen(own), "%s%s%s", own[0] ? ", " : "",
                     flags[i].name, strchr(flags[i].form, '=') ? "=" : "");
    fprintf(stderr, "ecsbench: unknown flag %s\necsbench's own flags are %s\n(see: ecsbench help)\n",
            arg, own);
    return 2;
}

void ecsb_bench_usage(FILE *out)
{
    fprintf(out, "Flags of ecsbench bench (a later flag overrides an earlier one):\n");
    for (size_t i = 0; i < FLAG_COUNT_ALL; i++) {
        const bench_flag *f = &flags[i];
        char text[1024];
        const double *a = f->help_args;
        snprintf(text, sizeof text, f->help, a[0], a[1], a[2]);
        bool wide = strlen(f->form) > 26;
        fprintf(out, "  %-26s%s", f->form, wide ? "   " : " ");
        for (char *line = text, *next; line; line = next) {
            next = strchr(line, '\n');
            if (next)
                *next++ = '\0';
            fprintf(out, "%s%s\n", line == text ? "" : "                             ", line);
        }
    }
    fputs("Every other --benchmark_* flag below goes to Google Benchmark.\n"
          "Before anything is timed, every benchmark runs once untimed: its checksum must\n"
          "equal the floor's (the same work on plain arrays) at the same scenario and N,\n"
          "else it is an error row (and ecsbench bench exits 1 after writing its results).\n"
          "A second untimed world calibrates the passes per repetition. Each repetition\n"
          "spreads its passes over freshly built worlds (fresh placements); a scenario\n"
          "whose pass consumes its set-up (platformer) times batches of freshly prepared\n"
          "worlds between two clock reads.\n"
          "Rows are named scenario/strategy/N and carry real_time per pass and the counters\n"
          "items_per_pass, n, bytes and entities (the storage right after set-up with the\n"
          "scenario's capacity hint), bytes_grown (the same, grown from empty), warmup and\n"
          "worlds (the plan), slice_1.. (seconds per pass in consecutive slices of the\n"
          "timed passes), drift (least time per pass, timed / the warm-up's last third, or\n"
          "last third / first third after a short warm-up) and the\n"
          "sentinel's sentinel_ns, speed_index, cpu_share and disturbed (docs/measuring.md).\n",
          out);
}

void ecsb_bench_flags_json(FILE *out)
{
    fprintf(out, "[");
    for (size_t i = 0; i < FLAG_COUNT_ALL; i++)
        fprintf(out, "%s{\"name\": \"%s\", \"example\": \"%s\", \"bad\": \"%s\"}", i ? ", " : "",
                flags[i].name, flags[i].example, flags[i].bad);
    fprintf(out, "]");
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

    *s = (ecsb_bench_settings){.progress = true, .interleave = true, .repeat_budget = -1,
                               .cpu_share = -1};
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
    parse_state ps = {0};
    for (int i = 2; i < argc; i++) {
        int rc = parse_own_flag(argv[i], s, &ps);
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
    if (!ps.scenarios_given)
        for (int i = 0; i < ECSB_SCENARIO_COUNT; i++)
            s->scenario_on[i] = true;
    if (!ps.strategies_given)
        for (size_t i = 0; i < ecsb_strategy_count; i++)
            s->strategy_on[i] = true;
    int rc = check_param_selection(s);
    if (rc)
        return rc;

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
