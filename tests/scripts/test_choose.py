"""scripts/choose.py: choose.md's table on a run whose verdicts are known (the pick, the layouts
level with it, the margin over the next with its verdict, memory, the rule verbatim), the size
classes, and `make choose`'s ranking of a weighted mix, with bad weights refused (exit 2)."""
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(TOP, "scripts"))
sys.path.insert(0, HERE)
from choose import rank, size_class  # noqa: E402
from ecsb_rundata import load_run  # noqa: E402
from ecsb_stats import FAMILY  # noqa: E402
from fakes import context, gbench_rows, write_run  # noqa: E402

PYTHON = os.environ.get("PYTHON", "/usr/bin/python3")
LIST = {"strategies": [{"name": s, "summary": ""} for s in ("a", "b", "c")],
        "references": [{"name": "floor", "summary": ""}],
        "scenarios": [{"name": "iterate", "summary": "", "item": "entity", "has_limit": False,
                       "default_sizes": [4000, 1048576]},
                      {"name": "churn", "summary": "", "item": "op", "has_limit": False,
                       "default_sizes": [4000]}]}
# median ns per item; every line's 5 repetitions 0.1 % apart
TIMES = {("iterate", 4000): {"floor": 0.5, "a": 1.0, "b": 1.01, "c": 2.0},
         ("iterate", 1048576): {"floor": 1.0, "a": 3.0, "b": 1.5, "c": 1.95},
         ("churn", 4000): {"floor": 1.0, "a": 10.0, "b": 5.0, "c": 5.01}}
BYTES = {"floor": 4, "a": 8, "b": 12, "c": 16}


def around(median):
    return [median * (1 + 0.001 * (k - 2)) for k in range(5)]


class Choose(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        rows = []
        for family, ((sc, n), lines) in enumerate(TIMES.items()):
            for line, ns in lines.items():
                rows += gbench_rows(sc, line, n, n, around(ns), family,
                                    bytes_per_entity=BYTES[line])
        cls.run_dir = write_run(os.path.join(cls.tmp, "run"), LIST, context("run"), rows)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def choose(self, *args):
        return subprocess.run([PYTHON, os.path.join(TOP, "scripts", "choose.py"),
                               self.run_dir, *args], capture_output=True, text=True)

    def test_the_table_names_pick_level_margin_and_memory(self):
        r = self.choose()
        self.assertEqual(r.returncode, 0, r.stderr)
        for row in (
                "| iterate | regular | small (4,000) | **a** (1 ns/entity) | b | — "
                "| 2.00 (", "over c, faster | 8.0 · 12.0 |",
                "| iterate | regular | large (1,048,576) | **b** (1.5 ns/entity) | — | — "
                "| 1.30 (",
                "| churn | regular | small (4,000) | **b** (5 ns/op) | c | — | 2.00 ("):
            self.assertIn(row, r.stdout)
        self.assertIn("## The rule\n\n" + FAMILY + "\n", r.stdout)

    def test_size_classes(self):
        self.assertEqual([size_class(n) for n in (256, 16384, 16385, 1048575, 1048576, 4194304)],
                         ["small", "small", "medium", "medium", "large", "large"])

    def test_a_weighted_mix_ranks_by_the_geometric_mean_of_ratios_to_the_leader(self):
        ranked = rank(load_run(self.run_dir), {"iterate": 3, "churn": 1})
        self.assertEqual([r[0] for r in ranked], ["b", "c", "a"])
        scores = {r[0]: r[1] for r in ranked}
        # iterate's weight 3 is shared by its two sizes; churn's 1; total 4
        self.assertAlmostEqual(scores["a"], 2 ** (2.5 / 4))
        self.assertAlmostEqual(scores["b"], 1.01 ** (1.5 / 4))
        self.assertAlmostEqual(scores["c"], math.exp((1.5 * math.log(2) + 1.5 * math.log(1.3)
                                                      + math.log(5.01 / 5)) / 4))
        for layout, score, (low, high), memory in ranked:
            self.assertLessEqual(low, score * 1.001, layout)
            self.assertGreaterEqual(high, score * 0.999, layout)
            self.assertAlmostEqual(memory, BYTES[layout])

    def test_the_ranking_prints_memory_and_the_rule(self):
        r = self.choose("--weights", "iterate:3,churn:1")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stdout, r"\n   1  b +1\.00 +[0-9.]+–[0-9.]+  12\.0\n")
        self.assertIn(FAMILY, r.stdout)

    def test_bad_weights_exit_2_saying_what_to_do(self):
        for weights, says in (("", "no weights: give WEIGHTS=scenario:weight"),
                              ("frame:1", "unknown scenario 'frame'"),
                              ("iterate:x", "weight 'x' of iterate is not a number"),
                              ("iterate", "'iterate' is not scenario:weight"),
                              ("iterate:0", "every weight is 0"),
                              ("iterate:1,iterate:2", "iterate is given twice")):
            r = self.choose("--weights", weights)
            self.assertEqual(r.returncode, 2, weights)
            self.assertIn(says, r.stderr)
            self.assertIn("choose: error:", r.stderr)
            self.assertNotIn("Traceback", r.stderr)

    def test_make_choose_passes_run_and_weights(self):
        r = subprocess.run(["make", "-s", "-C", TOP, "choose", f"RUN={self.run_dir}",
                            "WEIGHTS=churn:1"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("Layouts for the mix churn:1", r.stdout)
        r = subprocess.run(["make", "-s", "-C", TOP, "choose", f"RUN={self.run_dir}"],
                           capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("no weights", r.stderr)


class OneVerdictEverywhere(unittest.TestCase):
    """choose.md, summary.md and report.md reach the same verdict on the same cell, by
    construction (one module decides): here an undecidable lead, with the same repetitions
    needed in choose.md and report.md, and the same mark in summary.md."""

    def test_an_undecided_lead_reads_alike_in_every_document(self):
        from fakes import replace_samples
        from fixture_runs import RUN_A
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        subprocess.run([PYTHON, os.path.join(HERE, "fixture_runs.py"), tmp], check=True)
        run = os.path.join(tmp, RUN_A)
        for st, med in (("index_is_id", 0.80), ("flat_map", 1.4)):
            replace_samples(run, "dual_iterate", st, 4000,
                            [med * f for f in (0.6, 0.7, 1.0, 1.6, 1.8)])
        docs = {}
        for script in ("choose", "summary", "report"):
            r = subprocess.run([PYTHON, os.path.join(TOP, "scripts", f"{script}.py"), run,
                                "-o", "-" if script == "report" else os.path.join(tmp, "x"),
                                *(["--findings", os.devnull] if script == "report" else [])],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            if script != "report":
                with open(os.path.join(tmp, "x"), encoding="utf-8") as f:
                    docs[script] = f.read()
            else:
                docs[script] = r.stdout
            self.assertIn(FAMILY, docs[script])
        row = re.search(r"^\| dual_iterate \| regular \| small \(4,000\) \|.*$",
                        docs["choose"], re.M).group(0)
        needed = re.search(r"over flat_map, undecidable \((\d+) reps\)", row).group(1)
        table = docs["report"].split("### dual_iterate")[1]
        # report.md shows N = 4000 first (and the largest N) for a case run at more sizes
        self.assertIn("| ns per matched pair, × leader | 4,000 |", table)
        margin = re.search(r"^\| \*runner-up's margin \(95 % CI\)\* \| ([^|]+) \|",
                           table, re.M).group(1)
        self.assertTrue(margin.endswith(f" ?{needed}"), (margin, needed))
        self.assertIn("| flat_map | 1.50 | 1.40? ~ |", docs["summary"])


if __name__ == "__main__":
    unittest.main()
