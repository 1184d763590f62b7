"""ecsb_overview — the whole run at a glance, for the heat map (plot_data.py) and the "which to
choose" tables (summary.py).

The statistics (scripts/ecsb_stats.py: SciPy, statsmodels) are imported where the "which to
choose" rows and the heat map's "cannot tell apart" marks need them.

The heat map has one file per world order (the `order` parameter: regular, shuffled, aged):
world_order() says which a case (a scenario or a variant) belongs to.

Two panels: N = 4000 (the articles' size; the nearest size a scenario ran when it has no 4000)
and each scenario's largest N. In a panel every strategy of the run has, per scenario, a cell:
  ("ok", ratio)      median time per item / the fastest strategy's (the floor and limit lines
                     are references, never "the fastest")
  ("failed", None)   the benchmark failed its checksum or a status: no time
  ("not run", None)  the run has no such benchmark
"""
import math

SMALL_N = 4000
WITHIN = 1.2  # "within 1.2x of the best"


def panel_size(run, scenario, panel):
    """The N a panel shows for a scenario: "small" -> 4000 or the nearest; "large" -> largest."""
    sizes = run.sizes(scenario)
    if not sizes:
        return None
    if panel == "large":
        return sizes[-1]
    return min(sizes, key=lambda n: (abs(math.log(n / SMALL_N)), n))


def ranking(run, scenario, n, params=None):
    """[(strategy, median ns per item)] of the strategies with a time at (scenario, n), fastest
    first (ties in legend order); with params, only those run with that parameter string."""
    order = run.contenders()
    timed = [(s, run.time_per_item((scenario, s, n))["median"]) for s in order
             if run.time_per_item((scenario, s, n))
             and params in (None, run.params_of((scenario, s, n)))]
    return sorted(timed, key=lambda x: (x[1], order.index(x[0])))


def panel(run, which):
    """{"sizes": {scenario: N}, "best": {scenario: (strategy, ns) or None},
        "cells": {(scenario, strategy): (state, ratio)}} for "small" or "large"."""
    out = {"sizes": {}, "best": {}, "cells": {}}
    for sc in run.scenarios:
        n = panel_size(run, sc, which)
        out["sizes"][sc] = n
        ranked = ranking(run, sc, n)
        out["best"][sc] = ranked[0] if ranked else None
        times = dict(ranked)
        for st in run.contenders():
            if st in times:
                out["cells"][(sc, st)] = ("ok", times[st] / ranked[0][1])
            elif run.failed((sc, st, n)):
                out["cells"][(sc, st)] = ("failed", None)
            else:
                out["cells"][(sc, st)] = ("not run", None)
    return out


def choices(run, alpha=0.05, cells=None):
    """The "which to choose" rows: per scenario and panel size (or per (scenario, N, params) of
    `cells`, params None for any), the fastest strategy, the runner-up, the margin (runner-up /
    fastest) and its significance (two-sided Mann–Whitney U over the repetitions,
    Holm-adjusted within each scenario: the family is the verdicts about one scenario, its
    sizes and parameter sets, so that adding a scenario to a run does not make the others'
    verdicts harder to reach), and the strategies that failed there. Returns (rows, note):
    note says when no row can be significant, and how many repetitions would."""
    from ecsb_stats import holm, reps_for, smallest_p, utest
    if cells is None:
        cells = [(sc, n, None) for sc in run.scenarios
                 for n in dict.fromkeys(panel_size(run, sc, w) for w in ("small", "large"))]
    rows = []
    for sc, n, params in cells:
        ranked = ranking(run, sc, n, params)
        failed = [s for s in run.contenders() if run.failed((sc, s, n))
                  and params in (None, run.params_of((sc, s, n)))]
        row = {"scenario": sc, "n": n, "params": params, "fastest": None,
               "runner_up": None, "margin": None, "p": None, "p_holm": None, "reps": None,
               "failed": failed}
        if ranked:
            row["fastest"] = ranked[0]
        if len(ranked) > 1:
            row["runner_up"] = ranked[1]
            row["margin"] = ranked[1][1] / ranked[0][1]
            a = run.samples.get((sc, ranked[0][0], n), [])
            b = run.samples.get((sc, ranked[1][0], n), [])
            row["reps"] = (len(a), len(b))
            row["p"] = utest(a, b)
        rows.append(row)
    families = {}
    for row in rows:
        families.setdefault(row["scenario"], []).append(row)
    for family in families.values():
        for row, adjusted in zip(family, holm([r["p"] for r in family])):
            row["p_holm"] = adjusted
            row["verdict"] = verdict(row, adjusted, alpha)
    tested = [r for r in rows if r["p"] is not None]
    family_size = max((sum(r["p"] is not None for r in f) for f in families.values()), default=0)
    note = ""
    if tested:
        floor_p = min(smallest_p(*r["reps"]) for r in tested)
        if floor_p * family_size >= alpha:
            reps = min(min(r["reps"]) for r in tested)
            enough = reps_for(alpha, family_size)
            note = (f"With {reps} repetitions the U test cannot give p below {floor_p:.2g}, and "
                    f"Holm's correction over a scenario's {family_size} rows needs about "
                    f"{alpha / family_size:.2g}: no margin here can be called significant. "
                    + (f"Run with {enough} repetitions or more (ECSB_BENCH_ARGS="
                       f"--benchmark_repetitions={enough})." if enough else
                       "Run with more repetitions."))
    return rows, note


def verdict(row, p_holm, alpha):
    from ecsb_stats import smallest_p
    if row["runner_up"] is None:
        return "only one strategy ran" if row["fastest"] else "nothing ran"
    if p_holm is None:
        return "untested (fewer than 2 repetitions)"
    if p_holm < alpha:
        return "significant"
    if smallest_p(*row["reps"]) >= alpha:
        return f"too few repetitions ({min(row['reps'])}) to tell"
    return "within noise"


def world_order(run, case):
    """The world order a case ran in: its rows' `order` parameter; for a run without a params
    column, the order in the variant's name, else "regular" (the default)."""
    for (sc, st, n), params in run.params.items():
        if sc == case:
            for a in params.split(";"):
                if a.startswith("order="):
                    return a.split("=", 1)[1]
    for a in case.split("~", 1)[1].split(",") if "~" in case else []:
        if a.startswith("order="):
            return a.split("=", 1)[1]
    return "regular"


def without_order(case):
    """A case's name without its order parameter (the heat map's file names the order):
    dual_iterate~order=shuffled,match=0.25 -> dual_iterate~match=0.25."""
    base, _, changed = case.partition("~")
    rest = [a for a in changed.split(",") if a and not a.startswith("order=")]
    return base + ("~" + ",".join(rest) if rest else "")


LEVEL_MARGIN = 1.05  # DESIGN.md: "faster" means significant and at least 5 %


def tells_apart(slower, fastest):
    """Whether a run's repetitions show `slower` (seconds per pass) slower than `fastest`:
    significant (two-sided U test, p < 0.05) and at least 5 % apart in median. False means the
    run cannot tell them apart (level, or too few repetitions to decide). The heat map's one
    call into the verdict module (ecsb_stats): adapt here when its verdict function changes."""
    from ecsb_stats import utest
    p = utest(slower, fastest)
    if p is None or p >= 0.05:
        return False
    ratio = sorted(slower)[len(slower) // 2] / sorted(fastest)[len(fastest) // 2]
    return ratio >= LEVEL_MARGIN


def level_with_best(run, which):
    """{(case, strategy)} of the panel's cells the run cannot tell apart from the fastest of
    their case (the fastest itself left out)."""
    p = panel(run, which)
    out = set()
    for sc in run.scenarios:
        best, n = p["best"][sc], p["sizes"][sc]
        if not best:
            continue
        for st in run.contenders():
            if st != best[0] and p["cells"][(sc, st)][0] == "ok" and not tells_apart(
                    run.samples.get((sc, st, n), []), run.samples.get((sc, best[0], n), [])):
                out.add((sc, st))
    return out


def within_best(run, which):
    """{strategy: [(scenario, ratio)]}: where it is within 1.2x of the fastest in the panel."""
    p = panel(run, which)
    out = {st: [] for st in run.contenders()}
    for (sc, st), (state, ratio) in p["cells"].items():
        if state == "ok" and ratio <= WITHIN:
            out[st].append((sc, ratio))
    order = run.scenarios
    return {st: sorted(v, key=lambda x: order.index(x[0])) for st, v in out.items()}
