"""scripts/summary.py: a run folder's summary.md, on the hand-made fixture of
tests/fixtures/gbench (one size, N = 256; errors in dual_iterate/flat_map and platformer/flat_map;
a run without list.json, so the scenario facts come from its raw.json), and on fixture runs
with known verdicts (tests/scripts/fixture_runs.py), and its heat maps (one per world order) on
test_plot_cases.py's run. The overview is tested in test_overview.py.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(TOP, "tests", "fixtures", "gbench")
PYTHON = os.environ.get("PYTHON", sys.executable)
RUN_ID = "20261121T220000Z-vm"
sys.path.insert(0, os.path.join(TOP, "scripts"))
sys.path.insert(0, os.path.join(TOP, "tests", "scripts"))
from ecsb_stats import FAMILY  # noqa: E402
from fakes import context, gbench_rows, write_run  # noqa: E402


class Summary(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        run = os.path.join(cls.tmp, RUN_ID)
        os.mkdir(run)
        shutil.copy(os.path.join(FIXTURES, "raw.json"), run)
        shutil.copy(os.path.join(FIXTURES, "results.expected.csv"),
                    os.path.join(run, "results.csv"))
        shutil.copy(os.path.join(FIXTURES, "errors.expected.csv"),
                    os.path.join(run, "errors.csv"))
        r = subprocess.run([PYTHON, os.path.join(TOP, "scripts", "summary.py"), run],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        cls.md = r.stdout

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_title_and_provenance_first(self):
        self.assertTrue(self.md.startswith(f"# ecsbench run {RUN_ID}\n"))
        for fact in ("| git | ", "| CPU | ", "| caches | ", "| C compiler | gcc",
                     "| repetitions | 3, random interleaving on", "| sizes (N) | 256 |"):
            self.assertIn(fact, self.md)

    def test_errors_listed_before_the_tables(self):
        errors = self.md.index("## Errors")
        self.assertLess(errors, self.md.index("## platformer"))
        self.assertIn("**⚠ 2 benchmark(s) failed**", self.md)
        self.assertLess(self.md.index("**⚠ 2 benchmark(s) failed their checksum check or a "
                                      "status and have no time"), self.md.index("## Overview"))
        self.assertIn("| dual_iterate | **flat_map** | 256 | 3 | dual_iterate on flat_map at "
                      "N=256: wrong checksum: expected 0123456789abcdef (floor), got "
                      "fedcba9876543210 |", self.md)

    def test_failed_benchmark_shows_error_not_time(self):
        self.assertIn("| **flat_map** | **failed** | — |", self.md)

    def test_medians_leader_and_wide_spread(self):
        # platformer at N = 256: floor 10 ns (5-20), flat_map 75 ns (50-100): both wide
        self.assertIn("| floor (plain arrays) | 10.0 ~ | 4.0 |", self.md)
        self.assertIn("| flat_map | **75.0** ~ (some repetitions failed) | 16.0 |", self.md)
        self.assertIn("3 of the run's 3 lines spread over 1.4x.", self.md)

    def test_the_answer_is_linked_first_and_the_family_printed_verbatim(self):
        self.assertLess(self.md.index("**The answer: [choose.md](choose.md)**"),
                        self.md.index("## Overview"))
        self.assertEqual(self.md.count(FAMILY), 1)

    def test_items_come_from_the_run(self):
        self.assertIn("## platformer (ns per component op)", self.md)
        self.assertIn("## dual_iterate (ns per matched pair)", self.md)
        self.assertIn("| scenario facts from | raw.json (this run has no list.json) |", self.md)

    def test_one_table_per_case_with_a_column_per_n(self):
        self.assertEqual(self.md.count("| line | 256 | B/entity |"), 2)

    def test_plots_embedded_with_the_exact_paths(self):
        for sc in ("platformer", "dual_iterate"):
            for chart in ("vs_n", "n4000", "memory_vs_n"):
                self.assertIn(f"(../../plots/{RUN_ID}/{sc}_{chart}.png)", self.md)

    def test_a_damaged_run_exits_2_with_a_message(self):
        run = os.path.join(self.tmp, "damaged")
        os.mkdir(run)
        with open(os.path.join(FIXTURES, "raw.json")) as f:
            text = f.read()
        with open(os.path.join(run, "raw.json"), "w") as f:
            f.write(text[: len(text) // 2])
        shutil.copy(os.path.join(FIXTURES, "results.expected.csv"),
                    os.path.join(run, "results.csv"))
        r = subprocess.run([PYTHON, os.path.join(TOP, "scripts", "summary.py"), run],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("summary: error:", r.stderr)
        self.assertIn("is not valid JSON", r.stderr)
        self.assertNotIn("Traceback", r.stderr)


class HeatMaps(unittest.TestCase):
    """summary.md embeds the heat map of every world order the run has, the very files
    plot_data.py writes (tests/scripts/test_plot_cases.py's run: regular, shuffled, aged)."""

    def test_every_world_order_s_heat_map_is_embedded(self):
        from test_plot_cases import RUN, cases_run
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        run = cases_run(tmp)
        r = subprocess.run([PYTHON, os.path.join(TOP, "scripts", "summary.py"), run],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        embedded = re.findall(r"^!\[Heat map, (\w+) worlds: [^]]*\]\(\.\./\.\./plots/"
                              + re.escape(RUN) + r"/([^)]+)\.png\)$", r.stdout, flags=re.M)
        self.assertEqual(embedded, [("regular", "overview_heatmap"),
                                    ("aged", "overview_heatmap~order=aged"),
                                    ("shuffled", "overview_heatmap~order=shuffled")])
        out = os.path.join(tmp, "plots")
        os.mkdir(out)
        subprocess.run([PYTHON, os.path.join(TOP, "scripts", "plot_data.py"), run, out],
                       check=True, capture_output=True)
        drawn = sorted(f[:-len(".dat")] for f in os.listdir(out)
                       if f.startswith("overview_heatmap") and f.endswith(".dat"))
        self.assertEqual(sorted(name for _, name in embedded), drawn)


class Verdicts(unittest.TestCase):
    """Marks against the leader on a run whose verdicts are known: b is level with a, c is
    undecidable (two speeds), d is slower (faster: a), e drifts."""

    def test_marks(self):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        lines = {"a": [1.0, 1.002, 0.998, 1.001, 0.999], "b": [1.01, 1.012, 1.008, 1.011, 1.009],
                 "c": [1.1, 0.8, 1.6, 1.0, 1.3], "d": [2.0, 2.01, 1.99, 2.02, 1.98],
                 "e": [3.0, 3.01, 2.99, 3.02, 2.98]}
        listing = {"strategies": [{"name": s, "summary": ""} for s in lines],
                   "references": [{"name": "floor", "summary": ""}],
                   "scenarios": [{"name": "iterate", "summary": "", "item": "entity",
                                  "has_limit": False, "default_sizes": [4000]}]}
        rows = []
        for i, (s, ns) in enumerate(lines.items()):
            rows += gbench_rows("iterate", s, 4000, 4000, ns, i, bytes_per_entity=8 * (i + 1))
        run = write_run(os.path.join(tmp, "r"), listing, context("r"), rows)
        csv = os.path.join(run, "results.csv")
        with open(csv) as f:
            text = f.read().splitlines()
        # as json_to_csv.py writes them: the figure, then the flag (only e's is "yes"; d's
        # figure is as large, but its flag says no)
        text = [text[0] + ",drift,drifting"] + [
            t + (",1.3,yes" if t.startswith("iterate,e,") else
                 ",1.3,no" if t.startswith("iterate,d,") else ",1.0,no") for t in text[1:]]
        with open(csv, "w") as f:
            f.write("\n".join(text) + "\n")
        r = subprocess.run([PYTHON, os.path.join(TOP, "scripts", "summary.py"), run],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        table = r.stdout[r.stdout.index("| line | 4,000"):]
        got = dict(re.findall(r"^\| (\w+) \| ([^|]+) \|", table, flags=re.M))
        self.assertEqual(got, {"line": "4,000", "a": "**1.00**", "b": "1.01=", "c": "1.10? ~",
                               "d": "2.00", "e": "3.00 ⚠"})


if __name__ == "__main__":
    unittest.main()
