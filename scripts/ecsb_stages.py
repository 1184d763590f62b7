#!/usr/bin/env python3
"""ecsb_stages.py — decide where it matters: more repetitions, in stages, for the cells whose
pick the planned repetitions left undecided (bench.sh calls it between `ecsbench bench` runs).

  ecsb_stages.py plan RUN_DIR --stage K --run-seconds S [--spent T] [--budget-share F]
        reads RUN_DIR/raw.json; prints one JSON object: the cells to repeat at stage K (their
        lines, a --benchmark_filter regex, the repetitions and seed to run them with, the
        estimated seconds) and those left undecided (no hope within the stages left; over the
        budget). Nothing to repeat: "cells" is empty.
  ecsb_stages.py merge RUN_DIR STAGE_JSON --stage K [--seed S] [--seconds T]
        adds STAGE_JSON's repetitions (iteration rows) to RUN_DIR/raw.json (renumbered after the
        ones there, marked with counter ecsb_stage = K) and records the stage in its context
        (ecsb_stage_K; the stages' wall seconds so far, T, as ecsb_stage_seconds);
        written to a temporary file and renamed: an interrupted merge leaves raw.json whole.

The design (docs/measuring.md, "Decide where it matters"): every cell may be looked at up to
LOOKS times (the planned repetitions, then at most STAGES stages of STAGE_REPS repetitions
more); the statistics weigh every p of the run against Pocock's level for LOOKS looks
(ecsb_stats.POCOCK), so looking again cannot raise the false-call rate. A cell is undecided
when a line its leader cannot be told from remains (ecsb_stats.Cell.untold_from_leader); it is
repeated (the leader and those lines) when one of them would be decided within the
repetitions the stages left can add, cheapest first while the estimate fits the budget:
BUDGET_SHARE of the planned run's seconds over all stages (printed by bench.sh).
Exit 0 ok, 2 on an unusable run or bad arguments.
"""
import argparse
import json
import os
import re
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ecsb_stats as stats  # noqa: E402
from ecsb_rundata import REFERENCES, TIME_UNITS, parse_benchmark_name  # noqa: E402

STAGES = 2           # stages of extra repetitions at most
STAGE_REPS = 5       # repetitions a stage adds to each line it repeats
LOOKS = 1 + STAGES   # the planned repetitions and each stage: the looks Pocock's level is for
BUDGET_SHARE = 0.10  # of the planned run's seconds, for all stages together (docs/measuring.md,
                     # "What make bench's time buys")
MIN_COST = 0.05      # seconds a stage costs at least per cell
STAGE_START = 1.0    # seconds a stage costs besides its cells (start, sentinel warm-up)
# A stage's lines are checked and calibrated before they are timed: about two repetitions
# more (a stage of 6 cells x 5 repetitions took 10 s against 5 s estimated without them, on a
# machine at load 18-20).
CHECK_REPS = 2


class StageError(Exception):
    pass


def load(raw_path):
    """(doc, {(case, n): {line: [seconds per pass]}}, {(case, n, line): seconds per repetition})
    from a raw.json (iteration rows without an error)."""
    try:
        with open(raw_path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise StageError(f"{raw_path}: cannot read it ({e})")
    if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks"), list):
        raise StageError(f"{raw_path} is not Google Benchmark JSON")
    cells, cost = {}, {}
    for b in doc["benchmarks"]:
        if not isinstance(b, dict) or b.get("run_type", "iteration") != "iteration" \
                or "aggregate_name" in b or b.get("error_occurred"):
            continue
        key = parse_benchmark_name(b.get("run_name") or b.get("name", ""))
        try:
            seconds = float(b["real_time"]) * TIME_UNITS[b.get("time_unit", "ns")]
            passes = float(b.get("iterations", 1))
        except (KeyError, TypeError, ValueError):
            continue
        if key is None or not seconds > 0:
            continue
        case, line, n = key
        cells.setdefault((case, n), {}).setdefault(line, []).append(seconds)
        spent = cost.setdefault((case, n, line), [0.0, 0])
        spent[0] += seconds * passes
        spent[1] += 1
    return doc, cells, {k: total / count for k, (total, count) in cost.items()}


def undecided(cells, looks=LOOKS):
    """{(case, n): (leader, [lines it cannot be told from], fewest repetitions a side that
    would decide one of them or None)} over the cells with an undecided pick."""
    family = stats.Family(cells, looks)
    out = {}
    for key, lines in cells.items():
        cell = stats.Cell({s: v for s, v in lines.items() if s not in REFERENCES}, family, key)
        untold = cell.untold_from_leader() if cell.leader else []
        if untold:
            needs = [cell.pair(s, cell.leader).needed for s in untold]
            needs = [x for x in needs if x]
            out[key] = (cell.leader, untold, min(needs) if needs else None)
    return out


def cell_regex(case, n, lines):
    """A POSIX extended regex for the benchmarks of `lines` in cell (case, n)."""
    base, _, changed = case.partition("~")
    params = "".join("/" + re.escape(p) for p in changed.split(",") if p)
    names = "|".join(re.escape(s) for s in lines)
    return f"^{re.escape(base)}/({names})/{n}{params}$"


def plan(doc, cells, cost, stage, run_seconds, spent=0.0, share=BUDGET_SHARE):
    """The stage's plan (a dict, see the module's docstring); `share`: of run_seconds, the
    budget of all stages."""
    if stage < 1 or stage > STAGES:
        return {"stage": stage, "cells": [], "why": f"at most {STAGES} stages"}
    budget = share * run_seconds
    timed = sum(cost[k] * len(cells[k[:2]][k[2]]) for k in cost)
    overhead = max(1.0, run_seconds / timed) if timed > 0 else 1.0
    reps_now = {key: min(len(v) for v in lines.values()) for key, lines in cells.items()}
    candidates, hopeless = [], []
    for key, (leader, untold, needed) in sorted(undecided(cells).items(), key=str):
        most = reps_now[key] + (STAGES - stage + 1) * STAGE_REPS
        if needed is None or needed > most:
            hopeless.append({"case": key[0], "n": key[1], "needed": needed})
            continue
        lines = [leader] + untold
        seconds = max(MIN_COST, overhead * (STAGE_REPS + CHECK_REPS)
                      * sum(cost.get((*key, s), 0) for s in lines))
        candidates.append({"case": key[0], "n": key[1], "lines": lines, "needed": needed,
                           "seconds": seconds})
    # the likeliest to be decided first (fewest repetitions needed), then the cheapest
    candidates.sort(key=lambda c: (c["needed"], c["seconds"]))
    chosen, over = [], []
    left = budget - spent - STAGE_START
    for c in candidates:
        if c["seconds"] <= left:
            chosen.append(c)
            left -= c["seconds"]
        else:
            over.append({"case": c["case"], "n": c["n"], "needed": c["needed"]})
    seed = str(doc.get("context", {}).get("ecsb_seed", "1"))
    seed = int(seed) if seed.isdigit() else 1
    return {"stage": stage, "reps": STAGE_REPS, "seed": (seed * 1000003 + stage) % 4294967291,
            "cells": chosen, "hopeless": hopeless, "over_budget": over, "share": share,
            "seconds": sum(c["seconds"] for c in chosen), "budget": budget, "spent": spent,
            "filter": "|".join(f"({cell_regex(c['case'], c['n'], c['lines'])})"
                               for c in chosen)}


def merge(doc, stage_doc, stage, seed=None, seconds=None):
    """doc with stage_doc's iteration rows appended (repetition_index continuing each
    benchmark's, counter ecsb_stage = stage) and the stage recorded in its context."""
    counts = {}
    for b in doc["benchmarks"]:
        if b.get("run_type", "iteration") == "iteration" and "aggregate_name" not in b:
            name = b.get("run_name") or b.get("name")
            counts[name] = counts.get(name, 0) + 1
    added = 0
    for b in stage_doc.get("benchmarks", []):
        if not isinstance(b, dict) or b.get("run_type", "iteration") != "iteration" \
                or "aggregate_name" in b:
            continue
        name = b.get("run_name") or b.get("name")
        row = dict(b, repetition_index=counts.get(name, 0), ecsb_stage=stage)
        counts[name] = counts.get(name, 0) + 1
        doc["benchmarks"].append(row)
        added += 1
    for b in doc["benchmarks"]:  # every row of a benchmark states its repetitions
        name = b.get("run_name") or b.get("name")
        if name in counts and "repetitions" in b:
            b["repetitions"] = counts[name]
    ctx = doc.setdefault("context", {})
    ctx["ecsb_stage_looks"] = str(LOOKS)
    ctx[f"ecsb_stage_{stage}"] = (f"{added} repetitions" + (f", seed {seed}" if seed else ""))
    if seconds is not None:
        ctx["ecsb_stage_seconds"] = f"{seconds:g}"
    return added


def shell_words(got):
    """The plan as shell assignments bench.sh evaluates."""
    values = {"count": len(got["cells"]), "reps": got.get("reps", 0), "seed": got.get("seed", 1),
              "seconds": round(got.get("seconds", 0)), "budget": round(got.get("budget", 0)),
              "filter": got.get("filter", ""), "hopeless": len(got.get("hopeless", [])),
              "over_budget": len(got.get("over_budget", [])),
              "share": f"{100 * got.get('share', BUDGET_SHARE):g}"}
    return "\n".join(f"stage_{k}={shlex.quote(str(v))}" for k, v in values.items())


def write_json(path, doc):
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
    os.replace(tmp, path)


def main(argv=None):
    p = argparse.ArgumentParser(description="staged repetitions for undecided cells")
    sub = p.add_subparsers(dest="what", required=True)
    a = sub.add_parser("plan")
    a.add_argument("run_dir")
    a.add_argument("--stage", type=int, required=True)
    a.add_argument("--run-seconds", type=float, required=True)
    a.add_argument("--spent", type=float, default=0.0)
    a.add_argument("--budget-share", type=float, default=BUDGET_SHARE,
                   help=f"the stages' budget, a share of --run-seconds (default {BUDGET_SHARE})")
    a.add_argument("--shell", action="store_true",
                   help="print shell assignments (count, reps, seed, seconds, budget, filter, "
                   "hopeless, over_budget, share) instead of JSON")
    m = sub.add_parser("merge")
    m.add_argument("run_dir")
    m.add_argument("stage_json")
    m.add_argument("--stage", type=int, required=True)
    m.add_argument("--seed", type=int)
    m.add_argument("--seconds", type=float, help="the stages' wall seconds so far")
    l_ = sub.add_parser("design", help="record the design (LOOKS) in raw.json's context")
    l_.add_argument("run_dir")
    args = p.parse_args(argv)
    raw = os.path.join(args.run_dir, "raw.json")
    try:
        doc, cells, cost = load(raw)
        if args.what == "plan":
            if not 0 <= args.budget_share <= 10:
                raise StageError(f"--budget-share {args.budget_share}: want a share 0 .. 10, "
                                 "e.g. 0.1")
            got = plan(doc, cells, cost, args.stage, args.run_seconds, args.spent,
                       args.budget_share)
            print(shell_words(got) if args.shell else json.dumps(got))
        elif args.what == "merge":
            stage_doc, _, _ = load(args.stage_json)
            merge(doc, stage_doc, args.stage, args.seed, args.seconds)
            write_json(raw, doc)
        else:
            doc.setdefault("context", {})["ecsb_stage_looks"] = str(LOOKS)
            write_json(raw, doc)
    except StageError as e:
        print(f"ecsb_stages: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
