"""scripts/ecsb_quality.py: the run-quality banner on fixture runs (tests/scripts/fixture_runs.py
run A, made at test time): quiet for a clean run; too disturbed, with what to do, for one whose
sentinel fell and whose lines spread; the figures it counts; its place at the top of summary.md,
report.md and choose.md; choose.md's "no clear pick" rows (not bold)."""
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stderr

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(TOP, "scripts"))
sys.path.insert(0, HERE)
import ecsb_quality  # noqa: E402
import ecsb_stats as stats  # noqa: E402
from ecsb_rundata import load_run  # noqa: E402
from fakes import replace_samples, write_run  # noqa: E402
from fixture_runs import RUN_A  # noqa: E402

PYTHON = os.environ.get("PYTHON", "/usr/bin/python3")


def disturb(run, share_disturbed, low):
    """Give every repetition row a speed_index (low .. 1.0) and mark the first share of them
    disturbed."""
    with open(os.path.join(run, "raw.json")) as f:
        doc = json.load(f)
    rows = [b for b in doc["benchmarks"] if b.get("run_type", "iteration") == "iteration"]
    for i, b in enumerate(rows):
        b["speed_index"] = low + (1 - low) * (i % 10) / 9
        b["disturbed"] = 1.0 if i < share_disturbed * len(rows) else 0.0
    doc["context"]["ecsb_sentinel_repeated"] = "3"
    doc["context"]["ecsb_sentinel_load_start"] = "7.25"
    doc["context"]["ecsb_sentinel_load_end"] = "9.5"
    with open(os.path.join(run, "list.json")) as f:
        write_run(run, json.load(f), doc["context"], doc["benchmarks"])


class Banner(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        subprocess.run([PYTHON, os.path.join(HERE, "fixture_runs.py"), cls.tmp], check=True,
                       stdout=subprocess.DEVNULL)
        cls.clean = os.path.join(cls.tmp, RUN_A)
        cls.bad = os.path.join(cls.tmp, "bad")
        shutil.copytree(cls.clean, cls.bad)
        disturb(cls.bad, 0.2, 0.55)
        # two speeds in the leader's and the runner-up's repetitions: wide and undecided
        for sc, lead, other, med in (("dual_iterate", "index_is_id", "flat_map", (0.8, 1.4)),
                                     ("platformer", "index_is_id", "flat_map", (3.5, 4.0))):
            for n in (256, 4000, 65536, 1048576):
                for st, m in zip((lead, other), med):
                    replace_samples(cls.bad, sc, st, n, [m * f for f in (0.5, 0.6, 1.0, 1.6, 1.9)])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_a_clean_run_is_quiet(self):
        q = ecsb_quality.quality(load_run(self.clean))
        self.assertEqual(q["verdict"], "quiet")
        self.assertEqual((q["sentinel"], q["disturbed"], q["repeated"]), (None, 0, 0))
        self.assertEqual(q["wide"], (0, 55))
        md = ecsb_quality.banner_markdown(self.clean)
        self.assertTrue(md.startswith("> **Run quality: quiet.** no sentinel · "), md)
        for words in ("0 % of repetitions disturbed, 0 % repeated",
                      "0 % of lines wide (over 1.4x)", "no clear pick in 0 of 6 rows"):
            self.assertIn(words, md)
        self.assertNotIn("What to do", md)
        self.assertTrue(ecsb_quality.banner_text(self.clean).startswith("run quality: quiet\n"))

    def test_a_disturbed_run_says_so_and_what_to_do(self):
        q = ecsb_quality.quality(load_run(self.bad))
        self.assertEqual(q["verdict"], "too disturbed")
        self.assertEqual(q["sentinel"], (0.55, 1.0))
        self.assertEqual(q["repeated"], 3)
        self.assertGreater(q["disturbed"] / q["repetitions"], ecsb_quality.TOO_DISTURBED)
        self.assertEqual(q["wide"][0], 16)
        self.assertEqual((q["load"], q["load_end"]), (7.25, 9.5))
        md = ecsb_quality.banner_markdown(self.bad)
        self.assertTrue(md.startswith("> **This run is too disturbed to answer.** sentinel "
                                      "0.55–1.00 of best speed · 19 % of repetitions "
                                      "disturbed, 0.7 % repeated · 29 % of lines wide"), md)
        self.assertIn(" · load 7.2–9.5 on 2 CPUs. **What to do", md)
        # a run without its seconds recorded names the command, not a figure it cannot know
        self.assertIn("**What to do: close other programs; rerun (make bench).**", md)
        text = ecsb_quality.banner_text(self.bad).splitlines()
        self.assertEqual(text[0], "THIS RUN IS TOO DISTURBED TO ANSWER.")
        self.assertEqual(text[-1], "  what to do: close other programs; rerun (make bench)")

    def test_what_to_do_states_the_runs_own_time(self):
        ctx = {"ecsb_check_seconds": "21.5", "ecsb_timing_seconds": "190.2",
               "ecsb_stage_seconds": "18", "ecsb_sentinel_repeat_seconds": "40.4"}
        self.assertEqual(ecsb_quality.what_to_do(ctx),
                         "close other programs; rerun: this run's checking, timing and stages "
                         "took 3 min 50 s, 3 min 9 s without its repeats")
        ctx["ecsb_sentinel_repeat_seconds"] = "0.2"
        self.assertEqual(ecsb_quality.what_to_do(ctx),
                         "close other programs; rerun: this run's checking, timing and stages "
                         "took 3 min 50 s")

    def test_the_time_line_says_where_the_seconds_went(self):
        run = os.path.join(self.tmp, "timed")
        shutil.copytree(self.clean, run)
        with open(os.path.join(run, "raw.json")) as f:
            doc = json.load(f)
        self.assertEqual(ecsb_quality.time_line(run, 250), "time:    4 min 10 s")
        doc["context"].update({"ecsb_check_seconds": "20", "ecsb_timing_seconds": "200",
                               "ecsb_stage_seconds": "15", "ecsb_sentinel_repeat_seconds": "30",
                               "ecsb_sentinel_repeated": "12", "ecsb_sentinel_disturbed": "14"})
        with open(os.path.join(run, "raw.json"), "w") as f:
            json.dump(doc, f)
        self.assertEqual(ecsb_quality.time_line(run, 250),
                         "time:    4 min 10 s: checking 20 s, timing 3 min 20 s (of it 30 s "
                         "timing again 12 of 14 repetitions the sentinel found disturbed, and "
                         "waiting for the machine), stages 15 s, tables and plots 15 s")
        r = subprocess.run([PYTHON, os.path.join(TOP, "scripts", "ecsb_quality.py"), "--time",
                            run, "250"], capture_output=True, text=True)
        self.assertEqual((r.returncode, r.stdout), (0, ecsb_quality.time_line(run, 250) + "\n"))
        r = subprocess.run([PYTHON, os.path.join(TOP, "scripts", "ecsb_quality.py"), "--time",
                            run], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)

    def test_the_sentinel_decides_whether_the_machine_is_to_blame(self):
        run = load_run(self.clean)
        base = ecsb_quality.quality(run)
        reps = base["repetitions"]
        some = int(reps * ecsb_quality.SOME_DISTURBED) + 1  # just over SOME_DISTURBED
        self.assertEqual(ecsb_quality.verdict_of(dict(base, disturbed=int(reps * 0.1) + 1)),
                         "too disturbed")
        self.assertNotEqual(ecsb_quality.verdict_of(dict(base, disturbed=int(reps * 0.1))),
                            "too disturbed")
        for key, value in (("wide", (6, 55)), ("rows", (4, 6))):
            # wide lines or undecided rows: the machine's doing only where the sentinel saw it
            self.assertEqual(ecsb_quality.verdict_of(dict(base, **{key: value}, disturbed=some)),
                             "too disturbed", key)
            self.assertEqual(ecsb_quality.verdict_of(dict(base, **{key: value}, disturbed=0)),
                             "undecided", key)
        for key, value in (("wide", (5, 55)), ("rows", (3, 6))):
            q = dict(base, **{key: value}, disturbed=some)
            self.assertNotIn(ecsb_quality.verdict_of(q), ("too disturbed", "undecided"), key)
        self.assertEqual(ecsb_quality.verdict_of(dict(base, wide=(2, 55))), "disturbed")

    def test_the_sentinel_range_from_the_context_alone(self):
        run = load_run(self.clean)
        run.context.update({"ecsb_sentinel_best_ns": "500", "ecsb_sentinel_worst_ns": "1000"})
        self.assertEqual(ecsb_quality.quality(run)["sentinel"], (0.5, 1.0))

    def test_rows_without_a_clear_pick_are_counted(self):
        run = load_run(self.bad)
        q = ecsb_quality.quality(run)
        cell = stats.cell(run, "dual_iterate", 4000)
        self.assertTrue(stats.no_clear_pick(cell))
        self.assertFalse(stats.no_clear_pick(stats.cell(load_run(self.clean), "dual_iterate",
                                                        4000)))
        self.assertGreaterEqual(q["rows"][0], 4)

    def test_every_document_opens_with_it(self):
        import choose
        import report
        import summary
        md = ecsb_quality.banner_markdown(self.bad)
        docs = {"summary": summary.summary(self.bad), "choose": choose.choose_md(self.bad)}
        with redirect_stderr(io.StringIO()):
            docs["report"] = report.report(self.bad, os.devnull)[0]
        for name, text in docs.items():
            lines = text.splitlines()
            self.assertTrue(lines[0].startswith("# "), name)
            self.assertEqual(lines[2], md, name)
        # choose.md: an undecided row has no bold pick and says so
        row = [line for line in docs["choose"].splitlines()
               if line.startswith("| dual_iterate |") and "4,000" in line][0]
        self.assertIn("(no clear pick)", row)
        self.assertNotIn("**", row.split("|")[4])

    def test_the_console_prints_it(self):
        r = subprocess.run([PYTHON, os.path.join(TOP, "scripts", "ecsb_quality.py"), self.bad],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, ecsb_quality.banner_text(self.bad) + "\n")
        r = subprocess.run([PYTHON, os.path.join(TOP, "scripts", "ecsb_quality.py")],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)


if __name__ == "__main__":
    unittest.main()
