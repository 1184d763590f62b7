"""ecsb_crossover.py — sweeps and crossovers: where the fastest strategy changes as one scenario
parameter moves (make sweep / make sweeps).

A run that ran a scenario at several values of one parameter (the others fixed) holds a
*sweep*: its points are the scenario's variants (scripts/ecsb_rundata.py names them
scenario~name=value,...) that differ only in that parameter, plus the base scenario at the
parameter's default. At each point and size the *leader* is the strategy with the least median
time per item (the floor and the limit are references, not contenders). A change of leader
between neighbouring values v1 and v2 is a *crossover* (marked in the table and on the chart)
only when the old leader is significantly faster than the new one at v1 and the new leader
significantly faster than the old one at v2, each verdict decided by scripts/ecsb_stats.py in
the run's family (ecsb_stats.FAMILY); any other change of leader is "level between v1 and v2":
the two cannot be told apart on at least one side, so the run shows no crossover there.

Used by summary.py (the "Crossovers" section) and plot_data.py (one chart per sweep).
"""
import json
import math
import os

from ecsb_rundata import FLOOR, LIMIT, base_scenario


def _assignments(text):
    return dict(a.split("=", 1) for a in text.split(",") if "=" in a) if text else {}


def _param_info(run):
    """{(scenario, param): {"default": str, "geometric": bool}} from the run's list.json."""
    out = {}
    listed = os.path.join(run.path, "list.json")
    try:
        with open(listed, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return out
    for sc in doc.get("scenarios", []):
        for p in sc.get("params", []) or []:
            out[(sc.get("name"), p.get("name"))] = {"default": str(p.get("default")),
                                                   "geometric": bool(p.get("geometric"))}
    return out


def _number(text):
    try:
        return float(text)
    except ValueError:
        return None


def sweeps(run):
    """[{"scenario", "fixed", "param", "geometric", "points": [(value, variant)]}] of the run:
    every (base scenario, fixed other parameters, parameter) with at least two numeric values."""
    info = _param_info(run)
    groups = {}
    for variant in run.scenarios:
        base = base_scenario(variant)
        changed = _assignments(variant.split("~", 1)[1] if "~" in variant else "")
        for param in {k for (s, k) in info if s == base} - {"order"}:
            fixed = tuple(sorted((k, v) for k, v in changed.items() if k != param))
            value = changed.get(param, info[(base, param)]["default"])
            groups.setdefault((base, fixed, param), []).append((value, variant))
    out = []
    for (base, fixed, param), points in groups.items():
        numeric = [(_number(v), s) for v, s in points]
        if len(numeric) < 2 or any(v is None for v, _ in numeric):
            continue
        numeric.sort()
        out.append({"scenario": base, "fixed": ",".join(f"{k}={v}" for k, v in fixed),
                    "param": param, "geometric": info[(base, param)]["geometric"],
                    "points": numeric})
    order = {s: i for i, s in enumerate(run.scenarios)}
    out.sort(key=lambda g: (order.get(g["scenario"], 0), g["fixed"], g["param"]))
    return out


def sizes_of(run, sweep):
    return sorted({n for (sc, _, n) in run.rows for _, v in sweep["points"] if sc == v})


def leaders(run, sweep, n):
    """[(value, leader, median ns or None)] at size n, a leader per value (None: nothing ran)."""
    out = []
    for value, variant in sweep["points"]:
        best = None
        for st in run.contenders():
            t = run.time_per_item((variant, st, n))
            if t and (best is None or t["median"] < best[1]):
                best = (st, t["median"])
        out.append((value, best[0] if best else None, best[1] if best else None))
    return out


def crossovers(run, sweep, n):
    """[{"from", "to", "old", "new", "before", "after", "significant"}]: each change of the
    leader between neighbouring values at size n. before/after: the ecsb_stats.Pair of old
    against new at "from" and of new against old at "to"; significant (a marked crossover)
    when both are FASTER, the old leader faster before and the new one after."""
    from ecsb_stats import FASTER, cell
    lead = leaders(run, sweep, n)
    variant = dict((v, s) for v, s in sweep["points"])
    flips = []
    for (v0, old, _), (v1, new, _) in zip(lead, lead[1:]):
        if not (old and new and old != new):
            continue
        before, after = cell(run, variant[v0], n), cell(run, variant[v1], n)
        flip = {"from": v0, "to": v1, "old": old, "new": new, "before": None, "after": None}
        if new in before.samples and old in after.samples:
            flip["before"] = before.pair(old, new)
            flip["after"] = after.pair(new, old)
        flip["significant"] = all(p is not None and p.verdict == FASTER and p.faster == who
                                  for p, who in ((flip["before"], old), (flip["after"], new)))
        flips.append(flip)
    return flips


def flip_words(sweep, f):
    """One line of the crossover table's notes: a marked crossover or a level stretch."""
    between = f"between {sweep['param']} = {fmt_value(f['from'])} and {fmt_value(f['to'])}"
    if f["significant"]:
        return (f"- {between}: **crossover**, {f['new']} overtakes {f['old']} ({f['old']} "
                f"{1 / f['before'].ratio:.2f}x faster at {fmt_value(f['from'])}, {f['new']} "
                f"{1 / f['after'].ratio:.2f}x faster at {fmt_value(f['to'])}, both *faster*)")
    said = [f"at {fmt_value(v)}: {p.words()}" for v, p in ((f["from"], f["before"]),
                                                           (f["to"], f["after"])) if p]
    return (f"- level between {fmt_value(f['from'])} and {fmt_value(f['to'])}: the lead passes "
            f"from {f['old']} to {f['new']}, but not with both sides decided"
            + (f" ({'; '.join(said)})" if said else "") + "; no crossover")


def fmt_value(v):
    return f"{v:g}"


def title(sweep):
    fixed = f" ({sweep['fixed']})" if sweep["fixed"] else ""
    return f"{sweep['scenario']}{fixed}: {sweep['param']}"


def section(run):
    """The "Crossovers" section of summary.md ([] when the run holds no sweep)."""
    found = sweeps(run)
    if not found:
        return []
    from ecsb_stats import FAMILY
    out = ["## Crossovers", "",
           "Each sweep varies one scenario parameter, the others fixed. *Leader* = the "
           "strategy with the least median time per item at that value (the floor and the limit "
           "left out). A change of leader between two neighbouring values is a *crossover* only "
           "when the old leader is *faster* than the new one on one side and the new leader "
           "*faster* on the other; otherwise it is *level between* the two values.", "",
           FAMILY, ""]
    for sweep in found:
        for n in sizes_of(run, sweep):
            lead = leaders(run, sweep, n)
            flips = crossovers(run, sweep, n)
            out += [f"### {title(sweep)}, N = {n:,}", "",
                    "| " + sweep["param"] + " | " + " | ".join(fmt_value(v) for v, _, _ in lead)
                    + " |", "|---" * (len(lead) + 1) + "|",
                    "| leader | " + " | ".join(f"{s or '—'}" + (f" ({t:.3g} ns)" if t else "")
                                              for _, s, t in lead) + " |", ""]
            if not flips:
                out += ["No crossover: the same strategy leads at every value.", ""]
            out += [flip_words(sweep, f) for f in flips]
            out.append("")
    return out


def plot_name(sweep, n):
    fixed = f"~{sweep['fixed']}" if sweep["fixed"] else ""
    return f"{sweep['scenario']}{fixed}_sweep_{sweep['param']}_n{n}"


def x_axis(values, geometric):
    """How a sweep's values sit on the x axis: (kind, positions, note).
      "log"     every value positive and the sweep geometric: gnuplot's log scale, positions
                are the values
      "symlog"  0 among values whose positive ones span 10x or more (frame's churn 0 .. 0.1,
                add_remove's held 0 .. 16): log10 of each positive value, 0 set one typical
                step (the median log step, at least half a decade) left of the smallest, so
                the small values do not crowd into the left tenth
      "linear"  otherwise
    """
    positive = sorted(v for v in values if v > 0)
    if geometric and len(positive) == len(values):
        return "log", list(values), ""
    if 0 in values and len(positive) >= 2 and positive[-1] / positive[0] >= 10:
        steps = sorted(math.log10(b / a) for a, b in zip(positive, positive[1:]))
        gap = max(0.5, steps[len(steps) // 2])
        zero = math.log10(positive[0]) - gap
        return ("symlog", [math.log10(v) if v > 0 else zero for v in values],
                "x: log scale, 0 set apart at the left")
    return "linear", list(values), ""


def stamp(run):
    """The chart's stamp, as every chart has it: machine short name, date, run id."""
    from ecsb_rundata import machine_short_name
    return f"{machine_short_name(run.path)}  ·  {run.date()}  ·  run {run.run_id}".replace('"', "'")


def write_plot_data(run, out, colours, charts):
    """Per sweep and size: NAME.dat (x position, then median/min/max per series, then the
    value) and NAME.vars.gp; appends ("crossover.gp", vars) to charts. vars.gp's flips are the
    marked crossovers only; levels_from/levels_to bracket each change of leader that is "level
    between" its values (nlevels of them), in x positions, for a chart to shade or label, never
    to mark as a crossover."""
    series = [s for s in (FLOOR, LIMIT) if s in run.strategies] + run.contenders()
    for sweep in sweeps(run):
        values = [v for v, _ in sweep["points"]]
        kind, positions, note = x_axis(values, sweep["geometric"])
        where = dict(zip(values, positions))
        for n in sizes_of(run, sweep):
            name = plot_name(sweep, n)
            dat = os.path.join(out, name + ".dat")
            with open(dat, "w") as f:
                f.write("# x " + " ".join(f"{s}_median {s}_min {s}_max" for s in series)
                        + " value\n")
                for value, variant in sweep["points"]:
                    cells = []
                    for s in series:
                        t = run.time_per_item((variant, s, n))
                        cells += [f"{t[k]:.6g}" for k in ("median", "min", "max")] if t else \
                            ["NaN"] * 3
                    f.write(f"{where[value]:.10g} " + " ".join(cells) + f" {value:.10g}\n")
            found = crossovers(run, sweep, n)
            flips = [math.sqrt(f["from"] * f["to"]) if kind == "log"
                     else (where[f["from"]] + where[f["to"]]) / 2 for f in found if f["significant"]]
            levels = [(where[f["from"]], where[f["to"]]) for f in found if not f["significant"]]
            vars_path = os.path.join(out, name + ".vars.gp")
            with open(vars_path, "w") as f:
                f.write(f'datafile = "{dat}"\n')
                f.write(f'out_name = "{os.path.join(out, name)}"\n')
                f.write(f'chart_title = "{title(sweep)} at N = {n:,}: time per item"\n')
                f.write(f'xlabel_text = "{sweep["param"]}"\n')
                f.write(f'axis_note = "{note}"\n')
                f.write(f'corner = "{stamp(run)}"\n')
                f.write(f"logx = {1 if kind == 'log' else 0}\n")
                if kind == "symlog":  # tics at the values themselves, labelled with them
                    f.write("set xtics (" + ", ".join(f'"{fmt_value(v)}" {x!r}'
                                                      for v, x in zip(values, positions)) + ")\n")
                    span = positions[-1] - positions[0]
                    f.write(f"set xrange [{positions[0] - 0.06 * span!r}:{positions[-1] + 0.06 * span!r}]\n")
                f.write(f"nseries = {len(series)}\n")
                f.write("array titles[%d] = [%s]\n" % (len(series), ", ".join(
                    f'"{s}"' for s in series)))
                f.write("array colours[%d] = [%s]\n" % (len(series), ", ".join(
                    f'"{colours.get(s, "#444444")}"' for s in series)))
                f.write("array dashes[%d] = [%s]\n" % (len(series), ", ".join(
                    "2" if s in (FLOOR, LIMIT) else "1" for s in series)))
                f.write(f"nflips = {len(flips)}\n")
                f.write("array flips[%d] = [%s]\n" % (max(1, len(flips)), ", ".join(
                    f"{x:.10g}" for x in flips) or "0"))
                f.write(f"nlevels = {len(levels)}\n")
                for side, at in (("levels_from", 0), ("levels_to", 1)):
                    f.write("array %s[%d] = [%s]\n" % (side, max(1, len(levels)), ", ".join(
                        f"{x[at]:.10g}" for x in levels) or "0"))
            charts.append(("crossover.gp", vars_path))
