"""scripts/ecsb_stats.py: the Mann–Whitney U test (against hand-worked values, and against
scipy.stats.mannwhitneyu when scipy is installed), Holm's correction, ratios in words."""
import os
import random
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "scripts"))
from ecsb_stats import holm, smallest_p, times, utest  # noqa: E402


class UTest(unittest.TestCase):
    def test_fully_separated_samples_give_the_smallest_p(self):
        a = [1.0 + i for i in range(9)]
        self.assertAlmostEqual(utest(a, [x + 100 for x in a]), 2 / 48620, places=12)
        self.assertAlmostEqual(utest([1, 2, 3], [4, 5, 6]), 0.1, places=12)
        self.assertAlmostEqual(smallest_p(9, 9), 2 / 48620, places=12)

    def test_hand_worked_small_case(self):
        # a = {1, 3}, b = {2, 4}: U_a = 1, U = max(1, 3) = 3; P(U >= 3) = 2/6; p = 2/3
        self.assertAlmostEqual(utest([1, 3], [2, 4]), 2 / 3, places=12)

    def test_identical_samples_give_p_1_and_too_few_give_none(self):
        self.assertEqual(utest([1, 2, 3], [1, 2, 3]), 1.0)
        self.assertIsNone(utest([1], [2, 3]))

    def test_agrees_with_scipy(self):
        try:
            from scipy.stats import mannwhitneyu
        except ImportError:
            self.skipTest("scipy not installed")
        rng = random.Random(7)
        for trial in range(60):
            n_a, n_b = rng.randint(2, 25), rng.randint(2, 25)
            shift = rng.choice([0, 0.3, 1.0])
            a = [round(rng.gauss(0, 1), 1 if trial % 3 == 0 else 6) for _ in range(n_a)]
            b = [round(rng.gauss(shift, 1), 1 if trial % 3 == 0 else 6) for _ in range(n_b)]
            method = "exact" if max(n_a, n_b) <= 20 else "asymptotic"
            want = mannwhitneyu(a, b, alternative="two-sided", method=method).pvalue
            self.assertAlmostEqual(utest(a, b), want, places=10, msg=f"{a} {b}")


class Holm(unittest.TestCase):
    def test_step_down(self):
        # sorted 0.01, 0.03, 0.04 -> 3 x 0.01, max(0.03, 2 x 0.03), max(0.06, 1 x 0.04)
        self.assertEqual(holm([0.01, 0.04, None, 0.03]), [0.03, 0.06, None, 0.06])
        self.assertEqual(holm([0.5, 0.9]), [1.0, 1.0])


class Times(unittest.TestCase):
    def test_words(self):
        self.assertEqual(times(1.9), "1.90x slower")
        self.assertEqual(times(0.4), "2.50x faster")
        self.assertEqual(times(1.001), "same")
        self.assertEqual(times(12.34), "12.3x slower")
        self.assertEqual(times(None), "-")


if __name__ == "__main__":
    unittest.main()
