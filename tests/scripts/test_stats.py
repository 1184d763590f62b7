"""scripts/ecsb_stats.py: the choices it makes around SciPy's Mann–Whitney U test and
statsmodels' Holm correction (which method for which samples, what None means, how many
repetitions a table needs), and ratios in words. The arithmetic itself is the libraries'."""
import os
import sys
import unittest

from scipy.stats import mannwhitneyu

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "scripts"))
from ecsb_stats import EXACT_MAX, holm, reps_for, smallest_p, times, utest  # noqa: E402


def scipy_p(a, b, method):
    return mannwhitneyu(a, b, alternative="two-sided", method=method).pvalue


class UTest(unittest.TestCase):
    def test_distinct_values_use_the_exact_distribution(self):
        a = [1.0, 1.1, 1.2, 1.3, 1.4]
        b = [1.5, 1.6, 1.7, 1.8, 1.9]
        self.assertEqual(utest(a, b), scipy_p(a, b, "exact"))
        self.assertNotEqual(utest(a, b), scipy_p(a, b, "asymptotic"))

    def test_ties_fall_back_to_the_approximation_with_tie_correction(self):
        a, b = [1.0, 2.0, 2.0, 3.0, 4.0], [2.0, 5.0, 6.0, 7.0, 8.0]
        self.assertEqual(utest(a, b), scipy_p(a, b, "asymptotic"))
        self.assertNotEqual(utest(a, b), scipy_p(a, b, "exact"))

    def test_more_than_exact_max_a_side_use_the_approximation(self):
        a = [float(i) for i in range(EXACT_MAX + 1)]
        b = [x + 0.5 for x in a]
        self.assertEqual(utest(a, b), scipy_p(a, b, "asymptotic"))
        self.assertEqual(utest(a[:-1], b[:-1]), scipy_p(a[:-1], b[:-1], "exact"))

    def test_two_sided_and_symmetric(self):
        a, b = [1.0, 1.2, 1.4], [1.1, 1.3, 1.5, 1.7]
        self.assertEqual(utest(a, b), utest(b, a))
        self.assertEqual(utest([1, 2, 3], [1, 2, 3]), 1.0)

    def test_fewer_than_two_repetitions_give_none(self):
        self.assertIsNone(utest([1.0], [2.0, 3.0]))
        self.assertIsNone(utest([], []))
        self.assertIsNone(smallest_p(1, 9))

    def test_smallest_p_is_what_samples_entirely_apart_give(self):
        for n_a, n_b in ((3, 3), (5, 5), (9, 9), (5, 9)):
            apart = utest([float(i) for i in range(n_a)], [100.0 + i for i in range(n_b)])
            self.assertEqual(smallest_p(n_a, n_b), apart)
        self.assertLess(smallest_p(5, 5), smallest_p(3, 3))


class Holm(unittest.TestCase):
    def test_keeps_order_and_none_entries_and_never_lowers_a_p(self):
        ps = [0.01, 0.04, None, 0.03, float("nan")]
        adjusted = holm(ps)
        self.assertEqual(adjusted[2], None)
        self.assertEqual(adjusted[4], None)
        for p, q in zip(ps[:2] + ps[3:4], adjusted[:2] + adjusted[3:4]):
            self.assertGreaterEqual(q, p)
        self.assertEqual(holm([0.01, 0.04, 0.03]), [adjusted[0], adjusted[1], adjusted[3]])

    def test_none_entries_do_not_count_as_tests(self):
        self.assertEqual(holm([0.01, None, None]), [0.01, None, None])
        self.assertEqual(holm([0.01, 0.01]), [0.02, 0.02])

    def test_all_none(self):
        self.assertEqual(holm([None, None]), [None, None])
        self.assertEqual(holm([]), [])


class RepetitionsNeeded(unittest.TestCase):
    def test_the_fewest_repetitions_that_can_reach_significance_over_a_table(self):
        for rows in (1, 3, 6, 24, 48):
            r = reps_for(0.05, rows)
            self.assertLess(smallest_p(r, r) * rows, 0.05, rows)
            self.assertGreaterEqual(smallest_p(r - 1, r - 1) * rows, 0.05, rows)
        # the case: 3 repetitions never do; a 3-row table needs 5, a 24-row one 7
        self.assertEqual((reps_for(0.05, 3), reps_for(0.05, 24)), (5, 7))


class Times(unittest.TestCase):
    def test_words(self):
        self.assertEqual(times(1.9), "1.90x slower")
        self.assertEqual(times(0.4), "2.50x faster")
        self.assertEqual(times(1.001), "same")
        self.assertEqual(times(12.34), "12.3x slower")
        self.assertEqual(times(None), "-")


if __name__ == "__main__":
    unittest.main()
