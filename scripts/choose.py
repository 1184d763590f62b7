#!/usr/bin/env python3
"""choose.py — the answer: which storage layout to pick for a workload.

  choose.py RUN_DIR [-o FILE]               choose.md: one table, per workload (scenario, world
                                            order, size class) the layout to pick, those level
                                            with it, the margin over the next one with its
                                            confidence interval, and bytes per entity of each;
                                            below it, the rule (ecsb_stats.FAMILY)
  choose.py RUN_DIR --weights frame:3,dual_iterate:1[,frame~order=shuffled:2]
                                            ranks the layouts for that mix of workloads
                                            (make choose RUN=... WEIGHTS=...)

A workload's verdicts are those of one cell of the run (the size class's N nearest its typical
size: 4,000, 65,536, 1,048,576), decided by scripts/ecsb_stats.py as every other document
decides them. Only cases that vary the world order alone are workloads; sweeps of other
parameters are in summary.md's crossovers.

The mix: per layout the weighted geometric mean, over the weighted cases and each of their
sizes (a case's weight shared among its sizes), of its median time / the cell leader's; 1.00 is
a layout that leads everywhere. Its 95 % confidence interval is scipy.stats.bootstrap's
(percentile, seeded) over every repetition involved. Memory: the same weighted mean of bytes
per entity. Exit 0 ok, 2 on an unusable run or bad weights (the message says what to do).
"""
import argparse
import math
import os
import signal
import sys

import numpy as np
from scipy.stats import bootstrap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ecsb_rundata import RunError, base_scenario, load_run  # noqa: E402
import ecsb_stats as stats  # noqa: E402

# Size classes: (name, upper bound inclusive, typical N)
CLASSES = (("small", 16384, 4000), ("medium", 1048575, 65536), ("large", None, 1048576))
CLASS_WORDS = "small: N <= 16,384; medium: up to 1,048,575; large: N >= 1,048,576"


def size_class(n):
    for name, top, _ in CLASSES:
        if top is None or n <= top:
            return name


def world_of(case):
    """The world order of a case whose only changed parameter is the order ("regular" for
    the defaults); None for any other variant (a sweep point, not a workload)."""
    if "~" not in case:
        return "regular"
    changed = case.split("~", 1)[1].split(",")
    if len(changed) == 1 and changed[0].startswith("order="):
        return changed[0].split("=", 1)[1]
    return None


def workloads(run):
    """[(case, world, class, N)]: each workload and the N of the run that answers it."""
    out = []
    for case in run.scenarios:
        world = world_of(case)
        if world is None:
            continue
        sizes = run.sizes(case)
        for name, _, typical in CLASSES:
            inside = [n for n in sizes if size_class(n) == name]
            if inside:
                n = min(inside, key=lambda x: (abs(math.log(x / typical)), x))
                out.append((case, world, name, n))
    return out


def fmt_bytes(v):
    return "—" if v is None else (f"{v:.0f}" if v >= 100 else f"{v:.1f}")


def workload_row(run, case, world, klass, n):
    cell = stats.cell(run, case, n)
    item = run.item(case)
    head = f"| {base_scenario(case)} | {world} | {klass} ({n:,}) |"
    if not cell.leader:
        return head + " — | — | — | — | — |"
    pick = cell.leader
    level = cell.level_with_leader()
    untold = cell.untold_from_leader()
    rest = [s for s in cell.names[1:] if s not in level]
    margin = "—"
    if rest:
        pair = cell.pair(rest[0], pick)
        margin = (f"{stats.fmt_ratio(pair.ratio)} ({stats.fmt_ci(pair.ci)}) over {rest[0]}, "
                  f"{pair.short()}")

    def drift(s):
        return " ⚠drift" if run.drifted((case, s, n)) else ""
    memory = " · ".join(fmt_bytes(run.bytes_per_entity((case, s, n))) for s in [pick] + level)
    return (f"{head} **{pick}**{drift(pick)} ({run.time_per_item((case, pick, n))['median']:.3g}"
            f" ns/{item}) | {', '.join(s + drift(s) for s in level) or '—'} "
            f"| {listing(untold)} | {margin} | {memory} |")


def listing(names, most=3):
    """Up to `most` names, then how many more: a row stays one line."""
    if not names:
        return "—"
    return ", ".join(names[:most]) + (f" +{len(names) - most} more" if len(names) > most else "")


def choose_md(run_dir):
    run = load_run(run_dir)
    out = [f"# Which layout to choose: run {run.run_id}", "",
           f"{run.date()}, {run.host()}" + (f" ({run.cpu()})" if run.cpu() else "")
           + ". For your own mix of workloads: `make choose RUN=results/"
           f"{run.run_id} WEIGHTS=frame:3,dual_iterate:1`. Details: [summary.md](summary.md), "
           "[report.md](report.md).", "",
           "| scenario | world | size (N) | pick (median) | level with it | not told apart "
           "| margin over the next (95 % CI), verdict | bytes per entity (pick · level) |",
           "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    out += [workload_row(run, *w) for w in workloads(run)]
    out += ["", "## The rule", "", stats.FAMILY, "",
            "*pick*: the layout with the least median time per item in the workload's cell "
            f"(size classes: {CLASS_WORDS}; the class's N nearest 4,000, 65,536 or 1,048,576). "
            "*level with it*: the layouts whose ratio to the pick is *level*: choose among them "
            "by memory or by your other workloads. *not told apart*: *undecidable* against the "
            "pick (the run cannot say which is faster; three at most, fastest first, then how "
            "many more). *margin over the next*: the median time of the fastest layout not "
            "level with the pick / the pick's, its confidence interval, and the verdict (for "
            "*undecidable*, the repetitions a side that would tell). *⚠drift*: the line's "
            "timed passes still drifted. Bytes per entity: the world's bytes per live entity "
            "after set-up, of the pick and each layout level with it, in that order.", ""]
    return "\n".join(out)


# ---- a mix of workloads ---------------------------------------------------------------------

class WeightsError(Exception):
    pass


def parse_weights(text, run):
    """{case: weight} from "frame:3,dual_iterate:1"; WeightsError says what to do."""
    known = [c for c in run.scenarios if world_of(c) is not None]
    hint = (f"give WEIGHTS=scenario:weight,..., e.g. WEIGHTS={known[0]}:3"
            + (f",{known[1]}:1" if len(known) > 1 else "")
            + f"; this run's workloads: {', '.join(known)}") if known \
        else "this run has no workloads"
    if not text or not text.strip():
        raise WeightsError(f"no weights: {hint}")
    out = {}
    for part in text.split(","):
        name, sep, value = part.strip().partition(":")
        if not sep or not name:
            raise WeightsError(f"{part.strip()!r} is not scenario:weight; {hint}")
        if name not in known:
            raise WeightsError(f"unknown scenario {name!r}; {hint}")
        try:
            w = float(value)
        except ValueError:
            raise WeightsError(f"weight {value!r} of {name} is not a number; {hint}")
        if not math.isfinite(w) or w < 0:
            raise WeightsError(f"weight {value!r} of {name} must be a number >= 0; {hint}")
        if name in out:
            raise WeightsError(f"{name} is given twice; give each scenario once")
        out[name] = w
    if not sum(out.values()) > 0:
        raise WeightsError(f"every weight is 0; {hint}")
    return out


def rank(run, weights):
    """[(layout, score, (low, high), bytes per entity)] best first; score 1.00 = leads in every
    weighted cell. A layout missing from a weighted cell is left out of the ranking."""
    cells = []  # (weight, cell, case, n)
    for case, w in weights.items():
        sizes = [n for n in run.sizes(case) if stats.cell(run, case, n).leader]
        cells += [(w / len(sizes), stats.cell(run, case, n), case, n) for n in sizes if w > 0]
    total = sum(w for w, *_ in cells)
    out = []
    for layout in run.contenders():
        if not all(layout in c.samples for _, c, _, _ in cells):
            continue
        data, terms = [], []
        for w, c, _, _ in cells:
            if c.leader != layout:  # the leader's own term is 0, with no noise
                terms.append(w / total)
                data += [c.samples[layout], c.samples[c.leader]]
        score = math.exp(sum(t * math.log(np.median(data[2 * i]) / np.median(data[2 * i + 1]))
                             for i, t in enumerate(terms)))

        def statistic(*samples, axis=-1):
            logs = [np.log(np.median(samples[2 * i], axis=axis) /
                           np.median(samples[2 * i + 1], axis=axis)) * t
                    for i, t in enumerate(terms)]
            return np.exp(np.sum(logs, axis=0))
        ci = (1.0, 1.0)
        if terms:
            res = bootstrap(tuple(np.asarray(d) for d in data), statistic, vectorized=True,
                            paired=False, n_resamples=stats.RESAMPLES, method="percentile",
                            confidence_level=stats.CONFIDENCE,
                            random_state=np.random.default_rng(stats.SEED))
            ci = (float(res.confidence_interval.low), float(res.confidence_interval.high))
        memory = [(w, run.bytes_per_entity((case, layout, n))) for w, _, case, n in cells]
        memory = [(w, b) for w, b in memory if b is not None]
        out.append((layout, score, ci, sum(w * b for w, b in memory) / sum(w for w, _ in memory)
                    if memory else None))
    return sorted(out, key=lambda r: r[1])


def rank_text(run, weights):
    ranked = rank(run, weights)
    mix = ", ".join(f"{c}:{w:g}" for c, w in weights.items())
    out = [f"Layouts for the mix {mix} in run {run.run_id}: weighted geometric mean of each "
           "layout's median time / the cell leader's, over the weighted scenarios and all their "
           "sizes (1.00 = leads everywhere), 95 % bootstrap confidence interval; memory: the "
           "same weighted mean of bytes per entity.", ""]
    width = max([len("layout")] + [len(r[0]) for r in ranked])
    out.append(f"{'rank':>4}  {'layout':<{width}}  {'x best':>7}  {'95 % CI':>13}  B/entity")
    for i, (layout, score, ci, memory) in enumerate(ranked, 1):
        out.append(f"{i:>4}  {layout:<{width}}  {score:>7.2f}  {stats.fmt_ci(ci):>13}  "
                   f"{fmt_bytes(memory)}")
    out += ["", "Each scenario's own verdicts (choose.md) follow the rule: " + stats.FAMILY]
    return "\n".join(out)


def main(argv=None):
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    p = argparse.ArgumentParser(description="which storage layout to choose (choose.md), or a "
                                "ranking for a weighted mix of workloads")
    p.add_argument("run_dir", nargs="?", default="", help="results/<id>")
    p.add_argument("-o", "--output", help="write choose.md here (default: stdout)")
    p.add_argument("--weights", help="scenario:weight,... (e.g. frame:3,dual_iterate:1): rank "
                   "the layouts for that mix instead")
    args = p.parse_args(argv)
    if not args.run_dir:
        print("choose: error: no run given; usage: make choose RUN=results/<id> "
              "WEIGHTS=frame:3,dual_iterate:1", file=sys.stderr)
        return 2
    try:
        run = load_run(args.run_dir) if args.weights is not None else None
        text = rank_text(run, parse_weights(args.weights, run)) if run else \
            choose_md(args.run_dir)
    except (RunError, WeightsError) as e:
        print(f"choose: error: {e}", file=sys.stderr)
        return 2
    if args.output:
        tmp = f"{args.output}.tmp-{os.getpid()}"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text + "\n")
        os.replace(tmp, args.output)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
