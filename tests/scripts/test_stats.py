"""scripts/ecsb_stats.py: the verdict rule (faster / level / undecidable on the ratio of geometric
means, Benjamini-Hochberg over the run's family), on fixtures whose verdict is known; the
choices it makes around SciPy's Welch and Mann–Whitney U tests and statsmodels' corrections;
ratios in words. The arithmetic itself is the libraries'. Each rule has a fixture that one
mutant fails: deciding on medians, dropping the 5 % margin, level by "not significant",
level on a 95 % interval, a per-cell family, Holm for BH."""
import os
import sys
import unittest
import warnings

import math
import random

from scipy.stats import mannwhitneyu, ttest_ind
from statsmodels.stats.multitest import multipletests

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "scripts"))
from ecsb_stats import (EXACT_MAX, FAMILY, FASTER, LEVEL, MARGIN, UNDECIDABLE, Cell,  # noqa: E402
                        Family, bh, holm, log_test, ratio_ci, reps_for, smallest_p, times,
                        looks_of, tost, utest, _p_diff, _welch)


def around(median, spread, reps=5):
    """reps repetitions at median x (1 + spread k), k = -(reps//2)..reps//2."""
    return [median * (1 + spread * (k - reps // 2)) for k in range(reps)]


# 5 cells of one pair that no repetitions decide (not significant, ratio within the margin)
HOPELESS = {f"h{i}": {"x": [0.9, 1.5, 1.0, 2.0, 1.2], "y": [1.0, 1.4, 1.1, 1.9, 1.3]}
            for i in range(5)}


def geo(v):
    return math.exp(sum(math.log(x) for x in v) / len(v))


class Verdicts(unittest.TestCase):
    """Known-verdict fixtures of each kind."""

    def test_faster_needs_significance_and_the_margin(self):
        cell = Cell({"a": around(1.0, 0.01), "b": around(1.3, 0.01)})
        pair = cell.pair("b", "a")
        self.assertEqual((pair.verdict, pair.faster), (FASTER, "a"))
        self.assertAlmostEqual(pair.ratio, geo(around(1.3, 0.01)) / geo(around(1.0, 0.01)))
        self.assertLess(pair.ci[0], pair.ratio)
        self.assertGreater(pair.ci[1], pair.ratio)
        self.assertEqual(cell.pair("a", "b").faster, "a")
        self.assertAlmostEqual(cell.pair("a", "b").ratio, 1 / pair.ratio)
        self.assertEqual(cell.pair("a", "b").ci, (1 / pair.ci[1], 1 / pair.ci[0]))

    def test_significant_below_the_margin_is_not_faster(self):
        pair = Cell({"a": around(1.0, 0.001), "b": around(1.03, 0.001)}).pair("b", "a")
        self.assertLess(pair.p, 0.001)
        self.assertNotEqual(pair.verdict, FASTER)

    def test_the_margin_is_on_the_geometric_means_not_the_medians(self):
        a = around(1.0, 0.002, 9)
        # median 1.06 (a median rule calls it faster), geometric mean about 1.033: not faster
        b = [1.0, 1.001, 1.002, 1.003, 1.06, 1.061, 1.062, 1.063, 1.064]
        pair = Cell({"a": a, "b": b}).pair("b", "a")
        self.assertLess(pair.p, 0.05)
        self.assertLess(pair.ratio, MARGIN)
        self.assertNotEqual(pair.verdict, FASTER)
        # median 1.02 (a median rule never calls it), geometric mean about 1.063: faster
        c = [1.02, 1.021, 1.022, 1.023, 1.024, 1.12, 1.121, 1.122, 1.123]
        pair = Cell({"a": a, "c": c}).pair("c", "a")
        self.assertGreater(pair.ratio, MARGIN)
        self.assertEqual((pair.verdict, pair.faster), (FASTER, "a"))

    def test_level_when_the_90_percent_interval_lies_within_the_margin(self):
        pair = Cell({"a": around(1.0, 0.005), "b": around(1.01, 0.005)}).pair("b", "a")
        self.assertEqual(pair.verdict, LEVEL)
        self.assertTrue(1 / MARGIN < pair.ci[0] <= pair.ci[1] < MARGIN)

    def test_level_is_the_90_not_the_95_percent_interval(self):
        a = around(1.0, 0.014)
        b = around(1.02, 0.014)
        ci90, ci95 = ratio_ci(b, a), ratio_ci(b, a, 0.95)
        self.assertTrue(1 / MARGIN < ci90[0] and ci90[1] < MARGIN, ci90)
        self.assertGreater(ci95[1], MARGIN)  # a 95 % interval reaches past the margin
        self.assertEqual(Cell({"a": a, "b": b}).pair("b", "a").verdict, LEVEL)

    def test_not_significant_is_not_level(self):
        pair = Cell({"a": [0.9, 1.5, 1.0, 2.0, 1.2], "b": [1.0, 1.4, 1.1, 1.9, 1.3]}).pair("b", "a")
        self.assertGreater(pair.p, 0.05)
        self.assertEqual(pair.verdict, UNDECIDABLE)

    def test_repetitions_wholly_apart_but_too_spread_are_undecidable_with_a_count(self):
        a = [1.0, 1.02, 1.04, 1.9, 2.0]
        b = [2.05, 2.1, 2.15, 3.9, 4.0]  # every b above every a, but two speeds in each
        pair = Cell({"a": a, "b": b}, Family({"c": {"a": a, "b": b}, **HOPELESS}), "c") \
            .pair("b", "a")
        self.assertGreater(pair.ratio, MARGIN)
        self.assertLess(pair.p, 0.05)
        self.assertGreaterEqual(pair.p_adj, 0.05)
        self.assertEqual(pair.verdict, UNDECIDABLE)
        self.assertGreater(pair.needed, 5)
        self.assertTrue(pair.words().startswith(f"undecidable (needs {pair.needed} repetitions"))

    def test_the_needed_count_would_decide_and_one_fewer_would_not(self):
        a, b = [1.0, 1.3, 0.95, 1.8, 1.05], [1.2, 1.7, 1.1, 2.2, 1.3]
        fam = Family({"c": {"a": a, "b": b}, **HOPELESS})
        pair = fam.pair("c", "b", "a")
        self.assertEqual(pair.verdict, UNDECIDABLE)
        n = pair.needed
        self.assertTrue(n and 5 < n <= 50, n)
        # at the observed log means and spreads, n a side reaches the p the family would take
        # as one more discovery, n - 1 does not
        (_, xa, va), (_, xb, vb) = pair._m
        self.assertEqual(fam.join_at, 0.05 / fam.pairs)
        for reps, passes in ((n, True), (n - 1, False)):
            p = _p_diff(*_welch((reps, xa, va), (reps, xb, vb)))
            self.assertEqual(p < fam.join_at, passes, reps)
        # a pair just short of deciding needs one more repetition a side
        self.assertEqual(Cell({"a": around(1, 0.044), "b": around(1.1, 0.044)})
                         .pair("b", "a").needed, 6)
        # the same pair alone needs fewer
        self.assertLess(Cell({"a": a, "b": b}).pair("b", "a").needed, n)

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
        self.assertFalse(cell.decided())
        self.assertEqual([cell.mark(s) for s in ("a", "b", "wild", "slow")], ["", "=", "?", ""])
        self.assertTrue(Cell({"a": around(1.0, 0.005), "b": around(1.01, 0.005)}).decided())

    def test_the_leader_has_the_least_geometric_mean(self):
        # a's median is the lower, its geometric mean the higher
        cell = Cell({"a": [1.0, 1.0, 1.0, 3.0, 3.0], "b": [1.1, 1.1, 1.1, 1.1, 1.1]})
        self.assertEqual(cell.leader, "b")

    def test_the_test_is_on_logarithms(self):
        a, b = [1.0, 1.2, 0.9, 1.1, 1.05], [1.3, 1.1, 1.4, 1.25, 1.2]
        self.assertAlmostEqual(log_test(a, b), log_test([2 * x for x in a], [2 * x for x in b]))
        self.assertAlmostEqual(tost(a, b), tost([2 * x for x in a], [2 * x for x in b]))

    def test_the_test_is_scipys_welch_test_on_logarithms(self):
        """log_test writes Welch's test out (for speed): the p of scipy's ttest_ind, unequal
        variances, on the logs; unequal sizes, one side without spread, far apart and close.
        TOST is two of its one-sided tests, shifted by the margin."""
        rng = random.Random(7)
        cases = [([1.0, 1.2, 0.9], [1.3, 1.1, 1.4, 1.25, 1.2]), ([2.0, 2.0, 2.0], [2.1, 2.2, 2.0]),
                 ([1.0, 1.01], [50.0, 51.0, 49.0]), ([3.0, 3.1, 2.9, 3.05], [3.0, 3.1, 2.95])]
        cases += [([rng.lognormvariate(0, 0.2) for _ in range(rng.randint(2, 9))],
                   [rng.lognormvariate(0.1, 0.3) for _ in range(rng.randint(2, 9))])
                  for _ in range(40)]
        d = math.log(MARGIN)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # scipy on the cases without spread
            for a, b in cases:
                la, lb = [math.log(x) for x in a], [math.log(x) for x in b]
                want = ttest_ind(la, lb, equal_var=False).pvalue
                self.assertAlmostEqual(log_test(a, b), want, places=12, msg=f"{a} vs {b}")
                lower = ttest_ind([x + d for x in la], lb, equal_var=False, alternative="greater")
                upper = ttest_ind([x - d for x in la], lb, equal_var=False, alternative="less")
                self.assertAlmostEqual(tost(a, b), max(lower.pvalue, upper.pvalue), places=12)

    def test_the_family_sentence_names_the_estimand_the_test_the_correction_and_the_words(self):
        for words in ("geometric means", "Welch's t-test", "two one-sided tests",
                      "Benjamini-Hochberg", "all of the run's comparisons", "*faster*",
                      "*level*", "*undecidable*", "1.05", "90 %"):
            self.assertIn(words, FAMILY)


class RunFamily(unittest.TestCase):
    """One Benjamini-Hochberg family over every pair of every cell."""

    def test_the_family_is_the_run_so_a_borderline_pair_depends_on_the_other_cells(self):
        a, b = around(1.0, 0.04), around(1.12, 0.04)  # alone: p about 0.022
        alone = Family({"c": {"a": a, "b": b}})
        self.assertEqual(alone.pair("c", "b", "a").verdict, FASTER)
        # the same pair among 20 hopeless pairs: BH grows stricter
        crowd = {f"n{i}": HOPELESS["h0"] for i in range(20)}
        crowded = Family({"c": {"a": a, "b": b}, **crowd})
        self.assertEqual(crowded.pairs, 21)
        p = crowded.pair("c", "b", "a")
        self.assertEqual(p.verdict, UNDECIDABLE)
        self.assertGreater(p.p_adj, 0.05)
        # among 20 clear pairs and 3 hopeless ones it stays faster under BH (Holm would
        # multiply its p by 4)
        mixed = {**{f"n{i}": {"x": around(1, 0.01), "y": around(2, 0.01)} for i in range(20)},
                 **{f"h{i}": HOPELESS["h0"] for i in range(3)}}
        both = Family({"c": {"a": a, "b": b}, **mixed})
        self.assertEqual(both.pair("c", "b", "a").verdict, FASTER)
        ps = [both.pair(k, "x", "y").p if k != "c" else both.pair(k, "a", "b").p
              for k in ["c"] + list(mixed)]
        self.assertGreater(holm(ps)[0], 0.05)

    def test_a_cells_verdicts_are_those_of_the_run_family(self):
        lines = {"a": around(1.0, 0.04), "b": around(1.12, 0.04)}
        fam = Family({"c": lines, **{f"n{i}": HOPELESS["h0"] for i in range(20)}})
        self.assertEqual(Cell(lines, fam, "c").pair("b", "a").verdict, UNDECIDABLE)
        self.assertEqual(Cell(lines).pair("b", "a").verdict, FASTER)

    def test_counts_and_the_false_calls_sentence(self):
        fam = Family({"c": {"a": around(1.0, 0.01), "b": around(1.3, 0.01),
                            "l": around(1.01, 0.005), "w": [0.9, 1.5, 1.0, 2.0, 1.2]}})
        v = fam.verdicts()
        self.assertEqual(fam.pairs, 6)
        self.assertEqual(sum(v.values()), 6)
        self.assertEqual(v[LEVEL], 1)
        self.assertAlmostEqual(fam.false_calls(), 0.05 * (v[FASTER] + v[LEVEL]))
        self.assertIn(f"{v[FASTER]} *faster*", fam.sentence())
        self.assertIn(f"about {0.05 * (v[FASTER] + v[LEVEL]):.1f} of the", fam.sentence())


class StagedLooks(unittest.TestCase):
    """A run that may look at a cell again (staged repetitions) weighs every p against
    Pocock's level for that many looks."""

    def test_pococks_level_makes_a_borderline_pair_undecidable(self):
        lines = {"a": around(1.0, 0.04), "b": around(1.1, 0.04)}  # p about 0.045
        verdicts = [Family({"c": lines}, looks).pair("c", "b", "a").verdict
                    for looks in (1, 2, 3)]
        self.assertEqual(verdicts, [FASTER, UNDECIDABLE, UNDECIDABLE])
        clear = Family({"c": {"a": around(1.0, 0.01), "b": around(1.3, 0.01)}}, 3)
        self.assertEqual(clear.pair("c", "b", "a").verdict, FASTER)
        self.assertIn("Pocock's 0.0221", clear.sentence())
        self.assertNotIn("Pocock", Family({"c": lines}).sentence())

    def test_the_looks_come_from_the_context(self):
        self.assertEqual([looks_of(c) for c in ({}, {"ecsb_stage_looks": "3"},
                                                {"ecsb_stage_looks": "x"},
                                                {"ecsb_stage_looks": "9"})], [1, 3, 1, 1])
        with self.assertRaises(ValueError):
            Family({}, 9)

    def test_more_looks_need_more_repetitions(self):
        lines = {"a": [1.0, 1.3, 0.95, 1.8, 1.05], "b": [1.2, 1.7, 1.1, 2.2, 1.3]}
        one, three = (Family({"c": lines}, k).pair("c", "b", "a").needed for k in (1, 3))
        self.assertLess(one, three)


class CompareAgreement(unittest.TestCase):
    """compare.py's count of two runs' verdicts on one pair: contradictions and disagreements
    apart."""

    def test_each_kind(self):
        from compare import classify
        a1, a13 = around(1.0, 0.01), around(1.3, 0.01)
        faster_a = Cell({"a": a1, "b": a13}).pair("a", "b")
        faster_b = Cell({"a": a13, "b": a1}).pair("a", "b")
        level = Cell({"a": around(1.0, 0.005), "b": around(1.01, 0.005)}).pair("a", "b")
        untold = Cell({"a": [0.9, 1.5, 1.0, 2.0, 1.2], "b": [1.0, 1.4, 1.1, 1.9, 1.3]}) \
            .pair("a", "b")
        self.assertEqual([p.verdict for p in (faster_a, faster_b, level, untold)],
                         [FASTER, FASTER, LEVEL, UNDECIDABLE])
        self.assertEqual(classify(faster_a, faster_a), "agree")
        self.assertEqual(classify(level, level), "agree")
        self.assertEqual(classify(faster_a, faster_b), "contradiction")
        self.assertEqual(classify(faster_b, faster_a), "contradiction")
        self.assertEqual(classify(faster_a, level), LEVEL)
        self.assertEqual(classify(level, faster_b), LEVEL)
        self.assertEqual(classify(untold, faster_a), UNDECIDABLE)
        self.assertEqual(classify(faster_b, untold), UNDECIDABLE)
        self.assertEqual(classify(level, untold), "level_undecidable")


class BenjaminiHochberg(unittest.TestCase):
    def test_the_correction_is_statsmodels_fdr_bh(self):
        rng = random.Random(5)
        cases = [[0.01, 0.04, 0.03], [0.2, 0.2, 0.01, 0.5], [0.001] * 4, [0.6, 0.9, 0.02],
                 [0.01, 0.02, 0.03, 0.04, 0.05]]
        cases += [[rng.random() ** 3 for _ in range(rng.randint(1, 60))] for _ in range(40)]
        for ps in cases:
            want = multipletests(ps, method="fdr_bh")[1]
            for got, w in zip(bh(ps), want):
                self.assertAlmostEqual(got, w, places=12, msg=str(ps))

    def test_the_step_up_rejects_all_when_the_largest_passes(self):
        # Holm would keep only the first; BH rejects all five (0.05 * k / 5 >= p_k)
        self.assertTrue(all(q <= 0.05 for q in bh([0.01, 0.02, 0.03, 0.04, 0.05])))
        self.assertGreater(holm([0.01, 0.02, 0.03, 0.04, 0.05])[1], 0.05)

    def test_keeps_order_and_none_entries(self):
        self.assertEqual(bh([0.01, None, float("nan"), 0.04]), [0.02, None, None, 0.04])
        self.assertEqual(bh([]), [])


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
