"""ecsb_stats — the statistics shared by compare.py and summary.py (standard library only).

utest:  two-sided Mann–Whitney U test over the repetitions of two benchmarks, the test of Google
        Benchmark's own tools/compare.py, computed as scipy.stats.mannwhitneyu computes it
        (tests/scripts/test_stats.py checks the two agree): the exact distribution of U up to
        20 repetitions a side, the normal approximation with tie and continuity corrections
        beyond. Exact, because the approximation (scipy's choice from 9 repetitions) cannot go
        below p = 4e-4 at 9 a side, which a Holm correction over a few hundred rows turns into
        "nothing is significant". None when a side has fewer than 2 repetitions.
holm:   Holm's step-down correction of a family of p-values: adjusted p < alpha for a row
        keeps the chance of any false "faster/slower" in the whole table below alpha.
times:  a ratio as people say it: "1.90x slower", "2.50x faster", "same".
"""
import math
from functools import lru_cache

EXACT_MAX = 20


@lru_cache(maxsize=None)
def _u_counts(n_a, n_b):
    """counts[u] = how many of the C(n_a + n_b, n_a) orderings give U = u (no ties)."""
    if n_a == 0 or n_b == 0:
        return (1,)
    # U(n_a, n_b) = U(n_a - 1, n_b) shifted by n_b (the largest value is from a) + U(n_a, n_b - 1)
    with_a, with_b = _u_counts(n_a - 1, n_b), _u_counts(n_a, n_b - 1)
    out = [0] * (n_a * n_b + 1)
    for u, c in enumerate(with_a):
        out[u + n_b] += c
    for u, c in enumerate(with_b):
        out[u] += c
    return tuple(out)


def _midranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks, ties, i = [0.0] * len(values), [], 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        ties.append(j - i + 1)
        i = j + 1
    return ranks, ties


def utest(a, b):
    n_a, n_b = len(a), len(b)
    if n_a < 2 or n_b < 2:
        return None
    ranks, ties = _midranks(list(a) + list(b))
    u_a = sum(ranks[:n_a]) - n_a * (n_a + 1) / 2
    u = max(u_a, n_a * n_b - u_a)
    if max(n_a, n_b) <= EXACT_MAX:
        counts = _u_counts(n_a, n_b)
        p = 2 * sum(counts[int(u):]) / math.comb(n_a + n_b, n_a)
    else:
        n = n_a + n_b
        tie_term = sum(t ** 3 - t for t in ties)
        sd = math.sqrt(n_a * n_b / 12 * ((n + 1) - tie_term / (n * (n - 1))))
        z = (u - n_a * n_b / 2 - 0.5) / sd if sd > 0 else 0.0
        p = math.erfc(z / math.sqrt(2))  # 2 x the upper tail of the standard normal
    return min(1.0, max(0.0, p))


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
