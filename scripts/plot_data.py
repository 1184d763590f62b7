#!/usr/bin/env python3
"""plot_data.py RUN_DIR OUT_DIR — write the data and settings gnuplot draws a run's plots from.

For each scenario of the run, into OUT_DIR:
  <scenario>_vs_n.dat   one block per series (strategies in registry order, the floor last):
                        N, median, min, max of time per item (ns); blocks separated for `index`
  <scenario>_bars.dat   the bar chart at N = 4000: position, label, median, min, max, ratio to floor
  <scenario>.vars.gp    titles, colours, cache markers, ranges, corner text (gnuplot `load`s it)
and OUT_DIR/scenarios.txt listing the scenarios, one a line (plots.sh loops over it).
Exit 2 with a message when the run folder is missing or malformed.

Cache markers: a cache of B bytes is drawn at N = B / (bytes per entity of the floor's working
set) — the size at which the floor's own arrays fill that cache. Strategies that keep more per
entity (ids, sparse maps, handles) cross it at smaller N; the floor marks the earliest point at
which any storage at all must spill.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ecsb_rundata import FLOOR, FLOOR_LABEL, RunError, human_bytes, load_run, scenario_items  # noqa: E402

# Bytes per entity of each scenario's floor (scenarios/floor.c), for the cache markers.
#   platformer:   one int32 hp per entity on a packed stack                    -> 4 B
#   dual_iterate: double a on every entity + int32 b on every other one (8 + 4/2) -> 10 B
FLOOR_BYTES_PER_ENTITY = {"platformer": 4, "dual_iterate": 10}
DEFAULT_BYTES_PER_ENTITY = 16
BAR_N = 4000
DODGE = 1.035  # sideways nudge between neighbouring series on the log N axis (3.5 %)

# Okabe–Ito colours (distinct for colour-blind readers), then a few more; the floor is black.
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#8C564B",
           "#7F7F7F", "#BCBD22", "#17BECF"]
POINTS = [7, 5, 9, 13, 11, 15, 4, 6, 8, 10]  # filled circle, square, triangles, diamond...


def gp_str(s):
    """A gnuplot double-quoted string literal."""
    return '"' + str(s).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def gp_array(name, values):
    items = ", ".join(gp_str(v) if isinstance(v, str) else repr(v) for v in values)
    return f"array {name}[{max(len(values), 1)}]" + (f" = [{items}]" if values else "")


def n_label(n):
    for unit, scale in (("Mi", 1 << 20), ("Ki", 1 << 10)):
        if n >= scale and n % scale == 0:
            return f"{n // scale} {unit}"
    return str(n)


def n_label_approx(n):
    for unit, scale in (("Mi", 1 << 20), ("Ki", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.3g} {unit}"
    return f"{n:.0f}"


def xtics(lo, hi):
    """Tics at powers of 4 (256, 1 Ki, 4 Ki ... 4 Mi) inside [lo, hi], plus 4000 if inside."""
    tics, t = [], 1
    while t <= hi:
        if t >= lo:
            tics.append((n_label(t), t))
        t *= 4
    if lo <= BAR_N <= hi and BAR_N not in [v for _, v in tics]:
        tics = [x for x in tics if not 0.8 < x[1] / BAR_N < 1.25] + [("4000", BAR_N)]
    return sorted(tics, key=lambda x: x[1])


def ytics(lo, hi):
    """1-2-5 tics inside [lo, hi] (a log axis needs more than one label per decade); finer
    steps when the range spans less than a decade or so."""
    for steps in ((1, 2, 5), (1, 1.5, 2, 3, 4, 5, 7), (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9)):
        tics = []
        for e in range(math.floor(math.log10(lo)) - 1, math.ceil(math.log10(hi)) + 1):
            for m in steps:
                v = m * 10.0 ** e
                if lo <= v <= hi:
                    tics.append(float(f"{v:.6g}"))
        if len(tics) >= 5:
            break
    return tics


def write_scenario(run, scenario, out_dir, items):
    series = [s for s in run.strategies if any(run.time_per_item((scenario, s, n))
                                               for n in run.sizes(scenario))]
    if not series:
        return False
    sizes = run.sizes(scenario)
    item = items.get(scenario, "item")
    reps = sorted({run.time_per_item((scenario, s, n))["repetitions"]
                   for s in series for n in sizes if run.time_per_item((scenario, s, n))})
    reps_text = "/".join(str(r) for r in reps)

    # Lines against N.
    lo_y, hi_y = math.inf, 0.0
    # Each series is nudged sideways by a few per cent (DODGE per step, centred) so that error
    # bars at the same N do not hide each other; the tics stay at the true N.
    with open(os.path.join(out_dir, f"{scenario}_vs_n.dat"), "w") as f:
        for i, s in enumerate(series):
            x_factor = DODGE ** (i - (len(series) - 1) / 2)
            f.write(f"# {s}: x (N nudged x{x_factor:.3f}), median, min, max (ns per {item}), N\n")
            for n in sizes:
                t = run.time_per_item((scenario, s, n))
                if t and t["median"] > 0 and t["min"] > 0:
                    f.write(f"{n * x_factor:.6g} {t['median']:.6g} {t['min']:.6g} "
                            f"{t['max']:.6g} {n}\n")
                    lo_y, hi_y = min(lo_y, t["min"]), max(hi_y, t["max"])
            f.write("\n\n")
    if hi_y <= 0:
        return False

    # Bars at N = 4000 (or the nearest size the run has).
    bar_n = min(sizes, key=lambda n: (abs(math.log(n / BAR_N)), n))
    floor_t = run.time_per_item((scenario, FLOOR, bar_n))
    bar_series = ([FLOOR] if floor_t else []) + [s for s in series if s != FLOOR and
                                                 run.time_per_item((scenario, s, bar_n))]
    bar_max = 0.0
    with open(os.path.join(out_dir, f"{scenario}_bars.dat"), "w") as f:
        f.write(f"# position label median min max ratio_to_floor colour (ns per {item}, N = {bar_n})\n")
        for i, s in enumerate(bar_series):
            t = run.time_per_item((scenario, s, bar_n))
            ratio = t["median"] / floor_t["median"] if floor_t and floor_t["median"] > 0 else 0
            colour = "#555555" if s == FLOOR else PALETTE[series.index(s) % len(PALETTE)]
            label = FLOOR_LABEL if s == FLOOR else s
            f.write(f"{i} {gp_str(label)} {t['median']:.6g} {t['min']:.6g} {t['max']:.6g} "
                    f"{ratio:.6g} {int(colour[1:], 16)}\n")
            bar_max = max(bar_max, t["max"])

    # Cache markers at the N where the floor's working set fills each cache.
    bpe = FLOOR_BYTES_PER_ENTITY.get(scenario, DEFAULT_BYTES_PER_ENTITY)
    xmin, xmax = sizes[0] / 1.6, sizes[-1] * 1.6
    cache_n, cache_label, off_range = [], [], []
    for label, size in run.caches():
        n = size / bpe
        if xmin < n < xmax:
            cache_n.append(n)
            cache_label.append(f"{label} {human_bytes(size)}")
        else:
            off_range.append(f"{label} {human_bytes(size)} at N = {n_label_approx(n)}")
    cache_note = ""
    if cache_n or off_range:
        cache_note = f"dotted: N at which the floor data ({bpe} B per entity) fills each cache"
        if off_range:
            cache_note += f"; off the N range: {', '.join(off_range)}"

    titles = [FLOOR_LABEL if s == FLOOR else s for s in series]
    colours = ["#000000" if s == FLOOR else PALETTE[i % len(PALETTE)] for i, s in enumerate(series)]
    points = [7 if s == FLOOR else POINTS[i % len(POINTS)] for i, s in enumerate(series)]
    dashes = [2 if s == FLOOR else 1 for s in series]
    widths = [2.5 if s == FLOOR else 2 for s in series]
    cpu = str(run.context.get("ecsb_cpu_model") or "").strip()
    corner = f"{run.host()}{' (' + cpu + ')' if cpu else ''}  ·  {run.date()}  ·  run {run.run_id}"
    tics = xtics(xmin, xmax)
    bar_note = "" if bar_n == BAR_N else f" ({BAR_N} is not in this run)"

    failed = [f"{st} N={n}" for sc, st, n in run.errors if sc == scenario]
    fail_note = ""
    if failed:
        fail_note = (f"failed, not drawn (see errors.csv): {', '.join(failed[:6])}"
                     + (f" and {len(failed) - 6} more" if len(failed) > 6 else ""))
    bar_failed = [st for sc, st, n in run.errors if sc == scenario and n == bar_n]
    bar_fail_note = (f"failed, not drawn (see errors.csv): {', '.join(bar_failed)}"
                     if bar_failed else "")

    lines = [
        f"# gnuplot settings for {scenario} of run {run.run_id} (written by scripts/plot_data.py)",
        f"datafile = {gp_str(os.path.join(out_dir, scenario + '_vs_n.dat'))}",
        f"barfile = {gp_str(os.path.join(out_dir, scenario + '_bars.dat'))}",
        f"out_vs_n = {gp_str(os.path.join(out_dir, scenario + '_vs_n'))}",
        f"out_bars = {gp_str(os.path.join(out_dir, scenario + '_n4000'))}",
        f"title_vs_n = {gp_str(f'{scenario}: time per {item} against N (log-log; lower is faster)')}",
        f"title_bars = {gp_str(f'{scenario}: time per {item} at N = {bar_n}{bar_note} (lower is faster)')}",
        f"ylabel_text = {gp_str(f'ns per {item}  (median of {reps_text} repetitions; bars: min–max)')}",
        f"xlabel_text = {gp_str('N (entities)')}",
        f"corner = {gp_str(corner)}",
        f"cache_note = {gp_str(cache_note)}",
        f"fail_note = {gp_str(fail_note)}",
        f"bar_fail_note = {gp_str(bar_fail_note)}",
        f"xmin = {xmin!r}",
        f"xmax = {xmax!r}",
        f"ymin = {lo_y / 1.5!r}",
        f"ymax = {hi_y * 1.6!r}",
        f"bar_ymax = {bar_max * 1.22!r}",
        f"nseries = {len(series)}",
        f"nbars = {len(bar_series)}",
        gp_array("titles", titles),
        gp_array("colours", colours),
        gp_array("points", points),
        gp_array("dashes", dashes),
        gp_array("widths", widths),
        f"ncaches = {len(cache_n)}",
        gp_array("cache_n", cache_n),
        gp_array("cache_label", cache_label),
        "set xtics (" + ", ".join(f"{gp_str(lab)} {v}" for lab, v in tics) + ")",
        # The bar chart's category labels ("floor" on two lines, so long names do not collide).
        gp_array("bar_names", ["floor\n(plain arrays)" if s == FLOOR else s for s in bar_series]),
        f"bar_rotate = {30 if len(bar_series) > 7 else 0}",
        "set ytics (" + ", ".join(f"{gp_str(f'{v:g}')} {v!r}" for v in ytics(lo_y / 1.5, hi_y * 1.6)) + ")",
    ]
    with open(os.path.join(out_dir, f"{scenario}.vars.gp"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return True


def main(argv):
    if len(argv) != 3:
        print("usage: plot_data.py RUN_DIR OUT_DIR", file=sys.stderr)
        return 2
    try:
        run = load_run(argv[1])
    except RunError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    os.makedirs(argv[2], exist_ok=True)
    items = scenario_items(run.context)
    if run.errors:
        print(f"plots: warning: {len(run.errors)} benchmark(s) failed in {run.path} "
              f"(errors.csv); they are left out of the plots", file=sys.stderr)
    done = [s for s in run.scenarios if write_scenario(run, s, argv[2], items)]
    if not done:
        print(f"error: {run.path}/results.csv has no positive time_per_item figures to plot",
              file=sys.stderr)
        return 2
    with open(os.path.join(argv[2], "scenarios.txt"), "w") as f:
        f.write("".join(s + "\n" for s in done))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
