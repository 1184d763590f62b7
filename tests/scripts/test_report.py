"""scripts/report.py: a run's report.md (per-case tables, per-strategy paragraphs, the family
sentence) and the hand-written findings' claims checked against the run's verdicts
(scripts/ecsb_stats.py), on fixture run A of tests/scripts/fixture_runs.py (made at test time).
Its dual_iterate medians at N = 4000, ns per matched pair: floor 0.30, limit 0.22, index_is_id
0.80, flat_map 1.4, sparse_set 1.6, handle_table 2.2; 9 repetitions a side about 2.5 % apart:
every pair *faster*. Also: the committed docs/findings.md holds on the reference run it names.
"""
import csv
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
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(TOP, "scripts"))
from ecsb_stats import FAMILY  # noqa: E402
from fixture_runs import RUN_A  # noqa: E402

HOLDS = """# Findings

Some prose, copied as written.

## Iteration

- claim: dual_iterate N=4000 index_is_id/floor <= 2.7
- claim: dual_iterate N=4000 flat_map/fastest >= 1.7
* claim: dual_iterate N=4000 fastest is index_is_id significantly
claim: platformer N=256 handle_table/index_is_id > 1.5
"""


class Report(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        subprocess.run([PYTHON, os.path.join(HERE, "fixture_runs.py"), cls.tmp], check=True)
        cls.run_dir = os.path.join(cls.tmp, RUN_A)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def report(self, findings, *args, run_dir=None):
        """(exit status, report.md text, stderr) of report.py with this findings text."""
        path = os.path.join(self.tmp, "findings.md")
        with open(path, "w") as f:
            f.write(findings)
        run_dir = run_dir or self.run_dir
        out = os.path.join(run_dir, "report.md")
        if os.path.exists(out):
            os.remove(out)
        r = subprocess.run([PYTHON, os.path.join(TOP, "scripts", "report.py"), run_dir,
                            "--findings", path, *args], capture_output=True, text=True)
        self.assertNotIn("Traceback", r.stderr)
        text = None
        if os.path.exists(out):
            with open(out, encoding="utf-8") as f:
                text = f.read()
        return r.returncode, text, r.stderr

    def test_claims_that_hold_exit_0_and_are_marked(self):
        rc, md, err = self.report(HOLDS)
        self.assertEqual(rc, 0, err)
        self.assertIn("4 claims hold, 0 do not, 0 cannot be checked", md)
        self.assertIn("- `dual_iterate N=4000 index_is_id/floor <= 2.7` — ✓ holds "
                      "(this run: 2.67)", md)
        self.assertIn("- `dual_iterate N=4000 flat_map/fastest >= 1.7` — ✓ holds (this run: 1.75, "
                      "faster)", md)
        self.assertIn("* `dual_iterate N=4000 fastest is index_is_id significantly` — ✓ holds "
                      "(this run: fastest: index_is_id, *faster* than every other layout)", md)
        self.assertEqual(md.count(FAMILY), 1)
        self.assertIn("`platformer N=256 handle_table/index_is_id > 1.5` — ✓ holds", md)
        # the prose is kept; the file's title gives way to the section's
        self.assertIn("Some prose, copied as written.", md)
        self.assertIn("\n### Iteration\n", md)
        self.assertNotIn("\n# Findings\n", md)

    def test_a_ratio_the_run_no_longer_supports_exits_1(self):
        rc, md, err = self.report(HOLDS + "- claim: dual_iterate N=4000 index_is_id/floor <= 2.5\n")
        self.assertEqual(rc, 1)
        self.assertIn("report: 1 claim(s) of", err)
        self.assertIn("- `dual_iterate N=4000 index_is_id/floor <= 2.5` — ✗ **does not hold** "
                      "(this run: 2.67)", md)
        self.assertIn("4 claims hold, 1 do not", md)

    def test_a_wrong_leader_or_an_undecided_lead_or_margin_fails(self):
        rc, md, _ = self.report("claim: dual_iterate N=4000 fastest is flat_map\n")
        self.assertEqual(rc, 1)
        self.assertIn("✗ **does not hold** (this run: fastest: index_is_id)", md)
        # two speeds in each of the leader's and the runner-up's repetitions: undecidable
        wild = os.path.join(self.tmp, "wild")
        shutil.copytree(self.run_dir, wild)
        from fakes import replace_samples
        for st, med in (("index_is_id", 0.80), ("flat_map", 1.4)):
            replace_samples(wild, "dual_iterate", st, 4000,
                            [med * f for f in (0.6, 0.7, 1.0, 1.6, 1.8)])
        for claim, says in (
                ("fastest is index_is_id", "fastest: index_is_id, but against flat_map "
                 "undecidable (needs "),
                ("flat_map/index_is_id >= 1.5", "1.75, undecidable (needs "),
                ("index_is_id/flat_map <= 0.6", "0.571, undecidable (needs ")):
            rc, md, _ = self.report(f"claim: dual_iterate N=4000 {claim}\n", run_dir=wild)
            self.assertEqual(rc, 1, claim)
            self.assertIn(f"✗ **does not hold** (this run: {says}", md)
        # a bound claims no margin: it needs no verdict
        rc, md, _ = self.report("claim: dual_iterate N=4000 index_is_id/flat_map <= 1.1\n",
                                run_dir=wild)
        self.assertEqual(rc, 0, md)

    def test_a_level_claim_holds_only_where_the_run_says_level(self):
        level = os.path.join(self.tmp, "level")
        shutil.copytree(self.run_dir, level)
        from fakes import replace_samples
        for st, med in (("index_is_id", 0.80), ("flat_map", 0.804)):
            replace_samples(level, "dual_iterate", st, 4000,
                            [med * (1 + 0.001 * k) for k in range(-4, 5)])
        claim = "claim: dual_iterate N=4000 flat_map level index_is_id\n"
        rc, md, _ = self.report(claim, run_dir=level)
        self.assertEqual(rc, 0, md)
        self.assertRegex(md, r"✓ holds \(this run: 1\.00 \(1\.00–1\.01\), level\)")
        rc, md, _ = self.report(claim)
        self.assertEqual(rc, 1)
        self.assertIn("✗ **does not hold** (this run: 1.75 (", md)

    def test_a_claim_the_run_cannot_check_is_said_and_fails_only_when_strict(self):
        unchecked = ("claim: dual_iterate N=12345 index_is_id/floor <= 3\n"
                     "claim: nosuch N=4000 index_is_id/floor <= 3\n"
                     "claim: dual_iterate N=4000 nosuch/floor <= 3\n")
        rc, md, _ = self.report(unchecked)
        self.assertEqual(rc, 0)
        self.assertIn("0 claims hold, 0 do not, 3 cannot be checked", md)
        self.assertIn("? not checked (this run: dual_iterate did not run at N = 12345)", md)
        self.assertIn("? not checked (this run: the run has no nosuch)", md)
        self.assertIn("? not checked (this run: nosuch has no time in dual_iterate at N = 4000)",
                      md)
        self.assertEqual(self.report(unchecked, "--strict")[0], 1)

    def test_a_malformed_claim_exits_2_and_names_the_line(self):
        for bad in ("claim: dual_iterate index_is_id/floor <= 3",
                    "claim: dual_iterate N=4000 index_is_id/floor ~ 3",
                    "claim: dual_iterate N=4000 index_is_id/floor <= x",
                    "claim: dual_iterate N=4k fastest is a",
                    "claim: dual_iterate N=4000 a level"):
            rc, _, err = self.report("# t\n\n" + bad + "\n")
            self.assertEqual(rc, 2, bad)
            self.assertIn("findings.md:3:", err)
        rc, _, err = self.report(HOLDS, "--findings", os.path.join(self.tmp, "missing.md"))
        self.assertEqual(rc, 2)
        self.assertIn("missing.md", err)

    def test_per_case_tables(self):
        _, md, _ = self.report(HOLDS)
        table = md.split("### dual_iterate")[1]
        # five sizes: the table shows N = 4000 and the largest (summary.md has every N)
        self.assertIn("| ns per matched pair, × leader | 4,000 | 4,194,304 |\n", table)
        rows = dict(re.findall(r"^\| ([^|]+?) \| ([^|]+?) \|", table, re.M))
        self.assertEqual({k: rows[k] for k in ("floor (plain arrays)", "limit (touched data "
                          "only)", "index_is_id", "flat_map", "sparse_set", "handle_table")},
                         {"floor (plain arrays)": "0.37", "limit (touched data only)": "0.27",
                          "index_is_id": "**0.80**", "flat_map": "1.75", "sparse_set": "2.00",
                          "handle_table": "2.75"})
        self.assertRegex(table, r"\| \*runner-up's margin \(95 % CI\)\* \| "
                                r"1\.75 \(1\.[0-9]+–1\.[0-9]+\) faster \|")

    def test_report_of_the_reference_run_stays_under_40_kb(self):
        run = os.path.join(TOP, "results", "20261127T120006Z-vm")
        if not os.path.exists(os.path.join(run, "raw.json")):
            self.skipTest("no reference run with raw.json")
        r = subprocess.run([PYTHON, os.path.join(TOP, "scripts", "report.py"), run, "-o", "-"],
                           capture_output=True, text=True)
        self.assertLess(len(r.stdout.encode()), 40_000)  # 40 KB, decimal: the stricter reading

    def test_per_strategy_paragraphs_come_from_the_data(self):
        _, md, _ = self.report(HOLDS)
        self.assertIn("**index_is_id** leads in 10 of 10 cells: platformer at every N; "
                      "dual_iterate at every N. *Faster* than every other layout in all of them.",
                      md)
        self.assertIn("**handle_table** leads in none of its 10 cells. Furthest behind: "
                      "dual_iterate at 4,194,304 (6.92x the leader's time). Against the floor: ",
                      md)

    def test_a_scenario_alike_in_every_world_is_one_entry(self):
        sys.path.insert(0, os.path.join(TOP, "scripts"))
        from report import by_case
        cases = {("p", ""): [4000, 65536], ("p~order=aged", "order=aged"): [4000, 65536],
                 ("p~order=shuffled", "order=shuffled"): [4000, 65536],
                 ("q", ""): [4000, 65536], ("q~order=aged", "order=aged"): [4000, 65536]}
        every = [(c, n, None) for c in cases for n in cases[c] if c[0].startswith("p")]
        self.assertEqual(by_case(cases, every), "p in every world at every N")
        # one world at one size only: listed apart; a ratio note keeps its entries apart too
        some = every[:-1] + [((("q", ""), 4000, 1.02)), (("q~order=aged", "order=aged"), 4000, 1.02)]
        self.assertEqual(by_case(cases, some), "p at every N; p (order=aged) at every N; "
                         "p (order=shuffled) at 4,000; q at 4,000 (1.02x); q (order=aged) at 4,000 (1.02x)")

    def with_params(self, name, params_of):
        """A copy of the run whose benchmarks named [scenario, strategy] ran with the parameters
        params_of([scenario, strategy]) ("name=value,..." in the benchmark name, as bench.c
        names them), its results.csv written again by json_to_csv.py."""
        run = os.path.join(self.tmp, name)
        shutil.copytree(self.run_dir, run)
        raw = os.path.join(run, "raw.json")
        with open(raw) as f:
            doc = json.load(f)
        for b in doc["benchmarks"]:
            for field in ("name", "run_name"):
                parts = b[field].split("/")
                params = params_of(parts[:2])
                b[field] = "/".join(parts[:3] + ([params] if params else []) + parts[3:])
        with open(raw, "w") as f:
            json.dump(doc, f)
        subprocess.run([PYTHON, os.path.join(TOP, "scripts", "json_to_csv.py"), raw,
                        "-o", os.path.join(run, "results.csv")], check=True)
        return run

    def test_cases_follow_the_params_column(self):
        run = self.with_params("params", lambda r: "order=shuffled" if r[0] == "dual_iterate" else "")
        rc, md, err = self.report("claim: dual_iterate order=shuffled N=4000 fastest is index_is_id\n"
                                  "claim: dual_iterate N=4000 fastest is index_is_id\n"
                                  "claim: dual_iterate order=regular N=4000 fastest is index_is_id\n",
                                  run_dir=run)
        self.assertEqual(rc, 0, err)
        self.assertIn("\n### dual_iterate (order=shuffled)\n", md)
        self.assertIn("\n### platformer\n", md)
        self.assertIn("dual_iterate (order=shuffled) at every N", md)
        self.assertEqual(md.count("✓ holds"), 2)
        self.assertIn("? not checked (this run: the run has no dual_iterate with order=regular)",
                      md)

    def test_strategies_are_ranked_only_within_their_case(self):
        # flat_map's platformer rows ran shuffled, the others regular: two cases.
        run = self.with_params("split", lambda r: "order=shuffled"
                               if r[:2] == ["platformer", "flat_map"] else "order=regular")
        _, md, _ = self.report("claim: platformer order=shuffled N=4000 fastest is flat_map\n"
                               "claim: platformer order=regular N=4000 fastest is index_is_id\n",
                               run_dir=run)
        self.assertIn("2 claims hold, 0 do not", md)
        regular = md.split("### platformer (order=regular)")[1].split("###")[0]
        shuffled = md.split("### platformer (order=shuffled)")[1].split("###")[0]
        # (N = 4000 and the largest: the fixture runs more than three sizes)
        self.assertIn("| index_is_id | **3.20** | **5.00** |", regular)
        self.assertIn("| sparse_set | 1.44 | 2.00 |", regular)
        self.assertNotIn("flat_map", regular)
        self.assertRegex(shuffled, r"\| flat_map \| \*\*3\.80\*\* \| \*\*[0-9.]+\*\* \|")

    def test_an_unusable_run_exits_2(self):
        rc, md, err = self.report(HOLDS, run_dir=os.path.join(self.tmp, "nonexistent"))
        self.assertEqual((rc, md), (2, None))
        self.assertIn("report: error:", err)


class CommittedFindings(unittest.TestCase):
    def test_docs_findings_hold_on_the_reference_run_it_names(self):
        findings = os.path.join(TOP, "docs", "findings.md")
        with open(findings, encoding="utf-8") as f:
            run_id = re.search(r"Reference run: results/(\S+?) ", f.read()).group(1)
        run = os.path.join(TOP, "results", run_id)
        r = subprocess.run([PYTHON, os.path.join(TOP, "scripts", "report.py"), run, "--strict",
                            "-o", "-"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stdout, r"From docs/findings\.md: [1-9][0-9]* claims hold, 0 do not, "
                                   r"0 cannot be checked")


if __name__ == "__main__":
    unittest.main()
