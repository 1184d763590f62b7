"""scripts/ecsb_stats.py: the verdict rule (faster / level / undecidable, with the family of a
cell), on fixtures whose verdict is known; the choices it makes around SciPy's Mann–Whitney U
test (compare's table between runs) and statsmodels' Holm correction; ratios in words. The
arithmetic itself is the libraries'."""
import os
import sys
import unittest

import math
import random

from scipy.stats import mannwhitneyu, ttest_ind
from statsmodels.stats.multitest import multipletests

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "scripts"))
from ecsb_stats import (EXACT_MAX, FAMILY, FASTER, LEVEL, MARGIN, UNDECIDABLE, Cell,  # noqa: E402
                        holm, log_test, ratio_ci, reps_for, smallest_p, times, utest)


def around(median, spread, reps=5):
    """reps repetitions at median x (1 + spread k), k = -(reps//2)..reps//2."""
    return [median * (1 + spread * (k - reps // 2)) for k in range(reps)]


class Verdicts(unittest.TestCase):
    """Known-verdict fixtures of each kind, decided in the family of their cell."""

    def test_faster_needs_significance_and_the_margin(self):
        cell = Cell({"a": around(1.0, 0.01), "b": around(1.3, 0.01)})
        pair = cell.pair("b", "a")
        self.assertEqual((pair.verdict, pair.faster), (FASTER, "a"))
        self.assertAlmostEqual(pair.ratio, 1.3)
        self.assertLess(pair.ci[0], 1.3)
        self.assertGreater(pair.ci[1], 1.3)
        self.assertEqual(cell.pair("a", "b").faster, "a")
        self.assertAlmostEqual(cell.pair("a", "b").ratio, 1 / 1.3)

    def test_significant_below_the_margin_is_not_faster(self):
        pair = Cell({"a": around(1.0, 0.001), "b": around(1.03, 0.001)}).pair("b", "a")
        self.assertLess(pair.p_holm, 0.05)
        self.assertNotEqual(pair.verdict, FASTER)

    def test_level_when_the_interval_lies_within_the_margin(self):
        pair = Cell({"a": around(1.0, 0.005), "b": around(1.01, 0.005)}).pair("b", "a")
        self.assertEqual(pair.verdict, LEVEL)
        self.assertTrue(1 / MARGIN < pair.ci[0] <= pair.ci[1] < MARGIN)

    def test_repetitions_wholly_apart_but_too_spread_are_undecidable_with_a_count(self):
        a = [1.0, 1.02, 1.04, 1.9, 2.0]
        b = [2.05, 2.1, 2.15, 3.9, 4.0]  # every b above every a, but two speeds in each
        # four more lines, level among themselves: b against a ranks early in Holm's steps
        crowd = {f"x{i}": around(50, 0.02 + 0.01 * i) for i in range(4)}
        pair = Cell({"a": a, "b": b, **crowd}).pair("b", "a")
        self.assertGreater(pair.ratio, MARGIN)
        self.assertGreaterEqual(pair.p_holm, 0.05)
        self.assertEqual(pair.verdict, UNDECIDABLE)
        self.assertGreater(pair.needed, 5)
        self.assertTrue(pair.words().startswith(f"undecidable (needs {pair.needed} repetitions"))

    def test_the_family_is_the_cell_so_a_pair_verdict_grows_stricter_with_more_lines(self):
        a, b = around(1.0, 0.02), around(1.12, 0.02)
        alone = Cell({"a": a, "b": b}).pair("b", "a")
        crowded = Cell({"a": a, "b": b, **{f"x{i}": around(3, 0.01 + 0.001 * i) for i in range(9)}})
        self.assertEqual(alone.p_holm, alone.p)
        self.assertGreater(crowded.pair("b", "a").p_holm, alone.p_holm)
        self.assertEqual(crowded.family, 55)

    def test_one_repetition_is_undecidable_without_a_count(self):
        pair = Cell({"a": [1.0], "b": [2.0]}).pair("b", "a")
        self.assertEqual(pair.verdict, UNDECIDABLE)
        self.assertEqual(pair.words(), "undecidable (fewer than 2 repetitions)")

    def test_leader_level_and_untold_lines(self):
        cell = Cell({"slow": around(2, 0.01), "a": around(1.0, 0.005), "b": around(1.01, 0.005),
                     "wild": [0.9, 1.5, 1.0, 2.0, 1.2]})
        self.assertEqual(cell.leader, "a")
        self.assertEqual(cell.level_with_leader(), ["b"])
        self.assertEqual(cell.untold_from_leader(), ["wild"])
        self.assertEqual([cell.mark(s) for s in ("a", "b", "wild", "slow")], ["", "=", "?", ""])

    def test_the_interval_is_seeded_and_the_test_is_on_logarithms(self):
        a, b = [1.0, 1.2, 0.9, 1.1, 1.05], [1.3, 1.1, 1.4, 1.25, 1.2]
        self.assertEqual(ratio_ci(a, b), ratio_ci(list(a), list(b)))
        self.assertAlmostEqual(log_test(a, b), log_test([2 * x for x in a], [2 * x for x in b]))

    def test_the_test_is_scipys_welch_test_on_logarithms(self):
        """log_test writes Welch's test out (for speed): the p of scipy's ttest_ind, unequal
        variances, on the logs; unequal sizes, one side without spread, far apart and close."""
        rng = random.Random(7)
        cases = [([1.0, 1.2, 0.9], [1.3, 1.1, 1.4, 1.25, 1.2]), ([2.0, 2.0, 2.0], [2.1, 2.2, 2.0]),
                 ([1.0, 1.01], [50.0, 51.0, 49.0]), ([3.0, 3.1, 2.9, 3.05], [3.0, 3.1, 2.95])]
        cases += [([rng.lognormvariate(0, 0.2) for _ in range(rng.randint(2, 9))],
                   [rng.lognormvariate(0.1, 0.3) for _ in range(rng.randint(2, 9))])
                  for _ in range(40)]
        for a, b in cases:
            want = ttest_ind([math.log(x) for x in a], [math.log(x) for x in b],
                             equal_var=False).pvalue
            self.assertAlmostEqual(log_test(a, b), want, places=12, msg=f"{a} vs {b}")

    def test_the_family_sentence_names_the_test_the_correction_and_the_three_words(self):
        for words in ("Welch's t-test", "Holm", "all pairs of layouts in that cell",
                      "*faster*", "*level*", "*undecidable*", "1.05", "bootstrap"):
            self.assertIn(words, FAMILY)


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

    def test_the_correction_is_statsmodels_holm(self):
        """holm writes Holm's step-down out (for speed): statsmodels' adjusted p-values, ties
        and values that reach 1 included."""
        rng = random.Random(3)
        cases = [[0.01, 0.04, 0.03], [0.2, 0.2, 0.01, 0.5], [0.001] * 4, [0.6, 0.9, 0.02]]
        cases += [[rng.random() ** 3 for _ in range(rng.randint(1, 45))] for _ in range(40)]
        for ps in cases:
            want = multipletests(ps, method="holm")[1]
            for got, w in zip(holm(ps), want):
                self.assertAlmostEqual(got, w, places=12, msg=str(ps))

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
