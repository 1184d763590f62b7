#!/usr/bin/env python3
"""compare.py — compare two ecsbench runs, or strategies inside one run, with a verdict per row.

  compare.py A B                         every (scenario, strategy, N) present in both runs:
                                         ratio B/A of the median time per item
  compare.py --strategies S1,S2[,..] A   inside run A, per (scenario, N): each of S2.. against
                                         the first, S1 (ratio S2/S1)

Per row: the ratio of medians (from results.csv), shown as "1.90x slower" / "2.50x faster", a
two-sided Mann–Whitney U test over the repetitions (raw.json iteration rows; SciPy's, exact
up to 20 repetitions a side without ties, see ecsb_stats.py), Holm-adjusted (ecsb_stats.holm) over
every tested row of the table so that the chance of even one false "faster/slower" in the
whole table stays below alpha, and a verdict:
    faster / slower   Holm-adjusted p < alpha (0.05) AND |ratio - 1| >= threshold (5 %)
    within noise      otherwise
    too few repetitions   even samples entirely apart could not give p < alpha (3 a side: 0.1)
    untested          fewer than 2 repetitions on a side: no test possible
Then the geometric mean of the ratios per scenario and overall (floor and limit rows excluded:
they are the machine's own lines, shown separately as a check on the machine state). When A
and B ran on different CPUs or cache sizes, the output says so first: their ratios mix the
code's change with the machine's.

Inside one run (--strategies) the verdicts are scripts/ecsb_stats.py's (its FAMILY sentence is
printed): faster / slower / level / undecidable, judged in the run's family; the ratio is
then that of the geometric means (the estimand the verdict decides on).
Between two runs, after the table: how the two runs' verdicts agree (ecsb_stats.FAMILY in each
run): per pair of layouts in a cell both runs have, a *contradiction* is one run saying the
first is faster and the other saying the second is; a *disagreement* is one run saying
*faster* and the other *level* or *undecidable* (counted apart: the runs differ in what they
could decide, not in what they decided); printed with their counts, and the share of lines
whose repetitions spread over 1.4x (max/min) in each run.

Options: --alpha P, --threshold F (fraction), --json FILE (rows and summary), --no-color.
Exit 0 on success (whatever the verdicts), 2 on bad arguments, missing or malformed runs, or
nothing to compare.
"""
import argparse
import json
import math
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ecsb_hardware import HardwareLine  # noqa: E402
from ecsb_rundata import FLOOR, REFERENCES, RunError, load_machine, load_run, machine_short_name  # noqa: E402
import ecsb_stats as stats  # noqa: E402
from ecsb_stats import fmt_p, geomean, holm, reps_for, smallest_p, times, utest  # noqa: E402


class UsageError(Exception):
    pass


class ArgParser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def verdict(ratio, p, alpha, threshold, reps):
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "untested"
    if p < alpha and abs(ratio - 1.0) >= threshold:
        return "faster" if ratio < 1.0 else "slower"
    if smallest_p(*reps) >= alpha:
        return "too few repetitions"
    return "within noise"


def machine_differences(a, b):
    """Lines naming what differs between the machines of runs A and B (CPU model, CPU count,
    data and unified cache sizes)."""
    out = []
    if a.cpu() != b.cpu():
        out.append(f"CPU: A {a.cpu() or 'unknown'}, B {b.cpu() or 'unknown'}")
    ca, cb = a.context.get("num_cpus"), b.context.get("num_cpus")
    if ca != cb:
        out.append(f"CPUs: A {ca}, B {cb}")

    def caches(run):
        return ", ".join(f"{name} {size // 1024} KiB" for name, size in run.caches()) or "unknown"
    if caches(a) != caches(b):
        out.append(f"caches: A {caches(a)}; B {caches(b)}")
    return out


def build_differences(a, b):
    """Lines naming what differs between the builds of runs A and B: the C compiler, the flags
    and the Google Benchmark version (recorded at build time, ecsb_gbench_version; Google
    Benchmark 1.9 and later also records library_version itself)."""
    out = []
    for key, name in (("ecsb_compiler", "C compiler"), ("ecsb_cflags", "C flags"),
                      ("ecsb_gbench_version", "Google Benchmark"),
                      ("library_version", "Google Benchmark library")):
        va, vb = a.context.get(key), b.context.get(key)
        if va != vb and (va is not None or vb is not None):
            out.append(f"{name}: A {va or 'unknown'}, B {vb or 'unknown'}")
    return out


# ---- building the rows ----------------------------------------------------------------------

def row(scenario, strategy, n, a_stats, b_stats, a_samples, b_samples, baseline=None):
    return {"scenario": scenario, "strategy": strategy, "baseline": baseline, "n": n,
            "a_median": a_stats["median"], "b_median": b_stats["median"],
            "ratio": b_stats["median"] / a_stats["median"] if a_stats["median"] > 0 else math.nan,
            "a_repetitions": len(a_samples), "b_repetitions": len(b_samples),
            "_samples": (a_samples, b_samples)}


def rows_between_runs(a, b):
    keys_a = {k for k in a.rows if a.time_per_item(k)}
    keys_b = {k for k in b.rows if b.time_per_item(k)}
    common = keys_a & keys_b
    notes = []
    for side, only in (("A", keys_a - keys_b), ("B", keys_b - keys_a)):
        if only:
            shown = ", ".join(f"{s}/{t}/{n}" for s, t, n in sorted(only)[:4])
            more = f" and {len(only) - 4} more" if len(only) > 4 else ""
            notes.append(f"note: {len(only)} rows only in {side} (not compared): {shown}{more}")
    if not common:
        raise UsageError(f"runs {a.path} and {b.path} have no (scenario, strategy, N) in common")
    scen_order = a.scenarios + [s for s in b.scenarios if s not in a.scenarios]
    strat_order = a.strategies + [s for s in b.strategies if s not in a.strategies]
    out = []
    for k in sorted(common, key=lambda k: (scen_order.index(k[0]), strat_order.index(k[1]), k[2])):
        out.append(row(*k, a.time_per_item(k), b.time_per_item(k),
                       a.samples.get(k, []), b.samples.get(k, [])))
    return out, notes


def rows_between_strategies(run, names):
    missing = [s for s in names if s not in run.strategies]
    if missing:
        raise UsageError(f"strategy {', '.join(missing)} not in run {run.path} "
                         f"(it has: {', '.join(run.strategies)})")
    base, others = names[0], names[1:]
    out, notes = [], []
    for scenario in run.scenarios:
        for other in others:
            for n in run.sizes(scenario):
                ta, tb = run.time_per_item((scenario, base, n)), run.time_per_item((scenario, other, n))
                if ta and tb:
                    out.append(row(scenario, other, n, ta, tb,
                                   run.samples.get((scenario, base, n), []),
                                   run.samples.get((scenario, other, n), []), baseline=base))
                elif ta or tb:
                    notes.append(f"note: {scenario} N={n}: only "
                                 f"{base if ta else other} has a result (not compared)")
    if not out:
        raise UsageError(f"{', '.join(names)}: no (scenario, N) where both have results in {run.path}")
    return out, notes


def agreement(a, b):
    """How the verdicts of runs A and B agree, pair by pair of layouts in every cell both ran
    (each run judged in its own family): {"cells", "pairs", "agree" (the same verdict, and for
    *faster* the same way), "contradictions" [...] (*faster* one way in A, the other way in B),
    "disagreements" {"level": n, "undecidable": n} (*faster* in one run, *level* or
    *undecidable* in the other), "disagreement_examples" [...], "level_undecidable" (*level* in
    one run, *undecidable* in the other), "wide": {"A": (wide, lines), "B": ...}}."""
    out = {"cells": 0, "pairs": 0, "agree": 0, "contradictions": [],
           "disagreements": {stats.LEVEL: 0, stats.UNDECIDABLE: 0},
           "disagreement_examples": [], "level_undecidable": 0,
           "wide": {"A": stats.wide_share(a), "B": stats.wide_share(b)},
           "family": {"A": stats.family(a).sentence(), "B": stats.family(b).sentence()}}
    for sc in a.scenarios:
        if sc not in b.scenarios:
            continue
        for n in sorted(set(a.sizes(sc)) & set(b.sizes(sc))):
            ca, cb = stats.cell(a, sc, n), stats.cell(b, sc, n)
            both = [s for s in a.contenders() if s in ca.samples and s in cb.samples]
            if len(both) < 2:
                continue
            out["cells"] += 1
            for i, x in enumerate(both):
                for y in both[i + 1:]:
                    out["pairs"] += 1
                    pa, pb = ca.pair(x, y), cb.pair(x, y)
                    kind = classify(pa, pb)
                    says = {"scenario": sc, "n": n, "pair": [x, y],
                            "a_says": f"{pa.faster} faster" if pa.faster else pa.verdict,
                            "b_says": f"{pb.faster} faster" if pb.faster else pb.verdict,
                            "a_ratio": max(pa.ratio, 1 / pa.ratio),
                            "b_ratio": max(pb.ratio, 1 / pb.ratio)}
                    if kind == "contradiction":
                        out["contradictions"].append(says)
                    elif kind == "agree":
                        out["agree"] += 1
                    elif kind == "level_undecidable":
                        out["level_undecidable"] += 1
                    else:
                        out["disagreements"][kind] += 1
                        out["disagreement_examples"].append(says)
    return out


def classify(pa, pb):
    """One pair's two verdicts (ecsb_stats.Pair of runs A and B): "agree", "contradiction"
    (faster both ways), LEVEL or UNDECIDABLE (faster in one run, that verdict in the other), or
    "level_undecidable"."""
    if pa.verdict == pb.verdict:
        return "contradiction" if pa.faster != pb.faster else "agree"
    if stats.FASTER in (pa.verdict, pb.verdict):
        return pb.verdict if pa.verdict == stats.FASTER else pa.verdict
    return "level_undecidable"


def render_agreement(g):
    def share(w):
        wide, lines = w
        return f"{wide} of {lines} ({100 * wide / lines:.1f} %)" if lines else "none"
    d = g["disagreements"]
    out = ["", "Agreement of the two runs' verdicts between layouts (each run decided alone):",
           stats.FAMILY, f"A: {g['family']['A']}", f"B: {g['family']['B']}",
           f"cells in both runs: {g['cells']}; pairs of layouts: {g['pairs']}; the same verdict "
           f"in both: {g['agree']}; *level* in one, *undecidable* in the other: "
           f"{g['level_undecidable']}",
           f"contradictions (*faster* one way in A, the other way in B): "
           f"{len(g['contradictions'])}"]
    for c in g["contradictions"][:20]:
        out.append(f"  {c['scenario']} N={c['n']}: A says {c['a_says']} "
                   f"({c['a_ratio']:.2f}x), B says {c['b_says']} ({c['b_ratio']:.2f}x)")
    if len(g["contradictions"]) > 20:
        out.append(f"  ... and {len(g['contradictions']) - 20} more (--json lists them all)")
    out.append(f"disagreements (*faster* in one run, not in the other): "
               f"{d[stats.LEVEL] + d[stats.UNDECIDABLE]} ({d[stats.LEVEL]} *level* in the "
               f"other, {d[stats.UNDECIDABLE]} *undecidable*)")
    for c in g["disagreement_examples"][:5]:
        out.append(f"  {c['scenario']} N={c['n']} {' vs '.join(c['pair'])}: A says "
                   f"{c['a_says']}, B says {c['b_says']}")
    if len(g["disagreement_examples"]) > 5:
        out.append(f"  ... and {len(g['disagreement_examples']) - 5} more (--json lists them all)")
    out.append(f"lines whose repetitions spread over {stats.WIDE}x: A {share(g['wide']['A'])}, "
               f"B {share(g['wide']['B'])}")
    return out


# ---- output ---------------------------------------------------------------------------------

def fmt_ns(v):
    """3 decimals below 10 ns, fewer above: right-aligned columns line up."""
    for limit, digits in ((10, 3), (100, 2), (1000, 1)):
        if v < limit:
            return f"{v:.{digits}f}"
    return f"{v:,.0f}"


def table(headers, body, right):
    widths = [max(len(h), *(len(r[i]) for r in body)) if body else len(h)
              for i, h in enumerate(headers)]

    def line(cells):
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
    return line(headers), "  ".join("-" * w for w in widths), line


def across_machines(a, b, rows):
    """When A's and B's machine.json differ (another fingerprint, or one run has none): lines
    comparing what carries across machines, per row of both runs: each line's efficiency (its
    run's hardware line / its time; ecsb_hardware.py) and its time / its own run's floor's at
    the same N. [] when both ran on the same machine."""
    ma, mb = load_machine(a.path), load_machine(b.path)
    ka, kb = (ma or {}).get("fingerprint_key"), (mb or {}).get("fingerprint_key")
    if (ma and mb and ka and ka == kb) or (not ma and not mb):
        return []  # the same machine, or two runs made before machine.json
    ha, hb = HardwareLine(a, ma), HardwareLine(b, mb)
    out = ["", f"ACROSS MACHINES: A ran on {machine_short_name(a.path)}, B on "
               f"{machine_short_name(b.path)} (their machine.json differ"
               + ("" if ma and mb else ": one run has none") + "). Raw times do not carry "
               "across machines; this table compares what does: each line's efficiency (its "
               "run's hardware line ÷ its time per item, docs/machine.md) and its time ÷ its "
               "own run's floor at the same N."]
    cells = []
    for r in rows:
        if r["strategy"] == FLOOR:
            continue
        key = (r["scenario"], r["strategy"], r["n"])
        fa = a.time_per_item((key[0], FLOOR, key[2]))
        fb = b.time_per_item((key[0], FLOOR, key[2]))
        ea, eb = ha.efficiency(key), hb.efficiency(key)
        cells.append([key[0], key[1], str(key[2]),
                      f"{ea:.2f}" if ea else "-", f"{eb:.2f}" if eb else "-",
                      times(r["a_median"] / fa["median"]) if fa else "-",
                      times(r["b_median"] / fb["median"]) if fb else "-"])
    head, rule, line = table(["scenario", "strategy", "N", "A efficiency", "B efficiency",
                              "A ÷ A's floor", "B ÷ B's floor"], cells, {2, 3, 4, 5, 6})
    return out + ["", head, rule] + [line(c) for c in cells]


def describe(run):
    return f"{run.path}  ({run.host()}, {run.date()})"


def render(result, a, b, names, alpha, threshold, color):
    rows = result["rows"]
    s = result["summary"]
    paint = {"faster": "\033[32m", "slower": "\033[31m"} if color else {}
    reset = "\033[0m" if color else ""
    out = []
    if names:
        base = names[0]
        other = names[1] if len(names) == 2 else "strategy"
        out.append(f"compare strategies inside {describe(a)}")
        out.append(f"change = {other} against {base}: the ratio of the geometric means of "
                   "their repetitions (ns: medians of time per item)")
        headers = ["scenario", "N", "strategy", f"{base} ns", f"{other} ns",
                   f"{other} vs {base}", "p (BH)", "verdict"]
        right = {1, 3, 4, 5, 6}
        cells = [[r["scenario"], str(r["n"]), r["strategy"], fmt_ns(r["a_median"]),
                  fmt_ns(r["b_median"]), times(r["ratio"]), fmt_p(r["p_adj"]), r["verdict"]]
                 for r in rows]
        if len(names) == 2:  # the strategy column would repeat one name
            headers.pop(2)
            cells = [c[:2] + c[3:] for c in cells]
            right = {1, 2, 3, 4, 5}
    else:
        out.append(f"A = {describe(a)}")
        out.append(f"B = {describe(b)}")
        differences = machine_differences(a, b)
        if differences:
            out.append("WARNING: A and B ran on different machines; every change below mixes "
                       "the code's change with the machine's:")
            out += [f"  {d}" for d in differences]
        built = build_differences(a, b)
        if built:
            out.append("WARNING: A and B were built differently; every change below mixes the "
                       "code's change with the build's:")
            out += [f"  {d}" for d in built]
        out.append("change = B against A, from the medians of time per item (ns)")
        headers = ["scenario", "strategy", "N", "A ns/item", "B ns/item", "B vs A", "p (Holm)",
                   "verdict"]
        right = {2, 3, 4, 5, 6}
        cells = [[r["scenario"], r["strategy"], str(r["n"]), fmt_ns(r["a_median"]),
                  fmt_ns(r["b_median"]), times(r["ratio"]), fmt_p(r["p_holm"]), r["verdict"]]
                 for r in rows]
    if names:
        out += [stats.FAMILY, stats.family(a).sentence()]
    else:
        out.append(f"p = two-sided Mann-Whitney U test over the repetitions, Holm-corrected for "
                   f"multiple comparisons over the {s['tested']} tested rows")
        out.append(f"verdict (of a line's change between the runs, as Google Benchmark's "
                   f"compare.py tests it): faster/slower when p (Holm) < {alpha:g} and the change "
                   f"is at least {threshold * 100:g} %, else within noise")
    if s.get("power_note"):
        out.append(f"NOTE: {s['power_note']}")
    out.append("")
    head, rule, line = table(headers, cells, right)
    out += [head, rule]
    prev = None
    for r, c in zip(rows, cells):
        group = (r["scenario"], r["strategy"])
        if prev is not None and group != prev:
            out.append("")
        prev = group
        text = line(c)
        if r["verdict"] in paint:
            text = text[: -len(r["verdict"])] + paint[r["verdict"]] + r["verdict"] + reset
        out.append(text)
    out.append("")
    counts = ", ".join(f"{v} {k}" for k, v in s["verdicts"].items()
                       if v or k not in ("untested", "too few repetitions"))
    out.append(f"verdicts: {counts}")

    def gm(label, g):
        return f"geometric mean of the changes, {label}: {times(g)}"
    for label, g in s["geomean_by_group"].items():
        out.append(gm(label, g))
    if not names and s["geomean"] is not None:
        out.append(gm(f"all {s['geomean_rows']} rows (floor and limit excluded)", s["geomean"]))
    if s.get("floor_geomean") is not None:
        fg = s["floor_geomean"]
        out.append(f"floor, B against A: {times(fg)}"
                   + ("  <- the floor itself moved: part of every change is the machine, not the code"
                      if abs(fg - 1.0) >= threshold else "  (machine state comparable)"))
        if abs(fg - 1.0) >= threshold and s.get("floor_relative_geomean") is not None:
            out.append(gm("all rows, each divided by the floor's change at its N",
                          s["floor_relative_geomean"]))
    if not names:
        out += across_machines(a, b, rows)
    if s.get("agreement"):
        out += render_agreement(s["agreement"])
    return "\n".join(out)


def compare(args):
    names = None
    if args.strategies:
        names = [s.strip() for s in args.strategies.split(",") if s.strip()]
        if len(names) < 2 or len(set(names)) != len(names):
            raise UsageError(f"--strategies needs two or more different names, e.g. "
                             f"flat_map,sparse_set (got {args.strategies!r})")
        if args.b:
            raise UsageError("give one run with --strategies (strategies are compared inside it), not A and B")
    elif not args.b:
        raise UsageError("B is missing: give two runs, e.g. make compare A=results/<id> "
                         "B=results/<id>, or one run and STRATEGIES=s1,s2")
    if not 0 < args.alpha < 1 or not 0 <= args.threshold < 1:
        raise UsageError("--alpha must be in (0, 1) and --threshold in [0, 1)")

    a = load_run(args.a)
    b = None if names else load_run(args.b)
    rows, notes = rows_between_strategies(a, names) if names else rows_between_runs(a, b)

    for run in (a, b) if b else (a,):
        if run.errors:
            shown = ", ".join(f"{sc}/{st}/{n}" for sc, st, n in run.errors[:4])
            notes.append(f"note: {len(run.errors)} benchmark(s) failed in {run.path} and are "
                         f"not compared (its errors.csv says why): {shown}"
                         + (" ..." if len(run.errors) > 4 else ""))
    if names:
        # Between layouts of one run: the verdicts of ecsb_stats, in each cell's family.
        for r in rows:
            lines = a.contenders() + [x for x in (r["baseline"], r["strategy"])
                                      if x not in a.contenders()]
            pair = stats.cell(a, r["scenario"], r["n"], lines).pair(r["strategy"], r["baseline"])
            r["p"], r["p_adj"], r["ratio"] = pair.p, pair.p_adj, pair.ratio
            r["verdict"] = ("faster" if pair.faster == r["strategy"] else "slower") \
                if pair.verdict == stats.FASTER else pair.words()
    else:
        for r in rows:
            r["p"] = utest(*r["_samples"])
        for r, adjusted in zip(rows, holm([r["p"] for r in rows])):
            r["p_holm"] = adjusted
            r["verdict"] = verdict(r["ratio"], adjusted, args.alpha, args.threshold,
                                   tuple(len(x) for x in r["_samples"]))
    tested = [r for r in rows if r["p"] is not None]
    power_note = ""
    if tested and not names:
        floor_p = min(smallest_p(len(r["_samples"][0]), len(r["_samples"][1])) for r in tested)
        if floor_p * len(tested) >= args.alpha:
            reps = min(min(len(x) for x in r["_samples"]) for r in tested)
            enough = reps_for(args.alpha, len(tested))
            power_note = (f"with {reps} repetitions the U test cannot give p below "
                          f"{floor_p:.2g}; after Holm's correction over {len(tested)} rows "
                          f"no row can be called faster or slower. Use "
                          + (f"{enough} repetitions a side or more" if enough
                             else "more repetitions") + ", or compare fewer rows.")
    for r in rows:
        del r["_samples"]

    reference = [r for r in rows if r["strategy"] in REFERENCES and not names]
    counted = [r for r in rows if r not in reference]
    kinds = ("faster", "slower", "level", "undecidable") if names else \
        ("faster", "slower", "within noise", "too few repetitions", "untested")
    verdicts = {v: sum(r["verdict"].split(" (")[0] == v for r in rows) for v in kinds}
    by_group = {}
    for r in counted:
        label = (f"{r['strategy']} against {r['baseline']}" if names else r["scenario"])
        by_group.setdefault(label, []).append(r["ratio"])
    floor_rows = [r for r in reference if r["strategy"] == REFERENCES[0]]
    summary = {
        "verdicts": verdicts,
        "tested": len(tested),
        "power_note": power_note,
        "geomean": geomean([r["ratio"] for r in counted]),
        "geomean_rows": len(counted),
        "geomean_by_group": {k: geomean(v) for k, v in by_group.items()},
        "floor_geomean": geomean([r["ratio"] for r in floor_rows]) if floor_rows else None,
        "floor_relative_geomean": None,
        "machine_differences": [] if names else machine_differences(a, b),
        "build_differences": [] if names else build_differences(a, b),
        "agreement": None if names else agreement(a, b),
    }
    if not names:
        # Each strategy's ratio divided by the floor's at the same scenario and N: what is left
        # once the machine's own drift between the runs (the floor's) is taken out.
        floor_ratio = {(r["scenario"], r["n"]): r["ratio"] for r in floor_rows}
        relative = [r["ratio"] / floor_ratio[(r["scenario"], r["n"])] for r in counted
                    if floor_ratio.get((r["scenario"], r["n"]), 0) > 0]
        summary["floor_relative_geomean"] = geomean(relative)
    result = {"mode": "strategies" if names else "runs", "a": a.path,
              "b": None if names else b.path, "strategies": names, "alpha": args.alpha,
              "threshold": args.threshold, "correction": "holm", "rows": rows,
              "summary": summary}
    color = not args.no_color and sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    for n in notes:
        print(n, file=sys.stderr)
    print(render(result, a, b, names, args.alpha, args.threshold, color))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2, allow_nan=False, default=str)
            f.write("\n")
    return 0


def main(argv):
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `compare.sh ... | head` ends quietly
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C: stop quietly
    p = ArgParser(prog="compare.sh", description="Compare two ecsbench runs, or strategies in one run.")
    p.add_argument("a", metavar="A", help="run folder (results/<id>)")
    p.add_argument("b", metavar="B", nargs="?", default="", help="second run folder")
    p.add_argument("--strategies", default=os.environ.get("STRATEGIES", ""),
                   help="S1,S2[,...]: compare S2... against S1 inside run A")
    p.add_argument("--alpha", type=float, default=0.05, help="significance level (0.05)")
    p.add_argument("--threshold", type=float, default=0.05,
                   help="smallest |ratio-1| called a change (0.05 = 5 %%)")
    p.add_argument("--json", metavar="FILE", help="also write the rows and summary as JSON")
    p.add_argument("--no-color", action="store_true")
    try:
        return compare(p.parse_args(argv))
    except (UsageError, RunError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
