#!/usr/bin/python3
"""fixture_runs.py OUT_DIR — write the fixture runs the plot, summary and compare tests read, at
test time (nothing generated is committed). Each is shaped like `make bench` output (list.json,
raw.json, results.csv, errors.csv; see fakes.write_run):

  OUT_DIR/20261101T090000Z-fixture   run A: platformer (no limit line) and dual_iterate (with a
                                     limit line), floor + 4 strategies, 5 sizes, 9 repetitions,
                                     bytes per entity on every row
  OUT_DIR/20261102T090000Z-fixture   run B: the same rows, crafted against A:
                                     flat_map     every sample x 0.6  -> clearly faster
                                     handle_table every sample x 1.5  -> clearly slower
                                     the others   the same medians, the other samples 0.5-2 %
                                                  further out -> within noise (ratio exactly 1)
So `compare A B` gives 55 rows: 10 faster (flat_map), 10 slower (handle_table), 35 within noise
(index_is_id, sparse_set, floor, limit); the geometric mean of the 40 strategy ratios (floor
and limit excluded) is (0.6 * 1.5) ** (1/4) = 0.974004. With 9 repetitions a side, a sample set
entirely above the other gives p = 4.1e-05, 0.0023 after Holm over 55 rows: significant.

  OUT_DIR/20261103T090000Z-overview  small and hand-checked (tests/scripts/test_overview.py works
                                     out every ratio, margin and p-value): OVERVIEW below, with
                                     a failed benchmark and one that was not run
Deterministic (seeded).
"""
import os
import random
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fakes import context, gbench_rows, write_run  # noqa: E402

RUN_A = "20261101T090000Z-fixture"
RUN_B = "20261102T090000Z-fixture"
SIZES = [256, 4000, 65536, 1048576, 4194304]
STRATEGIES = ["index_is_id", "handle_table", "flat_map", "sparse_set"]
REPS = 9
LIST = {
    "strategies": [{"name": s, "summary": f"{s} (fixture)"} for s in STRATEGIES],
    "references": [{"name": "floor", "summary": "plain arrays"},
                   {"name": "limit", "summary": "touched data only"}],
    "scenarios": [
        {"name": "platformer", "summary": "spawn two, kill three (fixture)", "item": "component op",
         "consumes_setup": True, "changes_structure": True, "has_limit": False,
         "default_sizes": SIZES},
        {"name": "dual_iterate", "summary": "a += 1.5*b (fixture)", "item": "matched pair",
         "consumes_setup": False, "changes_structure": False, "has_limit": True,
         "default_sizes": SIZES},
    ],
}
# Median ns per item by scenario, line and size (shaped like a real machine: flat in L1/L2,
# rising past L2 = 1 MiB and again past L3 = 35.75 MiB), and bytes per entity.
MEDIANS = {
    "platformer": {
        "floor": [1.20, 1.10, 1.10, 1.25, 1.35],
        "index_is_id": [3.5, 3.2, 3.4, 4.5, 5.0],
        "handle_table": [6.0, 5.5, 6.1, 9.0, 11.0],
        "flat_map": [4.0, 3.8, 4.2, 6.0, 7.0],
        "sparse_set": [5.0, 4.6, 5.0, 8.0, 10.0],
    },
    "dual_iterate": {
        "floor": [0.35, 0.30, 0.45, 1.10, 1.50],
        "limit": [0.25, 0.22, 0.30, 0.70, 0.95],
        "index_is_id": [0.90, 0.80, 1.00, 2.00, 2.60],
        "handle_table": [2.5, 2.2, 3.5, 12.0, 18.0],
        "flat_map": [1.5, 1.4, 1.8, 3.5, 4.0],
        "sparse_set": [1.8, 1.6, 2.2, 6.0, 9.0],
    },
}
BYTES = {"floor": 6, "limit": 3, "index_is_id": 20, "handle_table": 36, "flat_map": 16,
         "sparse_set": 28}
ITEMS = {"platformer": lambda n: 5 * n, "dual_iterate": lambda n: n // 2}


def samples_a(rng, median):
    """REPS distinct repetitions around `median` (ns/item), the middle one exactly the median."""
    offsets = sorted(0.004 + abs(rng.gauss(0, 0.025)) + 0.001 * i for i in range(REPS - 1))
    half = (REPS - 1) // 2
    values = [median * (1 - o) for o in offsets[:half]] + [median] + \
        [median * (1 + o) for o in offsets[half:]]
    rng.shuffle(values)
    return values


def samples_b(strategy, a_values):
    if strategy == "flat_map":
        return [v * 0.6 for v in a_values]
    if strategy == "handle_table":
        return [v * 1.5 for v in a_values]
    # Same median; the others nudged 0.5-2 % away from it (so the median stays the median).
    med = statistics.median(a_values)
    out = []
    for i, v in enumerate(a_values):
        if v < med:
            v *= 0.99 if i % 2 else 0.995
        elif v > med:
            v *= 1.02 if i % 2 else 1.005
        out.append(v)
    return list(reversed(out))


def benchmarks(per_item):
    rows, family = [], 0
    for scenario, lines in MEDIANS.items():
        for line in lines:
            for n in SIZES:
                rows += gbench_rows(scenario, line, n, ITEMS[scenario](n),
                                    per_item[(scenario, line, n)], family,
                                    bytes_per_entity=BYTES[line] + 1024 / n,
                                    manual=scenario == "platformer")
            family += 1
    return rows


# The hand-checked run: median ns per item by scenario, line and size; None = failed its
# checksum; absent = not run. Every benchmark has 9 repetitions at median x (1 + 0.001 k),
# k = -4..4, so strategies 1 % or more apart never overlap (exact U test: p = 2/48620).
# churn's set-up leaves its world empty (no entity: no bytes per entity), as a level load's does.
RUN_OVERVIEW = "20261103T090000Z-overview"
OVERVIEW_LIST = {
    "strategies": [{"name": s, "summary": ""} for s in ("a", "b", "c")],
    "references": [{"name": "floor", "summary": ""}, {"name": "limit", "summary": ""}],
    "scenarios": [
        {"name": "iterate", "summary": "visit them all", "item": "entity visited",
         "consumes_setup": False, "changes_structure": False, "has_limit": True,
         "default_sizes": [4000, 65536]},
        {"name": "churn", "summary": "make and unmake", "item": "component op",
         "consumes_setup": True, "changes_structure": True, "has_limit": False,
         "default_sizes": [4000]},
    ],
}
OVERVIEW = {
    ("iterate", 4000): {"floor": 1.0, "limit": 0.5, "a": 2.0, "b": 3.0, "c": 2.2},
    ("iterate", 65536): {"floor": 1.0, "limit": 0.5, "a": 4.0, "b": None, "c": 3.0},
    ("churn", 4000): {"floor": 1.0, "a": 10.0, "b": 5.0},
}
OVERVIEW_BYTES = {"floor": 4.0, "limit": 2.0, "a": 8.0, "b": 12.0, "c": 16.0}


def overview_run(out_dir):
    rows = []
    for family, ((scenario, n), lines) in enumerate(OVERVIEW.items()):
        for line, median in lines.items():
            if median is None:
                error = (9, f"{scenario} on {line} at N={n}: wrong checksum: expected "
                            "00000000000000aa (floor), got 00000000000000bb")
                rows += gbench_rows(scenario, line, n, n, [], family, error=error)
            else:
                rows += gbench_rows(scenario, line, n, n,
                                    [median * (1 + 0.001 * k) for k in range(-4, 5)], family,
                                    bytes_per_entity=0 if scenario == "churn" else OVERVIEW_BYTES[line])
    return write_run(os.path.join(out_dir, RUN_OVERVIEW), OVERVIEW_LIST,
                     context(RUN_OVERVIEW, date="2026-11-03T09:00:00+00:00",
                             ecsb_repetitions="9"), rows)


def main(argv):
    if len(argv) != 2:
        print("usage: fixture_runs.py OUT_DIR", file=sys.stderr)
        return 2
    rng = random.Random(20261101)
    a = {(sc, line, n): samples_a(rng, med)
         for sc, lines in MEDIANS.items() for line, meds in lines.items()
         for n, med in zip(SIZES, meds)}
    b = {k: samples_b(k[1], v) for k, v in a.items()}
    extra = {"ecsb_strategies": ",".join(STRATEGIES), "ecsb_scenarios": ",".join(MEDIANS),
             "ecsb_repetitions": str(REPS), "ecsb_sizes": ",".join(map(str, SIZES)),
             "ecsb_fixture": "tests/scripts/fixture_runs.py (synthetic timings)"}
    for run_id, date, samples in ((RUN_A, "2026-11-01T09:00:00+00:00", a),
                                  (RUN_B, "2026-11-02T09:00:00+00:00", b)):
        write_run(os.path.join(argv[1], run_id), LIST,
                  context(run_id, date=date, cpu="AMD EPYC 9R14 96-Core Processor", **extra),
                  benchmarks(samples))
    overview_run(argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
