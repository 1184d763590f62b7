"""Repetitions the sentinel marked disturbed (counter disturbed = 1, kept because they could not
be repeated) stay out of a line's figures and verdicts while at least ecsb_rundata.LEAST_CLEAN
of its repetitions are clean, in the samples every verdict reads (ecsb_rundata) and in
results.csv (json_to_csv) alike; a line with fewer clean ones keeps them all. On fixture run A
(tests/scripts/fixture_runs.py, made at test time)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(TOP, "scripts"))
sys.path.insert(0, HERE)
import ecsb_rundata  # noqa: E402
import ecsb_stats as stats  # noqa: E402
from fakes import write_run  # noqa: E402
from fixture_runs import RUN_A  # noqa: E402

PYTHON = os.environ.get("PYTHON", "/usr/bin/python3")
LINE = ("dual_iterate", "index_is_id", 4000)


def mark(folder, times, marked):
    """Give LINE these repetitions (ns per item) with these disturbed flags; rewrite the CSVs."""
    path = os.path.join(folder, "raw.json")
    with open(path) as f:
        doc = json.load(f)
    old = [b for b in doc["benchmarks"]
           if b.get("run_name", "").split("/")[:3] == [LINE[0], LINE[1], str(LINE[2])]]
    rows = [b for b in doc["benchmarks"] if b not in old]
    items = old[0]["items_per_pass"]
    for r, (t, m) in enumerate(zip(times, marked)):
        rows.append(dict(old[0], repetition_index=r, repetitions=len(times), real_time=t * items,
                         cpu_time=t * items, disturbed=1.0 if m else 0.0))
    with open(os.path.join(folder, "list.json")) as f:
        write_run(folder, json.load(f), doc["context"], rows)


def csv_row(folder):
    import csv
    with open(os.path.join(folder, "results.csv")) as f:
        for row in csv.DictReader(f):
            if (row["scenario"], row["strategy"], row["n"], row["metric"]) == \
                    (LINE[0], LINE[1], str(LINE[2]), "time_per_item"):
                return row
    return None


class Marked(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        subprocess.run([PYTHON, os.path.join(HERE, "fixture_runs.py"), cls.tmp], check=True,
                       stdout=subprocess.DEVNULL)
        cls.run_dir = os.path.join(cls.tmp, "marked")
        shutil.copytree(os.path.join(cls.tmp, RUN_A), cls.run_dir)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_a_marked_slow_repetition_stays_out_of_figures_and_verdicts(self):
        mark(self.run_dir, [1.0, 1.01, 0.99, 2.0, 1.0], [False, False, False, True, False])
        run = ecsb_rundata.load_run(self.run_dir)
        self.assertEqual(len(run.samples[LINE]), 4)
        self.assertEqual(run.left_out, 1)
        self.assertAlmostEqual(stats.spread(run.samples[LINE]), 1.01 / 0.99)  # 2.0 is out
        import ecsb_quality
        self.assertIn(", 1 of them left out of the figures", ecsb_quality.banner_text(self.run_dir))
        row = csv_row(self.run_dir)
        self.assertEqual((row["repetitions"], row["max"], row["disturbed"]), ("4", "1.01", "1"))

    def test_too_few_clean_repetitions_keep_them_all(self):
        mark(self.run_dir, [1.0, 2.0, 2.1, 2.2, 1.0], [False, True, True, True, False])
        run = ecsb_rundata.load_run(self.run_dir)
        self.assertEqual(len(run.samples[LINE]), 5)
        self.assertEqual(run.left_out, 0)
        self.assertEqual(csv_row(self.run_dir)["repetitions"], "5")

    def test_the_rule(self):
        self.assertEqual(ecsb_rundata.kept([1, 2, 3, 4], [0, 1, 0, 0]), [1, 3, 4])
        self.assertEqual(ecsb_rundata.kept([1, 2, 3, 4], [0, 1, 1, 0]), [1, 2, 3, 4])
        self.assertEqual(ecsb_rundata.LEAST_CLEAN, 3)


if __name__ == "__main__":
    unittest.main()
