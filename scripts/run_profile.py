#!/usr/bin/env python3
"""run_profile.py — where a run's timing went, and what the sentinel's probes said about it
(docs/measuring.md, "What make bench's time buys" and "The sentinel's margin").

  run_profile.py RUN_DIR|RAW_JSON [--by scenario|n|strategy|cell] [--top K]
  run_profile.py RUN_DIR|RAW_JSON --sentinel

Time: per group, the repetitions' CPU seconds (Google Benchmark's cpu_time x iterations: the
whole repetition, its worlds' set-up, warm-up and the sentinel's probes included, sleeping
excluded) beside their timed seconds (real_time x iterations: the spans that count), the
planned repetitions only (staged ones, counter ecsb_stage, apart). Sentinel: the repetitions by
their probe over the run's best (bins), each bin's count and the median and 90th percentile of
its repetitions' time over their line's median: where the machine's slowness shows in the
benchmarks' times, the margin belongs below it.
Exit 0, or 2 on an unreadable run or bad arguments.
"""
import argparse
import json
import os
import statistics
import sys
from collections import defaultdict

UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}
BINS = (1.05, 1.10, 1.20, 1.25, 1.40, 1.70)


def rows_of(path):
    """The repetition rows (iteration rows without an error) of a raw.json or a run folder."""
    raw = os.path.join(path, "raw.json") if os.path.isdir(path) else path
    try:
        with open(raw, encoding="utf-8") as f:
            doc = json.load(f)
        rows = [b for b in doc["benchmarks"] if b.get("run_type", "iteration") == "iteration"
                and "aggregate_name" not in b and not b.get("error_occurred")]
        for b in rows:
            b["_unit"] = UNITS[b.get("time_unit", "ns")]
            b["_parts"] = str(b.get("run_name") or b["name"]).split("/")
            float(b["real_time"]), float(b["cpu_time"]), int(b["iterations"])
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise SystemExit(f"run_profile: error: {raw}: not a usable raw.json ({e})")
    return rows


def group_key(b, by):
    p = b["_parts"]
    order = next((x for x in p[3:] if x.startswith("order=")), "")
    return {"scenario": p[0], "n": p[2], "strategy": p[1],
            "cell": "/".join(x for x in (p[0], p[2], order) if x)}[by]


def time_table(rows, by, top):
    """Lines: the groups by CPU seconds, most first, with timed seconds and their share."""
    groups = defaultdict(lambda: [0.0, 0.0, 0])
    for b in rows:
        if b.get("ecsb_stage"):
            continue
        g = groups[group_key(b, by)]
        g[0] += b["cpu_time"] * b["_unit"] * b["iterations"]
        g[1] += b["real_time"] * b["_unit"] * b["iterations"]
        g[2] += 1
    cpu = sum(g[0] for g in groups.values())
    timed = sum(g[1] for g in groups.values())
    out = [f"{'by ' + by:<34} {'cpu s':>8} {'timed s':>8} {'timed/cpu':>9} {'reps':>6}"]
    for key, (c, t, n) in sorted(groups.items(), key=lambda kv: -kv[1][0])[:top]:
        out.append(f"{key:<34} {c:8.1f} {t:8.1f} {t / c if c else 0:9.2f} {n:6d}")
    out.append(f"{'all planned repetitions':<34} {cpu:8.1f} {timed:8.1f} "
               f"{timed / cpu if cpu else 0:9.2f} {sum(g[2] for g in groups.values()):6d}")
    return out


def sentinel_table(rows):
    """Lines: repetitions by sentinel_ns / the run's best, with their time over their line's
    median (the median and 90th percentile in each bin)."""
    probed = [b for b in rows if b.get("sentinel_ns", 0) > 0]
    if not probed:
        return ["no sentinel_ns counters in this run"]
    best = min(b["sentinel_ns"] for b in probed)
    lines = defaultdict(list)
    for b in probed:
        lines[b["run_name"]].append(b)
    pairs = []
    for reps in lines.values():
        if len(reps) < 3:
            continue
        median = statistics.median(b["real_time"] for b in reps)
        pairs += [(b["sentinel_ns"] / best, b["real_time"] / median) for b in reps]
    edges = (0.0,) + BINS + (float("inf"),)
    out = [f"sentinel / best ({best / 1e3:.0f} us)   reps   time / line median: median  p90"]
    for lo, hi in zip(edges, edges[1:]):
        got = sorted(t for s, t in pairs if lo <= s < hi)
        if not got:
            continue
        p90 = got[min(len(got) - 1, int(0.9 * len(got)))]
        label = f"{lo:.2f} - {hi:.2f}" if hi != float("inf") else f"{lo:.2f} and over"
        out.append(f"{label:<28} {len(got):6d}   {statistics.median(got):24.3f} {p90:5.3f}")
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description="where a run's timing went; the sentinel's bins")
    p.add_argument("run")
    p.add_argument("--by", choices=("scenario", "n", "strategy", "cell"), default="scenario")
    p.add_argument("--top", type=int, default=20)
    p.add_argument("--sentinel", action="store_true")
    try:
        args = p.parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    try:
        rows = rows_of(args.run)
    except SystemExit as e:
        print(e, file=sys.stderr)
        return 2
    print("\n".join(sentinel_table(rows) if args.sentinel else
                    time_table(rows, args.by, max(1, args.top))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
