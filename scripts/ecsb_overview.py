"""ecsb_overview — the whole run at a glance, for the heat maps (plot_data.py).

The heat map's "cannot tell apart" marks ask the verdict module (scripts/ecsb_stats.py), as
every other document does, so the heat map never disagrees with choose.md or summary.md.

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


def panel_size(run, scenario, panel):
    """The N a panel shows for a scenario: "small" -> 4000 or the nearest; "large" -> largest."""
    sizes = run.sizes(scenario)
    if not sizes:
        return None
    if panel == "large":
        return sizes[-1]
    return min(sizes, key=lambda n: (abs(math.log(n / SMALL_N)), n))


def ranking(run, scenario, n):
    """[(strategy, median ns per item)] of the strategies with a time at (scenario, n), fastest
    first (ties in legend order)."""
    order = run.contenders()
    timed = [(s, run.time_per_item((scenario, s, n))["median"]) for s in order
             if run.time_per_item((scenario, s, n))]
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


def heatmaps(run):
    """[(order, file name without extension, its cases)]: one heat map per world order the run's
    cases (those with a time at some N) ran in, regular first (overview_heatmap, no suffix),
    then the others as the run lists them (overview_heatmap~order=<order>). plot_data.py draws
    these files and summary.md embeds them: one list, so the two never name different files.
    [] for a run without a timed case or without a strategy (only references)."""
    cases = [sc for sc in run.scenarios if run.sizes(sc)]
    if not run.contenders():
        return []
    orders = list(dict.fromkeys(world_order(run, sc) for sc in cases))
    return [(order, "overview_heatmap" + ("" if order == "regular" else f"~order={order}"),
             [sc for sc in cases if world_order(run, sc) == order])
            for order in sorted(orders, key=lambda o: (o != "regular", orders.index(o)))]


def level_with_best(run, which):
    """{(case, strategy)} of the panel's cells the run cannot tell apart from the fastest of
    their case (the fastest itself left out): the verdict module's (ecsb_stats) verdict of the
    pair in that cell (case, N) is level or undecidable, not faster. A strategy with a time but
    no repetitions to test is undecidable too."""
    from ecsb_stats import FASTER, cell
    p = panel(run, which)
    out = set()
    for sc in run.scenarios:
        best, n = p["best"][sc], p["sizes"][sc]
        if not best:
            continue
        verdicts = cell(run, sc, n)
        for st in run.contenders():
            if st == best[0] or p["cells"][(sc, st)][0] != "ok":
                continue
            if st not in verdicts.samples or best[0] not in verdicts.samples \
                    or verdicts.pair(st, best[0]).verdict != FASTER:
                out.add((sc, st))
    return out


def untold_from_best(run, which):
    """{(case, strategy)} of level_with_best's cells whose verdict is undecidable (the run
    cannot say whether it is slower): the heat map draws them as such, not with a ratio."""
    from ecsb_stats import UNDECIDABLE, cell
    p = panel(run, which)
    out = set()
    for sc, st in level_with_best(run, which):
        best, n = p["best"][sc], p["sizes"][sc]
        verdicts = cell(run, sc, n)
        if st not in verdicts.samples or best[0] not in verdicts.samples \
                or verdicts.pair(st, best[0]).verdict == UNDECIDABLE:
            out.add((sc, st))
    return out
