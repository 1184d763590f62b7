"""scripts/choose.py: choose.md on runs whose verdicts are known: the answer list first (one line
per kind of workload in plain words, pick, plain margin, memory, the sizes where another wins,
"no large worlds"), the words explained above the table, rows collapsed where the pick does not
change, memory named; the size classes; `make choose`'s ranking of a weighted mix (sizes
weighted as asked, a layout missing from a weighted cell named), with bad weights and a mix
without times refused (exit 2)."""
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
                "| 2.00x (90 % CI ", "over c | a 8.0 B, b 12.0 B |",
                "| iterate | regular | large (1,048,576) | **b** (1.5 ns/entity) | — | — "
                "| 1.30x (90 % CI ",
                "| churn | regular | small (4,000) | **b** (5 ns/op) | c | — | 2.00x (90 % CI "):
            self.assertIn(row, r.stdout)
        # the rule, then the run's family: its verdicts and the false calls to expect
        self.assertIn("## The rule\n\n" + FAMILY + " This run: 18 pairs, 16 *faster*, "
                      "2 *level*, 0 *undecidable*; expect at most about 0.9 of the 18 *faster* "
                      "and *level* verdicts to be false.\n", r.stdout)

    def test_a_run_with_large_worlds_does_not_say_it_has_none(self):
        r = self.choose()
        self.assertNotIn("no large worlds", r.stdout)
        # a scenario no kind names gets a line of its own, under its name
        self.assertIn("- **iterate: a scenario of its own** → **b**", r.stdout)

    def test_size_classes(self):
        self.assertEqual([size_class(n) for n in (256, 16384, 16385, 1048575, 1048576, 4194304)],
                         ["small", "small", "medium", "medium", "large", "large"])

    def test_a_weighted_mix_ranks_by_the_geometric_mean_of_ratios_to_the_leader(self):
        ranked, missing = rank(load_run(self.run_dir), {"iterate": 3, "churn": 1})
        self.assertEqual(missing, {})
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

    def test_sizes_are_weighted_as_asked(self):
        run = load_run(self.run_dir)
        # iterate at 1,048,576 only: a is 2x the leader b there, c 1.3x
        scores = {r[0]: r[1] for r in rank(run, {"iterate": 1}, {1048576: 1})[0]}
        self.assertAlmostEqual(scores["a"], 2.0)
        self.assertAlmostEqual(scores["c"], 1.3)
        # 4000 three times 1,048,576: a = 2 ** (1/4)
        scores = {r[0]: r[1] for r in rank(run, {"iterate": 1}, {4000: 3, 1048576: 1})[0]}
        self.assertAlmostEqual(scores["a"], 2 ** 0.25)
        r = self.choose("--weights", "iterate:1")
        self.assertIn("Sizes: each scenario's weight shared equally among the sizes it ran at "
                      "(4,000, 1,048,576)", r.stdout)
        r = self.choose("--weights", "iterate:1", "--size-weights", "1048576:1")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("Sizes weighted as asked: 1,048,576: 1", r.stdout)
        for sizes, says in (("65536:1", "no weighted scenario ran at N = 65536"),
                            ("4000", "'4000' is not N:weight"),
                            ("4000:0", "every size weight is 0"),
                            ("4000:1,4000:2", "N = 4000 is given twice")):
            r = self.choose("--weights", "iterate:1", "--size-weights", sizes)
            self.assertEqual(r.returncode, 2, sizes)
            self.assertIn(says, r.stderr)
        # churn ran at 4000 only: weighting 1,048,576 alone leaves no weighted cell
        r = self.choose("--weights", "iterate:0,churn:1", "--size-weights", "1048576:1")
        self.assertEqual(r.returncode, 2, r.stdout)
        self.assertIn("choose: error: no weighted cell has times", r.stderr)

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


# A run of named workloads: dual_iterate in two worlds at two sizes (a leads at 4000, b at
# 65,536), add_remove in two worlds at 4000 (c leads both, a 2x slower, b missing in shuffled).
PLAIN_LIST = {"strategies": [{"name": s, "summary": ""} for s in ("a", "b", "c")],
              "references": [{"name": "floor", "summary": ""}],
              "scenarios": [{"name": "dual_iterate", "summary": "", "item": "matched pair",
                             "has_limit": False, "default_sizes": [4000, 65536]},
                            {"name": "add_remove", "summary": "", "item": "component op",
                             "has_limit": False, "default_sizes": [4000]}]}
PLAIN_TIMES = {("dual_iterate", "", 4000): {"a": 1.0, "b": 1.5, "c": 3.0},
               ("dual_iterate", "order=shuffled", 4000): {"a": 1.0, "b": 1.6, "c": 3.0},
               ("dual_iterate", "", 65536): {"a": 1.3, "b": 1.0, "c": 3.0},
               ("dual_iterate", "order=shuffled", 65536): {"a": 1.3, "b": 1.0, "c": 3.0},
               ("add_remove", "", 4000): {"a": 4.0, "b": 8.0, "c": 2.0},
               ("add_remove", "order=shuffled", 4000): {"a": 4.2, "c": 2.0}}


def rows_text(md, scenario):
    return "\n".join(x for x in md.splitlines() if x.startswith(f"| {scenario} |"))


class AnswerFirst(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        rows = []
        for family, ((sc, params, n), lines) in enumerate(PLAIN_TIMES.items()):
            for line, ns in dict(lines, floor=0.5).items():
                for row in gbench_rows(sc, line, n, n, around(ns), family,
                                       bytes_per_entity=BYTES[line]):
                    if params:
                        row["name"] = row["run_name"] = f"{sc}/{line}/{n}/{params}"
                    rows.append(row)
        cls.run_dir = write_run(os.path.join(cls.tmp, "run"), PLAIN_LIST, context("run"), rows)
        done = subprocess.run([PYTHON, os.path.join(TOP, "scripts", "choose.py"), cls.run_dir],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        cls.md = done.stdout

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_the_answer_list_comes_first_in_plain_words(self):
        answer = self.md.split("## The answer\n", 1)[1].split("\n## ", 1)[0]
        self.assertLess(self.md.index("## The answer"), self.md.index("| workload |"))
        lines = [x for x in answer.splitlines() if x.startswith("- ")]
        self.assertEqual(len(lines), 2, answer)
        iterate, churn = lines
        self.assertTrue(iterate.startswith(
            "- **Systems over the entities that hold two or three components** → **a**; best "
            "or as fast in 2 of its 4 workloads, about 9 % faster than the next (b)"), iterate)
        self.assertIn("at 65,536 entities: b", iterate)
        self.assertIn("8.0 B per entity", iterate)
        self.assertTrue(churn.startswith(
            "- **Adding and removing components on live entities** → **c**, about 2.0x faster "
            "than the next (a); 16.0 B per entity"), churn)
        for internal in ("dual_iterate", "add_remove", "undecidable", "level"):
            self.assertNotIn(internal, iterate + churn)
        self.assertIn("WEIGHTS=dual_iterate:3,add_remove:1`", answer)

    def test_a_run_without_large_worlds_says_so(self):
        self.assertIn("This run has no large worlds (N >= 1,048,576; its largest is 65,536)",
                      self.md)

    def test_the_words_are_explained_above_the_table(self):
        words = self.md.index("How to read this")
        self.assertLess(words, self.md.index("| workload |"))
        for word in ("**pick**", "**as fast**", "**too close to call**", "**faster than the next**",
                     "**worlds**", "**B per entity**"):
            self.assertIn(word, self.md[words:self.md.index("| workload |")])

    def test_rows_whose_pick_does_not_change_are_collapsed(self):
        rows = [x for x in self.md.splitlines() if x.startswith("| dual_iterate")]
        self.assertEqual([r.split(" | ")[1:4] for r in rows],
                         [["regular, shuffled", "small (4,000)", "**a** (1 ns/matched pair)"],
                          ["regular, shuffled", "medium (65,536)",
                           "**b** (1 ns/matched pair)"]], rows)
        rows = [x for x in self.md.splitlines() if x.startswith("| add_remove")]
        self.assertEqual(len(rows), 1, rows)
        self.assertIn("| 2.00–2.10x over a | c 16.0 B |", rows[0])
        self.assertIn("| 1.50–1.60x over b | a 8.0 B |", rows_text(self.md, "dual_iterate"))

    def test_a_layout_missing_from_a_weighted_cell_is_named(self):
        r = subprocess.run([PYTHON, os.path.join(TOP, "scripts", "choose.py"), self.run_dir,
                            "--weights", "add_remove:1,add_remove~order=shuffled:1"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("not ranked: b, no times in a weighted cell (add_remove~order=shuffled "
                      "at 4,000)", r.stdout)

    def test_libraries_are_marked(self):
        from choose import shown

        class Run:
            context = {"ecsb_libraries": "flecs,entt"}
        self.assertEqual((shown(Run, "flecs"), shown(Run, "a")), ("flecs (library)", "a"))


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
        row = re.search(r"^\| dual_iterate \| regular \| small \(4,000\).*$",
                        docs["choose"], re.M).group(0)
        # the answer list bolds no pick the run cannot decide, and says so
        unclear = [ln for ln in docs["choose"].split("\n## ")[1].splitlines()
                   if "no clear pick in" in ln]
        self.assertEqual(len(unclear), 1, docs["choose"][:3000])
        self.assertNotIn("→ **", unclear[0])
        needed = re.search(r"flat_map \((?:4,000: )?(\d+) reps would tell", row).group(1)
        table = docs["report"].split("### dual_iterate")[1]
        # report.md shows N = 4000 first (and the largest N) for a case run at more sizes
        self.assertIn("| ns per matched pair, × leader | 4,000 |", table)
        margin = re.search(r"^\| \*runner-up, 90 % CI\* \| ([^|]+) \|",
                           table, re.M).group(1)
        self.assertTrue(margin.endswith(f" ?{needed}"), (margin, needed))
        self.assertIn("| flat_map | 1.50 | 1.40? ~ |", docs["summary"])


if __name__ == "__main__":
    unittest.main()
