#!/usr/bin/env python3
"""plot_data.py RUN_DIR OUT_DIR — write the settings (and the computed data) gnuplot draws a
run's plots from.

The charts of a case (a scenario, or a variant: the scenario run with another parameter set)
read <case>.csv, the case's own rows of the run (plots/common.gp picks a row by strategy and
metric); for them this script writes those rows and the settings, into OUT_DIR:
  <scenario>.csv             the case's figures: strategy, n, metric, median, min, max
  <scenario>.vars.gp         the CSV and scenario, the series (names, titles, colours, N nudge),
                             the bars at N = 4000 (which, colours, the floor's median), cache
                             markers, ranges, corner text (gnuplot `load`s it) for vs_n.gp and
                             bars_n4000.gp
  <scenario>.memory.vars.gp  the same for the memory chart (memory_vs_n.gp)
The whole-run charts draw figures computed here, not rows of the CSV:
  overview_heatmap[~order=O].dat, .vars.gp   the overview heat map, one per world order:
                                 ratio to the fastest strategy of each case, one panel at
                                 N = 4000 and one at the largest N, "=" before a ratio
                                 level with the fastest, a grey "?" (no ratio) where the
                                 run cannot tell a strategy from the fastest
  efficiency_heatmap.dat, .vars.gp   efficiency (hardware line / time per item, ecsb_hardware.py)
                                 per line and iteration case at its largest N, when the run
                                 has machine.json
  memory_n65536[~order=O].dat, .vars.gp   bytes per entity per strategy (and the floor) and
                                 case at 65536 (the nearest size per case), one heat map per
                                 world order, coloured by the ratio to the case's leanest
  <sweep>.dat, <sweep>.vars.gp   per sweep (one parameter varied) and size: time per item
                                 against the parameter, crossovers marked (ecsb_crossover.py)
and OUT_DIR/plots.txt: one line per chart, "<gnuplot script> <vars file>" (plots.sh runs them).
Names, items and limit lines come from the run (scripts/ecsb_rundata.py), never from here.
Exit 2 with a message when the run folder is missing or malformed.

Cache markers: a cache of B bytes is drawn at N = B / (the floor's bytes per entity, measured
in this run) — the size at which the floor's own arrays fill that cache. Strategies that keep
more per entity cross it at smaller N; the floor marks the earliest point at which any
storage at all must spill.
"""
import math
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ecsb_crossover import write_plot_data as write_crossovers  # noqa: E402
from ecsb_overview import heatmaps, level_with_best, panel, untold_from_best, without_order  # noqa: E402
from ecsb_hardware import HardwareLine  # noqa: E402
from ecsb_rundata import FLOOR, LIMIT, RunError, human_bytes, label, load_run, machine_short_name  # noqa: E402

BAR_N = 4000
MEMORY_N = 65536
DODGE = 1.035  # sideways nudge between neighbouring series on the log N axis (3.5 %)
ARTICLES_N = 4000  # the articles' size: off the power-of-two series of the sweep


def off_the_series(sizes):
    """The N the time-against-N lines leave out (0: none): the articles' 4000 when the sweep's
    4096 is there too (two markers side by side, a near-vertical jump between them)."""
    return ARTICLES_N if ARTICLES_N in sizes and 4096 in sizes else 0


def dodge_at(sizes, cache_n, nseries):
    """{N: the nudge between neighbouring series at N}: DODGE, or less where the outermost
    series would cross a cache-size line (a point never moves to the other side of one)."""
    out = {}
    half = max((nseries - 1) / 2.0, 0.5)
    for n in sizes:
        room = min([abs(math.log(c / n)) for c in cache_n] or [math.inf])
        out[n] = min(DODGE, math.exp(room / half) ** 0.9) if room > 0 else 1.0
    return out


def gp_lookup(name, table, default):
    """A gnuplot function of n that returns table[n] (default elsewhere)."""
    body = "".join(f"n == {n} ? {v!r} : " for n, v in sorted(table.items()))
    return f"{name}(n) = {body}{default!r}"

# Okabe–Ito colours (distinct for colour-blind readers), then more; floor black, limit grey.
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#8C564B",
           "#7F7F7F", "#BCBD22", "#17BECF", "#9467BD", "#F0027F"]
POINTS = [7, 5, 9, 13, 11, 15, 4, 6, 8, 10, 12, 14]
REFERENCE_STYLE = {FLOOR: ("#000000", 7, 2, 2.5), LIMIT: ("#666666", 6, 4, 2.5)}


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


def xtics(lo, hi, articles=True):
    """Tics at powers of 4 (256, 1 Ki, 4 Ki ... 4 Mi) inside [lo, hi], plus 4000 if inside
    (and not left off the lines: articles=False)."""
    tics, t = [], 1
    while t <= hi:
        if t >= lo:
            tics.append((n_label(t), t))
        t *= 4
    if articles and lo <= BAR_N <= hi and BAR_N not in [v for _, v in tics]:
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


def set_ytics(lo, hi):
    return "set ytics (" + ", ".join(f"{gp_str(f'{v:g}')} {v!r}" for v in ytics(lo, hi)) + ")"


def libraries(run):
    """The run's library strategies: raw.json's context key ecsb_libraries ("flecs,entt")."""
    return {s.strip() for s in str(run.context.get("ecsb_libraries", "")).split(",") if s.strip()}


class Style:
    """One colour, point type, dash and width per strategy, fixed by the registry's order so a
    strategy looks the same in every chart and every run of the same binary."""

    def __init__(self, run):
        self.order = list(run.meta.strategies) + [s for s in run.contenders()
                                                  if s not in run.meta.strategies]
        self.libraries = libraries(run)

    def title(self, strategy):
        """A strategy's name in legends: a library (raw.json's ecsb_libraries) says so."""
        return label(strategy) + (" (library)" if strategy in self.libraries else "")

    def of(self, strategy):
        if strategy in REFERENCE_STYLE:
            return REFERENCE_STYLE[strategy]
        i = self.order.index(strategy)
        # a library's line dashed (dt 4), apart from the layouts of this suite
        return PALETTE[i % len(PALETTE)], POINTS[i % len(POINTS)], \
            4 if strategy in self.libraries else 1, 2

    def arrays(self, series):
        styles = [self.of(s) for s in series]
        return [gp_array("series", series),
                gp_array("titles", [self.title(s) for s in series]),
                gp_array("colours", [c for c, _, _, _ in styles]),
                gp_array("points", [p for _, p, _, _ in styles]),
                gp_array("dashes", [d for _, _, d, _ in styles]),
                gp_array("widths", [w for _, _, _, w in styles])]


def case_csv(run, case, out, hardware_rows=()):
    """Where gnuplot reads a case's figures (a scenario, or a variant: the scenario with another
    parameter set): <case>.csv in OUT_DIR, holding that case's rows and no other. results.csv
    names a variant's rows by its base scenario (the parameters are in its params column), so
    a chart picking rows there by scenario drew every parameter set of it in one line, and
    its variants' charts nothing."""
    path = os.path.abspath(os.path.join(out, case + ".csv"))
    if not os.path.exists(path):
        with open(path, "w") as f:
            f.write("strategy,n,metric,median,min,max\n")
            for (sc, st, n), metrics in run.rows.items():
                if sc != case:
                    continue
                for metric, v in metrics.items():
                    f.write(f"{st},{n},{metric},{v['median']!r},{v['min']!r},{v['max']!r}\n")
            for n, v in hardware_rows:  # the hardware line: one figure per N
                f.write(f"hardware_line,{n},time_per_item,{v!r},{v!r},{v!r}\n")
    return [f"csvfile = {gp_str(path)}"]


def corner(run):
    """Every chart's stamp: the machine's short name (machine.json), the date, the run."""
    return f"{machine_short_name(run.path)}  ·  {run.date()}  ·  run {run.run_id}"


def nearest(sizes, n):
    return min(sizes, key=lambda s: (abs(math.log(s / n)), s))


def cache_markers(run, scenario, xmin, xmax):
    """(N of each cache inside the range, their labels, the note under the plot)."""
    sizes = run.sizes(scenario)
    bpe = run.bytes_per_entity((scenario, FLOOR, sizes[-1]))
    if not bpe or bpe <= 0:
        return [], [], "no cache markers: the run has no bytes per entity for the floor"
    cache_n, cache_label, off_range = [], [], []
    for name, size in run.caches():
        n = size / bpe
        if xmin < n < xmax:
            cache_n.append(n)
            cache_label.append(f"{name} {human_bytes(size)}")
        else:
            off_range.append(f"{name} {human_bytes(size)} at N = {n_label_approx(n)}")
    note = ""
    if cache_n or off_range:
        note = f"dotted: N at which the floor's data ({bpe:.3g} B per entity) fills each cache"
        if off_range:
            note += f"; off the N range: {', '.join(off_range)}"
    return cache_n, cache_label, note


def failure_note(run, scenario, n=None):
    failed = [f"{st}" + ("" if n else f" N={size}") for sc, st, size in run.errors
              if sc == scenario and (n is None or size == n) and run.failed((sc, st, size))]
    if not failed:
        return ""
    return (f"failed, not drawn (see errors.csv): {', '.join(failed[:6])}"
            + (f" and {len(failed) - 6} more" if len(failed) > 6 else ""))


def write_scenario(run, scenario, out, style, charts, hardware=None):
    sizes = run.sizes(scenario)
    series = [s for s in run.strategies if any(run.time_per_item((scenario, s, n)) for n in sizes)]
    if not series:
        return
    item = run.item(scenario)
    reps = sorted({run.time_per_item((scenario, s, n))["repetitions"]
                   for s in series for n in sizes if run.time_per_item((scenario, s, n))})
    reps_text = "/".join(map(str, reps))
    path = os.path.join(out, scenario)

    # Ranges only: gnuplot reads the figures from <case>.csv itself.
    timed = [run.time_per_item((scenario, s, n)) for s in series for n in sizes]
    lo_y = min(t["min"] for t in timed if t)
    hi_y = max(t["max"] for t in timed if t)
    # The hardware line (ecsb_hardware.py): rows "hardware_line" of the case's CSV, drawn under
    # the floor and the limit.
    hw = [(n, hardware.of(scenario, n)) for n in sizes] if hardware else []
    hw = [(n, v) for n, v in hw if v]
    hw_plot = ""
    if hw:
        lo_y, hi_y = min(lo_y, min(v for _, v in hw)), max(hi_y, max(v for _, v in hw))
        hw_plot = (', csvfile using (column("n")):(row("hardware_line", "time_per_item") ? '
                   'column("median") : NaN) with lines lc rgb "#B00000" lw 2.5 dt 3 '
                   'title "hardware line"')

    # Bars at N = 4000 (or the nearest size the run has): floor and limit first.
    bar_n = nearest(sizes, BAR_N)
    bar_series = [s for s in series if run.time_per_item((scenario, s, bar_n))]
    floor_t = run.time_per_item((scenario, FLOOR, bar_n))
    bar_max = max(run.time_per_item((scenario, s, bar_n))["max"] for s in bar_series)

    # Bytes per entity against N.
    mem_series = [s for s in series if any(run.bytes_per_entity((scenario, s, n)) for n in sizes)]
    mem = [b for s in mem_series for n in sizes
           for b in [run.bytes_per_entity((scenario, s, n))] if b and b > 0]
    mem_lo, mem_hi = (min(mem), max(mem)) if mem else (math.inf, 0.0)

    xmin, xmax = sizes[0] / 1.6, sizes[-1] * 1.6
    cache_n, cache_label, cache_note = cache_markers(run, scenario, xmin, xmax)
    bar_note = "" if bar_n == BAR_N else f" ({BAR_N} is not in this run)"
    limit_text = ("grey dash-dot: the limit, the same arithmetic on arrays holding only what "
                  "the pass touches")
    # One series of sizes: the articles' 4000 beside the sweep's 4096 would double the markers
    # and draw a near-vertical jump; it is left out of the lines (the bar chart has it).
    skip_n = off_the_series(sizes)
    articles_text = (f"N = {ARTICLES_N} (the articles' size) is in the bar chart, not on these "
                     "lines") if skip_n else ""

    def notes(with_limit):
        return "; ".join(x for x in (limit_text if with_limit else "", articles_text) if x)
    limit_note = notes(LIMIT in series)
    if hw:
        limit_note += ("; " if limit_note else "") + (
            "red dotted: the hardware line (docs/machine.md)")
    lines = [
        f"# gnuplot settings for {scenario} of run {run.run_id} (written by scripts/plot_data.py)",
        *case_csv(run, scenario, out, hw),
        f"out_vs_n = {gp_str(path + '_vs_n')}",
        f"hw_plot = {gp_str(hw_plot)}",
        f"out_bars = {gp_str(path + '_n4000')}",
        f"title_vs_n = {gp_str(f'{scenario}: time per {item} against N (log-log; lower is faster)')}",
        f"title_bars = {gp_str(f'{scenario}: time per {item} at N = {bar_n}{bar_note} (lower is faster)')}",
        f"ylabel_text = {gp_str(f'ns per {item}  (median of {reps_text} repetitions; bars: min–max)')}",
        f"corner = {gp_str(corner(run))}",
        f"cache_note = {gp_str(cache_note)}",
        f"limit_note = {gp_str(limit_note)}",
        f"fail_note = {gp_str(failure_note(run, scenario))}",
        f"bar_fail_note = {gp_str(failure_note(run, scenario, bar_n))}",
        f"xmin = {xmin!r}",
        f"xmax = {xmax!r}",
        f"ymin = {lo_y / 1.5!r}",
        f"ymax = {hi_y * 1.6!r}",
        f"bar_ymax = {bar_max * 1.5!r}",  # room above the tallest bar for its upright label
        f"nseries = {len(series)}",
        f"skip_n = {skip_n}",
        gp_lookup("dodge", dodge_at(sizes, cache_n, len(series)), DODGE),
        f"nbars = {len(bar_series)}",
        f"bar_n = {bar_n}",
        f"floor_median = {floor_t['median'] if floor_t else 0!r}",
        *style.arrays(series),
        gp_array("bar_series", bar_series),
        gp_array("bar_colours", ["#555555" if s == FLOOR else style.of(s)[0] for s in bar_series]),
        f"ncaches = {len(cache_n)}",
        gp_array("cache_n", cache_n),
        gp_array("cache_label", cache_label),
        "set xtics (" + ", ".join(f"{gp_str(lab)} {v}"
                                  for lab, v in xtics(xmin, xmax, not skip_n)) + ")",
        # The bar chart's category labels: slanted 45 degrees on one line when there are many
        # (two-line names side by side ran into each other), else references on two lines.
        gp_array("bar_names", [style.title(s) if len(bar_series) > 7
                               else style.title(s).replace(" (", "\n(") for s in bar_series]),
        f"bar_rotate = {45 if len(bar_series) > 7 else 0}",
        set_ytics(lo_y / 1.5, hi_y * 1.6),
    ]
    with open(f"{path}.vars.gp", "w") as f:
        f.write("\n".join(lines) + "\n")
    charts += [("vs_n.gp", f"{path}.vars.gp"), ("bars_n4000.gp", f"{path}.vars.gp")]
    if not mem_series:
        return
    mem = [f"# gnuplot settings for {scenario}'s memory chart (scripts/plot_data.py)",
           *case_csv(run, scenario, out),
           f"outfile = {gp_str(path + '_memory_vs_n')}",
           f"title_text = {gp_str(f'{scenario}: bytes per entity after set-up, against N (log-log)')}",
           f"corner = {gp_str(corner(run))}",
           f"limit_note = {gp_str(notes(LIMIT in mem_series))}",
           f"skip_n = {skip_n}",
           f"xmin = {xmin!r}",
           f"xmax = {xmax!r}",
           f"ymin = {mem_lo / 1.4!r}",
           f"ymax = {mem_hi * 1.5!r}",
           f"nseries = {len(mem_series)}",
           *style.arrays(mem_series),
           "set xtics (" + ", ".join(f"{gp_str(lab)} {v}"
                                  for lab, v in xtics(xmin, xmax, not skip_n)) + ")",
           set_ytics(mem_lo / 1.4, mem_hi * 1.5)]
    with open(f"{path}.memory.vars.gp", "w") as f:
        f.write("\n".join(mem) + "\n")
    charts.append(("memory_vs_n.gp", f"{path}.memory.vars.gp"))


def write_heatmap(run, out, charts):
    """The overview, one file per world order (overview_heatmap for regular, else
    overview_heatmap~order=<order>): strategies (rows) x the cases of that order (columns), a
    panel at N = 4000 and one at each case's largest N."""
    maps = heatmaps(run)
    if not maps:
        return
    panels = {which: panel(run, which) for which in ("small", "large")}
    level = {which: level_with_best(run, which) for which in panels}
    untold = {which: untold_from_best(run, which) for which in panels}
    for order, name, columns in maps:
        write_heatmap_file(run, out, charts, name, order, columns, run.contenders(), panels,
                           level, untold)


def cell_text(ratio, level):
    """A heat map cell: the ratio (fewer decimals as it grows); "=" before it where the run
    finds the strategy as fast as the fastest (level). A cell the run cannot tell from the
    fastest gets no ratio at all ("?" on grey: UNTOLD_TEXT)."""
    text = f"{ratio:.{2 if ratio < 10 else 1 if ratio < 100 else 0}f}"
    return ("=" if level else "") + text


UNTOLD_TEXT = "?"


def write_heatmap_file(run, out, charts, name, order, columns, strategies, panels, level,
                       untold):
    states = ("ok", "untold", "failed", "not run")
    col_labels = {}
    data = os.path.join(out, name + ".dat")
    with open(data, "w") as f:
        for which, p in panels.items():
            col_labels[which] = [
                without_order(sc) + (f"  (N = {n_label(p['sizes'][sc])})"
                                     if which == "large" or p["sizes"][sc] != BAR_N else "")
                for sc in columns]
            # Index blocks per panel: ok cells, cells the run cannot tell from the fastest,
            # failed cells, cells not run.
            for state in states:
                f.write(f"# {which} N, {state}: x y ratio text text_colour\n")
                for x, sc in enumerate(columns):
                    for y, st in enumerate(strategies):
                        kind, ratio = p["cells"][(sc, st)]
                        if kind == "ok" and (sc, st) in untold[which]:
                            kind = "untold"
                        if kind != state:
                            continue
                        if kind == "untold":
                            f.write(f"{x} {y} {ratio:.6g} {gp_str(UNTOLD_TEXT)} 0\n")
                            continue
                        if kind == "ok":
                            dark = ratio < 1.1 or ratio >= 6.5
                            f.write(f"{x} {y} {ratio:.6g} "
                                    f"{gp_str(cell_text(ratio, (sc, st) in level[which]))} "
                                    f"{0xFFFFFF if dark else 0x111111}\n")
                        else:
                            f.write(f"{x} {y} 1 {gp_str(kind)} 0\n")
                f.write("1e9 1e9 1 \"\" 0\n\n\n")  # never empty: gnuplot refuses empty blocks
    small_note = ("" if all(panels["small"]["sizes"][sc] == BAR_N for sc in columns)
                  else f" (N beside a name: {BAR_N} is not in the run for it; the nearest size)")
    lines = [
        f"# gnuplot settings for the heat map of run {run.run_id}, order={order} (scripts/plot_data.py)",
        f"datafile = {gp_str(data)}",
        f"outfile = {gp_str(os.path.join(out, name))}",
        f"title_text = {gp_str(f'{order} worlds: time per item ÷ the fastest strategy’s (1.00 = fastest)')}",
        f"note_text = {gp_str('=: as fast as the fastest (within 5 %, sure of it)   grey ?: the run cannot tell it from the fastest (too close to call)')}",
        f"panel_small = {gp_str(f'at N = {BAR_N}' + small_note)}",
        f"panel_large = {gp_str('at the largest N of each scenario')}",
        f"corner = {gp_str(corner(run))}",
        f"ncols = {len(columns)}",
        f"nrows = {len(strategies)}",
        gp_array("row_names", [st + (" (library)" if st in libraries(run) else "")
                               for st in strategies]),
        gp_array("col_small", col_labels["small"]),
        gp_array("col_large", col_labels["large"]),
        *heatmap_layout(len(strategies), len(columns), max(map(len, col_labels["small"])),
                        max(map(len, col_labels["large"]))),
    ]
    with open(os.path.join(out, name + ".vars.gp"), "w") as f:
        f.write("\n".join(lines) + "\n")
    charts.append(("heatmap.gp", os.path.join(out, name + ".vars.gp")))


def heatmap_layout(nrows, ncols, chars_small, chars_large):
    """Image size and panel positions (screen fractions) for cells of fixed pixel size. Column
    labels are slanted 45 degrees under their column, so they never overlap however many
    columns there are; each panel leaves room below it for its longest label."""
    row_px, col_px, names, right = 34, 64, 175, 150
    title, panel_title, corner_px = 78, 34, 26
    slant = [int(chars * 7.2 * 0.71) + 16  # DejaVu Sans 11: ~7.2 px a character
             for chars in (chars_small, chars_large)]
    panel_px = nrows * row_px
    left = max(names, max(slant) - col_px // 2 + 10)
    width = max(760, left + ncols * col_px + right)
    height = title + 2 * (panel_title + panel_px) + sum(slant) + corner_px
    top1 = title + panel_title
    top2 = top1 + panel_px + slant[0] + panel_title
    return [f"width = {width}", f"height = {height}",
            f"left = {left / width!r}", f"right = {(left + ncols * col_px) / width!r}",
            f"top1 = {1 - top1 / height!r}", f"bottom1 = {1 - (top1 + panel_px) / height!r}",
            f"top2 = {1 - top2 / height!r}", f"bottom2 = {1 - (top2 + panel_px) / height!r}",
            f"colorbox_x = {(left + ncols * col_px + 30) / width!r}"]


def write_memory_heatmaps(run, out, charts):
    """Bytes per entity at N = 65536 (or each case's nearest size) as heat maps, one per world
    order like the time heat maps (memory_n65536 for regular, memory_n65536~order=<order>):
    strategies and the floor (rows) x the cases (columns), each cell its bytes printed, coloured
    by its ratio to the leanest strategy of the case; a cell that failed or has no figure says
    so. Labels slanted under fixed-size cells never overlap."""
    strategies = run.contenders()
    maps = heatmaps(run)
    if not maps or not strategies:
        return
    rows = strategies + [FLOOR]
    for order, name, columns in maps:
        name = "memory_n65536" + name[len("overview_heatmap"):]
        data = os.path.join(out, name + ".dat")
        labels = []
        with open(data, "w") as f:
            blocks = {"ok": [], "failed": [], "none": []}
            for x, sc in enumerate(columns):
                n = nearest(run.sizes(sc), MEMORY_N)
                values = {s: run.bytes_per_entity((sc, s, n)) for s in rows}
                leanest = min([v for s, v in values.items() if v and v > 0 and s != FLOOR],
                              default=None)
                col = without_order(sc) + ("" if n == MEMORY_N else f"  (N = {n_label(n)})")
                if leanest is None:
                    counted = any(run.stats((sc, s, n), "bytes_per_entity") for s in rows)
                    col += "  (no entity after set-up)" if counted else "  (no bytes counted)"
                labels.append(col)
                for y, s in enumerate(rows):
                    v = values[s]
                    if v and v > 0 and leanest:
                        ratio = max(v / leanest, 1.0)
                        dark = ratio < 1.1 or ratio >= 6.5
                        blocks["ok"].append(f"{x} {y} {ratio:.6g} {gp_str(fmt_bytes(v))} "
                                            f"{0xFFFFFF if dark else 0x111111}")
                    elif run.failed((sc, s, n)):
                        blocks["failed"].append(f'{x} {y} 1 "failed" 0')
                    else:
                        blocks["none"].append(f'{x} {y} 1 "—" 0')
            for kind in ("ok", "failed", "none"):
                f.write(f"# {kind}: x y ratio text text_colour\n")
                f.write("".join(line + "\n" for line in blocks[kind]))
                f.write('1e9 1e9 1 "" 0\n\n\n')  # never empty: gnuplot refuses empty blocks
        layout = memory_layout(len(rows), len(columns), max(map(len, labels)))
        lines = [
            f"# gnuplot settings for the memory heat map of run {run.run_id}, order={order} "
            "(scripts/plot_data.py)",
            f"datafile = {gp_str(data)}",
            f"outfile = {gp_str(os.path.join(out, name))}",
            f"title_text = {gp_str(f'{order} worlds: bytes per entity after set-up, at N = {MEMORY_N} (colour: × the leanest strategy)')}",
            f"corner = {gp_str(corner(run))}",
            f"ncols = {len(columns)}",
            f"nrows = {len(rows)}",
            gp_array("row_names", [label(s) + (" (library)" if s in libraries(run) else "")
                                   for s in rows]),
            gp_array("col_names", labels),
            *layout,
        ]
        with open(os.path.join(out, name + ".vars.gp"), "w") as f:
            f.write("\n".join(lines) + "\n")
        charts.append(("memory_heatmap.gp", os.path.join(out, name + ".vars.gp")))


def fmt_bytes(v):
    return f"{v:.0f}" if v >= 100 else f"{v:.1f}"


def memory_layout(nrows, ncols, chars):
    """Image size and the panel's place (screen fractions), cells of a fixed pixel size, the
    column names slanted 45 degrees below."""
    row_px, col_px, names, right, title, corner_px = 30, 64, 210, 150, 70, 26
    slant = int(chars * 7.2 * 0.71) + 16
    left = max(names, slant - col_px // 2 + 10)
    width = max(760, left + ncols * col_px + right)
    height = title + nrows * row_px + slant + corner_px
    return [f"width = {width}", f"height = {height}",
            f"left = {left / width!r}", f"right = {(left + ncols * col_px) / width!r}",
            f"top = {1 - title / height!r}", f"bottom = {1 - (title + nrows * row_px) / height!r}",
            f"colorbox_x = {(left + ncols * col_px + 30) / width!r}"]


def write_efficiency_heatmap(run, out, charts, hardware):
    """Efficiency per line and iteration case at each case's largest N (ecsb_hardware.py)."""
    columns = []
    for sc in run.scenarios:
        sizes = run.sizes(sc)
        if sizes and hardware.of(sc, sizes[-1]):
            columns.append((sc, sizes[-1]))
    rows = [st for st in run.strategies
            if any(hardware.efficiency((sc, st, n)) for sc, n in columns)]
    if not columns or not rows:
        return
    data = os.path.join(out, "efficiency_heatmap.dat")
    with open(data, "w") as f:
        f.write("# x y efficiency text\n")
        for x, (sc, n) in enumerate(columns):
            for y, st in enumerate(rows):
                e = hardware.efficiency((sc, st, n))
                if e:
                    f.write(f"{x} {y} {e:.6g} {gp_str(f'{e:.2f}')}\n")
    names = [f"{sc}  (N = {n_label(n)})" for sc, n in columns]
    row_px, col_px, left, right, top, slant = 30, 56, 250, 150, 70, int(max(map(len, names)) * 5.2) + 30
    width = max(720, left + len(columns) * col_px + right)
    height = top + len(rows) * row_px + slant + 20
    lines = [
        f"# gnuplot settings for the efficiency heat map of run {run.run_id} (scripts/plot_data.py)",
        f"datafile = {gp_str(data)}",
        f"outfile = {gp_str(os.path.join(out, 'efficiency_heatmap'))}",
        f"title_text = {gp_str('Efficiency: the hardware line ÷ time per item, at the largest N')}",
        f"corner = {gp_str(corner(run))}",
        f"ncols = {len(columns)}", f"nrows = {len(rows)}",
        gp_array("row_names", [label(st) for st in rows]),
        gp_array("col_names", names),
        f"width = {width}", f"height = {height}",
        f"left = {left / width!r}", f"right = {(left + len(columns) * col_px) / width!r}",
        f"top = {1 - top / height!r}", f"bottom = {1 - (top + len(rows) * row_px) / height!r}",
        f"colorbox_x = {(left + len(columns) * col_px + 30) / width!r}",
    ]
    with open(os.path.join(out, "efficiency_heatmap.vars.gp"), "w") as f:
        f.write("\n".join(lines) + "\n")
    charts.append(("efficiency_heatmap.gp", os.path.join(out, "efficiency_heatmap.vars.gp")))


def main(argv):
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C: stop quietly
    if len(argv) != 3:
        print("usage: plot_data.py RUN_DIR OUT_DIR", file=sys.stderr)
        return 2
    try:
        run = load_run(argv[1])
    except RunError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    out = argv[2]
    os.makedirs(out, exist_ok=True)
    failed = [k for k in run.errors if run.failed(k)]
    if failed:
        print(f"plots: warning: {len(failed)} benchmark(s) failed in {run.path} (errors.csv); "
              "they are marked, not drawn", file=sys.stderr)
    style = Style(run)
    charts = []
    write_heatmap(run, out, charts)
    write_memory_heatmaps(run, out, charts)
    hardware = HardwareLine(run)
    if hardware.available():
        write_efficiency_heatmap(run, out, charts, hardware)
    for sc in run.scenarios:
        write_scenario(run, sc, out, style, charts, hardware if hardware.available() else None)
    write_crossovers(run, out, {s: style.of(s)[0] for s in run.strategies}, charts)
    if not any(script == "vs_n.gp" for script, _ in charts):
        print(f"error: {run.path}/results.csv has no time_per_item figures to plot",
              file=sys.stderr)
        return 2
    with open(os.path.join(out, "plots.txt"), "w") as f:
        f.write("".join(f"{script} {vars_file}\n" for script, vars_file in charts))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
