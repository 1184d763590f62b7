"""scripts/run_profile.py: where a run's timing went (CPU against timed seconds per group, the
staged repetitions apart) and the sentinel's bins (each repetition's time over its line's median,
by its probe over the best), on a raw.json written here; exit 2 on an unreadable run."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(TOP, "scripts"))
import run_profile  # noqa: E402

PYTHON = os.environ.get("PYTHON", "/usr/bin/python3")


def row(name, real_ms, cpu_ms, iterations, sentinel_ns, stage=None):
    b = {"name": name, "run_name": name, "run_type": "iteration", "iterations": iterations,
         "real_time": real_ms, "cpu_time": cpu_ms, "time_unit": "ms", "sentinel_ns": sentinel_ns}
    if stage:
        b["ecsb_stage"] = stage
    return b


class Profile(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        rows = []
        # frame: 1 s timed of 20 s a repetition; dual_iterate: 1 s timed of 2 s
        for i in range(4):
            slow = i == 3  # the last repetition of each line probed 1.5x slow, timed 1.3x slow
            rows.append(row("frame/archetype/65536", 100 * (1.3 if slow else 1), 2000, 10,
                            3e5 if slow else 2e5))
            rows.append(row("dual_iterate/archetype/4000", 10, 20, 100, 2e5))
        rows.append(row("frame/archetype/65536", 100, 9e6, 10, 2e5, stage=1))  # staged: apart
        with open(os.path.join(self.tmp, "raw.json"), "w") as f:
            json.dump({"context": {}, "benchmarks": rows}, f)

    def tearDown(self):
        import shutil
        shutil.rmtree(self.tmp)

    def test_cpu_against_timed_per_group_planned_only(self):
        lines = run_profile.time_table(run_profile.rows_of(self.tmp), "scenario", 10)
        self.assertEqual(lines[1].split(), ["frame", "80.0", "4.3", "0.05", "4"])
        self.assertEqual(lines[2].split(), ["dual_iterate", "8.0", "4.0", "0.50", "4"])
        self.assertEqual(lines[-1].split()[-4:], ["88.0", "8.3", "0.09", "8"])
        self.assertEqual(run_profile.time_table(run_profile.rows_of(self.tmp), "cell", 1)[1]
                         .split()[0], "frame/65536")

    def test_the_sentinel_bins_show_the_slow_repetitions_slow(self):
        lines = run_profile.sentinel_table(run_profile.rows_of(self.tmp))
        self.assertTrue(lines[0].startswith("sentinel / best (200 us)"), lines[0])
        quiet = [x for x in lines if x.startswith("0.00 - 1.05")][0].split()
        slow = [x for x in lines if x.startswith("1.40 - 1.70")][0].split()
        self.assertEqual((quiet[3], quiet[4]), ("8", "1.000"))  # the staged row too
        self.assertEqual((slow[3], slow[4]), ("1", "1.300"))

    def test_an_unreadable_run_exits_2(self):
        r = subprocess.run([PYTHON, os.path.join(TOP, "scripts", "run_profile.py"),
                            os.path.join(self.tmp, "none")], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("not a usable raw.json", r.stderr)
        r = subprocess.run([PYTHON, os.path.join(TOP, "scripts", "run_profile.py"), self.tmp,
                            "--by", "colour"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)


if __name__ == "__main__":
    unittest.main()
