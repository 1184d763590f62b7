"""Sweeps and crossovers (scripts/ecsb_crossover.py): on runs written here, a sweep is found
from the scenario variants, the leader at each value is the fastest contender (never the floor),
a change of leader is a marked crossover only when the old leader is *faster* before it and the
new one *faster* after it (a significant flip); a level stretch and a noise flip are "level
between" their values, on the chart data too; summary.md carries the table."""
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
from ecsb_crossover import crossovers, leaders, section, sweeps, write_plot_data, x_axis  # noqa: E402
from ecsb_rundata import load_run  # noqa: E402
from fakes import write_run  # noqa: E402

PYTHON = os.environ.get("PYTHON", "/usr/bin/python3")
LIST = {"strategies": [{"name": "a", "summary": "A"}, {"name": "b", "summary": "B"}],
        "references": [{"name": "floor", "summary": "f"}],
        "scenarios": [{"name": "s", "summary": "S", "item": "pair", "consumes_setup": False,
                       "changes_structure": False, "has_limit": False, "default_sizes": [100],
                       "params": [{"name": "order", "meaning": "o", "default": "regular",
                                   "choices": ["regular", "shuffled"], "sweep": ["regular"],
                                   "geometric": False},
                                  {"name": "match", "meaning": "m", "default": "0.5",
                                   "min": 0.01, "max": 1, "integer": False,
                                   "sweep": ["0.125", "0.25", "0.5", "1"], "geometric": True}]}]}
CTX = {"ecsb_params_default": "s:order=regular;match=0.5", "ecsb_run_id": "sweep"}


def bench(name, ns, reps, spread=0.01):
    """Repetitions of one benchmark, ns per item each (100 items per pass), `spread` apart."""
    return [{"name": name, "run_name": name, "run_type": "iteration", "repetitions": reps,
             "repetition_index": r, "family_index": 0, "time_unit": "ns",
             "real_time": ns * 100 * (1 + spread * (r - reps // 2)), "items_per_pass": 100.0,
             "n": 100.0} for r in range(reps)]


class Crossover(unittest.TestCase):
    def run_of(self, times, reps=5, spread=0.01):
        """times: {match: {strategy: ns}}; the default match 0.5 has no suffix in its name."""
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        benchmarks = []
        for m, per in times.items():
            suffix = "" if m == "0.5" else f"/match={m}"
            for st, ns in per.items():
                benchmarks += bench(f"s/{st}/100{suffix}", ns, reps, spread)
        return load_run(write_run(os.path.join(tmp, "run"), LIST, CTX, benchmarks))

    def test_a_known_flip_is_found_between_its_two_values_and_is_significant(self):
        run = self.run_of({"0.125": {"floor": 0.5, "a": 1.0, "b": 3.0},
                           "0.25": {"floor": 0.5, "a": 1.0, "b": 2.0},
                           "0.5": {"floor": 0.5, "a": 2.0, "b": 1.0},
                           "1": {"floor": 0.5, "a": 3.0, "b": 1.0}})
        (sweep,) = sweeps(run)
        self.assertEqual((sweep["scenario"], sweep["param"], sweep["geometric"]),
                         ("s", "match", True))
        self.assertEqual([v for v, _ in sweep["points"]], [0.125, 0.25, 0.5, 1.0])
        self.assertEqual([s for _, s, _ in leaders(run, sweep, 100)], ["a", "a", "b", "b"])
        (flip,) = crossovers(run, sweep, 100)
        self.assertEqual((flip["from"], flip["to"], flip["old"], flip["new"]),
                         (0.25, 0.5, "a", "b"))
        self.assertTrue(flip["significant"], flip)
        text = "\n".join(section(run))
        self.assertIn("### s: match, N = 100", text)
        self.assertIn("between match = 0.25 and 0.5: **crossover**, b overtakes a (a 2.00x "
                      "faster at 0.25, b 2.00x faster at 0.5, both *faster*)", text)
        self.assertEqual(self.chart_vars(run), {"nflips": "1", "flips[1]": "[0.3535533906]",
                                                "nlevels": "0"})

    def test_no_flip_says_so(self):
        run = self.run_of({m: {"floor": 0.5, "a": 1.0, "b": 2.0}
                           for m in ("0.125", "0.25", "0.5")})
        (sweep,) = sweeps(run)
        self.assertEqual(crossovers(run, sweep, 100), [])
        self.assertIn("No crossover: the same strategy leads at every value.",
                      "\n".join(section(run)))

    def chart_vars(self, run):
        """The flips and levels a chart is given (NAME.vars.gp of write_plot_data)."""
        out = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, out)
        charts = []
        write_plot_data(run, out, {}, charts)
        with open(charts[0][1]) as f:
            got = dict(line.strip().replace("array ", "").split(" = ", 1) for line in f
                       if " = " in line)
        # the arrays hold one placeholder 0 when empty: keep them only when counted
        keep = ["nflips", "nlevels"] + (["flips"] if got["nflips"] != "0" else []) + \
            (["levels_from", "levels_to"] if got["nlevels"] != "0" else [])
        return {k: v for k, v in got.items() if k.split("[")[0] in keep}

    def test_a_noise_flip_is_level_between_its_values_and_not_marked(self):
        # b leads at 0.5 by 10 % with repetitions 15 % apart: a change of leader, undecided
        run = self.run_of({"0.25": {"a": 1.0, "b": 1.2}, "0.5": {"a": 1.1, "b": 1.0}},
                          spread=0.15)
        (sweep,) = sweeps(run)
        (flip,) = crossovers(run, sweep, 100)
        self.assertFalse(flip["significant"], flip)
        self.assertEqual(flip["after"].verdict, "undecidable")
        text = "\n".join(section(run))
        self.assertIn("- level between 0.25 and 0.5: the lead passes from a to b, but not with "
                      "both sides decided", text)
        self.assertNotIn("**crossover**", text)
        self.assertEqual(self.chart_vars(run), {"nflips": "0", "nlevels": "1",
                                                "levels_from[1]": "[0.25]",
                                                "levels_to[1]": "[0.5]"})

    def test_a_level_stretch_is_no_crossover_however_often_the_lead_passes(self):
        # a and b 0.1 % apart, repetitions 0.1 % apart: level at every value, the lead alternating
        run = self.run_of({"0.125": {"a": 1.0, "b": 1.001}, "0.25": {"a": 1.001, "b": 1.0},
                           "0.5": {"a": 1.0, "b": 1.001}, "1": {"a": 1.001, "b": 1.0}},
                          spread=0.001)
        (sweep,) = sweeps(run)
        flips = crossovers(run, sweep, 100)
        self.assertEqual(len(flips), 3)
        self.assertEqual({(f["before"].verdict, f["after"].verdict, f["significant"])
                          for f in flips}, {("level", "level", False)})
        self.assertEqual(self.chart_vars(run)["nflips"], "0")
        self.assertEqual(self.chart_vars(run)["nlevels"], "3")

    def test_a_flip_where_only_the_new_leader_is_ahead_is_not_marked(self):
        # b clearly ahead at 0.5, but a and b level at 0.25: the old leader was never ahead
        run = self.run_of({"0.25": {"a": 1.0, "b": 1.001}, "0.5": {"a": 2.0, "b": 1.0}},
                          spread=0.001)
        (sweep,) = sweeps(run)
        (flip,) = crossovers(run, sweep, 100)
        self.assertEqual((flip["before"].verdict, flip["after"].verdict), ("level", "faster"))
        self.assertFalse(flip["significant"])

    def test_a_run_without_variants_has_no_sweep_and_no_section(self):
        run = self.run_of({"0.5": {"a": 1.0, "b": 2.0}})
        self.assertEqual((sweeps(run), section(run)), ([], []))

    def test_summary_carries_the_crossover_table(self):
        run = self.run_of({"0.25": {"a": 1.0, "b": 2.0}, "0.5": {"a": 2.0, "b": 1.0}})
        r = subprocess.run([PYTHON, os.path.join(TOP, "scripts", "summary.py"), run.path],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("## Crossovers", r.stdout)
        self.assertIn("| leader | a (1 ns) | b (1 ns) |", r.stdout)



class XAxis(unittest.TestCase):
    def test_a_geometric_sweep_of_positive_values_is_log(self):
        self.assertEqual(x_axis([0.125, 0.25, 0.5, 1], True), ("log", [0.125, 0.25, 0.5, 1], ""))

    def test_zero_beside_values_10x_apart_is_set_apart_left_of_a_log_axis(self):
        # frame's churn: log steps of 0.48, 0.52, 0.48 and 0.52 decades; the upper median 0.52.
        kind, x, note = x_axis([0, 0.001, 0.003, 0.01, 0.03, 0.1], False)
        self.assertEqual(kind, "symlog")
        self.assertEqual([round(v, 3) for v in x], [-3.523, -3.0, -2.523, -2.0, -1.523, -1.0])
        self.assertIn("0 set apart", note)

    def test_zero_is_at_least_half_a_decade_from_the_smallest(self):
        kind, x, _ = x_axis([0, 1, 2, 4, 8, 16], False)
        self.assertEqual((kind, round(x[1] - x[0], 3)), ("symlog", 0.5))

    def test_a_narrow_sweep_stays_linear(self):
        self.assertEqual(x_axis([0, 1, 2, 3], False), ("linear", [0, 1, 2, 3], ""))


if __name__ == "__main__":
    unittest.main()
