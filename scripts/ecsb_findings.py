"""ecsb_findings — the hand-written findings (docs/findings.md): their claims checked against a
run with three outcomes, the runs and machines they are checked on, when each claim was stated
(git) and the history of the claims weakened or dropped. report.py and findings.py use it.

The file's parts (everything else is prose):
  - run: results/<id>     under "## Runs": the runs every claim is checked on (`make findings`);
                          the first is the reference the claims were derived from
  - claim: ...            a claim (grammar below)
    where: ...            under each claim, written by `make findings`: when the claim was
                          stated (the author time of the commit that added it in this form: a
                          rebase keeps it) and its outcome in each
                          listed run, by machine; "confirmed" only by a run made after that
  ## Scenario changes     a line per change to what a claim measures, made after some listed
                          run:  - changed: 2026-11-28T14:00Z SUBJECT: what changed
                          SUBJECT: a scenario (its work), `floor` or `limit` (their work in
                          every scenario), or `order=aged` / `order=shuffled` (how that world is
                          built). A run started before the change is *not checked* on the claims
                          it touches (it measured another question), and says so.
  ## History              a line per claim weakened or dropped since the commit the section
                          names ("tracked since <commit>"), naming the run and machine that
                          failed it:  - `OLD` → `NEW` — run: results/<id>; machine: NAME; why
                          (`→ dropped` for a claim removed). A claim that leaves the file without
                          its line fails tests/scripts/test_report.py.

Claims, each on its own line (optionally a list item):
  claim: SCENARIO [name=value ...] N=SIZE A/B OP X   a bound on A's time per item over B's, A a
        strategy, B a strategy, floor, limit or fastest (the leader), OP one of <= < >= >
  claim: SCENARIO [name=value ...] N=SIZE fastest is S [significantly]
  claim: SCENARIO [name=value ...] N=SIZE A level B
name=value words pick the case whose parameters include them; without any, the defaults.

Outcomes (every verdict and interval is scripts/ecsb_stats.py's):
  holds          fastest is S: S is *faster* than every other layout; A level B: the run calls
                 them *level*; a bound: the pair's whole confidence interval (ecsb_stats's) lies on the
                 claimed side of X (and where the bound claims a margin, A/B >= X > 1 or
                 A/B <= X < 1, the run also calls that side *faster*)
  contradicted   the run decides the opposite: another layout is *faster* than S or *level* with
                 it; A and B are not level (one is *faster*); the whole interval lies on the other
                 side of X
  not confirmed  neither: the run cannot tell (with the repetitions a side that would)
  not checked    the run has no such scenario, size or strategy, or it was made before a
                 listed scenario change that touches the claim
"""
import datetime
import functools
import json
import math
import operator
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ecsb_rundata  # noqa: E402
from ecsb_rundata import base_scenario, human_bytes  # noqa: E402
from ecsb_cases import case_name, cell_of, param_set  # noqa: E402
import ecsb_stats as stats  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FINDINGS = os.path.join(TOP, "docs", "findings.md")
CLAIM_LINE = re.compile(r"^(\s*(?:[-*]\s+)?)claim:\s*(.*?)\s*$")
WHERE_LINE = re.compile(r"^\s+(?:[-*]\s+)?where:")
RUN_LINE = re.compile(r"^\s*[-*]\s+run:\s*(\S+)")
HISTORY_LINE = re.compile(r"^- `(?P<old>[^`]+)` → (?:`(?P<new>[^`]+)`|dropped) — run: "
                          r"(?P<run>[^;]+); machine: (?P<machine>[^;]+); (?P<why>.+)$")
CHANGE_LINE = re.compile(r"^- changed: (?P<when>\d{4}-\d\d-\d\dT\d\d:\d\dZ) "
                         r"(?P<subject>[A-Za-z0-9_=]+): (?P<what>.+)$")
SINCE = re.compile(r"tracked since (?:commit )?`?([0-9a-f]{7,40})`?")
RUN_ID_TIME = re.compile(r"(\d{8}T\d{6}Z)")
OPS = {"<=": operator.le, "<": operator.lt, ">=": operator.ge, ">": operator.gt}
RATIO = re.compile(r"^([A-Za-z0-9_]+)/([A-Za-z0-9_]+)$")

HOLDS, CONTRADICTED, NOT_CONFIRMED, NOT_CHECKED = \
    "holds", "contradicted", "not confirmed", "not checked"
MARKS = {HOLDS: "✓", CONTRADICTED: "✗", NOT_CONFIRMED: "?", NOT_CHECKED: "—"}


class FindingsError(Exception):
    pass


# ---- numbers ----------------------------------------------------------------------------------

def fmt3(x):
    """Three significant digits, zeros kept: 1.00, 0.987, 12.3, 153."""
    if x is None or not math.isfinite(x):
        return "—"
    if abs(x) >= 99.95:
        return f"{x:.0f}"
    return f"{x:#.3g}".rstrip(".")


def fmt_interval(ci):
    return f"{fmt3(ci[0])}–{fmt3(ci[1])}" if ci else "no interval"


def fmt_needed(n):
    return f"needs {n} repetitions a side" if n else \
        f"needs more than {stats.MAX_REPS} repetitions a side"


# ---- claims -----------------------------------------------------------------------------------

def parse_claim(text, where):
    words = text.split()
    if len(words) < 3:
        raise FindingsError(f"{where}: claim {text!r} is too short; want "
                            "'SCENARIO [name=value ...] N=SIZE A/B OP X' or "
                            "'SCENARIO [name=value ...] N=SIZE fastest is S'")
    scenario, rest = words[0], words[1:]
    params, n = set(), None
    while rest and "=" in rest[0]:
        name, _, value = rest.pop(0).partition("=")
        if name == "N":
            if not value.isdigit():
                raise FindingsError(f"{where}: N={value} is not a size")
            n = int(value)
            break
        params.add(f"{name}={value}")
    if n is None:
        raise FindingsError(f"{where}: claim {text!r} names no N=SIZE")
    base = {"scenario": scenario, "params": params, "n": n, "text": text}
    if len(rest) in (3, 4) and rest[:2] == ["fastest", "is"] \
            and rest[3:] in ([], ["significantly"]):
        return dict(base, kind="fastest", strategy=rest[2])
    if len(rest) == 3 and rest[1] == "level":
        return dict(base, kind="level", a=rest[0], b=rest[2])
    if len(rest) == 3 and RATIO.match(rest[0]) and rest[1] in OPS:
        try:
            bound = float(rest[2])
        except ValueError:
            raise FindingsError(f"{where}: {rest[2]!r} is not a number")
        if not math.isfinite(bound) or bound <= 0:
            raise FindingsError(f"{where}: bound {rest[2]!r} must be a positive ratio")
        a, b = RATIO.match(rest[0]).groups()
        return dict(base, kind="ratio", a=a, b=b, op=rest[1], bound=bound, written=rest[2])
    raise FindingsError(f"{where}: cannot read claim {text!r}; after N=SIZE want 'A/B OP X' "
                        f"(OP one of {' '.join(OPS)}), 'fastest is S [significantly]' or "
                        "'A level B'")


class Outcome:
    """A claim's outcome in one run: .state (HOLDS, CONTRADICTED, NOT_CONFIRMED, NOT_CHECKED),
    .says (what the run says, for the report), .ratio and .ci (of the pair a bound or level
    claim compares, else None), .needed (repetitions a side that would decide, when not
    confirmed; None: more than ecsb_stats.MAX_REPS)."""

    def __init__(self, state, says, ratio=None, ci=None, needed=None):
        self.state, self.says, self.ratio, self.ci, self.needed = state, says, ratio, ci, needed

    def short(self):
        """"✓ 1.01 (0.987–1.03)", "? 1.04 (0.99–1.09), needs 12 repetitions a side"."""
        text = MARKS[self.state]
        if self.ratio is not None:
            text += f" {fmt3(self.ratio)}" + (f" ({fmt_interval(self.ci)})" if self.ci else "")
        if self.state == NOT_CONFIRMED:
            text += f", {fmt_needed(self.needed)}"
        return text


def _case_of(all_cases, claim):
    matching = [c for c in all_cases if base_scenario(c[0]) == claim["scenario"]
                and (claim["params"] <= param_set(c[1]) or
                     claim["params"] <= param_set(c[0].partition("~")[2].replace(",", ";")))]
    if len(matching) > 1 and not claim["params"]:
        matching = [c for c in matching if "~" not in c[0]] or matching  # the defaults
    if not matching:
        return None, f"the run has no {claim['scenario']}" + (
            f" with {' '.join(sorted(claim['params']))}" if claim["params"] else "")
    if len(matching) > 1:
        return None, (f"{len(matching)} cases of {claim['scenario']} match: name their "
                      "parameters (" + "; ".join(c[1] for c in matching) + ")")
    if claim["n"] not in all_cases[matching[0]]:
        return None, f"{case_name(matching[0])} did not run at N = {claim['n']}"
    return matching[0], None


def _fastest(cell, claim):
    s = claim["strategy"]
    if s not in cell.names:
        return Outcome(NOT_CHECKED, f"{s} has no time at N = {claim['n']}")
    others = [o for o in cell.names if o != s]
    against = [o for o in others if cell.pair(s, o).verdict == stats.LEVEL
               or cell.pair(s, o).faster == o]
    if against:
        p = cell.pair(against[0], s)
        return Outcome(CONTRADICTED, f"fastest: {cell.leader}; {against[0]} against {s}: "
                       f"{fmt3(p.ratio)} ({fmt_interval(p.ci)}), {p.verdict}")
    untold = [o for o in others if cell.pair(s, o).verdict != stats.FASTER]
    if not untold:
        return Outcome(HOLDS, "*faster* than every other layout")
    needed = [cell.pair(s, o).needed for o in untold]
    p = cell.pair(untold[0], s)
    return Outcome(NOT_CONFIRMED, f"fastest: {cell.leader}; {untold[0]} against {s}: "
                   f"{fmt3(p.ratio)} ({fmt_interval(p.ci)}), undecidable",
                   needed=None if None in needed else max(needed))


def _bound(pair, claim, sides, reps):
    op, x = claim["op"], claim["bound"]
    ratio, ci = pair.ratio, pair.ci
    says = f"{fmt3(ratio)} ({fmt_interval(ci)})"
    if not ci:
        return Outcome(NOT_CONFIRMED, says + ": fewer than 2 repetitions", ratio, ci)
    below = op in ("<=", "<")
    lo, hi = ci
    inside = OPS[op](hi if below else lo, x)       # the whole interval on the claimed side
    outside = not OPS[op](lo if below else hi, x)  # the whole interval on the other side
    if outside:
        side = "above" if below else "below"
        return Outcome(CONTRADICTED, says + f": the whole interval is {side} {claim['written']}",
                       ratio, ci)
    # A claimed margin: which side it says is faster (None for a bound around 1)
    claimed = sides[1] if not below and x > 1 else sides[0] if below and x < 1 else None
    if inside and (claimed is None or (pair.verdict == stats.FASTER and pair.faster == claimed)):
        return Outcome(HOLDS, says, ratio, ci)
    if inside:
        return Outcome(NOT_CONFIRMED, says + f", {pair.words()}: a margin the run does not call "
                       "*faster*", ratio, ci, pair.needed)
    return Outcome(NOT_CONFIRMED, says + f": the interval straddles {claim['written']}", ratio, ci,
                   stats.reps_to_bound(pair, x, reps))


def touches(change, claim):
    """Whether a scenario change ({when, subject, what}) changes what a claim measures."""
    subject = change["subject"]
    if subject.startswith("order="):
        return subject in claim["params"]
    if subject in ("floor", "limit"):
        return subject in (claim.get("a"), claim.get("b"))
    return subject == claim["scenario"]


def check_claim(run, all_cases, claim, changes=()):
    """The Outcome of a parsed claim in a run (ecsb_rundata.Run; all_cases: ecsb_cases.cases;
    changes: the findings' scenario changes, Findings.changes)."""
    start = run_time(run.run_id)
    for change in changes:
        if start is not None and start < change["time"] and touches(change, claim):
            return Outcome(NOT_CHECKED, f"made before {change['subject']} changed "
                           f"({change['when']}: {change['what']})")
    case, why = _case_of(all_cases, claim)
    if case is None:
        return Outcome(NOT_CHECKED, why)
    n = claim["n"]
    cell = cell_of(run, case, n)
    if claim["kind"] == "fastest":
        return _fastest(cell, claim)
    sides = [cell.leader if x == "fastest" else x for x in (claim["a"], claim["b"])]
    for side, name in zip(sides, (claim["a"], claim["b"])):
        if side is None or not run.samples.get((case[0], side, n)):
            return Outcome(NOT_CHECKED, f"{name} has no time in {case_name(case)} at N = {n}")
    if sides[0] == sides[1]:
        ok = claim["kind"] == "ratio" and OPS[claim["op"]](1.0, claim["bound"])
        return Outcome(HOLDS if ok else CONTRADICTED, f"{claim['a']} is {claim['b']}", 1.0)
    pair = cell_of(run, case, n, *sides).pair(*sides)
    if claim["kind"] == "level":
        state = {stats.LEVEL: HOLDS, stats.FASTER: CONTRADICTED}.get(pair.verdict, NOT_CONFIRMED)
        return Outcome(state, f"{fmt3(pair.ratio)} ({fmt_interval(pair.ci)}), {pair.verdict}",
                       pair.ratio, pair.ci, pair.needed)
    reps = min(len(run.samples[(case[0], side, n)]) for side in sides)
    return _bound(pair, claim, sides, reps)


# ---- the findings file ------------------------------------------------------------------------

class Findings:
    """A findings file read: .path, .text, .runs (run folders as written), .claims
    [(line index, list prefix, parsed claim)], .history [{old, new, run, machine, why}],
    .since (the commit the history is tracked from, or None)."""

    def __init__(self, path, text=None):
        self.path = path
        if text is None:
            try:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
            except OSError as e:
                raise FindingsError(f"{path}: {e.strerror}; give the hand-written findings with "
                                    "--findings FILE")
        self.text = text
        self.lines = text.splitlines()
        self.runs, self.claims, self.history, self.held_on = [], [], [], {}
        self.changes = []
        section = ""
        for i, line in enumerate(self.lines):
            if line.startswith("## "):
                section = line[3:].strip().lower()
            m = CLAIM_LINE.match(line)
            if m:
                self.claims.append((i, m.group(1), parse_claim(m.group(2),
                                                               f"{path}:{i + 1}")))
            elif WHERE_LINE.match(line) and self.claims and self.claims[-1][0] == i - 1:
                self.held_on[self.claims[-1][2]["text"]] = held_on(line)
            elif section == "runs" and RUN_LINE.match(line):
                self.runs.append(RUN_LINE.match(line).group(1))
            elif section == "scenario changes" and line.startswith("- "):
                c = CHANGE_LINE.match(line)
                if not c:
                    raise FindingsError(
                        f"{path}:{i + 1}: a scenario change reads '- changed: "
                        "YYYY-MM-DDTHH:MMZ SUBJECT: what changed' (SUBJECT: a scenario, floor, "
                        "limit or order=aged / order=shuffled)")
                when = datetime.datetime.strptime(c.group("when"), "%Y-%m-%dT%H:%MZ")
                self.changes.append(dict(c.groupdict(), time=when.replace(
                    tzinfo=datetime.timezone.utc).timestamp()))
            elif section == "history" and line.startswith("- "):
                h = HISTORY_LINE.match(line)
                if not h:
                    raise FindingsError(
                        f"{path}:{i + 1}: a history line reads '- `OLD CLAIM` → `NEW CLAIM` "
                        "— run: results/<id>; machine: NAME; why' (or '→ dropped')")
                self.history.append(h.groupdict())
        since = SINCE.search(text)
        self.since = since.group(1) if since else None

    def claim_texts(self):
        return [c["text"] for _, _, c in self.claims]


def held_on(where):
    """The machines a where: line says the claim held (or was confirmed) on."""
    out = set()
    for part in where.split(" · ")[1:]:
        machine, _, said = part.partition(": ")
        if re.search(r"(?<!not )(?:held|confirmed) in ", said):
            out.add(machine.strip())
    return out


def claim_texts(text):
    """The claim texts of a findings text, unvalidated (for older versions from git)."""
    return [m.group(2) for m in map(CLAIM_LINE.match, text.splitlines()) if m]


def versions(path, since=None):
    """[(commit, author time (unix), text)] of the committed versions of path, newest first,
    back to the commit `since` (included); [] outside a git work tree or for a file git does
    not track."""
    top = os.path.dirname(os.path.abspath(path))
    try:
        r = subprocess.run(["git", "-C", top, "log", "--format=%H %at", "--",
                            os.path.basename(path)], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return []
    if r.returncode != 0:
        return []
    out = []
    for line in r.stdout.split("\n"):
        if not line.strip():
            continue
        commit, when = line.split()
        show = subprocess.run(["git", "-C", top, "show", f"{commit}:./{os.path.basename(path)}"],
                              capture_output=True, text=True)
        if show.returncode != 0:
            break
        out.append((commit, int(when), show.stdout))
        if since and commit.startswith(since):
            break
    return out


def stated(text, history):
    """(commit, time) of the commit from which the claim `text` has stood in the file unchanged
    to the newest version (`history`: versions()); None if the newest version lacks it."""
    found = None
    for commit, when, content in history:
        if text not in claim_texts(content):
            break
        found = (commit, when)
    return found


def unexplained(old_texts, findings):
    """The claims of earlier versions (their texts) missing from `findings` (a Findings) with no
    history line naming them as OLD: weakened or dropped silently."""
    now = set(findings.claim_texts())
    named = {h["old"].strip() for h in findings.history}
    missing = []
    for text in old_texts:
        for claim in claim_texts(text):
            if claim not in now and claim not in named and claim not in missing:
                missing.append(claim)
    return missing


def run_time(run_id):
    """The UTC start of a run from its id (20261127T120006Z-vm), as a unix time; None if the id
    has no such stamp."""
    m = RUN_ID_TIME.search(run_id or "")
    if not m:
        return None
    return datetime.datetime.strptime(m.group(1), "%Y%m%dT%H%M%SZ").replace(
        tzinfo=datetime.timezone.utc).timestamp()


# ---- machines ---------------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _raw_context(path):
    try:
        with open(os.path.join(path, "raw.json"), encoding="utf-8") as f:
            return json.load(f).get("context") or {}
    except (OSError, ValueError, AttributeError):
        return {}


def _context(run_dir, run=None):
    return run.context if run is not None else _raw_context(os.path.abspath(run_dir))


@functools.lru_cache(maxsize=None)
def _short_name(path):
    return ecsb_rundata.machine_short_name(path)


def machine_name(run_dir, run=None):
    """The run's machine's short name (ecsb_rundata.machine_short_name: machine.json's, else
    from raw.json's context), once per run folder."""
    return _short_name(os.path.abspath(run_dir))


def _machine_json(run_dir):
    try:
        with open(os.path.join(run_dir, "machine.json"), encoding="utf-8") as f:
            doc = json.load(f)
        return doc if isinstance(doc, dict) else {}
    except (OSError, ValueError):
        return {}


def machine_facts(run_dir, run=None):
    """{row: value} for the report's machine table: from the run's machine.json (the clock as
    measured, the caches from CPUID) where it has one, else from raw.json's context (Google
    Benchmark's clock and caches)."""
    ctx = _context(run_dir, run)
    machine = _machine_json(run_dir)
    caches = machine.get("caches") if isinstance(machine.get("caches"), list) else \
        ctx.get("caches") or []
    caches = [c for c in caches if isinstance(c, dict)
              and str(c.get("type", "")).lower() != "instruction"
              and str(c.get("size", "0")).isdigit()]
    cflags = str(ctx.get("ecsb_cflags") or "")
    level = re.findall(r"(?<!\S)-O\w*", cflags)
    clock = machine.get("clock") if isinstance(machine.get("clock"), dict) else {}
    measured = clock.get("mhz") if isinstance(clock.get("mhz"), (int, float)) else None
    mhz = ctx.get("mhz_per_cpu")
    # a run still in its staging folder (.incomplete-...) is named by the id it will have
    run_id = run.run_id if run is not None else os.path.basename(os.path.abspath(run_dir))
    return {
        "machine": machine_name(run_dir, run),
        "clock": f"{measured:.0f} MHz measured" if measured else
        f"{mhz} MHz" if mhz else "not recorded",
        "caches": ", ".join(f"L{c.get('level')}"
                            f"{'d' if str(c.get('type', '')).lower() == 'data' else ''} "
                            f"{human_bytes(int(c.get('size', 0)))}" for c in caches)
        or "none reported",
        "compiler": f"{ctx.get('ecsb_compiler') or 'unknown'}"
                    + (f" {level[-1]}" if level else ""),
        "seed": str(ctx.get("ecsb_seed")) if ctx.get("ecsb_seed") not in (None, "") else
        "not recorded",
        "run": f"{run_id}, {str(ctx.get('date') or '?')[:16].replace('T', ' ')}",
    }
