"""ecsb_stats — the one place a verdict is decided. choose.md, summary.md, report.md, compare
and the crossovers all ask this module, and all print its FAMILY sentence, so two documents of
one run can never disagree about a pair of lines.

One estimand, one family, three verdicts:
  estimand  the ratio of the geometric means of two lines' per-repetition times (x / y), i.e.
            exp of the difference of their mean log times. Logarithms, because timing noise is
            multiplicative and the question is a ratio.
  interval  Welch's interval on the logarithms (unequal spreads allowed), at CONFIDENCE (90 %):
            the interval two one-sided tests at 5 % use.
  tests     per pair the test its verdict rests on, on that same estimand: when the ratio is
            at least MARGIN (1.05) one way, Welch's two-sided t-test of "no difference"
            (scipy.stats.ttest_ind's, equal_var=False, written out); below it, the two one-sided
            tests (TOST) of "differs by at least MARGIN". (TOST can only pass below the margin,
            and *faster* needs the margin, so choosing by the ratio changes no verdict's
            chance of being wrong.)
  family    every pair of lines (layouts, floor and limit) in every cell of the run (a cell: one
            scenario, world order, parameter set and N): a superset of every comparison any
            document prints. One Benjamini-Hochberg procedure over all of them (statsmodels'
            multipletests(method="fdr_bh"), written out) keeps the expected share of false
            calls among all *faster* and *level* calls of the run at most ALPHA (5 %) (for
            independent or positively dependent tests).
  verdict   faster       ratio at least MARGIN one way and BH-adjusted p < ALPHA;
            level        ratio within MARGIN and BH-adjusted TOST p < ALPHA: for a pair alone,
                         exactly "the 90 % interval lies within 1/MARGIN .. MARGIN";
            undecidable  neither, with the repetitions a side that would decide if the figures
                         held (None: more than MAX_REPS).
A Cell made alone from samples (tests, fixtures) is a family of its own.

compare (two runs) counts contradictions and disagreements between the two runs' verdicts.
Also here, for compare's table of changes between two runs (one line in run A against itself
in run B, as Google Benchmark's tools/compare.py tests it), not for verdicts between layouts:
utest (two-sided Mann–Whitney U, exact up to EXACT_MAX repetitions a side without ties),
smallest_p (the least p it can give), reps_for (the repetitions a table of that many rows
needs) and holm (its correction).
"""
import math
import statistics

import numpy as np
from scipy.special import stdtr, stdtrit
from scipy.stats import mannwhitneyu

ALPHA = 0.05
MARGIN = 1.05
CONFIDENCE = 0.90
MAX_REPS = 50
WIDE = 1.4  # a line whose repetitions spread over this (max/min) is *wide*

FASTER, LEVEL, UNDECIDABLE = "faster", "level", "undecidable"

# The one sentence every document prints verbatim (tests check it).
FAMILY = ("Verdicts (scripts/ecsb_stats.py): every pair of lines in each cell (scenario, world "
          "order, parameters, N) is compared on the ratio of the geometric means of their "
          "repetition times: Welch's t-test on the logarithms, or two one-sided tests when the "
          "ratio is within 0.95–1.05, with the Benjamini-Hochberg false discovery rate held at "
          "5 % over all of the run's comparisons. *faster* = a significant ratio of at least "
          "1.05; *level* = equivalent within 0.95–1.05 (a pair alone: its 90 % interval lies "
          "inside); *undecidable* = neither (with the repetitions a side that would tell).")
DELTA = math.log(MARGIN)

# Pocock's group-sequential boundaries: the nominal two-sided level each of K equally spaced
# looks uses so that the chance of any false call over all K stays 0.05 (Pocock 1977; Jennison
# and Turnbull, Group Sequential Methods, table 2.1: constants 1.960, 2.178, 2.289, 2.361,
# 2.413). A run that may add staged repetitions to undecided cells (bench.sh, ecsb_stages.py)
# looks at every cell up to K times, so every p of its family is weighed against POCOCK[K]
# instead of ALPHA (raw.json's context ecsb_stage_looks = K; absent: one look).
POCOCK = {1: 0.05, 2: 0.0294, 3: 0.0221, 4: 0.0182, 5: 0.0158}


# ---- one line and one pair ----------------------------------------------------------------------

def _moments(samples):
    """(n, mean, variance) of the log times (variance NaN below 2)."""
    logs = np.log(np.asarray(samples, dtype=float))
    return len(logs), float(logs.mean()), float(logs.var(ddof=1)) if len(logs) > 1 else math.nan


def _welch(ma, mb):
    """(d, se, df): the difference of log means a - b, its standard error and Welch's degrees
    of freedom; None with fewer than 2 repetitions a side."""
    (na, xa, va), (nb, xb, vb) = ma, mb
    if na < 2 or nb < 2:
        return None
    sa, sb = va / na, vb / nb
    se2 = sa + sb
    df = se2 ** 2 / (sa ** 2 / (na - 1) + sb ** 2 / (nb - 1)) if se2 > 0 else math.inf
    return xa - xb, math.sqrt(se2), df


def _p_diff(d, se, df):
    """Welch's two-sided p of "no difference"; identical repetitions are told apart exactly."""
    if se == 0:
        return 1.0 if d == 0 else 0.0
    return float(2 * stdtr(df, -abs(d) / se))


def _p_tost(d, se, df):
    """The two one-sided tests' p of "differs by at least MARGIN" (the larger of the two)."""
    if se == 0:
        return 0.0 if abs(d) < DELTA else 1.0
    return float(max(stdtr(df, -(d + DELTA) / se), stdtr(df, (d - DELTA) / se)))


def log_test(a, b):
    """Two-sided p of Welch's t-test on log times; None with fewer than 2 repetitions a side."""
    w = _welch(_moments(a), _moments(b))
    return None if w is None else _p_diff(*w)


def tost(a, b):
    """p of the two one-sided tests that a / b lies within 1/MARGIN .. MARGIN (geometric
    means); None with fewer than 2 repetitions a side."""
    w = _welch(_moments(a), _moments(b))
    return None if w is None else _p_tost(*w)


def ratio_ci(a, b, confidence=CONFIDENCE):
    """(low, high): Welch's interval of geomean(a) / geomean(b) on the logs; None below 2."""
    w = _welch(_moments(a), _moments(b))
    return None if w is None else _interval(*w, confidence)


def _interval(d, se, df, confidence=CONFIDENCE):
    if se == 0:
        return (math.exp(d), math.exp(d))
    half = float(stdtrit(df, 0.5 + confidence / 2)) * se
    return (math.exp(d - half), math.exp(d + half))


def geometric_ratio(a, b):
    return math.exp(_moments(a)[1] - _moments(b)[1])


def bh(pvalues):
    """Benjamini-Hochberg adjusted p-values, in the order given; None and NaN stay None,
    uncounted. A hypothesis is rejected at false discovery rate q when its adjusted p < q."""
    tested = [i for i, p in enumerate(pvalues) if p is not None and not math.isnan(p)]
    out = [None] * len(pvalues)
    if not tested:
        return out
    m = len(tested)
    order = sorted(tested, key=lambda i: pvalues[i])
    # statsmodels' fdr_bh written out (importing it took pandas along, 0.15 s a script): the
    # k-th smallest p times m / k, never above the one after it, at most 1.
    running = 1.0
    for k in range(m, 0, -1):
        i = order[k - 1]
        running = min(running, pvalues[i] * m / k)
        out[i] = running
    return out


def holm(pvalues):
    """Holm-adjusted p-values (compare's table between runs), in the order given; None and NaN
    stay None, uncounted."""
    tested = [i for i, p in enumerate(pvalues) if p is not None and not math.isnan(p)]
    out = [None] * len(pvalues)
    running = 0.0
    for k, i in enumerate(sorted(tested, key=lambda i: pvalues[i])):
        running = max(running, min(1.0, (len(tested) - k) * pvalues[i]))
        out[i] = running
    return out


# ---- the family of a run -------------------------------------------------------------------------

class Family:
    """Every pair of lines in every cell given ({cell key: {line: repetition times}}), each with
    the p of the test its verdict rests on, Benjamini-Hochberg-adjusted together; `looks`: how
    many times the run may look at a cell (staged repetitions: Pocock's level per look).
    .pairs (tests), .rejected (adjusted p < ALPHA), .join_at (the weighted p a further test
    would need to be rejected too: (rejected + 1) * ALPHA / pairs)."""

    def __init__(self, cells, looks=1):
        if looks not in POCOCK:
            raise ValueError(f"looks must be one of {sorted(POCOCK)}, not {looks!r}")
        self.looks = looks
        self.weight = ALPHA / POCOCK[looks]  # p x this against ALPHA = p against POCOCK[looks]
        self.cells = {key: {k: list(v) for k, v in lines.items() if len(v) > 0}
                      for key, lines in cells.items()}
        self.moments = {}
        self._welch = {}  # (key, x, y), x < y: Welch's (d, se, df) or None
        raw, index = [], []
        for key, lines in self.cells.items():
            names = sorted(lines)
            for s in names:
                self.moments[(key, s)] = _moments(lines[s])
            for i, x in enumerate(names):
                for y in names[i + 1:]:
                    w = _welch(self.moments[(key, x)], self.moments[(key, y)])
                    self._welch[(key, x, y)] = w
                    if w is not None:
                        p = _p_diff(*w) if abs(w[0]) >= DELTA else _p_tost(*w)
                        raw.append(min(1.0, p * self.weight))
                        index.append((key, x, y))
        self._adjusted = dict(zip(index, bh(raw)))
        self.pairs = len(raw)
        self.rejected = sum(q < ALPHA for q in self._adjusted.values())
        self.join_at = (self.rejected + 1) * ALPHA / max(self.pairs, 1)

    def pair(self, key, x, y):
        """The Pair of line x against line y in cell `key`."""
        if x > y:
            return self.pair(key, y, x).flipped()
        return Pair(x, y, self.moments[(key, x)], self.moments[(key, y)],
                    self._welch[(key, x, y)], self._adjusted.get((key, x, y)),
                    self.join_at / self.weight)

    def verdicts(self):
        """{FASTER: n, LEVEL: n, UNDECIDABLE: n} over every pair of the family."""
        out = {FASTER: 0, LEVEL: 0, UNDECIDABLE: 0}
        for key, x, y in self._welch:
            out[self.pair(key, x, y).verdict] += 1
        return out

    def false_calls(self):
        """The most false calls to expect: ALPHA of the calls (*faster* or *level*)."""
        return ALPHA * self.rejected

    def sentence(self):
        """What the family holds and how many false calls to expect, for the documents."""
        v = self.verdicts()
        calls = v[FASTER] + v[LEVEL]
        false = ALPHA * calls
        return (f"This run: {self.pairs:,} pairs, {v[FASTER]:,} *faster*, {v[LEVEL]:,} *level*, "
                f"{v[UNDECIDABLE]:,} *undecidable*; expect at most about "
                f"{f'{false:.1f}' if false < 10 else f'{false:,.0f}'} of the {calls:,} *faster* "
                "and *level* verdicts to be false"
                + (f" (staged repetitions: up to {self.looks} looks at a cell, each p weighed "
                   f"against Pocock's {POCOCK[self.looks]})." if self.looks > 1 else "."))


def _reps_needed(ma, mb, threshold):
    """The fewest repetitions a side with which, at the observed log means and spreads, the
    difference test (|d| >= log MARGIN) or the TOST (|d| below it) would reach `threshold`;
    None beyond MAX_REPS."""
    (na, xa, va), (nb, xb, vb) = ma, mb
    d = xa - xb
    test = _p_diff if abs(d) >= DELTA else _p_tost
    for n in range(max(na, nb) + 1, MAX_REPS + 1):
        w = _welch((n, xa, va), (n, xb, vb))
        if test(*w) < threshold:
            return n
    return None


class Pair:
    """The verdict between line x and line y of a cell: .ratio (geometric mean x / y), .ci (its
    90 % interval), .p (difference test) and .p_tost (TOST), raw, .p_adj (the BH-adjusted p of
    the one its verdict rests on: the difference test at a ratio of at least MARGIN, else the
    TOST), .verdict (FASTER, LEVEL, UNDECIDABLE), .faster (the faster line's name when
    FASTER), .needed (repetitions a side that would tell, when UNDECIDABLE; None: more than
    MAX_REPS or fewer than 2 repetitions)."""

    def __init__(self, x, y, ma, mb, welch, p_adj, join_at):
        self.x, self.y = x, y
        self._m = (ma, mb)
        self.ratio = math.exp(ma[1] - mb[1])
        self.ci = _interval(*welch) if welch else None
        self.p = _p_diff(*welch) if welch else None
        self.p_tost = _p_tost(*welch) if welch else None
        self.p_adj = p_adj
        self.faster, self.needed = None, None
        slower = max(self.ratio, 1 / self.ratio)
        if p_adj is not None and p_adj < ALPHA and slower >= MARGIN:
            self.verdict = FASTER
            self.faster = x if self.ratio < 1 else y
        elif p_adj is not None and p_adj < ALPHA:
            self.verdict = LEVEL
        else:
            self.verdict = UNDECIDABLE
            if welch:
                self.needed = _reps_needed(ma, mb, join_at)

    def flipped(self):
        """The same verdict seen from y."""
        other = object.__new__(Pair)
        other.__dict__.update(self.__dict__)
        other.x, other.y = self.y, self.x
        other._m = self._m[::-1]
        other.ratio = 1 / self.ratio
        other.ci = (1 / self.ci[1], 1 / self.ci[0]) if self.ci else None
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
    """The lines of one cell: {name: per-repetition times}, fastest first by geometric mean
    (.names, .leader). Its pairs' verdicts come from `family` (the run's); made alone, the cell
    is a family of its own."""

    def __init__(self, samples, family=None, key=None):
        self.samples = {k: list(v) for k, v in samples.items() if len(v) > 0}
        if family is None:
            family = Family({key: self.samples})
        self._family, self._key = family, key
        self.family = family.pairs
        self.means = {k: statistics.geometric_mean(v) for k, v in self.samples.items()}
        self.medians = {k: statistics.median(v) for k, v in self.samples.items()}
        self.names = sorted(self.means, key=lambda k: (self.means[k], k))  # fastest first
        self._pairs = {}

    def pair(self, x, y):
        """The Pair of x against y (ratio = x's geometric mean / y's)."""
        if (x, y) not in self._pairs:
            self._pairs[(x, y)] = self._family.pair(self._key, x, y)
        return self._pairs[(x, y)]

    @property
    def leader(self):
        return self.names[0] if self.names else None

    def level_with_leader(self):
        return [s for s in self.names[1:] if self.pair(s, self.leader).verdict == LEVEL]

    def untold_from_leader(self):
        """The layouts the cell cannot tell from its leader (undecidable against it)."""
        return [s for s in self.names[1:] if self.pair(s, self.leader).verdict == UNDECIDABLE]

    def decided(self):
        """True when the leader is *faster* than every other line or *level* with it: the
        cell's pick is the run's answer."""
        return not self.untold_from_leader()

    def runner_up(self):
        return self.names[1] if len(self.names) > 1 else None

    def mark(self, name):
        """One character for a line against the leader: "" the leader, "=" level with it,
        "?" undecidable, "" significantly slower."""
        if name == self.leader or name not in self.means:
            return ""
        return {LEVEL: "=", UNDECIDABLE: "?", FASTER: ""}[self.pair(name, self.leader).verdict]


def no_clear_pick(cell):
    """True when a cell has a leader the run cannot tell from every other line (a line
    *undecidable* against it): its documents print "no clear pick", not a bold pick."""
    return bool(cell.leader) and not cell.decided()


def family(run):
    """The Family of a run (ecsb_rundata.Run): every line of every cell, references included.
    Cached on the run."""
    if "_family" not in run.__dict__:
        cells = {}
        for (scenario, line, n), samples in run.samples.items():
            cells.setdefault((scenario, n), {})[line] = samples
        run._family = Family(cells, looks_of(run.context))
    return run._family


def looks_of(context):
    """The looks a run's design allows (context ecsb_stage_looks; 1 when absent or unusable)."""
    try:
        looks = int(str(context.get("ecsb_stage_looks", 1)))
    except ValueError:
        return 1
    return looks if looks in POCOCK else 1


def family_sentence(run):
    """FAMILY, then what the run's family holds and how many false calls to expect."""
    return f"{FAMILY} {family(run).sentence()}"


def cell(run, scenario, n, lines=None):
    """The Cell of (scenario, n) of a run: its layouts (or `lines`), each with its repetitions
    from raw.json, judged in the run's family. Cached on the run."""
    cache = run.__dict__.setdefault("_cells", {})
    key = (scenario, n, tuple(lines) if lines else None)
    if key not in cache:
        names = lines or run.contenders()
        cache[key] = Cell({s: run.samples[(scenario, s, n)] for s in names
                           if run.samples.get((scenario, s, n))}, family(run), (scenario, n))
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
