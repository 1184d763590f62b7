#!/usr/bin/python3
"""test_machine.py — what the scripts read of machine.json (docs/machine.md):
ecsb_rundata.machine_short_name (machine.json's short_name; for a run without one, or with a
damaged one, the same form from raw.json's context) and the stamp every chart and document
prints."""
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
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


if __name__ == "__main__":
    unittest.main()
