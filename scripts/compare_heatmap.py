#!/usr/bin/env python3
"""compare_heatmap.py — the picture of a two-run comparison: strategies (rows) x scenarios
(columns), each cell the geometric mean over the sizes both runs share of B's median time per
item divided by A's, on a log colour scale centred on 1 (blue: B faster, red: B slower). A cell
whose every size was "within noise" (compare.py's verdict) prints its number in grey; a cell
with a size called faster or slower prints it in black. The natural picture for "the same code,
two compilers" or "two machines".

Usage: compare_heatmap.py COMPARE_JSON OUT_DIR
  COMPARE_JSON  what `compare.py A B --json FILE` wrote (mode "runs")
  OUT_DIR       gets compare_heatmap.dat, compare_heatmap.vars.gp, compare_heatmap.png/.svg
Exit 0 when drawn, 2 on an unusable input (the message says why).
"""
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from ecsb_stats import geomean  # noqa: E402
from plot_data import gp_array, gp_str  # noqa: E402

REFERENCES = ("floor", "limit")


def cells(doc):
    """([strategies], [scenarios], {(scenario, strategy): (geomean ratio, any change, sizes)})."""
    strategies, scenarios, ratios, changed = [], [], {}, {}
    for r in doc["rows"]:
        sc, st = r["scenario"], r["strategy"]
        if st not in strategies:
            strategies.append(st)
        if sc not in scenarios:
            scenarios.append(sc)
        ratios.setdefault((sc, st), []).append(r["ratio"])
        changed[(sc, st)] = changed.get((sc, st), False) or r["verdict"] in ("faster", "slower")
    # the machine's own lines last, under the contenders
    strategies = [s for s in strategies if s not in REFERENCES] + \
                 [s for s in REFERENCES if s in strategies]
    return strategies, scenarios, {k: (geomean(v), changed[k], len(v)) for k, v in ratios.items()}


def layout(nrows, ncols):
    """Image size and the one panel's position (screen fractions), cells of fixed pixel size."""
    row_px, col_px, names, right = 34, max(118, 340 // ncols), 175, 140
    title, tics, corner_px = 80, 90, 30
    width = max(860, names + ncols * col_px + right)
    left = (width - ncols * col_px - right + names) // 2
    height = title + nrows * row_px + tics + corner_px
    return [f"width = {width}", f"height = {height}",
            f"left = {left / width!r}", f"right = {(left + ncols * col_px) / width!r}",
            f"top = {1 - title / height!r}", f"bottom = {1 - (title + nrows * row_px) / height!r}",
            f"colorbox_x = {(left + ncols * col_px + 30) / width!r}"]


def write(doc, out):
    strategies, scenarios, got = cells(doc)
    os.makedirs(out, exist_ok=True)
    dat = os.path.join(out, "compare_heatmap.dat")
    with open(dat, "w") as f:
        f.write("# x y ratio text text_colour  (ratio = B / A, geometric mean over sizes)\n")
        for x, sc in enumerate(scenarios):
            for y, st in enumerate(strategies):
                if (sc, st) not in got:
                    continue
                ratio, change, _ = got[(sc, st)]
                text = f"{ratio:.2f}"
                colour = 0x111111 if change else 0x8a8a8a
                if abs(math.log(ratio)) > math.log(1.6):
                    colour = 0xFFFFFF  # on the dark ends of the scale
                f.write(f"{x} {y} {ratio:.6g} {gp_str(text)} {colour}\n")
        f.write("1e9 1e9 1 \"\" 0\n")  # never empty: gnuplot refuses empty blocks
    a, b = (os.path.basename(os.path.normpath(p)) for p in (doc["a"], doc["b"]))
    lines = [
        "# gnuplot settings for a comparison heat map (scripts/compare_heatmap.py)",
        f"datafile = {gp_str(dat)}",
        f"outfile = {gp_str(os.path.join(out, 'compare_heatmap'))}",
        f"title_text = {gp_str(f'Time per item, B ÷ A (geometric mean over the sizes)' + chr(10) + f'B = {b}   A = {a}')}",
        f"corner = {gp_str('grey: within noise at every size; black: a change at one size or more')}",
        f"ncols = {len(scenarios)}",
        f"nrows = {len(strategies)}",
        gp_array("row_names", strategies),
        gp_array("col_names", scenarios),
        *layout(len(strategies), len(scenarios)),
    ]
    with open(os.path.join(out, "compare_heatmap.vars.gp"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return os.path.join(out, "compare_heatmap.vars.gp")


def main(argv):
    if len(argv) != 2:
        print("usage: compare_heatmap.py COMPARE_JSON OUT_DIR", file=sys.stderr)
        return 2
    try:
        with open(argv[0]) as f:
            doc = json.load(f)
        if doc.get("mode") != "runs" or not doc.get("rows"):
            raise ValueError("not a two-run comparison with rows (compare.py A B --json FILE)")
    except (OSError, ValueError) as e:
        print(f"compare_heatmap: error: {argv[0]}: {e}", file=sys.stderr)
        return 2
    vars_file = write(doc, argv[1])
    top = os.path.dirname(HERE)
    subprocess.run(["gnuplot", "-e", f"vars={gp_str(vars_file)}",
                    os.path.join(top, "plots", "common.gp"),
                    os.path.join(top, "plots", "compare_heatmap.gp")], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
