"""The whole-run overview on the hand-checked fixture (tests/scripts/fixture_runs.py,
RUN_OVERVIEW): the heat map's cells (ratio to the fastest, failed, not run), its "≈" marks (the
verdict module's verdict of each cell's pair against the fastest: marked unless *faster*), the
heat maps' names per world order, summary.md's overview, and the drawn heat map.

The fixture, median ns per item (9 repetitions each, 0.1 % apart):
    iterate N=4000:   floor 1, limit 0.5, a 2.0, b 3.0, c 2.2
    iterate N=65536:  floor 1, limit 0.5, a 4.0, b failed, c 3.0
    churn   N=4000:   floor 1, a 10.0, b 5.0, c not run
Worked out by hand: at N = 4000 iterate's fastest is a (b 1.50x, c 1.10x), churn's is b (a
2.00x); at the largest N iterate's fastest is c (a 1.33x). Every pair is at least 10 % apart
with repetitions 0.1 % apart: every verdict against the fastest is *faster*, nothing marked.
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
sys.path.insert(0, os.path.join(TOP, "scripts"))
sys.path.insert(0, HERE)
from ecsb_overview import heatmaps, level_with_best, panel, untold_from_best, without_order, world_order  # noqa: E402
from ecsb_rundata import load_run  # noqa: E402
from ecsb_stats import FASTER, LEVEL, UNDECIDABLE, cell  # noqa: E402
from fakes import replace_samples  # noqa: E402
from fixture_runs import RUN_OVERVIEW, overview_run  # noqa: E402


class Overview(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.path = overview_run(cls.tmp)
        cls.ran = load_run(cls.path)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def cells(self, which):
        return {k: (state, None if r is None else round(r, 4))
                for k, (state, r) in panel(self.ran, which)["cells"].items()}

    def test_heat_map_cells_at_4000(self):
        self.assertEqual(self.cells("small"), {
            ("iterate", "a"): ("ok", 1.0), ("iterate", "b"): ("ok", 1.5),
            ("iterate", "c"): ("ok", 1.1), ("churn", "a"): ("ok", 2.0),
            ("churn", "b"): ("ok", 1.0), ("churn", "c"): ("not run", None)})

    def test_heat_map_cells_at_the_largest_n_mark_the_failed_one(self):
        self.assertEqual(self.cells("large"), {
            ("iterate", "a"): ("ok", 1.3333), ("iterate", "b"): ("failed", None),
            ("iterate", "c"): ("ok", 1.0), ("churn", "a"): ("ok", 2.0),
            ("churn", "b"): ("ok", 1.0), ("churn", "c"): ("not run", None)})

    def test_every_heat_map_cell_of_this_run_is_told_apart(self):
        # 9 repetitions a side, entirely apart, at least 10 % slower: every verdict is faster.
        for sc, st, best, n in (("iterate", "b", "a", 4000), ("iterate", "c", "a", 4000),
                                ("churn", "a", "b", 4000), ("iterate", "a", "c", 65536)):
            self.assertEqual(cell(self.ran, sc, n).pair(st, best).verdict, FASTER)
        self.assertEqual(level_with_best(self.ran, "small"), set())
        self.assertEqual(level_with_best(self.ran, "large"), set())

    def test_world_order_of_a_case(self):
        self.assertEqual(world_order(self.ran, "iterate"), "regular")
        self.assertEqual(world_order(self.ran, "iterate~order=aged,match=1"), "aged")
        self.assertEqual(without_order("iterate~order=aged,match=1"), "iterate~match=1")
        self.assertEqual(without_order("iterate~order=shuffled"), "iterate")


class HeatMapMarks(unittest.TestCase):
    """The heat map's "≈" asks the verdict module: iterate at N = 4000 (fastest a, 2.0 ns) with
    c given repetitions whose verdict against a is known; c is marked unless it is *faster*."""

    def marked(self, c_samples, verdict, n=4000):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        path = overview_run(tmp)
        if c_samples is not None:
            replace_samples(path, "iterate", "c", n, c_samples)
        ran = load_run(path)
        best = panel(ran, "small")["best"]["iterate"][0]
        self.assertEqual(best, "a")
        self.assertEqual(cell(ran, "iterate", n).pair("c", "a").verdict, verdict)
        self.untold = ("iterate", "c") in untold_from_best(ran, "small")
        return ("iterate", "c") in level_with_best(ran, "small")

    def test_slower_with_a_faster_verdict_is_not_marked(self):
        # the fixture as it is: c 10 % slower, repetitions 0.1 % apart
        self.assertFalse(self.marked(None, FASTER))

    def test_level_is_marked(self):
        # 0.2 % slower, 0.1 % spread: the interval of the ratio lies within 0.95-1.05
        self.assertTrue(self.marked([2.004 * (1 + 0.001 * k) for k in range(-4, 5)], LEVEL))
        self.assertFalse(self.untold)  # "=1.00": as fast, a ratio that is right to read

    def test_undecidable_is_marked_as_untold(self):
        # 25 % slower in median but spread 1.5x over 3 repetitions: Welch cannot tell; the
        # heat map draws a grey "?" there, not "1.25" (which would read as 1.25x)
        self.assertTrue(self.marked([2.0, 2.5, 3.0], UNDECIDABLE))
        self.assertTrue(self.untold)

    def test_significant_but_under_5_percent_is_level_so_marked(self):
        # 3 % slower, clearly significant, but under the 5 % margin: not faster
        self.assertTrue(self.marked([2.06 * (1 + 0.001 * k) for k in range(-4, 5)], LEVEL))

    def test_a_strategy_with_a_time_but_no_repetitions_is_marked(self):
        # results.csv can time a line raw.json has no repetitions of: nothing to test, marked
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        ran = load_run(overview_run(tmp))
        del ran.samples[("iterate", "c", 4000)]
        self.assertEqual(level_with_best(ran, "small"), {("iterate", "c")})


class HeatMapNames(unittest.TestCase):
    def test_one_heat_map_per_world_order_regular_first(self):
        from test_plot_cases import cases_run
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        got = [(order, name, cases) for order, name, cases in heatmaps(load_run(cases_run(tmp)))]
        self.assertEqual(got, [
            ("regular", "overview_heatmap",
             ["dual_iterate", "dual_iterate~match=0.25", "dual_iterate~match=1"]),
            # then the others as the run lists its cases (variants sorted by name)
            ("aged", "overview_heatmap~order=aged", ["dual_iterate~order=aged"]),
            ("shuffled", "overview_heatmap~order=shuffled", ["dual_iterate~order=shuffled"])])

    def test_a_run_of_references_only_has_no_heat_map(self):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        ran = load_run(overview_run(tmp))
        ran.strategies = [s for s in ran.strategies if s in ("floor", "limit")]
        self.assertEqual(heatmaps(ran), [])


class SummaryOpensWithTheOverview(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        path = overview_run(cls.tmp)
        r = subprocess.run([PYTHON, os.path.join(TOP, "scripts", "summary.py"), path],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        cls.md = r.stdout

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_heat_map_and_memory_chart_come_first(self):
        heads = re.findall(r"^#+ .*|^!\[.*", self.md, flags=re.M)
        self.assertEqual(heads[:5], [
            f"# ecsbench run {RUN_OVERVIEW}", "## Overview",
            "![Heat map, regular worlds: time per item, ratio to the fastest strategy of each "
            f"scenario](../../plots/{RUN_OVERVIEW}/overview_heatmap.png)",
            "![Memory: bytes per entity after set-up]"
            f"(../../plots/{RUN_OVERVIEW}/memory_n65536.png)",
            "## The run"])

    def test_scenario_tables_mark_the_leader_and_show_the_limit_and_bytes(self):
        # summary.md's which-to-choose table moved to choose.md (test_choose.py)
        for line in ("| line | 4,000 | 65,536 | B/entity |",
                     "| limit (touched data only) | 0.50 | 0.50 | 2.0 |",
                     "| a | **2.00** | 4.00 | 8.0 |", "| b | 3.00 | **failed** | — |",
                     "| c | 2.20 | **3.00** | 16.0 |",
                     # churn has no limit line; its set-up leaves no entity: no bytes
                     "| line | 4,000 | B/entity |", "| b | **5.00** | — |"):
            self.assertIn(line, self.md)


class HeatMapImage(unittest.TestCase):
    def test_a_cell_the_run_cannot_tell_apart_is_drawn_without_a_ratio(self):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        path = overview_run(tmp)
        replace_samples(path, "iterate", "c", 4000, [2.0, 2.5, 3.0])  # undecidable, 1.25x
        env = dict(os.environ, PLOTS_DIR=os.path.join(tmp, "plots"), PYTHON=PYTHON)
        r = subprocess.run(["bash", os.path.join(TOP, "scripts", "plots.sh"), path], env=env,
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(tmp, "plots", RUN_OVERVIEW, "overview_heatmap.svg")) as f:
            texts = re.findall(r">([^<>]+)</text>", f.read())
        self.assertEqual(texts.count("?"), 1, texts)
        self.assertFalse([t for t in texts if "1.25" in t], texts)

    def test_drawn_cells_say_failed_and_not_run(self):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        path = overview_run(tmp)
        env = dict(os.environ, PLOTS_DIR=os.path.join(tmp, "plots"), PYTHON=PYTHON)
        r = subprocess.run(["bash", os.path.join(TOP, "scripts", "plots.sh"), path], env=env,
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(tmp, "plots", RUN_OVERVIEW, "overview_heatmap.svg")) as f:
            svg = f.read()
        texts = re.findall(r">([^<>]+)</text>", svg)
        self.assertEqual(texts.count("failed"), 1)
        self.assertEqual(texts.count("not run"), 2)
        for ratio in ("1.50", "1.10", "1.33", "2.00"):  # no "≈": all told apart
            self.assertIn(ratio, texts)
        for name in ("a", "b", "c", "iterate", "churn", "at N = 4000"):
            self.assertIn(name, texts)
        with open(os.path.join(tmp, "plots", RUN_OVERVIEW, "memory_n65536.svg")) as f:
            texts = re.findall(r">([^<>]+)</text>", f.read())
        # the memory heat map: b failed at iterate's N = 65536; churn's set-up leaves none
        self.assertEqual(texts.count("failed"), 1, texts)
        self.assertIn("churn  (N = 4000)  (no entity after set-up)", texts)
        self.assertEqual([t for t in texts if t in ("8.0", "16.0", "4.0")], ["8.0", "16.0", "4.0"])


if __name__ == "__main__":
    unittest.main()
