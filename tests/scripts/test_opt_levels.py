"""scripts/opt_levels.py A B on the fixture runs (fixture_runs.py): B built at -O3, where
flat_map's samples are 0.6 of A's (faster in B), handle_table's 1.5 (slower) and the others the
same medians. Each cell shows both efficiencies and B's verdict against A; the lines faster at
every N are named; runs from different machines are said to be; bad input exits 2."""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "opt_levels.py")


def rewrite(path, change):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    change(doc)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)


class OptLevels(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        import fixture_runs
        fixture_runs.main(["fixture_runs.py", cls.tmp.name])
        cls.a = os.path.join(cls.tmp.name, fixture_runs.RUN_A)
        cls.b = os.path.join(cls.tmp.name, fixture_runs.RUN_B)
        for run, flags in ((cls.a, "-std=c17 -O2 -g"), (cls.b, "-std=c17 -O2 -g -O3")):
            def declare(doc, flags=flags):
                doc["context"]["ecsb_traffic_dual_iterate"] = "read=12,write=8,kernel=rmw_pair"
                doc["context"]["ecsb_cflags"] = flags
            rewrite(os.path.join(run, "raw.json"), declare)
        cls.machine("same", "same")

    @classmethod
    def machine(cls, key_a, key_b):
        for run, key in ((cls.a, key_a), (cls.b, key_b)):
            with open(os.path.join(run, "machine.json"), "w", encoding="utf-8") as f:
                json.dump({"short_name": f"machine {key}", "fingerprint_key": key,
                           "bandwidth_gbps": {"rmw_pair": [
                               {"bytes": 1, "median": 10.0, "max": 10.0}]}}, f)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_script(self, *args):
        return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)

    def rows(self, out, line):
        return [r for r in out.splitlines() if r.startswith(f"| {line} |")]

    def test_levels_verdicts_and_efficiency(self):
        done = self.run_script(self.a, self.b)
        self.assertEqual(done.returncode, 0, done.stderr)
        out = done.stdout
        self.assertIn("# Efficiency at -O2 (A) and -O3 (B)", out)
        self.assertNotIn("different machines", out)
        self.assertNotIn("## platformer", out, "a scenario without declared bytes is left out")
        flat = self.rows(out, "flat_map")
        self.assertEqual(len(flat), 1)
        cells = flat[0].split("|")[2:-1]
        self.assertEqual(len(cells), 5)
        for cell in cells:
            ea, eb, mark = re.match(r" (\S+) → (\S+) (\S) ", cell).groups()
            self.assertEqual(mark, "▲", cell)
            self.assertAlmostEqual(float(eb), float(ea) / 0.6, delta=0.02, msg=cell)
        self.assertTrue(all(c.strip().endswith("▼")
                            for c in self.rows(out, "handle_table")[0].split("|")[2:-1]))
        self.assertIn("-O3 faster at every N: flat_map;", out)

    def test_different_machines_are_said_first(self):
        self.machine("one", "two")
        try:
            out = self.run_script(self.a, self.b).stdout
        finally:
            self.machine("same", "same")
        self.assertIn("different machines (machine one and machine two)", out)

    def test_bad_input_exits_2(self):
        done = self.run_script(self.a)
        self.assertEqual(done.returncode, 2)
        self.assertIn("usage: scripts/opt_levels.py RUN_A RUN_B", done.stderr)
        done = self.run_script(self.a, os.path.join(self.tmp.name, "nope"))
        self.assertEqual(done.returncode, 2)
        self.assertIn("no such run folder", done.stderr)


if __name__ == "__main__":
    unittest.main()
