#!/usr/bin/env python3
"""library_table.py RUN_DIR — each design against the library that ships it, from one run.

Prints a Markdown table (docs/results.md "Designs against their libraries" is its output): per
scenario, world (params) and N, the median time per item of each design and of its library,
and library / design (above 1: the library is slower). The pairs:

    archetype         vs flecs  (tables of entities with one component set)
    paged_sparse_set  vs entt   (EnTT's sparse sets, queried through a view)
    owning_group      vs entt   (this suite's owning groups against EnTT answering the same
                                 declared queries: with run-time types the strategy entt
                                 makes no group, strategies/entt.c says why, so these rows
                                 show what groups save over EnTT's runtime views)

A pair whose strategies are not both in the run is left out (said under the table). Reads
RUN_DIR/results.csv (metric time_per_item). Regenerate the committed table with

    make bench STRATEGIES=archetype,flecs,paged_sparse_set,owning_group,entt SIZES=4000,65536
    python3 scripts/library_table.py results/<id> > /tmp/table.md

With --summary: one row per scenario, the ratios in the regular world at the largest N up to
65,536 that every pair ran (the README's table).

Exit 2 with a message when RUN_DIR has no results.csv or it lacks the columns used.
"""
import csv
import os
import sys

PAIRS = [("archetype", "flecs"), ("paged_sparse_set", "entt"), ("owning_group", "entt")]
# What the library does in each pair, for the table's heading.
HOW = {("archetype", "flecs"): "cached queries for the declared sets",
       ("paged_sparse_set", "entt"): "runtime views",
       ("owning_group", "entt"): "runtime views: no group for run-time types"}


def fail(message):
    print(f"library_table: {message}", file=sys.stderr)
    sys.exit(2)


def load(run_dir):
    path = os.path.join(run_dir, "results.csv")
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail(f"{path}: {e.strerror}; give a run folder (results/<id>)")
    need = {"scenario", "strategy", "n", "metric", "median", "params"}
    if rows and not need <= set(rows[0]):
        fail(f"{path} lacks columns {sorted(need - set(rows[0]))}")
    times = {}
    for r in rows:
        if r["metric"] == "time_per_item":
            times[(r["scenario"], r["params"], int(r["n"]), r["strategy"])] = float(r["median"])
    return times


def table(times):
    strategies = {k[3] for k in times}
    pairs = [p for p in PAIRS if p[0] in strategies and p[1] in strategies]
    cells = sorted({k[:3] for k in times}, key=lambda c: (c[0], c[1], c[2]))
    lines = []
    for design, lib in pairs:
        lines.append(f"\n**{design} against {lib}** ({HOW[(design, lib)]}; ns per item; "
                     f"ratio = {lib} / {design})\n")
        lines.append(f"| scenario | world | N | {design} | {lib} | ratio |")
        lines.append("| --- | --- | ---: | ---: | ---: | ---: |")
        for scenario, params, n in cells:
            a, b = times.get((scenario, params, n, design)), times.get((scenario, params, n, lib))
            if a is None or b is None:
                continue
            world = params.replace(";", " ")
            lines.append(f"| {scenario} | {world} | {n:,} | {a:.3g} | {b:.3g} | {b / a:.2f} |")
    missing = [f"{d} vs {l}" for d, l in PAIRS if (d, l) not in pairs]
    if missing:
        lines.append(f"\nNot in this run: {', '.join(missing)}.")
    return "\n".join(lines).lstrip("\n")


def summary(times):
    """One row per scenario (the README's table): each pair's ratio (library / design) in the
    regular world (order=regular, the other parameters at their defaults: the params of the
    design's row with the fewest words) at the largest N both sides ran up to 65,536."""
    strategies = {k[3] for k in times}
    pairs = [p for p in PAIRS if p[0] in strategies and p[1] in strategies]
    head = "| scenario | N | " + " | ".join(f"{l} / {d}" for d, l in pairs) + " |"
    lines = [head, "| --- | ---: |" + " ---: |" * len(pairs)]
    for scenario in sorted({k[0] for k in times}):
        cells = [(p, n) for (sc, p, n, st) in times if sc == scenario and "order=regular" in p
                 and n <= 65536 and all((sc, p, n, x) in times for pair in pairs for x in pair)]
        if not cells:
            continue
        params, n = max(cells, key=lambda c: (-len(c[0]), c[1]))
        ratios = [times[(scenario, params, n, l)] / times[(scenario, params, n, d)]
                  for d, l in pairs]
        lines.append(f"| {scenario} | {n:,} | " + " | ".join(f"{r:.2f}" for r in ratios) + " |")
    return "\n".join(lines)


def main(argv):
    if len(argv) not in (2, 3) or (len(argv) == 3 and argv[1] != "--summary"):
        print("usage: library_table.py [--summary] RUN_DIR (a results/<id> folder)",
              file=sys.stderr)
        return 2
    times = load(argv[-1])
    print(summary(times) if len(argv) == 3 else table(times))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
