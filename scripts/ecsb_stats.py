"""ecsb_stats — the statistics shared by compare.py and summary.py.

utest:  two-sided Mann–Whitney U test over the repetitions of two benchmarks (scipy's
        mannwhitneyu, the test of Google Benchmark's own tools/compare.py), with the exact
        distribution up to 20 repetitions a side: the normal approximation scipy would use from
        9 repetitions cannot go below p = 4e-4 there, which a Holm correction over a few hundred
        rows turns into "nothing is significant". None when a side has fewer than 2.
holm:   Holm's step-down correction of a family of p-values: adjusted p <= alpha for a row
        keeps the chance of any false "faster/slower" in the whole table at alpha or below.
times:  a ratio as people say it: "1.90x slower", "2.50x faster", "same".
"""
import math


class StatsUnavailable(Exception):
    """scipy is missing."""


def utest(a, b):
    if len(a) < 2 or len(b) < 2:
        return None
    try:
        from scipy.stats import mannwhitneyu
    except ImportError as e:
        raise StatsUnavailable("the U test needs scipy: sudo apt-get install python3-scipy "
                               "(and PYTHON=/usr/bin/python3)") from e
    method = "exact" if max(len(a), len(b)) <= 20 else "asymptotic"
    return float(mannwhitneyu(a, b, alternative="two-sided", method=method).pvalue)


def smallest_p(n_a, n_b):
    """The smallest two-sided p the exact U test can give with n_a and n_b repetitions (every
    sample of one side below every sample of the other): 2 / C(n_a + n_b, n_a)."""
    if n_a < 2 or n_b < 2:
        return None
    return min(1.0, 2.0 / math.comb(n_a + n_b, n_a))


def holm(pvalues):
    """Holm-adjusted p-values, in the order given; None entries stay None and do not count."""
    tested = sorted((p, i) for i, p in enumerate(pvalues) if p is not None and not math.isnan(p))
    m = len(tested)
    out = [None] * len(pvalues)
    running = 0.0
    for rank, (p, i) in enumerate(tested):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = running
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
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def fmt_p(p):
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "-"
    return "<0.001" if p < 0.001 else f"{p:.3f}"
