"""The whole-run overview on the hand-checked fixture (tests/scripts/fixture_runs.py,
RUN_OVERVIEW): the heat map's cells (ratio to the fastest, failed, not run), the "which to
choose" table (fastest, runner-up, margin, Holm-adjusted U test) and the within-1.2x table of
summary.md, and the drawn heat map.

The fixture, median ns per item (9 repetitions each, 0.1 % apart):
    iterate N=4000:   floor 1, limit 0.5, a 2.0, b 3.0, c 2.2
    iterate N=65536:  floor 1, limit 0.5, a 4.0, b failed, c 3.0
    churn   N=4000:   floor 1, a 10.0, b 5.0, c not run
Worked out by hand: at N = 4000 iterate's fastest is a (b 1.50x, c 1.10x), churn's is b (a
2.00x); at the largest N iterate's fastest is c (a 1.33x). Each fastest/runner-up pair is fully
separated: U = 0, exact two-sided p = 2 / C(18, 9) = 4.1135e-05; Holm over the 3 rows makes
each 3 x 4.1135e-05 = 1.234e-04: significant.
"""
import json
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
from ecsb_overview import (choices, level_with_best, panel, tells_apart, within_best,  # noqa: E402
                           without_order, world_order)
from ecsb_rundata import load_run  # noqa: E402
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

    def test_choices_fastest_runner_up_margin_and_holm(self):
        rows, note = choices(self.ran)
        got = [(r["scenario"], r["n"], r["fastest"][0], r["runner_up"][0], round(r["margin"], 4),
                round(r["p"], 9), round(r["p_holm"], 8), r["verdict"], r["failed"]) for r in rows]
        self.assertEqual(got, [
            # Holm within each scenario: iterate's two rows are one family, churn's one another
            ("iterate", 4000, "a", "c", 1.1, 4.1135e-05, 8.227e-05, "significant", []),
            ("iterate", 65536, "c", "a", 1.3333, 4.1135e-05, 8.227e-05, "significant", ["b"]),
            ("churn", 4000, "b", "a", 2.0, 4.1135e-05, 4.114e-05, "significant", [])])
        self.assertEqual(note, "")

    def test_within_best(self):
        self.assertEqual(within_best(self.ran, "small"),
                         {"a": [("iterate", 1.0)], "b": [("churn", 1.0)],
                          "c": [("iterate", 1.1)]})
        large = within_best(self.ran, "large")
        self.assertEqual((large["a"], large["b"]), ([], [("churn", 1.0)]))


    def test_every_heat_map_cell_of_this_run_is_told_apart(self):
        # 9 repetitions a side, entirely apart, at least 10 % slower: all significant.
        self.assertEqual(level_with_best(self.ran, "small"), set())
        self.assertEqual(level_with_best(self.ran, "large"), set())

    def test_world_order_of_a_case(self):
        self.assertEqual(world_order(self.ran, "iterate"), "regular")
        self.assertEqual(world_order(self.ran, "iterate~order=aged,match=1"), "aged")
        self.assertEqual(without_order("iterate~order=aged,match=1"), "iterate~match=1")
        self.assertEqual(without_order("iterate~order=shuffled"), "iterate")


class TellsApart(unittest.TestCase):
    FAST = [1.0, 1.001, 1.002, 1.003, 1.004]

    def test_significant_and_5_percent_slower_is_told_apart(self):
        self.assertTrue(tells_apart([x * 1.06 for x in self.FAST], self.FAST))

    def test_significant_but_under_5_percent_is_not(self):
        self.assertFalse(tells_apart([x * 1.04 for x in self.FAST], self.FAST))

    def test_far_apart_but_not_significant_is_not(self):
        # 2 repetitions against 5: the exact U test cannot go below p = 0.095.
        self.assertFalse(tells_apart([2.0, 2.1], self.FAST))

    def test_too_few_repetitions_is_not(self):
        self.assertFalse(tells_apart([2.0], self.FAST))


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
            "![Heat map: time per item, ratio to the fastest strategy of each scenario]"
            f"(../../plots/{RUN_OVERVIEW}/overview_heatmap.png)",
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

    def test_a_margin_with_too_few_repetitions_says_so(self):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        path = overview_run(tmp)
        for st, med in (("a", 2.0), ("c", 2.2)):
            replace_samples(path, "iterate", st, 4000, [med * 0.999, med, med * 1.001])
        rows, note = choices(load_run(path))
        self.assertEqual([r["verdict"] for r in rows],
                         ["too few repetitions (3) to tell", "significant", "significant"])
        self.assertEqual(note, "")

    def fake_run(self, repetitions, registry=None):
        """A run of the stand-in binary (fakes.py: each scenario has a clear leader, the others
        at least 1.2x behind, repetitions 2 % apart at most)."""
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        env = dict(os.environ)
        if registry:
            env["FAKE_LIST"] = os.path.join(tmp, "list.json")
            with open(env["FAKE_LIST"], "w") as f:
                json.dump(registry, f)
        out = os.path.join(tmp, "raw.json")
        subprocess.run([PYTHON, os.path.join(HERE, "fakes.py"), "bench",
                        f"--benchmark_repetitions={repetitions}", f"--benchmark_out={out}"],
                       check=True, capture_output=True, env=env)
        subprocess.run([PYTHON, os.path.join(TOP, "scripts", "json_to_csv.py"), out,
                        "-o", os.path.join(tmp, "results.csv")], check=True)
        return tmp

    def test_a_table_that_cannot_be_significant_says_so(self):
        rows, note = choices(load_run(self.fake_run(3)))
        self.assertEqual({r["verdict"] for r in rows}, {"too few repetitions (3) to tell"})
        self.assertTrue(note.startswith("With 3 repetitions the U test cannot give p below "
                                        "0.1, and Holm's correction over a scenario's 2 rows "
                                        "needs about 0.025: no margin here can be called "
                                        "significant. Run with 5 repetitions or more"), note)

    def test_five_repetitions_call_a_clear_difference_significant(self):
        # Issue 17: at least 5 repetitions, so that the table can call a real margin
        # significant (with 3 the exact test cannot go below p = 0.1).
        path = self.fake_run(5)
        rows, note = choices(load_run(path))
        self.assertEqual([(r["reps"], r["verdict"]) for r in rows],
                         [((5, 5), "significant")] * 3)
        self.assertTrue(all(r["margin"] >= 1.2 for r in rows))
        self.assertEqual(note, "")

    def test_holm_is_per_scenario_so_more_scenarios_do_not_raise_the_bar(self):
        # 12 scenarios with two panel sizes: 24 rows, but each scenario's two rows are one
        # family: Holm needs p < 0.05 / 2 there, which 5 repetitions a side give (0.0079).
        registry = json.loads(subprocess.run(
            [PYTHON, os.path.join(HERE, "fakes.py"), "list", "--json"],
            check=True, capture_output=True, text=True).stdout)
        sweep = registry["scenarios"][0]
        registry["scenarios"] = [dict(sweep, name=f"sweep{i}") for i in range(12)]
        rows, note = choices(load_run(self.fake_run(5, registry)))
        self.assertEqual(len(rows), 24)
        self.assertEqual(({r["verdict"] for r in rows}, note), ({"significant"}, ""))
        self.assertEqual({round(r["p_holm"], 4) for r in rows}, {0.0159})


class HeatMapImage(unittest.TestCase):
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
        for cell in ("1.50", "1.10", "1.33", "2.00"):
            self.assertIn(cell, texts)
        for name in ("a", "b", "c", "iterate", "churn", "at N = 4000"):
            self.assertIn(name, texts)
        with open(os.path.join(tmp, "plots", RUN_OVERVIEW, "memory_n65536.svg")) as f:
            texts = re.findall(r">([^<>]+)</text>", f.read())
        self.assertIn("b failed", texts)  # iterate at N = 65536
        self.assertIn("no entity after set-up", texts)  # churn


if __name__ == "__main__":
    unittest.main()
