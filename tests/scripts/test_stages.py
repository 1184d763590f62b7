"""scripts/ecsb_stages.py: staged repetitions for undecided cells, on fixture raw.json documents:
a cell that a stage decides, one that stays undecided (more than the stages can add), the
budget stop, the regex that selects a cell's lines, and the merge into raw.json."""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(TOP, "scripts"))
import ecsb_stages as stages  # noqa: E402

PYTHON = os.environ.get("PYTHON", "/usr/bin/python3")


def rows(name, times_ns, passes=1_000_000):
    return [{"name": name, "run_name": name, "run_type": "iteration", "repetitions": len(times_ns),
             "repetition_index": i, "iterations": passes, "real_time": t, "time_unit": "ns"}
            for i, t in enumerate(times_ns)]


# undecided after 5 (two speeds of noise), decided at about 7 a side if the figures hold
CLOSE_A = [100, 130, 95, 112, 105]
CLOSE_B = [112, 140, 110, 126, 118]
# hopeless: level-ish and wild
WILD_A = [90, 150, 100, 200, 120]
WILD_B = [100, 140, 110, 190, 130]


def run_doc(extra=()):
    b = rows("dual_iterate/floor/4000", [50, 51, 50, 52, 51])
    b += rows("dual_iterate/archetype/4000", CLOSE_A) + rows("dual_iterate/owning_group/4000",
                                                             CLOSE_B)
    b += rows("dual_iterate/sparse_set/4000", [300, 301, 302, 303, 304])  # clearly slower
    # needs about 21 a side: more than two stages can add to 5
    b += rows("add_remove/archetype/4000", [100, 130, 95, 180, 105])
    b += rows("add_remove/sparse_set/4000", [120, 170, 110, 220, 130])
    b += rows("frame/archetype/4000/order=aged", WILD_A)
    b += rows("frame/sparse_set/4000/order=aged", WILD_B)
    b += rows("simple_iter/archetype/65536", [10, 10.1, 10.2, 10.1, 10.0])
    b += rows("simple_iter/sparse_set/65536", [20, 20.1, 20.2, 20.1, 20.0])  # decided
    # most of the run's time: a decided cell of long passes
    b += rows("packed_1/archetype/65536", [1000, 1001, 1002, 1001, 1000])
    b += rows("packed_1/sparse_set/65536", [2000, 2001, 2002, 2001, 2000])
    return {"context": {"ecsb_seed": "7"}, "benchmarks": b + list(extra)}


def load(doc):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "raw.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        return stages.load(path)


# The planned run's seconds the fixtures' plans are made for: a budget (BUDGET_SHARE of it)
# above the one cell's stage.
RUN = 50


class Plan(unittest.TestCase):
    def test_only_undecided_cells_with_hope_are_repeated(self):
        doc, cells, cost = load(run_doc())
        got = stages.plan(doc, cells, cost, 1, run_seconds=RUN)
        self.assertEqual([(c["case"], c["n"], c["lines"]) for c in got["cells"]],
                         [("dual_iterate", 4000, ["archetype", "owning_group"])])
        self.assertEqual([(h["case"], h["n"]) for h in got["hopeless"]],
                         [("add_remove", 4000), ("frame~order=aged", 4000)])
        self.assertGreater(got["hopeless"][0]["needed"], 5 + stages.STAGES * stages.STAGE_REPS)
        self.assertEqual(got["over_budget"], [])
        self.assertEqual((got["reps"], got["budget"]), (5, stages.BUDGET_SHARE * RUN))
        self.assertEqual(got["seed"], (7 * 1000003 + 1) % 4294967291)
        self.assertLessEqual(got["cells"][0]["needed"], 5 + stages.STAGES * stages.STAGE_REPS)

    def test_a_stage_that_decides_the_cell_ends_the_staging(self):
        doc, cells, cost = load(run_doc())
        more = rows("dual_iterate/archetype/4000", [100, 104, 98, 102, 101]) + \
            rows("dual_iterate/owning_group/4000", [118, 121, 117, 120, 119])
        stages.merge(doc, {"benchmarks": more}, 1)
        _, cells, cost = load(doc)
        self.assertNotIn(("dual_iterate", 4000), stages.undecided(cells))
        self.assertEqual(stages.plan(doc, cells, cost, 2, run_seconds=RUN)["cells"], [])

    def test_a_cell_still_undecided_at_the_last_stage(self):
        doc, cells, cost = load(run_doc())
        self.assertEqual(stages.plan(doc, cells, cost, stages.STAGES + 1, RUN)["cells"], [])
        # the wild cell: even the most repetitions the stages can add would not decide it
        leader, untold, needed = stages.undecided(cells)[("frame~order=aged", 4000)]
        self.assertTrue(needed is None or needed > 5 + stages.STAGES * stages.STAGE_REPS)

    def test_the_budget_stops_the_stage(self):
        doc, cells, cost = load(run_doc())
        got = stages.plan(doc, cells, cost, 1, run_seconds=RUN)
        need = got["cells"][0]["seconds"]
        self.assertLess(need, got["budget"])
        # what earlier stages spent counts against the budget: too little is left for the cell
        got = stages.plan(doc, cells, cost, 1, run_seconds=RUN, spent=got["budget"] - need / 2)
        self.assertEqual(got["cells"], [])
        self.assertEqual([(o["case"], o["n"]) for o in got["over_budget"]],
                         [("dual_iterate", 4000)])
        # the budget is a share of the run's seconds: a larger share (bench.sh:
        # ECSB_STAGE_BUDGET) affords the cell at that spend
        spent = stages.BUDGET_SHARE * RUN - need / 2
        got = stages.plan(doc, cells, cost, 1, run_seconds=RUN, spent=spent,
                          share=2 * stages.BUDGET_SHARE)
        self.assertEqual((len(got["cells"]), got["budget"]), (1, 2 * stages.BUDGET_SHARE * RUN))

    def test_the_cost_is_the_lines_passes_scaled_to_the_run(self):
        doc, cells, cost = load(run_doc())
        self.assertAlmostEqual(cost[("dual_iterate", 4000, "archetype")],
                               sum(CLOSE_A) / 5 * 1e6 * 1e-9)


class Regex(unittest.TestCase):
    def test_a_cell_selects_its_lines_only(self):
        rx = re.compile(stages.cell_regex("dual_iterate", 4000, ["archetype", "owning_group"]))
        for name, want in (("dual_iterate/archetype/4000", True),
                           ("dual_iterate/owning_group/4000", True),
                           ("dual_iterate/sparse_set/4000", False),
                           ("dual_iterate/archetype/40000", False),
                           ("dual_iterate/archetype/4000/order=aged", False)):
            self.assertEqual(bool(rx.search(name)), want, name)
        rx = re.compile(stages.cell_regex("frame~churn=0.01,order=aged", 4000, ["archetype"]))
        self.assertTrue(rx.search("frame/archetype/4000/churn=0.01/order=aged"))
        self.assertFalse(rx.search("frame/archetype/4000/churn=0x01/order=aged"))
        self.assertFalse(rx.search("frame/archetype/4000"))


class Merge(unittest.TestCase):
    def test_rows_are_renumbered_marked_and_recorded(self):
        doc = run_doc()
        added = stages.merge(doc, {"benchmarks": rows("dual_iterate/archetype/4000", [101, 102]) + [
            {"name": "dual_iterate/archetype/4000_median", "run_type": "aggregate",
             "aggregate_name": "median", "real_time": 1}]}, 1, seed=9)
        self.assertEqual(added, 2)
        mine = [b for b in doc["benchmarks"] if b["run_name"] == "dual_iterate/archetype/4000"]
        self.assertEqual([b["repetition_index"] for b in mine], list(range(7)))
        self.assertEqual({b["repetitions"] for b in mine}, {7})
        self.assertEqual([b.get("ecsb_stage") for b in mine], [None] * 5 + [1, 1])
        self.assertEqual(doc["context"]["ecsb_stage_looks"], str(stages.LOOKS))
        self.assertEqual(doc["context"]["ecsb_stage_1"], "2 repetitions, seed 9")

    def test_the_cli_merges_in_place_and_plans_as_shell_words(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "raw.json"), "w") as f:
                json.dump(run_doc(), f)
            with open(os.path.join(d, "stage.json"), "w") as f:
                json.dump({"benchmarks": rows("dual_iterate/owning_group/4000", [111])}, f)
            script = os.path.join(TOP, "scripts", "ecsb_stages.py")
            r = subprocess.run([PYTHON, script, "plan", d, "--stage", "1", "--run-seconds", str(RUN),
                                "--shell"], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("stage_count=1\n", r.stdout)
            self.assertIn("stage_filter='(^dual_iterate/(archetype|owning_group)/4000$)'",
                          r.stdout)
            r = subprocess.run([PYTHON, script, "merge", d, os.path.join(d, "stage.json"),
                                "--stage", "1"], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(os.path.join(d, "raw.json")) as f:
                self.assertEqual(len(json.load(f)["benchmarks"]),
                                 len(run_doc()["benchmarks"]) + 1)
            self.assertEqual(sorted(os.listdir(d)), ["raw.json", "stage.json"])  # no temporaries
            r = subprocess.run([PYTHON, script, "plan", os.path.join(d, "none"), "--stage", "1",
                                "--run-seconds", "1"], capture_output=True, text=True)
            self.assertEqual(r.returncode, 2)
            self.assertIn("ecsb_stages: error:", r.stderr)


if __name__ == "__main__":
    unittest.main()
