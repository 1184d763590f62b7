"""scripts/summary.py: a run folder's summary.md, on the hand-made fixture of
tests/fixtures/gbench (one size, N = 256; errors in dual_iterate/flat_map and platformer/flat_map;
a run without list.json, so the scenario facts come from its raw.json). The overview and the
"which to choose" tables are tested in test_overview.py.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(TOP, "tests", "fixtures", "gbench")
PYTHON = os.environ.get("PYTHON", sys.executable)
RUN_ID = "20261121T220000Z-vm"


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
        self.assertIn("| **flat_map** | **failed** (see Errors) | — | — | — | — |", self.md)

    def test_ratios_to_fastest_and_floor(self):
        # platformer at N = 256: floor 10 ns, flat_map 75 ns (the only, so fastest, strategy)
        self.assertIn("| floor (plain arrays) | 10.0 (5.00–20.0) | 0.13 | 1.00 | 4.0 | 1.28e-05 |",
                      self.md)
        self.assertIn("| flat_map | 75.0 (50.0–100) ⚠ some repetitions failed | **1.00** "
                      "fastest | 7.50 | 16.0 | 9.6e-05 |", self.md)

    def test_items_come_from_the_run(self):
        self.assertIn("## platformer (ns per component op)", self.md)
        self.assertIn("## dual_iterate (ns per matched pair)", self.md)
        self.assertIn("| scenario facts from | raw.json (this run has no list.json) |", self.md)

    def test_says_when_n4000_is_missing(self):
        self.assertIn("N = 4000 is not in this run (sizes: 256).", self.md)
        self.assertIn("### N = 256\n", self.md)

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


if __name__ == "__main__":
    unittest.main()
