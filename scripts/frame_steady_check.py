#!/usr/bin/env python3
"""frame_steady_check.py — is the world make bench times for `frame` its steady state?

For each frame line of a run (results/<id>/results.csv: every strategy and the floor, every
world, the sizes asked, frame's default parameters), ROUNDS processes of
`ecsbench steady frame <strategy> <N> OLDER order=<world>`: two worlds built alike, a young one
given the warm-up make bench gives (the turnover frames) and an old one OLDER frames more (300
by default), then their frames timed in turn, young, old, old, young, ... Each process's ratio
(old/young, the median of its pairs) is taken frame beside frame, so a neighbour that slows
the machine for a while slows both sides of the pairs it covers (on a shared VM the same line's
time moves by up to 1.6x between runs minutes apart); the line's ratio is the median over its
rounds. A line whose ratio is off 1 by more than LIMIT (10 %) is NOT STEADY: the world make
bench times is not the one 300 frames later; exit 1 when any is. Each process's ratio is also
printed on stderr as it comes (a check at 1M takes about 4 minutes a line and round).

RUN_DIR "-" checks lines no run has (frame at 1M, which make bench does not time): then
--sizes, --strategies and --orders name them all.

Usage: scripts/frame_steady_check.py RUN_DIR|- [--sizes 65536,...] [--strategies a,b]
       [--orders regular,...] [--older 300] [--rounds 5] [--limit 0.10]
       [--ecsbench build/ecsbench]
Exit 0 when every line is steady, 1 when one is not, 2 on bad arguments.
"""
import argparse
import csv
import json
import os
import re
import statistics
import subprocess
import sys

STEADY = re.compile(r"^young=([0-9.eE+-]+) old=([0-9.eE+-]+) ratio=([0-9.eE+-]+) pairs=\d+ older=\d+$")


def fail(message):
    print(f"frame_steady_check: {message}", file=sys.stderr)
    sys.exit(2)


def frame_defaults(ecsbench):
    """frame's parameters at their defaults, but order, as the binary declares them (the one
    source: `ecsbench list --json`), formatted as results.csv's params column writes them."""
    try:
        out = subprocess.run([ecsbench, "list", "--json"], capture_output=True, text=True, check=False)
    except OSError as e:
        fail(f"cannot run {ecsbench}: {e.strerror} (build it: make all)")
    if out.returncode != 0:
        fail(f"{ecsbench} list --json failed: {out.stderr.strip()}")
    frame = next((s for s in json.loads(out.stdout)["scenarios"] if s["name"] == "frame"), None)
    if frame is None:
        fail(f"{ecsbench} has no frame scenario")
    return {p["name"]: str(p["default"]) for p in frame["params"] if p["name"] != "order"}


def frame_lines(run_dir, defaults, sizes, strategies, orders):
    """(strategy, n, order) -> median seconds per frame of the run's default frame lines."""
    path = os.path.join(run_dir, "results.csv")
    if not os.path.isfile(path):
        fail(f"{path}: no results.csv (give a results/<id> folder)")
    lines = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["scenario"] != "frame" or row["metric"] != "seconds_per_pass":
                continue
            n = int(row["n"])
            params = dict(kv.split("=", 1) for kv in row.get("params", "").split(";") if "=" in kv)
            order = params.pop("order", "regular")
            if (sizes and n not in sizes) or (strategies and row["strategy"] not in strategies) \
                    or (orders and order not in orders):
                continue
            if any(v != defaults.get(k, v) for k, v in params.items()):
                continue  # a parameter sweep's line: not the default frame
            try:
                lines[(row["strategy"], n, order)] = float(row["median"])
            except ValueError:
                continue  # a failed line: no time
    return lines


def one_run(a, strategy, n, order):
    """old/young of one `ecsbench steady` process."""
    cmd = [a.ecsbench, "steady", "frame", strategy, str(n), str(a.older), f"order={order}"]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    except OSError as e:  # e.g. the binary rebuilt under a long check: copy it elsewhere first
        fail(f"cannot run {a.ecsbench}: {e.strerror}")
    m = STEADY.match(out.stdout.strip().split("\n")[0])
    if out.returncode != 0 or not m:
        fail(f"{' '.join(cmd)} failed: {(out.stderr.strip() or out.stdout.strip())[-300:]}")
    return float(m[3])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run_dir")
    ap.add_argument("--sizes", default="", help="comma-separated N (default: every frame size of the run)")
    ap.add_argument("--strategies", default="", help="comma-separated (default: every line of the run)")
    ap.add_argument("--orders", default="", help="comma-separated worlds (default: all)")
    ap.add_argument("--older", type=int, default=300, help="frames the old world lives beyond the warm-up")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--limit", type=float, default=0.10)
    ap.add_argument("--ecsbench", default="build/ecsbench")
    a = ap.parse_args()
    try:
        sizes = {int(s) for s in a.sizes.split(",") if s}
    except ValueError:
        fail(f"--sizes={a.sizes}: want comma-separated whole numbers")
    if a.older < 1 or a.rounds < 1 or a.limit <= 0:
        fail("want --older and --rounds 1 or more and --limit above 0")
    keep = lambda text: {s for s in text.split(",") if s}
    if a.run_dir == "-":
        if not (sizes and a.strategies and a.orders):
            fail("without a run (RUN_DIR -), give --sizes, --strategies and --orders")
        lines = {(st, n, o): None for st in keep(a.strategies) for n in sizes for o in keep(a.orders)}
    else:
        lines = frame_lines(a.run_dir, frame_defaults(a.ecsbench), sizes, keep(a.strategies), keep(a.orders))
    if not lines:
        fail(f"no frame lines in {a.run_dir} at the sizes, strategies and worlds asked")
    order = sorted(lines, key=lambda k: (k[1], k[2], k[0]))
    ratios = {k: [] for k in order}
    for r in range(a.rounds):  # rounds outermost: a line's processes are spread over the check
        for k in order:
            ratios[k].append(one_run(a, *k))
            # as it goes, on stderr: a long check (1M) stopped early still leaves its figures
            print(f"round {r + 1}/{a.rounds}: frame/{k[0]}/{k[1]}/order={k[2]} {ratios[k][-1]:.4f}",
                  file=sys.stderr, flush=True)
    bad = 0
    print(f"old/young: a world {a.older} frames older than the one make bench times, frame beside "
          f"frame; median of {a.rounds} process(es)")
    print(f"{'line':48} {'old/young':>9} {'spread':>13} {'bench ms':>9}")
    for k in order:
        strategy, n, world = k
        ratio = statistics.median(ratios[k])
        flag = "" if abs(ratio - 1) <= a.limit else "  NOT STEADY"
        bad += bool(flag)
        spread = f"{min(ratios[k]):.3f}-{max(ratios[k]):.3f}"
        bench = f"{lines[k] * 1e3:9.3f}" if lines[k] else f"{'-':>9}"
        print(f"{f'frame/{strategy}/{n}/order={world}':48} {ratio:9.3f} {spread:>13} {bench}{flag}")
    print(f"{len(order) - bad} of {len(order)} lines steady: {a.older} frames older within "
          f"{a.limit:.0%} of the world make bench times")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
