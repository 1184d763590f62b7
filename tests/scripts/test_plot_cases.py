"""Every chart of a case draws that case's rows and only those.

A case is a scenario with one parameter set: `dual_iterate` (its defaults, order=regular) and
its variants `dual_iterate~order=shuffled`, `~order=aged`, `~match=0.25` and `~match=1`.
results.csv names all five by the base scenario (the parameters are in its params column), so
charts that picked rows by scenario drew the four in one line each and left the variants'
charts empty. The fixture gives each case its own scale, so any row drawn in the wrong chart
shows: ns per item (and bytes per entity) are 1x, 10x, 5x, 2x and 3x the base's, 1 % apart between
strategies, and grow 4x from one size to the next, so each case's range of values overlaps the
others' (a point out of a chart's range would not be drawn, and so not caught). The charts are
checked by what they draw: the SVG's hover labels (one per point,
scripts/svg_tooltips.py) of the time and memory charts and of the match sweep, and the value
labels of the bars at N = 4000.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
PYTHON = os.environ.get("PYTHON", sys.executable)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(TOP, "scripts"))
from fakes import context, gbench_rows, write_run  # noqa: E402

RUN = "20261104T090000Z-cases"
SIZES = [1024, 4000, 16384]
GROWTH = {1024: 1, 4000: 4, 16384: 16}  # per size: each case spans 16x, overlapping the others
LINES = ["floor", "a", "b"]
BASE_NS, BASE_BYTES = 1.0, 8.0
# case -> (parameters in the benchmark name, scale against the base case)
CASES = {"dual_iterate": ("", 1), "dual_iterate~order=shuffled": ("order=shuffled", 10),
         "dual_iterate~order=aged": ("order=aged", 5),
         "dual_iterate~match=0.25": ("match=0.25", 2), "dual_iterate~match=1": ("match=1", 3)}
PARAMS = [{"name": "order", "default": "regular", "geometric": False},
          {"name": "match", "default": "0.5", "geometric": True}]
LIST = {"strategies": [{"name": "a", "summary": ""}, {"name": "b", "summary": ""}],
        "references": [{"name": "floor", "summary": ""}],
        "scenarios": [{"name": "dual_iterate", "summary": "", "item": "matched pair",
                       "consumes_setup": False, "changes_structure": False, "has_limit": False,
                       "default_sizes": SIZES, "params": PARAMS}]}


def ns(scale, line, n):
    return BASE_NS * scale * GROWTH[n] * (1 + 0.01 * LINES.index(line))


def nbytes(scale, line, n):
    return BASE_BYTES * scale * GROWTH[n] * (1 + 0.01 * LINES.index(line))


def cases_run(out_dir):
    rows, family = [], 0
    for params, scale in CASES.values():
        for line in LINES:
            for n in SIZES:
                med = ns(scale, line, n)
                for r in (new := gbench_rows("dual_iterate", line, n, n, [med * 0.999, med, med * 1.001],
                                             family, bytes_per_entity=nbytes(scale, line, n))):
                    if params:
                        r["name"] = r["run_name"] = f"{r['name']}/{params}"
                rows += new
                family += 1
    ctx = context(RUN, ecsb_params_default="dual_iterate:order=regular;match=0.5",
                  ecsb_repetitions="3")
    return write_run(os.path.join(out_dir, RUN), LIST, ctx, rows)


def hover_points(svg, unit):
    """[(series, N, figure)] of the chart's hover labels (one label per drawn point), sorted."""
    with open(svg, encoding="utf-8") as f:
        titles = re.findall(r"<g><title>([^<]*)</title>", f.read())
    points = []
    for t in titles:
        m = re.match(r"(\w+)[^,]*, N = (\d+): ([0-9.e+-]+) " + unit, t)
        if m:
            points.append((m.group(1), int(m.group(2)), float(m.group(3))))
    return sorted(points)


def expected(scale, figure):
    return sorted((line, n, float(f"{figure(scale, line, n):.4g}")) for line in LINES for n in SIZES)


class ChartsDrawTheirCase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        run = cases_run(cls.tmp)
        env = dict(os.environ, PLOTS_DIR=os.path.join(cls.tmp, "plots"), PYTHON=PYTHON)
        done = subprocess.run([os.path.join(TOP, "scripts", "plots.sh"), run], env=env,
                              capture_output=True, text=True)
        if done.returncode:
            raise AssertionError(f"plots.sh failed: {done.stderr}")
        cls.out = os.path.join(cls.tmp, "plots", RUN)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def chart(self, name):
        path = os.path.join(self.out, name + ".svg")
        self.assertTrue(os.path.isfile(path), f"{name}.svg was not drawn")
        return path

    def test_time_against_n_draws_the_case_rows_only(self):
        for case, (_, scale) in CASES.items():
            self.assertEqual(hover_points(self.chart(f"{case}_vs_n"), "ns"), expected(scale, ns),
                             f"{case}_vs_n: the points drawn")

    def test_memory_against_n_draws_the_case_rows_only(self):
        for case, (_, scale) in CASES.items():
            self.assertEqual(hover_points(self.chart(f"{case}_memory_vs_n"), "bytes"),
                             expected(scale, nbytes), f"{case}_memory_vs_n: the points drawn")

    def test_no_tooltip_names_another_plot(self):
        # gnuplot titles each plot's group with its command's text, or with a key title left
        # over from the chart its process drew before; the only tooltips are the hover labels.
        for name in sorted(os.listdir(self.out)):
            if name.endswith(".svg"):
                with open(os.path.join(self.out, name), encoding="utf-8") as f:
                    stale = re.findall(r'<g id="gnuplot_plot_\d+" ><title>([^<]*)</title>', f.read())
                self.assertEqual(stale, [], f"{name}: plot groups titled {stale[:3]}")

    def test_bars_at_4000_label_the_case_medians_only(self):
        for case, (_, scale) in CASES.items():
            with open(self.chart(f"{case}_n4000"), encoding="utf-8") as f:
                labels = [float(x) for x in
                          re.findall(r">([0-9.]+) ns(?: · [0-9.]+× floor)?<", f.read())]
            self.assertEqual(sorted(labels), sorted(float(f"{ns(scale, s, 4000):.3g}") for s in LINES),
                             f"{case}_n4000")

    def test_every_chart_is_stamped_with_the_machine_and_the_run(self):
        for name in sorted(os.listdir(self.out)):
            if name.endswith(".svg"):
                with open(os.path.join(self.out, name), encoding="utf-8") as f:
                    self.assertIn(f"run {RUN}<", f.read(), f"{name} has no stamp")

    def test_the_match_sweep_draws_the_regular_cases_only(self):
        # Points at match 0.25, 0.5 (the base) and 1: scales 2, 1, 3; never the shuffled 10.
        for n in SIZES:
            with open(self.chart(f"dual_iterate_sweep_match_n{n}"), encoding="utf-8") as f:
                titles = re.findall(r"<g><title>([^<]*)</title>", f.read())
            got = sorted({(t.split(",")[0], round(float(re.search(r"match = ([0-9.]+)", t).group(1)), 3),
                           float(re.search(r": ([0-9.]+) ns", t).group(1))) for t in titles})
            want = sorted({(s, m, float(f"{ns(sc, s, n):.4g}"))
                           for m, sc in ((0.25, 2), (0.5, 1), (1.0, 3)) for s in LINES})
            self.assertEqual(got, want, f"sweep at N = {n}")

    def heat_map_texts(self, name):
        with open(self.chart(name), encoding="utf-8") as f:
            return re.findall(r">([^<>]+)</text>", f.read())

    def test_one_heat_map_per_world_order_with_that_order_s_cases(self):
        regular = self.heat_map_texts("overview_heatmap")
        shuffled = self.heat_map_texts("overview_heatmap~order=shuffled")
        aged = self.heat_map_texts("overview_heatmap~order=aged")
        self.assertIn("regular worlds", " ".join(regular))
        self.assertIn("shuffled worlds", " ".join(shuffled))
        self.assertIn("aged worlds", " ".join(aged))
        for case in ("dual_iterate", "dual_iterate~match=0.25", "dual_iterate~match=1"):
            self.assertIn(case, regular)  # the small panel's column names
        self.assertEqual([t for t in shuffled if t.startswith("dual_iterate")],
                         ["dual_iterate", "dual_iterate  (N = 16 Ki)"])
        self.assertEqual([t for t in aged if t.startswith("dual_iterate")],
                         ["dual_iterate", "dual_iterate  (N = 16 Ki)"])
        self.assertFalse(os.path.exists(os.path.join(self.out, "overview_heatmap~order=regular.svg")))

    def test_heat_map_marks_what_the_run_finds_level(self):
        # a and b are 1 % apart, their repetitions 0.1 % apart: level ("=1.01"); a cell the
        # run cannot tell apart (a grey "?") is test_overview's HeatMapMarks
        for name in ("overview_heatmap", "overview_heatmap~order=shuffled",
                     "overview_heatmap~order=aged"):
            texts = self.heat_map_texts(name)
            self.assertIn("=1.01", texts, name)
            self.assertNotIn("1.01", texts, name)


class Libraries(unittest.TestCase):
    def test_a_library_is_named_and_dashed_apart_in_legends(self):
        from plot_data import Style

        class Meta:
            strategies = ["a", "flecs"]

        class Run:
            meta = Meta
            context = {"ecsb_libraries": "flecs,entt"}

            def contenders(self):
                return ["a", "flecs"]
        style = Style(Run())
        self.assertEqual((style.title("a"), style.title("flecs")), ("a", "flecs (library)"))
        self.assertEqual((style.of("a")[2], style.of("flecs")[2]), (1, 4))
        Run.context = {}
        self.assertEqual(Style(Run()).title("flecs"), "flecs")


class Nudge(unittest.TestCase):
    def test_one_series_of_sizes_on_the_lines(self):
        from plot_data import off_the_series
        self.assertEqual(off_the_series([256, 1024, 4000, 4096, 16384, 65536]), 4000)
        self.assertEqual(off_the_series([1024, 4000, 16384]), 0)
        self.assertEqual(off_the_series([4096, 65536]), 0)

    def test_no_point_is_shifted_across_a_cache_line(self):
        from plot_data import DODGE, dodge_at
        sizes = [256, 1024, 4000, 4096, 16384, 52000, 65536, 262144]
        caches = [1638.4, 52428.8, 1677721.6]
        for nseries in (2, 5, 12, 14):
            nudge = dodge_at(sizes, caches, nseries)
            for n in sizes:
                for i in range(nseries):
                    x = n * nudge[n] ** (i - (nseries - 1) / 2.0)
                    for c in caches:
                        self.assertEqual(x < c, n < c, (nseries, n, i, c))
            self.assertEqual(nudge[256], DODGE)  # far from every line: the full nudge


if __name__ == "__main__":
    unittest.main()
