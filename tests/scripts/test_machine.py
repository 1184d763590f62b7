#!/usr/bin/python3
"""test_machine.py — what the scripts read of machine.json (docs/machine.md):
ecsb_rundata.machine_short_name (machine.json's short_name; for a run without one, or with a
damaged one, the same form from raw.json's context), and the hardware line's arithmetic
(ecsb_hardware.py) on a fixture machine.json: the working set from the floor's items per pass,
the log-log interpolation of the kernel's fastest repetitions, the ends, efficiency, and no line
where the run or the machine lacks what it needs."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
import ecsb_hardware  # noqa: E402
import ecsb_rundata  # noqa: E402


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


class ShortName(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.run = self.tmp.name
        ctx = {"host_name": "vm", "ecsb_cpu_model": "AMD EPYC 9R14 96-Core Processor",
               "mhz_per_cpu": 2596,
               "caches": [{"type": "Data", "level": 1, "size": 32768},
                          {"type": "Instruction", "level": 1, "size": 32768},
                          {"type": "Unified", "level": 2, "size": 1048576},
                          {"type": "Unified", "level": 3, "size": 37486592}]}
        write(os.path.join(self.run, "raw.json"), json.dumps({"context": ctx, "benchmarks": []}))

    def tearDown(self):
        self.tmp.cleanup()

    def test_machine_json_names_the_machine(self):
        write(os.path.join(self.run, "machine.json"),
              json.dumps({"short_name": "AMD Zen 5, 2.1 GHz, 48K/1M/32M"}))
        self.assertEqual(ecsb_rundata.machine_short_name(self.run), "AMD Zen 5, 2.1 GHz, 48K/1M/32M")
        self.assertEqual(ecsb_rundata.load_machine(self.run)["short_name"],
                         "AMD Zen 5, 2.1 GHz, 48K/1M/32M")

    def test_a_run_without_machine_json_is_named_from_raw_json(self):
        self.assertIsNone(ecsb_rundata.load_machine(self.run))
        self.assertEqual(ecsb_rundata.machine_short_name(self.run),
                         "AMD EPYC 9R14 96-Core, 2.6 GHz, 32K/1M/36608K")

    def test_a_damaged_machine_json_is_treated_as_absent(self):
        for text in ("{not json", "[1, 2]", json.dumps({"short_name": "  "})):
            write(os.path.join(self.run, "machine.json"), text)
            self.assertEqual(ecsb_rundata.machine_short_name(self.run),
                             "AMD EPYC 9R14 96-Core, 2.6 GHz, 32K/1M/36608K", text)

    def test_no_context_at_all_still_names_something(self):
        os.remove(os.path.join(self.run, "raw.json"))
        self.assertEqual(ecsb_rundata.machine_short_name(self.run), "unknown machine")


# A fixture machine: rmw_pair's fastest repetitions 40, 20, 10 GB/s at 8 KiB, 64 KiB, 1 MiB (the
# medians lower: the line must read the max).
MACHINE = {"short_name": "Fixture", "bandwidth_gbps": {"rmw_pair": [
    {"bytes": 8192, "median": 30.0, "min": 5.0, "max": 40.0},
    {"bytes": 65536, "median": 15.0, "min": 5.0, "max": 20.0},
    {"bytes": 1048576, "median": 8.0, "min": 5.0, "max": 10.0}]}}


class StubRun:
    """What ecsb_hardware reads of a run: context, time_per_item, stats (seconds_per_pass)."""

    def __init__(self, items_by_n, ns=2.0):
        self.path = "/nonexistent"
        self.context = {"ecsb_traffic_dual_iterate": "read=12,write=8,kernel=rmw_pair"}
        self.rows = {}
        for n, items in items_by_n.items():
            for st, t in (("floor", ns), ("limit", ns / 2)):
                self.rows[("dual_iterate", st, n)] = {
                    "time_per_item": {"median": t},
                    "seconds_per_pass": {"median": items * t / 1e9}}

    def time_per_item(self, key):
        return self.rows.get(key, {}).get("time_per_item")

    def stats(self, key, metric):
        return self.rows.get(key, {}).get(metric)


class HardwareLineArithmetic(unittest.TestCase):
    def test_between_two_sets_log_log_from_the_fastest_repetitions(self):
        # working set = items x 12 B read = sqrt(8192 * 65536): the geometric middle, where
        # log-log interpolation gives sqrt(40 * 20) GB/s; 20 B per item over it.
        items = (8192 * 65536) ** 0.5 / 12
        run = StubRun({1000: items})
        for st in ("floor", "limit"):
            run.rows[("dual_iterate~order=aged", st, 1000)] = run.rows[("dual_iterate", st, 1000)]
        line = ecsb_hardware.HardwareLine(run, MACHINE)
        self.assertAlmostEqual(line.of("dual_iterate", 1000), 20 / (40 * 20) ** 0.5, places=9)
        self.assertAlmostEqual(line.of("dual_iterate~order=aged", 1000), 20 / (40 * 20) ** 0.5,
                               places=9, msg="a variant takes its base scenario's bytes")
        # efficiency: line / median time (floor 2 ns, limit 1 ns)
        self.assertAlmostEqual(line.efficiency(("dual_iterate", "floor", 1000)),
                               20 / (40 * 20) ** 0.5 / 2.0, places=9)
        self.assertAlmostEqual(line.efficiency(("dual_iterate", "limit", 1000)),
                               20 / (40 * 20) ** 0.5 / 1.0, places=9)

    def test_at_a_measured_set_and_past_the_ends(self):
        run = StubRun({1: 65536 / 12, 2: 100, 3: 1e9})
        line = ecsb_hardware.HardwareLine(run, MACHINE)
        self.assertAlmostEqual(line.of("dual_iterate", 1), 20 / 20.0)
        self.assertAlmostEqual(line.of("dual_iterate", 2), 20 / 40.0, msg="below 8 KiB: the first")
        self.assertAlmostEqual(line.of("dual_iterate", 3), 20 / 10.0, msg="past 1 MiB: the last")

    def test_no_line_without_what_it_needs(self):
        run = StubRun({1000: 5000})
        self.assertIsNone(ecsb_hardware.HardwareLine(run, {}).of("dual_iterate", 1000),
                          "no machine.json")
        self.assertIsNone(ecsb_hardware.HardwareLine(run, MACHINE).of("platformer", 1000),
                          "a scenario without declared bytes")
        self.assertIsNone(ecsb_hardware.HardwareLine(run, MACHINE).of("dual_iterate", 7),
                          "an N the run does not have")
        run.context["ecsb_traffic_dual_iterate"] = "read=12,write=8,kernel=nope"
        self.assertIsNone(ecsb_hardware.HardwareLine(run, MACHINE).of("dual_iterate", 1000),
                          "a kernel machine.json does not have")
        run.context["ecsb_traffic_dual_iterate"] = "read=x,write=8,kernel=rmw_pair"
        self.assertIsNone(ecsb_hardware.traffic(run, "dual_iterate"), "malformed bytes")


class CompareAcrossMachines(unittest.TestCase):
    """compare.py A B: when the runs' machine.json differ, a table of each line's efficiency and
    its time / its own run's floor; nothing of it when they match or neither run has one."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        import fixture_runs
        fixture_runs.main(["fixture_runs.py", cls.tmp.name])
        cls.a = os.path.join(cls.tmp.name, fixture_runs.RUN_A)
        cls.b = os.path.join(cls.tmp.name, fixture_runs.RUN_B)
        for run in (cls.a, cls.b):  # dual_iterate declares its bytes, as ecsbench writes them
            path = os.path.join(run, "raw.json")
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
            doc["context"]["ecsb_traffic_dual_iterate"] = "read=12,write=8,kernel=rmw_pair"
            with open(path, "w", encoding="utf-8") as f:
                json.dump(doc, f)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def machines(self, key_a, key_b, gbps_b=20.0):
        for run, key, gbps in ((self.a, key_a, 10.0), (self.b, key_b, gbps_b)):
            path = os.path.join(run, "machine.json")
            if key is None:
                if os.path.exists(path):
                    os.remove(path)
                continue
            write(path, json.dumps({"short_name": f"machine {key}", "fingerprint_key": key,
                                    "bandwidth_gbps": {"rmw_pair": [
                                        {"bytes": 1, "median": gbps, "min": gbps, "max": gbps}]}}))

    def compare(self):
        done = subprocess.run([sys.executable, os.path.join(HERE, "..", "..", "scripts",
                                                            "compare.py"), self.a, self.b],
                              capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        return done.stdout

    def test_different_machines_compare_efficiency_and_ratios_to_their_own_floor(self):
        self.machines("aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb")
        out = self.compare()
        self.assertIn("ACROSS MACHINES: A ran on machine aaaaaaaaaaaaaaaa, B on machine "
                      "bbbbbbbbbbbbbbbb", out)
        # index_is_id has the same medians in A and B: at twice the bandwidth, B's hardware
        # line is half A's, so B's efficiency is half A's; each ratio to its floor the same
        across = out[out.index("ACROSS MACHINES"):].split("\n\n")[1].splitlines()[2:]
        rows = [line.split() for line in across if line.startswith("dual_iterate")
                and line.split()[1] == "index_is_id"]
        self.assertEqual(len(rows), 5, across)
        for r in rows:
            ea, eb = float(r[3]), float(r[4])
            self.assertAlmostEqual(eb, ea / 2, delta=0.011, msg=r)
            half = len(r[5:]) // 2
            self.assertEqual(r[5:5 + half], r[5 + half:], r)
        self.assertTrue(any(line.split()[3:5] == ["-", "-"] for line in across
                            if line.startswith("platformer")),
                        "a scenario without declared bytes has no efficiency")

    def test_the_same_machine_or_none_adds_nothing(self):
        self.machines("aaaaaaaaaaaaaaaa", "aaaaaaaaaaaaaaaa")
        self.assertNotIn("ACROSS MACHINES", self.compare())
        self.machines(None, None)
        self.assertNotIn("ACROSS MACHINES", self.compare())
        self.machines("aaaaaaaaaaaaaaaa", None)
        self.assertIn("one run has none", self.compare())


if __name__ == "__main__":
    unittest.main()
