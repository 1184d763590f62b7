#!/usr/bin/env python3
"""frame_steady_check.py — is the world make bench times for `frame` its steady state?

For each frame line of a run (results/<id>/results.csv: every strategy and the floor, every
world, the sizes asked, frame's default parameters), ROUNDS processes of
`ecsbench run frame <strategy> <N> PASSES order=<world> --spans` (300 frames by default, after
the same warm-up make bench gives: the turnover frames). Each process's spans give its time per
frame over its first EARLY timed frames (what make bench times: a few frames after the
warm-up) and over its last LATE frames (frames 200-300: a world 300 frames older). Their ratio,
late/early, is taken inside one process, a fraction of a second apart, so most of the machine's
state cancels (on a shared VM it moves the same line's time by up to 1.6x between runs minutes
apart); each window's figure is the median of its spans' times per frame, and the line's ratio
the median over its rounds. A line whose ratio is off 1 by more than LIMIT (10 %) is
NOT STEADY: its world was still changing when make bench timed it; exit 1 when any is.

Also printed, for reading only: the run's median against the processes' median time per
frame over all PASSES frames (bench/run): it moves with the machine between the two.

RUN_DIR "-" checks lines no run has (frame at 1M, which make bench does not time): then
--sizes, --strategies and --orders name them all, and the bench columns are empty.

Usage: scripts/frame_steady_check.py RUN_DIR|- [--sizes 65536,...] [--strategies a,b]
       [--orders regular,...] [--passes 300] [--early 20] [--late 100] [--rounds 3]
       [--limit 0.10] [--ecsbench build/ecsbench]
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

SPAN = re.compile(r"^span first=(\d+) passes=(\d+) seconds_per_pass=([0-9.eE+-]+)$")


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


def window(spans, start, end):
    """The median seconds per frame of the spans that start in frames [start, end): a span
    a neighbour slowed moves a median less than a mean."""
    inside = [per for first, _, per in spans if start <= first < end]
    return statistics.median(inside) if inside else None


def mean_per_frame(spans):
    return sum(passes * per for _, passes, per in spans) / sum(passes for _, passes, _ in spans)


def one_run(a, strategy, n, order):
    """(late/early, seconds per frame over the whole run) of one --spans process."""
    cmd = [a.ecsbench, "run", "frame", strategy, str(n), str(a.passes), f"order={order}", "--spans"]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    except OSError as e:  # e.g. the binary rebuilt under a long check: copy it elsewhere first
        fail(f"cannot run {a.ecsbench}: {e.strerror}")
    spans = [(int(m[1]), int(m[2]), float(m[3]))
             for m in (SPAN.match(line) for line in out.stderr.splitlines()) if m]
    if out.returncode != 0 or not spans:
        fail(f"{' '.join(cmd)} failed: {out.stderr.strip()[-300:]}")
    early = window(spans, 0, a.early)
    late = window(spans, a.passes - a.late, a.passes)
    if early is None or late is None:
        fail(f"{' '.join(cmd)}: no span starts in the first {a.early} or the last {a.late} frames "
             "(its spans are longer: give more --passes or wider windows)")
    return late / early, mean_per_frame(spans)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run_dir")
    ap.add_argument("--sizes", default="", help="comma-separated N (default: every frame size of the run)")
    ap.add_argument("--strategies", default="", help="comma-separated (default: every line of the run)")
    ap.add_argument("--orders", default="", help="comma-separated worlds (default: all)")
    ap.add_argument("--passes", type=int, default=300)
    ap.add_argument("--early", type=int, default=20, help="frames after the warm-up, as make bench times")
    ap.add_argument("--late", type=int, default=100, help="the run's last frames")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--limit", type=float, default=0.10)
    ap.add_argument("--ecsbench", default="build/ecsbench")
    a = ap.parse_args()
    try:
        sizes = {int(s) for s in a.sizes.split(",") if s}
    except ValueError:
        fail(f"--sizes={a.sizes}: want comma-separated whole numbers")
    if a.passes < 2 or a.rounds < 1 or a.limit <= 0 or a.early < 1 or a.late < 1 \
            or a.early + a.late > a.passes:
        fail("want --passes 2 or more, --rounds 1 or more, --limit above 0, and --early and "
             "--late 1 or more that fit in --passes together")
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
    whole = {k: [] for k in order}
    for _ in range(a.rounds):  # rounds outermost: a line's processes are spread over the check
        for k in order:
            r, w = one_run(a, *k)
            ratios[k].append(r)
            whole[k].append(w)
    bad = 0
    print(f"late = frames {a.passes - a.late}-{a.passes}, early = frames 0-{a.early} after the warm-up, "
          f"median of {a.rounds} process(es) each")
    print(f"{'line':48} {'late/early':>10} {'spread':>13} {'bench ms':>9} {'run ms':>9} {'bench/run':>9}")
    for k in order:
        strategy, n, world = k
        ratio = statistics.median(ratios[k])
        ran = statistics.median(whole[k])
        flag = "" if abs(ratio - 1) <= a.limit else "  NOT STEADY"
        bad += bool(flag)
        spread = f"{min(ratios[k]):.3f}-{max(ratios[k]):.3f}"
        bench = (f"{lines[k] * 1e3:9.3f} {ran * 1e3:9.3f} {lines[k] / ran:9.3f}" if lines[k]
                 else f"{'-':>9} {ran * 1e3:9.3f} {'-':>9}")
        print(f"{f'frame/{strategy}/{n}/order={world}':48} {ratio:10.3f} {spread:>13} {bench}{flag}")
    print(f"{len(order) - bad} of {len(order)} lines steady: frames {a.passes - a.late}-{a.passes} "
          f"within {a.limit:.0%} of the first {a.early} (bench/run is for reading only: it moves "
          "with the machine between the run and now)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
