#!/usr/bin/env python3
"""frame_steady_check.py — is a run's `frame` the steady state? Each frame line of a run
(results/<id>/results.csv: every strategy and the floor, every world, the sizes asked) set
beside the time per frame of one `ecsbench run` of that line of PASSES frames after the same
warm-up (300 by default: 100 more than the turnover the warm-up already waits for). A line
whose run time differs from the run's median by more than LIMIT (10 %) is listed as not
steady; exit 1 when any is. Run it on a quiet machine: both sides are timings.

Usage: scripts/frame_steady_check.py RUN_DIR [--sizes 65536,...] [--passes 300]
       [--limit 0.10] [--ecsbench build/ecsbench]
Exit 0 when every line is within the limit, 1 when one is not, 2 on bad arguments.
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys


def frame_defaults(ecsbench):
    """frame's parameters at their defaults, but order, as the binary declares them (the one
    source: `ecsbench list --json`), formatted as results.csv's params column writes them."""
    out = subprocess.run([ecsbench, "list", "--json"], capture_output=True, text=True, check=False)
    if out.returncode != 0:
        sys.exit(f"frame_steady_check: {ecsbench} list --json failed: {out.stderr.strip()}")
    frame = next((s for s in json.loads(out.stdout)["scenarios"] if s["name"] == "frame"), None)
    if frame is None:
        sys.exit(f"frame_steady_check: {ecsbench} has no frame scenario")
    return {p["name"]: str(p["default"]) for p in frame["params"] if p["name"] != "order"}


def frame_lines(run_dir, sizes, defaults):
    """(strategy, n, order) -> median seconds per pass of the run's frame lines."""
    path = os.path.join(run_dir, "results.csv")
    if not os.path.isfile(path):
        sys.exit(f"frame_steady_check: {path}: no results.csv (give a results/<id> folder)")
    lines = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["scenario"] != "frame" or row["metric"] != "seconds_per_pass":
                continue
            n = int(row["n"])
            params = dict(kv.split("=", 1) for kv in row.get("params", "").split(";") if "=" in kv)
            others = {k: v for k, v in params.items() if k != "order"}
            if sizes and n not in sizes:
                continue
            if any(v != defaults.get(k, v) for k, v in others.items()):
                continue  # a parameter sweep's line: not the default frame
            lines[(row["strategy"], n, params.get("order", "regular"))] = float(row["median"])
    return lines



def run_seconds(ecsbench, strategy, n, order, passes):
    out = subprocess.run([ecsbench, "run", "frame", strategy, str(n), str(passes), f"order={order}"],
                         capture_output=True, text=True, check=False)
    m = re.search(r"seconds=([0-9.eE+-]+)", out.stdout)
    if out.returncode != 0 or not m:
        sys.exit(f"frame_steady_check: ecsbench run frame {strategy} {n} {passes} order={order} "
                 f"failed: {out.stderr.strip()}")
    return float(m.group(1)) / passes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run_dir")
    ap.add_argument("--sizes", default="", help="comma-separated N (default: every frame size of the run)")
    ap.add_argument("--passes", type=int, default=300)
    ap.add_argument("--limit", type=float, default=0.10)
    ap.add_argument("--ecsbench", default="build/ecsbench")
    a = ap.parse_args()
    try:
        sizes = {int(s) for s in a.sizes.split(",") if s}
    except ValueError:
        print(f"frame_steady_check: --sizes={a.sizes}: want comma-separated whole numbers", file=sys.stderr)
        return 2
    if a.passes < 1 or a.limit <= 0:
        print("frame_steady_check: --passes must be 1 or more and --limit above 0", file=sys.stderr)
        return 2
    lines = frame_lines(a.run_dir, sizes, frame_defaults(a.ecsbench))
    if not lines:
        print(f"frame_steady_check: no frame lines in {a.run_dir} at the sizes asked", file=sys.stderr)
        return 2
    bad = 0
    print(f"{'line':48} {'bench ms':>9} {'run ms':>9} {'run/bench':>9}")
    for (strategy, n, order), bench in sorted(lines.items(), key=lambda kv: (kv[0][1], kv[0][2], kv[0][0])):
        ran = run_seconds(a.ecsbench, strategy, n, order, a.passes)
        ratio = ran / bench
        flag = "" if abs(ratio - 1) <= a.limit else "  NOT STEADY"
        bad += bool(flag)
        print(f"{f'frame/{strategy}/{n}/order={order}':48} {bench * 1e3:9.3f} {ran * 1e3:9.3f} {ratio:9.3f}{flag}")
    print(f"{len(lines) - bad} of {len(lines)} lines within {a.limit:.0%} of a {a.passes}-frame run")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
