#!/usr/bin/env python3
"""compare.py — compare two ecsbench runs, or strategies inside one run, with a verdict per row.

  compare.py A B                         every (scenario, strategy, N) present in both runs:
                                         ratio B/A of the median time per item
  compare.py --strategies S1,S2[,..] A   inside run A, per (scenario, N): each of S2.. against
                                         the first, S1 (ratio S2/S1)

Per row: the ratio of medians (from results.csv), a two-sided Mann–Whitney U test over the
repetitions (raw.json iteration rows; Google Benchmark's own tools/gbench, as its compare.py
runs it, which calls scipy), and a verdict:
    faster / slower   p < alpha (0.05) AND |ratio - 1| >= threshold (5 %)
    within noise      otherwise
    untested          fewer than 2 repetitions on a side: no test possible
Then the geometric mean of the ratios per scenario and overall (floor rows excluded: the floor
is the machine's own line, shown separately as a check on the machine state).

Options: --alpha P, --threshold F (fraction), --json FILE (rows and summary), --no-color.
Exit 0 on success (whatever the verdicts), 2 on bad arguments, missing or malformed runs, or
nothing to compare; 1 when the test's libraries are missing.
"""
import argparse
import json
import math
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ecsb_rundata import FLOOR, RunError, load_run  # noqa: E402

GBENCH_DIR = os.environ.get("GBENCH_DIR", "/usr/share/benchmark")


class UsageError(Exception):
    pass


class ArgParser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


# ---- the significance test ------------------------------------------------------------------

def utest_pvalues(pairs):
    """Two-sided Mann–Whitney U p-value per name: pairs = {name: (samples_a, samples_b)}.

    Uses Google Benchmark's gbench.report (libbenchmark-tools), exactly as its compare.py does;
    falls back to scipy's mannwhitneyu (the same call) when gbench is not installed. A name with
    fewer than 2 samples on a side gets None."""
    try:
        sys.path.insert(0, GBENCH_DIR)
        from gbench import report  # noqa: E402
    except ImportError:
        report = None
    if report is not None:
        def doc(side):
            return {"benchmarks": [
                {"name": name, "run_type": "iteration", "time_unit": "s",
                 "real_time": t, "cpu_time": t}
                for name, samples in pairs.items() for t in samples[side]]}
        diff = report.get_difference_report(doc(0), doc(1), utest=True)
        out = {name: None for name in pairs}
        for entry in diff:
            if entry["name"] in out and entry.get("utest"):
                out[entry["name"]] = entry["utest"]["time_pvalue"]
        return out
    try:
        from scipy.stats import mannwhitneyu
    except ImportError:
        print("error: the U test needs scipy (Debian python3-scipy) or Google Benchmark's tools "
              "(libbenchmark-tools); use PYTHON=/usr/bin/python3", file=sys.stderr)
        sys.exit(1)
    out = {}
    for name, (a, b) in pairs.items():
        out[name] = (mannwhitneyu(a, b, alternative="two-sided").pvalue
                     if len(a) >= 2 and len(b) >= 2 else None)
    return out


def verdict(ratio, p, alpha, threshold):
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "untested"
    if p < alpha and abs(ratio - 1.0) >= threshold:
        return "faster" if ratio < 1.0 else "slower"
    return "within noise"


def geomean(values):
    values = [v for v in values if v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


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


# ---- output ---------------------------------------------------------------------------------

def fmt_ns(v):
    """3 decimals below 10 ns, fewer above: right-aligned columns line up."""
    for limit, digits in ((10, 3), (100, 2), (1000, 1)):
        if v < limit:
            return f"{v:.{digits}f}"
    return f"{v:,.0f}"


def fmt_p(p):
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "-"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def table(headers, body, right):
    widths = [max(len(h), *(len(r[i]) for r in body)) if body else len(h)
              for i, h in enumerate(headers)]

    def line(cells):
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
    return line(headers), "  ".join("-" * w for w in widths), line


def describe(run):
    return f"{run.path}  ({run.host()}, {run.date()})"


def render(result, a, b, names, alpha, threshold, color):
    rows = result["rows"]
    paint = {"faster": "\033[32m", "slower": "\033[31m"} if color else {}
    reset = "\033[0m" if color else ""
    out = []
    if names:
        base = names[0]
        other = names[1] if len(names) == 2 else "strategy"
        out.append(f"compare strategies inside {describe(a)}")
        out.append(f"ratio = {other} / {base} of the median time per item (ns); "
                   f"below 1: {other} is faster")
        headers = ["scenario", "N", "strategy", f"{base} ns", f"{other} ns", "ratio", "p",
                   "verdict"]
        right = {1, 3, 4, 5, 6}
        cells = [[r["scenario"], str(r["n"]), r["strategy"], fmt_ns(r["a_median"]),
                  fmt_ns(r["b_median"]), f"{r['ratio']:.3f}", fmt_p(r["p"]), r["verdict"]]
                 for r in rows]
        if len(names) == 2:  # the strategy column would repeat one name
            headers.pop(2)
            cells = [c[:2] + c[3:] for c in cells]
            right = {1, 2, 3, 4, 5}
    else:
        out.append(f"A = {describe(a)}")
        out.append(f"B = {describe(b)}")
        out.append("ratio = B/A of the median time per item (ns); below 1: B is faster")
        headers = ["scenario", "strategy", "N", "A ns/item", "B ns/item", "B/A", "p", "verdict"]
        right = {2, 3, 4, 5, 6}
        cells = [[r["scenario"], r["strategy"], str(r["n"]), fmt_ns(r["a_median"]),
                  fmt_ns(r["b_median"]), f"{r['ratio']:.3f}", fmt_p(r["p"]), r["verdict"]]
                 for r in rows]
    out.append("p = two-sided Mann-Whitney U test over the repetitions")
    out.append(f"verdict: faster/slower when p < {alpha:g} and |ratio - 1| >= "
               f"{threshold * 100:g} %, else within noise")
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
    s = result["summary"]
    counts = ", ".join(f"{v} {k}" for k, v in s["verdicts"].items() if v or k != "untested")
    out.append(f"verdicts: {counts}")

    def gm(label, g):
        change = (g - 1.0) * 100
        return (f"geometric mean of ratios, {label}: {g:.3f}  "
                f"({abs(change):.1f} % {'faster' if change < 0 else 'slower'})")
    for label, g in s["geomean_by_group"].items():
        out.append(gm(label, g))
    if not names and s["geomean"] is not None:
        out.append(gm(f"all {s['geomean_rows']} rows (floor excluded)", s["geomean"]))
    if s.get("floor_geomean") is not None:
        fg = s["floor_geomean"]
        out.append(f"floor B/A geometric mean: {fg:.3f}"
                   + ("  <- the floor itself moved: part of every change is the machine, not the code"
                      if abs(fg - 1.0) >= threshold else "  (machine state comparable)"))
        if abs(fg - 1.0) >= threshold and s.get("floor_relative_geomean") is not None:
            out.append(gm("all rows, each divided by the floor's B/A at its N",
                          s["floor_relative_geomean"]))
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
    pairs = {f"{i}": r["_samples"] for i, r in enumerate(rows)}
    pvalues = utest_pvalues(pairs)
    for i, r in enumerate(rows):
        r["p"] = pvalues.get(f"{i}")
        r["verdict"] = verdict(r["ratio"], r["p"], args.alpha, args.threshold)
        del r["_samples"]

    counted = [r for r in rows if r["strategy"] != FLOOR or names]
    verdicts = {v: sum(r["verdict"] == v for r in rows)
                for v in ("faster", "slower", "within noise", "untested")}
    by_group = {}
    for r in counted:
        label = (f"{r['strategy']} / {r['baseline']}" if names else r["scenario"])
        by_group.setdefault(label, []).append(r["ratio"])
    summary = {
        "verdicts": verdicts,
        "geomean": geomean([r["ratio"] for r in counted]),
        "geomean_rows": len(counted),
        "geomean_by_group": {k: geomean(v) for k, v in by_group.items()},
        "floor_geomean": None if names else geomean([r["ratio"] for r in rows
                                                      if r["strategy"] == FLOOR]),
        "floor_relative_geomean": None,
    }
    if not names:
        # Each strategy's ratio divided by the floor's at the same scenario and N: what is left
        # once the machine's own drift between the runs (the floor's) is taken out.
        floor_ratio = {(r["scenario"], r["n"]): r["ratio"] for r in rows if r["strategy"] == FLOOR}
        relative = [r["ratio"] / floor_ratio[(r["scenario"], r["n"])] for r in counted
                    if floor_ratio.get((r["scenario"], r["n"]), 0) > 0]
        summary["floor_relative_geomean"] = geomean(relative)
    result = {"mode": "strategies" if names else "runs", "a": a.path,
              "b": None if names else b.path, "strategies": names, "alpha": args.alpha,
              "threshold": args.threshold, "rows": rows, "summary": summary}
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
