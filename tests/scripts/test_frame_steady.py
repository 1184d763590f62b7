"""scripts/frame_steady_check.py against a stand-in ecsbench whose `steady` prints made-up
ratios: `steady` 1.0 in every process, `drifting` 1.3 (its world slower 300 frames on),
`spiky` 1.0 but 3.0 in one process of five (a neighbour: the median over processes ignores
it), `settling` 0.77 (faster older: the world make bench times had not settled). Only the
default frame lines of the run are checked (a parameter sweep's line and other scenarios are
not); the verdict is the median ratio against --limit; --older reaches the binary; bad input
exits 2."""
import csv
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "frame_steady_check.py")
PYTHON = os.environ.get("PYTHON", "/usr/bin/python3")

FAKE = r'''#!/usr/bin/python3
import json, os, sys
if sys.argv[1:3] == ["list", "--json"]:
    print(json.dumps({"scenarios": [{"name": "frame", "params": [
        {"name": "order", "default": "regular"}, {"name": "churn", "default": 0.01}]}]}))
    sys.exit(0)
scenario, strategy, n, older = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
assert sys.argv[1] == "steady" and scenario == "frame" and sys.argv[6].startswith("order="), sys.argv
if strategy == "broken":
    print("ecsbench: steady frame on broken at N=100: pass failed: out of memory", file=sys.stderr)
    sys.exit(1)
ratio = {"drifting": 1.0 + 0.3 * min(older, 300) / 300, "settling": 0.77}.get(strategy, 1.0)
if strategy == "spiky":  # the third process of each line is the disturbed one
    count = os.path.join(os.path.dirname(sys.argv[0]), f"spiky.{n}.{sys.argv[6]}")
    calls = int(open(count).read()) + 1 if os.path.exists(count) else 1
    open(count, "w").write(str(calls))
    ratio = 3.0 if calls % 5 == 3 else 1.0
print(f"young=0.001 old={0.001 * ratio:.9g} ratio={ratio:.4f} pairs=21 older={older}")
'''


class FrameSteadyCheck(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.fake = os.path.join(cls.tmp.name, "ecsbench")
        with open(cls.fake, "w") as f:
            f.write(FAKE)
        os.chmod(cls.fake, 0o755)
        cls.run_dir = os.path.join(cls.tmp.name, "run")
        os.mkdir(cls.run_dir)
        head = ["scenario", "strategy", "n", "metric", "unit", "median", "params"]
        rows = [["frame", s, "100", "seconds_per_pass", "s", "0.001", "order=regular;churn=0.01"]
                for s in ("steady", "drifting", "spiky", "settling")]
        rows += [["frame", "steady", "100", "seconds_per_pass", "s", "0.001", "order=aged;churn=0.01"],
                 ["frame", "swept", "100", "seconds_per_pass", "s", "0.001", "order=regular;churn=0.5"],
                 ["frame", "steady", "100", "time_per_item", "ns", "5", "order=regular;churn=0.01"],
                 ["dual_iterate", "other", "100", "seconds_per_pass", "s", "0.001", ""]]
        with open(os.path.join(cls.run_dir, "results.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(head)
            w.writerows(rows)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def check(self, *args):
        return subprocess.run([PYTHON, SCRIPT, "--ecsbench", self.fake, "--rounds", "2", *args],
                              capture_output=True, text=True)

    def line(self, out, name):
        found = [l for l in out.splitlines() if l.split()[:1] == [f"frame/{name}"]]
        self.assertEqual(len(found), 1, out)
        return found[0].split()

    def test_verdicts(self):
        for name in os.listdir(self.tmp.name):  # spiky's process count starts again
            if name.startswith("spiky."):
                os.remove(os.path.join(self.tmp.name, name))
        r = self.check(self.run_dir, "--rounds", "5")
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        steady = self.line(r.stdout, "steady/100/order=regular")
        self.assertEqual(steady[1:4], ["1.000", "1.000-1.000", "1.000"])  # ratio, spread, bench ms
        self.assertNotIn("NOT STEADY", " ".join(steady))
        drifting = self.line(r.stdout, "drifting/100/order=regular")
        self.assertEqual(drifting[1], "1.300")
        self.assertEqual(drifting[-2:], ["NOT", "STEADY"])
        spiky = self.line(r.stdout, "spiky/100/order=regular")
        self.assertEqual(spiky[1:3], ["1.000", "1.000-3.000"])
        self.assertNotIn("NOT STEADY", " ".join(spiky))
        self.assertEqual(self.line(r.stdout, "settling/100/order=regular")[1], "0.770")
        self.assertIn("NOT STEADY", " ".join(self.line(r.stdout, "settling/100/order=regular")))
        self.assertNotIn("swept", r.stdout)   # a sweep's line is not the default frame
        self.assertNotIn("other", r.stdout)   # not frame
        self.assertIn("3 of 5 lines steady", r.stdout)
        # each process as it comes, on stderr: 5 rounds of 5 lines
        progress = [l for l in r.stderr.splitlines() if l.startswith("round ")]
        self.assertEqual(len(progress), 25, r.stderr)
        self.assertIn("round 3/5: frame/spiky/100/order=regular 3.0000", progress)

    def test_selection_older_and_limit(self):
        r = self.check(self.run_dir, "--strategies", "steady,spiky")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("3 of 3 lines steady", r.stdout)
        r = self.check(self.run_dir, "--strategies", "steady", "--orders", "aged")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("1 of 1 lines steady", r.stdout)
        # --older reaches the binary: drifting's world is 1.1x slower 100 frames on
        r = self.check(self.run_dir, "--strategies", "drifting", "--older", "100")
        self.assertEqual(self.line(r.stdout, "drifting/100/order=regular")[1], "1.100")
        # --limit wide enough lets it pass
        r = self.check(self.run_dir, "--strategies", "drifting", "--limit", "0.35")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_without_a_run(self):
        r = self.check("-", "--sizes", "100,200", "--strategies", "steady,drifting", "--orders", "aged")
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("2 of 4 lines steady", r.stdout)
        self.assertEqual(self.line(r.stdout, "steady/200/order=aged")[1:3], ["1.000", "1.000-1.000"])
        self.assertEqual(self.line(r.stdout, "drifting/100/order=aged")[3], "-")  # no bench ms
        r = self.check("-", "--sizes", "100", "--strategies", "steady")
        self.assertEqual(r.returncode, 2)
        self.assertIn("give --sizes, --strategies and --orders", r.stderr)

    def test_bad_input(self):
        for args, fragment in ((["/nonexistent"], "no results.csv"),
                               ([self.run_dir, "--sizes", "x"], "--sizes=x"),
                               ([self.run_dir, "--older", "0"], "--older and --rounds 1 or more"),
                               ([self.run_dir, "--rounds", "0"], "--older and --rounds 1 or more"),
                               ([self.run_dir, "--limit", "0"], "--limit above 0"),
                               ([self.run_dir, "--sizes", "7"], "no frame lines")):
            r = self.check(*args)
            self.assertEqual(r.returncode, 2, (args, r.stdout, r.stderr))
            self.assertIn(fragment, r.stderr, args)
        # the binary gone unrunnable between list and run (rebuilt under a long check)
        vanishing = os.path.join(self.tmp.name, "vanishing")
        with open(vanishing, "w") as f:
            f.write(FAKE.replace("    sys.exit(0)\n", "    os.chmod(sys.argv[0], 0o644); sys.exit(0)\n", 1)
                    .replace("import json, sys", "import json, os, sys"))
        os.chmod(vanishing, 0o755)
        r = self.check(self.run_dir, "--ecsbench", vanishing)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn(f"cannot run {vanishing}", r.stderr)
        with open(os.path.join(self.run_dir, "results.csv"), "a", newline="") as f:
            csv.writer(f).writerow(["frame", "broken", "100", "seconds_per_pass", "s", "0.001",
                                    "order=shuffled;churn=0.01"])
        try:
            r = self.check(self.run_dir, "--orders", "shuffled")
            self.assertEqual(r.returncode, 2)
            self.assertIn("out of memory", r.stderr)
        finally:
            with open(os.path.join(self.run_dir, "results.csv")) as f:
                keep = [l for l in f if ",broken," not in l]
            with open(os.path.join(self.run_dir, "results.csv"), "w") as f:
                f.writelines(keep)


if __name__ == "__main__":
    unittest.main()
