"""ecsb_stats — the one place a verdict is decided. choose.md, summary.md, report.md, compare
and the crossovers all ask this module, and all print its FAMILY sentence, so two documents of
one run can never disagree about a pair of lines.

The unit of decision is a *cell*: one case (a scenario with one world order and parameter set)
at one N. In a cell, each pair of layouts (the floor and limit are references, not choices) is
compared:
  test      Welch's t-test on the logarithms of the per-repetition times
            (scipy.stats.ttest_ind's, equal_var=False, written out). Logarithms, because timing noise is
            multiplicative and the question is a ratio; Welch, because two layouts need not
            share a spread. Unlike the exact Mann–Whitney U test it can reach small p with 5
            repetitions a side (the U test's floor is p = 0.008 there, which no correction over
            a cell's 45 pairs lets through).
  family    Holm's correction (statsmodels' multipletests, written out) over all pairs of layouts of that cell, and
            nothing else: a verdict depends only on its cell's repetitions, never on how many
            rows a table has, so every document reaches the same verdict by construction.
  ratio     median time of one / median time of the other, with a 95 % bootstrap confidence
            interval (scipy.stats.bootstrap, percentile, seeded with SEED: documents are
            reproducible).
  verdict   faster       Holm-adjusted p < ALPHA and the ratio at least MARGIN (5 %);
            level        the confidence interval lies within 1/MARGIN .. MARGIN;
            undecidable  neither: the repetitions are too few (or too spread) to tell, with the
                         repetitions a side that would be needed if the figures held (None:
                         more than MAX_REPS).
compare (two runs) counts contradictions between the two runs' verdicts of the same pairs.

Also here, for compare's table of changes between two runs (one line in run A against itself
in run B, as Google Benchmark's tools/compare.py tests it), not for verdicts between layouts:
utest (two-sided Mann–Whitney U, exact up to EXACT_MAX repetitions a side without ties),
smallest_p (the least p it can give) and reps_for (the repetitions a table of that many rows
needs).
"""
import functools
import math
import statistics

import numpy as np
from scipy.special import stdtr
from scipy.stats import bootstrap, mannwhitneyu, t as student_t

ALPHA = 0.05
MARGIN = 1.05
CONFIDENCE = 0.95
SEED = 27
RESAMPLES = 2000
MAX_REPS = 50
WIDE = 1.4  # a line whose repetitions spread over this (max/min) is *wide*

FASTER, LEVEL, UNDECIDABLE = "faster", "level", "undecidable"

# The one sentence every document prints verbatim (tests check it).
FAMILY = ("Verdicts (scripts/ecsb_stats.py): in each cell (one scenario, world order, "
          "parameter set and N) every pair of layouts is compared by Welch's t-test on the "
          "logarithms of their per-repetition times, Holm-corrected over all pairs of layouts "
          "in that cell (alpha 0.05); *faster* = significant and a ratio of medians of at least "
          "1.05, *level* = the 95 % bootstrap confidence interval of that ratio within "
          "0.95–1.05, *undecidable* = neither (the repetitions a side that would tell are "
          "given).")


# ---- one comparison ---------------------------------------------------------------------------

def _logs(samples):
    return np.log(np.asarray(samples, dtype=float))


def log_test(a, b):
    """Two-sided p of Welch's t-test on log times; None with fewer than 2 repetitions a side.
    Two sets without any spread (identical repetitions) are told apart exactly."""
    a, b = list(a), list(b)
    if len(a) < 2 or len(b) < 2:
        return None
    la, lb = _logs(a), _logs(b)
    if la.std() == 0 and lb.std() == 0:
        return 1.0 if la.mean() == lb.mean() else 0.0
    # Welch's test written out: scipy.stats.ttest_ind(la, lb, equal_var=False) gives the same p
    # (2 * its t distribution's sf(|t|), which is stdtr(df, -|t|)), but its checks cost 0.3 ms
    # a call, half of what summary.py and report.py spend (tests/scripts/test_stats.py compares).
    va, vb = la.var(ddof=1) / len(la), lb.var(ddof=1) / len(lb)
    t = (la.mean() - lb.mean()) / math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / (len(la) - 1) + vb ** 2 / (len(lb) - 1))
    return float(2 * stdtr(df, -abs(t)))


def _median_ratio(x, y, axis=-1):
    return np.median(x, axis=axis) / np.median(y, axis=axis)


@functools.lru_cache(maxsize=None)
def _ratio_ci(a, b):
    if len(a) < 2 or len(b) < 2:
        return None
    if len(set(a)) == 1 and len(set(b)) == 1:
        r = a[0] / b[0]
        return (r, r)
    res = bootstrap((np.asarray(a), np.asarray(b)), _median_ratio, vectorized=True,
                    paired=False, n_resamples=RESAMPLES, confidence_level=CONFIDENCE,
                    method="percentile", random_state=np.random.default_rng(SEED))
    return (float(res.confidence_interval.low), float(res.confidence_interval.high))


def ratio_ci(a, b):
    """(low, high): the bootstrap confidence interval of median(a) / median(b); None with
    fewer than 2 repetitions a side. Seeded: the same samples give the same interval."""
    return _ratio_ci(tuple(float(x) for x in a), tuple(float(x) for x in b))


def holm(pvalues):
    """Holm-adjusted p-values, in the order given; None and NaN stay None, uncounted."""
    tested = [i for i, p in enumerate(pvalues) if p is not None and not math.isnan(p)]
    out = [None] * len(pvalues)
    # Holm's step-down, written out (statsmodels' multipletests(method="holm") gives the same,
    # tests/scripts/test_stats.py compares; importing it took pandas along, 0.15 s a script):
    # the k-th smallest of m p-values times (m - k), never below the one before, at most 1.
    running = 0.0
    for k, i in enumerate(sorted(tested, key=lambda i: pvalues[i])):
        running = max(running, min(1.0, (len(tested) - k) * pvalues[i]))
        out[i] = running
    return out


def _reps_to_test(a, b, family):
    """The fewest repetitions a side with which Welch's test, at the observed log means and
    spreads, would pass Holm's strictest step (ALPHA / family); None beyond MAX_REPS."""
    la, lb = _logs(a), _logs(b)
    d = abs(la.mean() - lb.mean())
    va, vb = la.var(ddof=1), lb.var(ddof=1)
    for n in range(max(len(a), len(b)), MAX_REPS + 1):
        se2 = (va + vb) / n
        if se2 == 0:
            return n
        df = se2 ** 2 / ((va / n) ** 2 / (n - 1) + (vb / n) ** 2 / (n - 1))
        if 2 * student_t.sf(d / math.sqrt(se2), df) < ALPHA / family:
            return n
    return None


def _reps_to_level(ratio, ci, reps):
    """The fewest repetitions a side with which the interval, shrinking as 1/sqrt(n) around
    the observed ratio, would lie within ±MARGIN; None beyond MAX_REPS or if it never can."""
    room = math.log(MARGIN) - abs(math.log(ratio))
    half = max(math.log(ci[1] / ratio), math.log(ratio / ci[0]))
    if room <= 0:
        return None
    n = math.ceil(reps * (half / room) ** 2)
    return max(n, reps + 1) if n <= MAX_REPS else None


class Pair:
    """The verdict between line x and line y of a cell: .ratio (median x / median y), .ci,
    .p, .p_holm, .verdict (FASTER, LEVEL, UNDECIDABLE), .faster (the faster line's name when
    the verdict is FASTER), .needed (repetitions a side that would tell, when UNDECIDABLE;
    None: more than MAX_REPS)."""

    def __init__(self, x, y, a, b, p, p_holm, family):
        self.x, self.y = x, y
        self._a, self._b = a, b
        self.ratio = statistics.median(a) / statistics.median(b)
        self.p, self.p_holm = p, p_holm
        self.faster, self.needed = None, None
        slower = max(self.ratio, 1 / self.ratio)
        if p_holm is not None and p_holm < ALPHA and slower >= MARGIN:
            self.verdict = FASTER  # decided without the interval (computed when shown)
            self.faster = x if self.ratio < 1 else y
        elif self.ci and 1 / MARGIN < self.ci[0] and self.ci[1] < MARGIN:
            self.verdict = LEVEL
        else:
            self.verdict = UNDECIDABLE
            if self.ci is not None:
                reps = min(len(a), len(b))
                self.needed = _reps_to_test(a, b, family) if slower >= MARGIN \
                    else _reps_to_level(self.ratio, self.ci, reps)

    @property
    def ci(self):
        """The bootstrap interval of the ratio (computed once, when first asked for)."""
        if "_ci" not in self.__dict__:
            if "_flip_of" in self.__dict__:  # the same interval, seen from the other side
                c = self._flip_of.ci
                self._ci = (1 / c[1], 1 / c[0]) if c else None
            else:
                self._ci = ratio_ci(self._a, self._b)
        return self._ci

    def flipped(self):
        """The same verdict seen from y."""
        other = object.__new__(Pair)
        other.__dict__.update(self.__dict__)
        other.x, other.y = self.y, self.x
        other.ratio = 1 / self.ratio
        other._a, other._b = self._b, self._a
        other.__dict__.pop("_ci", None)
        other._flip_of = self
        return other

    def words(self):
        """"faster", "level" or "undecidable (needs 9 repetitions)"."""
        if self.verdict != UNDECIDABLE:
            return self.verdict
        return f"undecidable (needs {self.needed} repetitions)" if self.needed \
            else f"undecidable (needs more than {MAX_REPS} repetitions)" if self.ci \
            else "undecidable (fewer than 2 repetitions)"

    def short(self):
        """"faster", "level", "undecidable (13 reps)" or "undecidable (> 50 reps)": for tables."""
        if self.verdict != UNDECIDABLE:
            return self.verdict
        return f"undecidable ({self.needed} reps)" if self.needed else \
            f"undecidable (> {MAX_REPS} reps)" if self.ci else "undecidable (< 2 reps)"


def reps_to_bound(pair, bound, reps):
    """For a claimed bound on a pair's ratio (docs/findings.md, scripts/ecsb_findings.py): the
    fewest repetitions a side with which the pair's confidence interval, shrinking as
    1/sqrt(n) around its ratio, would lie wholly on one side of `bound`, `reps` being the
    repetitions a side it has now; None beyond MAX_REPS, without an interval, or when the ratio
    is the bound itself. Reads only pair.ratio and pair.ci."""
    ci = pair.ci
    if not ci or pair.ratio == bound or bound <= 0 or reps < 2:
        return None
    room = abs(math.log(bound / pair.ratio))
    half = math.log(ci[1] / pair.ratio) if pair.ratio < bound else math.log(pair.ratio / ci[0])
    n = math.ceil(reps * (half / room) ** 2)
    return max(n, reps + 1) if n <= MAX_REPS else None


# ---- a cell -----------------------------------------------------------------------------------

class Cell:
    """The lines of one cell: {name: per-repetition times} of the layouts compared. Every pair's
    verdict is decided in the family of all pairs of these lines (Holm)."""

    def __init__(self, samples):
        self.samples = {k: list(v) for k, v in samples.items() if len(v) > 0}
        self.medians = {k: statistics.median(v) for k, v in self.samples.items()}
        self.names = sorted(self.medians, key=lambda k: self.medians[k])  # fastest first
        pairs = [(x, y) for i, x in enumerate(self.names) for y in self.names[i + 1:]]
        ps = [log_test(self.samples[x], self.samples[y]) for x, y in pairs]
        self.family = sum(p is not None for p in ps)
        self._p = {pair: (p, q) for pair, p, q in zip(pairs, ps, holm(ps))}
        self._pairs = {}

    def pair(self, x, y):
        """The Pair of x against y (ratio = x's median / y's)."""
        if (x, y) in self._pairs:
            return self._pairs[(x, y)]
        if (y, x) in self._p:
            return self.pair(y, x).flipped()
        p, q = self._p[(x, y)]
        self._pairs[(x, y)] = Pair(x, y, self.samples[x], self.samples[y], p, q, self.family)
        return self._pairs[(x, y)]

    @property
    def leader(self):
        return self.names[0] if self.names else None

    def level_with_leader(self):
        return [s for s in self.names[1:] if self.pair(s, self.leader).verdict == LEVEL]

    def untold_from_leader(self):
        """The layouts the cell cannot tell from its leader (undecidable against it)."""
        return [s for s in self.names[1:] if self.pair(s, self.leader).verdict == UNDECIDABLE]

    def runner_up(self):
        return self.names[1] if len(self.names) > 1 else None

    def mark(self, name):
        """One character for a line against the leader: "" the leader, "=" level with it,
        "?" undecidable, "" significantly slower."""
        if name == self.leader or name not in self.medians:
            return ""
        return {LEVEL: "=", UNDECIDABLE: "?", FASTER: ""}[self.pair(name, self.leader).verdict]


def cell(run, scenario, n, lines=None):
    """The Cell of (scenario, n) of a run (ecsb_rundata.Run): its layouts (or `lines`), each with
    its repetitions from raw.json. Cached on the run."""
    cache = run.__dict__.setdefault("_cells", {})
    key = (scenario, n, tuple(lines) if lines else None)
    if key not in cache:
        names = lines or run.contenders()
        cache[key] = Cell({s: run.samples[(scenario, s, n)] for s in names
                           if run.samples.get((scenario, s, n))})
    return cache[key]


def spread(samples):
    """max/min of the repetitions (1.0 for fewer than 2)."""
    return max(samples) / min(samples) if len(samples) > 1 else 1.0


def wide_share(run):
    """(wide, lines): how many lines (scenario, line, N) of the run spread over WIDE."""
    spreads = [spread(v) for v in run.samples.values() if len(v) > 1]
    return sum(s > WIDE for s in spreads), len(spreads)


# ---- a line between two runs (compare's table) -------------------------------------------------

EXACT_MAX = 20


def utest(a, b):
    """Two-sided Mann–Whitney U over two sets of repetitions: exact when neither side has more
    than EXACT_MAX and no value occurs twice (SciPy's exact distribution assumes no ties; its
    cost grows steeply beyond 20), else the normal approximation. None below 2 a side."""
    a, b = list(a), list(b)
    if len(a) < 2 or len(b) < 2:
        return None
    pooled = a + b
    exact = max(len(a), len(b)) <= EXACT_MAX and len(set(pooled)) == len(pooled)
    return float(mannwhitneyu(a, b, alternative="two-sided",
                              method="exact" if exact else "asymptotic").pvalue)


def smallest_p(n_a, n_b):
    """The least p the exact U test gives with n_a and n_b repetitions (samples apart)."""
    if n_a < 2 or n_b < 2:
        return None
    return utest(range(n_a), range(n_a, n_a + n_b))


def reps_for(alpha, rows):
    """The fewest repetitions a side with which the exact U test, Holm-corrected over `rows`,
    can call a row significant at `alpha`; None beyond EXACT_MAX."""
    for r in range(2, EXACT_MAX + 1):
        if smallest_p(r, r) * rows < alpha:
            return r
    return None


# ---- words and numbers as the tables print them -------------------------------------------------

def fmt_ratio(r):
    return f"{r:.2f}" if r < 10 else f"{r:.3g}"


def fmt_ci(ci):
    return f"{fmt_ratio(ci[0])}–{fmt_ratio(ci[1])}" if ci else "—"


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
