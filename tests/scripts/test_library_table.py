"""The design-against-library table (scripts/library_table.py): each pair present in a run gets
its rows with library / design; a pair with a strategy missing is named as not in the run; a
folder without results.csv is a usage error (exit 2)."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(TOP, "scripts"))
from library_table import load, table  # noqa: E402

PYTHON = os.environ.get("PYTHON", "/usr/bin/python3")
HEADER = "scenario,strategy,n,metric,unit,median,params\n"


def run_dir(tmp, rows):
    with open(os.path.join(tmp, "results.csv"), "w", encoding="utf-8") as f:
        f.write(HEADER + "".join(",".join(map(str, r)) + "\n" for r in rows))
    return tmp


class LibraryTable(unittest.TestCase):
    def test_pair_rows_and_ratio(self):
        with tempfile.TemporaryDirectory() as tmp:
            rows = [("dual_iterate", "archetype", 4000, "time_per_item", "ns", 2.0, "order=regular"),
                    ("dual_iterate", "flecs", 4000, "time_per_item", "ns", 3.0, "order=regular"),
                    ("dual_iterate", "flecs", 4000, "seconds_per_pass", "s", 9.0, "order=regular"),
                    ("dual_iterate", "archetype", 65536, "time_per_item", "ns", 1.0, "order=aged"),
                    ("dual_iterate", "floor", 4000, "time_per_item", "ns", 1.0, "order=regular")]
            text = table(load(run_dir(tmp, rows)))
        self.assertIn("| dual_iterate | order=regular | 4,000 | 2 | 3 | 1.50 |", text)
        self.assertNotIn("65,536", text)  # flecs has no such cell
        self.assertIn("Not in this run: paged_sparse_set vs entt, owning_group vs entt", text)

    def test_entt_pairs_each_design_with_entt(self):
        with tempfile.TemporaryDirectory() as tmp:
            rows = [("dual_iterate", "paged_sparse_set", 4000, "time_per_item", "ns", 2.0, "order=regular"),
                    ("dual_iterate", "owning_group", 4000, "time_per_item", "ns", 1.0, "order=regular"),
                    ("dual_iterate", "entt", 4000, "time_per_item", "ns", 5.0, "order=regular"),
                    ("add_remove", "paged_sparse_set", 4000, "time_per_item", "ns", 4.0, "order=aged"),
                    ("add_remove", "entt", 4000, "time_per_item", "ns", 6.0, "order=aged")]
            text = table(load(run_dir(tmp, rows)))
        view, group = text.split("**owning_group against entt**")
        self.assertIn("**paged_sparse_set against entt** (runtime views;", view)
        self.assertIn("| dual_iterate | order=regular | 4,000 | 2 | 5 | 2.50 |", view)
        self.assertIn("| add_remove | order=aged | 4,000 | 4 | 6 | 1.50 |", view)
        self.assertIn("| dual_iterate | order=regular | 4,000 | 1 | 5 | 5.00 |", group)
        self.assertNotIn("add_remove", group)  # owning_group has no such cell
        self.assertIn("Not in this run: archetype vs flecs.", text)

    def test_summary_row_per_scenario_in_the_regular_world(self):
        from library_table import summary
        rows = {}
        for n, a, b in ((4000, 2.0, 3.0), (65536, 1.0, 4.0), (1048576, 1.0, 9.0)):
            rows[("dual_iterate", "order=regular;match=0.5", n, "archetype")] = a
            rows[("dual_iterate", "order=regular;match=0.5", n, "flecs")] = b
        rows[("dual_iterate", "order=aged;match=0.5", 65536, "archetype")] = 1.0
        rows[("dual_iterate", "order=aged;match=0.5", 65536, "flecs")] = 100.0
        text = summary(rows)
        self.assertIn("| scenario | N | flecs / archetype |", text)
        # the largest N up to 65,536, regular world: 4 / 1
        self.assertIn("| dual_iterate | 65,536 | 4.00 |", text)

    def test_missing_results_is_a_usage_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            p = subprocess.run([PYTHON, os.path.join(TOP, "scripts", "library_table.py"), tmp],
                               capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn("results.csv", p.stderr)


if __name__ == "__main__":
    unittest.main()
