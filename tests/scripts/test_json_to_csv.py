"""scripts/json_to_csv.py: Google Benchmark JSON -> tidy results.csv and errors.csv.

The fixture tests/fixtures/gbench/raw.json is real ecsbench output with hand-set times (see
its README); the expected CSVs were worked out by hand.
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(TOP, "scripts", "json_to_csv.py")
FIXTURES = os.path.join(TOP, "tests", "fixtures", "gbench")
RAW = os.path.join(FIXTURES, "raw.json")
PYTHON = os.environ.get("PYTHON", sys.executable)


def convert(*args):
    return subprocess.run([PYTHON, SCRIPT, *args], capture_output=True, text=False)


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


class JsonToCsv(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def write_json(self, name, doc):
        with open(self.path(name), "w") as f:
            json.dump(doc, f)
        return self.path(name)

    def test_fixture_gives_exactly_the_expected_csvs(self):
        r = convert(RAW, "-o", self.path("results.csv"), "--errors", self.path("errors.csv"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(read_bytes(self.path("results.csv")),
                         read_bytes(os.path.join(FIXTURES, "results.expected.csv")))
        self.assertEqual(read_bytes(self.path("errors.csv")),
                         read_bytes(os.path.join(FIXTURES, "errors.expected.csv")))

    def test_stdout_when_no_output_file(self):
        r = convert(RAW)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, read_bytes(os.path.join(FIXTURES, "results.expected.csv")))

    def test_header_first_crlf_seventeen_columns(self):
        text = convert(RAW).stdout.decode()
        lines = text.split("\r\n")
        self.assertEqual(lines[0], "scenario,strategy,n,metric,unit,median,min,max,mean,"
                                   "stddev,cv,repetitions,params,drift,drifting,speed_index,"
                                   "disturbed")
        self.assertEqual(lines[-1], "")  # ends with CRLF
        self.assertNotIn("\n", text.replace("\r\n", ""))
        for line in lines[1:-1]:
            self.assertEqual(len(line.split(",")), 17, line)

    def test_drift_is_the_median_over_repetitions_and_flags_beyond_ten_percent(self):
        def rep(name, drift):
            return {"name": name, "run_type": "iteration", "real_time": 1.0, "time_unit": "s",
                    "items_per_pass": 4.0, "bytes": 64.0, "entities": 1.0, "drift": drift}
        doc = {"context": {}, "benchmarks": [rep("s/ageing/10", d) for d in (1.05, 1.3, 1.25)]
               + [rep("s/steady/10", d) for d in (0.97, 1.02, 1.4)]
               + [{"name": "s/old/10", "run_type": "iteration", "real_time": 1.0,
                   "time_unit": "s", "items_per_pass": 4.0}]}
        r = convert(self.write_json("d.json", doc))
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = {tuple(l.split(",")[1:4:2]): l.split(",")[-4:-2]
                for l in r.stdout.decode().split("\r\n")[1:-1]}
        self.assertEqual(rows[("ageing", "time_per_item")], ["1.25", "yes"])
        self.assertEqual(rows[("ageing", "seconds_per_pass")], ["1.25", "yes"])
        self.assertEqual(rows[("ageing", "bytes_per_entity")], ["", ""])
        self.assertEqual(rows[("steady", "time_per_item")], ["1.02", "no"])
        self.assertEqual(rows[("old", "time_per_item")], ["", ""])  # no counter: not measured

    def test_speed_index_is_the_cells_least_and_disturbed_counts_marked_repetitions(self):
        def rep(name, speed, disturbed):
            return {"name": name, "run_type": "iteration", "real_time": 1.0, "time_unit": "s",
                    "items_per_pass": 4.0, "bytes": 64.0, "entities": 1.0,
                    "speed_index": speed, "disturbed": disturbed}
        doc = {"context": {}, "benchmarks": [rep("s/slowed/10", v, d) for v, d in
                                             ((0.98, 0), (0.7, 1), (0.95, 0), (0.8, 1))]
               + [rep("s/steady/10", v, 0) for v in (1.0, 0.97, 0.99)]
               + [{"name": "s/old/10", "run_type": "iteration", "real_time": 1.0,
                   "time_unit": "s", "items_per_pass": 4.0}]}
        r = convert(self.write_json("s.json", doc))
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = {tuple(l.split(",")[1:4:2]): l.split(",")[-2:]
                for l in r.stdout.decode().split("\r\n")[1:-1]}
        self.assertEqual(rows[("slowed", "time_per_item")], ["0.7", "2"])
        self.assertEqual(rows[("slowed", "seconds_per_pass")], ["0.7", "2"])
        self.assertEqual(rows[("slowed", "bytes_per_entity")], ["", ""])
        self.assertEqual(rows[("steady", "time_per_item")], ["0.97", "0"])
        self.assertEqual(rows[("old", "time_per_item")], ["", ""])  # a run without the sentinel

    def test_hand_computed_statistics(self):
        rows = {tuple(l.split(",")[:4]): l.split(",")[5:]
                for l in convert(RAW).stdout.decode().split("\r\n")[1:-1]}
        # 10, 5, 20 ns per item: median 10, mean 35/3, sample stddev 7.63763
        self.assertEqual(rows[("platformer", "floor", "256", "time_per_item")],
                         ["10", "5", "20", "11.6667", "7.63763", "0.654654", "3", "", "", "", "", ""])
        # microseconds converted: 2, 4, 3 ns per item
        self.assertEqual(rows[("dual_iterate", "floor", "256", "time_per_item")],
                         ["3", "2", "4", "3", "1", "0.333333", "3", "", "", "", "", ""])
        self.assertEqual(rows[("dual_iterate", "floor", "256", "seconds_per_pass")][:3],
                         ["3.84e-07", "2.56e-07", "5.12e-07"])

    def test_aggregates_are_ignored(self):
        self.assertNotIn(b"999999", convert(RAW).stdout)

    def test_partly_failed_benchmark_has_times_and_an_error_row(self):
        lines = convert(RAW).stdout.decode().split("\r\n")
        flat = [l for l in lines if l.startswith("platformer,flat_map,256,")]
        self.assertEqual([l.split(",")[3] for l in flat],
                         ["time_per_item", "seconds_per_pass", "bytes_per_entity", "error"])
        self.assertTrue(flat[0].endswith(",2,,,,,"))  # two good repetitions, no params, no drift
        self.assertEqual(flat[3], "platformer,flat_map,256,error,,NaN,NaN,NaN,NaN,NaN,NaN,1,,,,,")

    def test_bytes_per_entity_is_bytes_over_entities(self):
        rows = {tuple(l.split(",")[:4]): l.split(",")[4:]
                for l in convert(RAW).stdout.decode().split("\r\n")[1:-1]}
        # 2560 bytes for 256 entities; unit B
        self.assertEqual(rows[("dual_iterate", "floor", "256", "bytes_per_entity")],
                         ["B", "10", "10", "10", "10", "0", "0", "3", "", "", "", "", ""])

    def test_bytes_per_entity_of_an_empty_world_is_nan_and_absent_without_counters(self):
        doc = {"context": {}, "benchmarks": [
            {"name": "s/x/10", "run_type": "iteration", "real_time": 1.0, "time_unit": "s",
             "items_per_pass": 4.0, "bytes": 64.0, "entities": 0.0},
            {"name": "s/y/10", "run_type": "iteration", "real_time": 1.0, "time_unit": "s",
             "items_per_pass": 4.0}]}
        lines = convert(self.write_json("mem.json", doc)).stdout.decode().split("\r\n")
        self.assertIn("s,x,10,bytes_per_entity,B,NaN,NaN,NaN,NaN,NaN,NaN,1,,,,,", lines)
        self.assertFalse([l for l in lines if l.startswith("s,y,10,bytes_per_entity")])

    def test_bytes_grown_is_its_own_metric_over_the_same_entities(self):
        doc = {"context": {}, "benchmarks": [
            {"name": "s/x/10", "run_type": "iteration", "real_time": 1.0, "time_unit": "s",
             "items_per_pass": 4.0, "bytes": 640.0, "bytes_grown": 320.0, "entities": 10.0}]}
        lines = convert(self.write_json("grown.json", doc)).stdout.decode().split("\r\n")
        self.assertIn("s,x,10,bytes_per_entity,B,64,64,64,64,0,0,1,,,,,", lines)
        self.assertIn("s,x,10,bytes_per_entity_grown,B,32,32,32,32,0,0,1,,,,,", lines)

    def test_bytes_without_entities_is_refused(self):
        doc = {"context": {}, "benchmarks": [
            {"name": "s/x/10", "run_type": "iteration", "real_time": 1.0, "time_unit": "s",
             "items_per_pass": 4.0, "bytes": 64.0}]}
        r = convert(self.write_json("half.json", doc))
        self.assertEqual(r.returncode, 2)
        self.assertIn(b"bytes and entities", r.stderr)

    def test_failed_benchmark_is_only_an_error_row_never_a_time(self):
        lines = convert(RAW).stdout.decode().split("\r\n")
        flat = [l for l in lines if l.startswith("dual_iterate,flat_map,256,")]
        self.assertEqual(flat, ["dual_iterate,flat_map,256,error,,NaN,NaN,NaN,NaN,NaN,NaN,3,,,,,"])

    def test_rows_follow_registration_order_not_completion_order(self):
        lines = convert(RAW).stdout.decode().split("\r\n")[1:-1]
        keys = list(dict.fromkeys(tuple(l.split(",")[:2]) for l in lines))
        self.assertEqual(keys, [("platformer", "floor"), ("platformer", "flat_map"),
                                ("dual_iterate", "floor"), ("dual_iterate", "flat_map")])

    def test_one_repetition_has_zero_stddev(self):
        doc = {"context": {}, "benchmarks": [
            {"name": "s/x/10", "run_name": "s/x/10", "run_type": "iteration", "family_index": 0,
             "real_time": 50.0, "time_unit": "ns", "items_per_pass": 5.0}]}
        r = convert(self.write_json("one.json", doc))
        self.assertEqual(r.stdout.decode().split("\r\n")[1],
                         "s,x,10,time_per_item,ns,10,10,10,10,0,0,1,,,,,")

    def test_params_are_the_defaults_with_the_name_s_changes(self):
        # Every row carries every parameter of its scenario: the name's changed ones over the
        # context's defaults; another parameter set is another row.
        doc = {"context": {"ecsb_params_default": "s:order=regular;match=0.5|t:order=regular"},
               "benchmarks": [
            {"name": f"s/x/10{suffix}", "run_type": "iteration", "real_time": 1.0,
             "time_unit": "s", "items_per_pass": 4.0}
            for suffix in ("", "/match=0.25", "/order=shuffled,match=1/manual_time")]}
        lines = convert(self.write_json("p.json", doc)).stdout.decode().split("\r\n")
        params = [l.split(",")[12] for l in lines[1:-1] if ",time_per_item," in l]
        self.assertEqual(params, ["order=regular;match=0.5", "order=regular;match=0.25",
                                  "order=shuffled;match=1"])

    def test_no_errors_gives_a_header_only_errors_csv(self):
        doc = {"context": {}, "benchmarks": [
            {"name": "s/x/10", "run_type": "iteration", "real_time": 1.0, "time_unit": "s",
             "items_per_pass": 4.0}]}
        r = convert(self.write_json("ok.json", doc), "-o", self.path("r.csv"),
                    "--errors", self.path("e.csv"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(read_bytes(self.path("e.csv")),
                         b"scenario,strategy,n,repetitions,message,params\r\n")
        self.assertIn(b"s,x,10,time_per_item,ns,2.5e+08,", read_bytes(self.path("r.csv")))

    def test_bad_inputs_exit_2_with_a_message(self):
        truncated = self.path("truncated.json")
        with open(RAW) as src, open(truncated, "w") as dst:
            dst.write(src.read()[:5000])
        cases = {
            "missing file": self.path("absent.json"),
            "truncated (interrupted run)": truncated,
            "no benchmarks list": self.write_json("nolist.json", {"context": {}}),
            "bad name": self.write_json("name.json", {"benchmarks": [
                {"name": "no_slashes", "run_type": "iteration", "real_time": 1,
                 "items_per_pass": 1}]}),
            "missing items": self.write_json("items.json", {"benchmarks": [
                {"name": "s/x/1", "run_type": "iteration", "real_time": 1}]}),
            "name not a string": self.write_json("type.json", {"benchmarks": [
                {"name": 7, "run_type": "iteration", "real_time": 1, "items_per_pass": 1}]}),
            "entry not an object": self.write_json("entry.json", {"benchmarks": [3]}),
            "bad unit": self.write_json("unit.json", {"benchmarks": [
                {"name": "s/x/1", "run_type": "iteration", "real_time": 1,
                 "time_unit": "ps", "items_per_pass": 1}]}),
        }
        for what, path in cases.items():
            with self.subTest(what):
                r = convert(path, "-o", self.path("out.csv"))
                self.assertEqual(r.returncode, 2, what)
                self.assertIn(b"json_to_csv:", r.stderr)
                self.assertFalse(os.path.exists(self.path("out.csv")), "wrote output anyway")


if __name__ == "__main__":
    unittest.main()
