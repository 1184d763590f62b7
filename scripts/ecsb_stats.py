"""ecsb_stats — the statistics shared by compare.py, summary.py and report.py: SciPy's
Mann–Whitney U test and statsmodels' Holm correction, with the choices this suite makes.

utest:       two-sided Mann–Whitney U test over the repetitions of two benchmarks (the test of
             Google Benchmark's own tools/compare.py), scipy.stats.mannwhitneyu. The exact
             distribution of U when neither side has more than EXACT_MAX repetitions and no
             value occurs twice in the pooled samples; otherwise SciPy's normal approximation
             with tie and continuity corrections. Exact, because the approximation (SciPy's own
             choice from 9 repetitions) cannot go below p = 4e-4 at 9 a side, which a Holm
             correction over a few dozen rows turns into "nothing is significant"; not with
             ties, because SciPy's exact distribution assumes there are none; not beyond 20 a
             side, because its cost grows steeply (20 a side: 0.04 s, 50: 1.5 s per pair of
             sizes) while the approximation is good there. None when a side has fewer than 2.
smallest_p:  the smallest p the exact test can give with n_a and n_b repetitions (samples
             entirely apart), asked of SciPy: what decides whether a table can call anything
             significant at all.
holm:        Holm's step-down correction (statsmodels.stats.multitest.multipletests, "holm")
             of a family of p-values: adjusted p < alpha for a row keeps the chance of any false
             "faster/slower" in the whole table below alpha. None entries stay None.
times, geomean, fmt_p:  ratios and p-values as the tables print them.
"""
import math
import statistics

from scipy.stats import mannwhitneyu
from statsmodels.stats.multitest import multipletests

EXACT_MAX = 20


def utest(a, b):
    a, b = list(a), list(b)
    if len(a) < 2 or len(b) < 2:
        return None
    pooled = a + b
    exact = max(len(a), len(b)) <= EXACT_MAX and len(set(pooled)) == len(pooled)
    return float(mannwhitneyu(a, b, alternative="two-sided",
                              method="exact" if exact else "asymptotic").pvalue)


def smallest_p(n_a, n_b):
    if n_a < 2 or n_b < 2:
        return None
    return utest(range(n_a), range(n_a, n_a + n_b))


def reps_for(alpha, rows):
    """The fewest repetitions a side with which the exact test, Holm-corrected over `rows`
    rows, can call a row significant at `alpha` (samples entirely apart); None beyond EXACT_MAX."""
    for r in range(2, EXACT_MAX + 1):
        if smallest_p(r, r) * rows < alpha:
            return r
    return None


def holm(pvalues):
    """Holm-adjusted p-values, in the order given; None and NaN entries stay None and do not
    count as tests."""
    tested = [i for i, p in enumerate(pvalues) if p is not None and not math.isnan(p)]
    out = [None] * len(pvalues)
    if tested:
        adjusted = multipletests([pvalues[i] for i in tested], method="holm")[1]
        for i, p in zip(tested, adjusted):
            out[i] = float(p)
    return out


def times(ratio, slower="slower", faster="faster"):
    """A ratio new/old as "1.90x slower" / "2.50x faster" / "same" (3 significant digits)."""
    if ratio is None or not math.isfinite(ratio) or ratio <= 0:
        return "-"
    if f"{ratio:.2f}" == "1.00" and f"{1 / ratio:.2f}" == "1.00":
        return "same"
    if ratio >= 1:
        return f"{ratio:.3g}x {slower}" if ratio >= 10 else f"{ratio:.2f}x {slower}"
    inv = 1 / ratio
    return f"{inv:.3g}x {faster}" if inv >= 10 else f"{inv:.2f}x {faster}"


def geomean(values):
    values = [v for v in values if v and v > 0]
    return statistics.geometric_mean(values) if values else None


def fmt_p(p):
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "-"
    return "<0.001" if p < 0.001 else f"{p:.3f}"
