#!/usr/bin/env python3
"""report.py — a run's report.md: what the run found, generated from its files, plus the
hand-written findings (docs/findings.md) with every claim in them checked against the run.

Usage: report.py RUN_DIR [--findings FILE] [-o FILE | -o -] [--strict]

The run is read as summary.py reads it (scripts/ecsb_rundata.py); every verdict comes from
scripts/ecsb_stats.py, whose FAMILY sentence the report prints. A case is a scenario run with
one parameter set: its defaults, or a variant (scenario~name=value,..., shown as
"scenario (name=value,...)"). Sections:
  - the hand-written findings, each claim marked: holds / does not hold / not checked;
  - per case one table: a row per line, a column per N; the leader's median time, every other
    line's ratio to it marked with its verdict, and the margin of the runner-up with its
    confidence interval;
  - per strategy: where it leads (and where it is faster than every other layout), where it is
    level with the leader, where it is furthest behind, its range against the floor, and what
    failed — all from the run.

Claims are lines of the findings file (optionally list items) of three forms:
  claim: SCENARIO [name=value ...] N=SIZE A/B OP X   the ratio of A's median time per item to
        B's, where A is a strategy, B a strategy, floor, limit or fastest (the leader), OP one
        of <= < >= >. A claim of a margin (A/B above a bound over 1, or below one under 1) holds
        only when the run also calls that difference *faster*; a bound (A/B <= 1.1) does not
        need a verdict.
  claim: SCENARIO [name=value ...] N=SIZE fastest is S [significantly]
        S leads there and is *faster* than every other layout ("significantly" is implied)
  claim: SCENARIO [name=value ...] N=SIZE A level B
        the run calls A and B *level* (the confidence interval of A/B within ±5 %)
A pair with the floor or limit is decided in the cell's family with that line added.
name=value words pick the case whose parameters include them; without any, the defaults. Every
other line of the file is copied as written.

Writes RUN_DIR/report.md (by default; -o - for stdout), whatever the claims say. Exit status:
0 every claim holds (or cannot be checked against this run: its scenario, size or strategy is
not in it), 1 a claim does not hold (with --strict, also one that cannot be checked), 2 an
unusable run or findings file (the message says why).
"""
import argparse
import operator
import os
import re
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ecsb_rundata import FLOOR, REFERENCES, RunError, base_scenario, label, load_run  # noqa: E402
import ecsb_stats as stats  # noqa: E402
from summary import fmt_ns, md_cell, n_text  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FINDINGS = os.path.join(TOP, "docs", "findings.md")
CLAIM_LINE = re.compile(r"^(\s*(?:[-*]\s+)?)claim:\s*(.*?)\s*$")
OPS = {"<=": operator.le, "<": operator.lt, ">=": operator.ge, ">": operator.gt}
RATIO = re.compile(r"^([A-Za-z0-9_]+)/([A-Za-z0-9_]+)$")


class FindingsError(Exception):
    pass


# ---- the run as cases -----------------------------------------------------------------------

def cases(run):
    """{(scenario, params): [N, ...]} in the run's scenario order, params in order of appearance."""
    out = {}
    for sc in run.scenarios:
        for n in run.sizes(sc):
            for st in run.strategies:
                key = (sc, st, n)
                if key in run.rows or key in run.errors:
                    sizes = out.setdefault((sc, run.params_of(key)), [])
                    if n not in sizes:
                        sizes.append(n)
    return out


def case_name(case):
    """A variant (scenario~name=value,...) as "scenario (name=value,...)"; the defaults plain."""
    sc, params = case
    if "~" in sc:
        base, changed = sc.split("~", 1)
        return f"{base} ({changed})"
    return sc


def param_set(params):
    return {p.strip() for p in params.split(";") if p.strip()}


def cell_of(run, case, n, *extra):
    """The ecsb_stats cell of (case, n); with extra reference lines (floor, limit) added to
    its layouts when a claim compares against them."""
    lines = run.contenders() + [x for x in extra if x in REFERENCES]
    return stats.cell(run, case[0], n, lines if extra else None)


def median(run, case, strategy, n):
    key = (case[0], strategy, n)
    t = run.time_per_item(key)
    return t["median"] if t and run.params_of(key) == case[1] else None


# ---- claims ---------------------------------------------------------------------------------

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
    if len(rest) in (3, 4) and rest[:2] == ["fastest", "is"] \
            and rest[3:] in ([], ["significantly"]):
        return {"scenario": scenario, "params": params, "n": n, "kind": "fastest",
                "strategy": rest[2], "significantly": len(rest) == 4, "text": text}
    if len(rest) == 3 and rest[1] == "level":
        return {"scenario": scenario, "params": params, "n": n, "kind": "level",
                "a": rest[0], "b": rest[2], "text": text}
    if len(rest) == 3 and RATIO.match(rest[0]) and rest[1] in OPS:
        try:
            bound = float(rest[2])
        except ValueError:
            raise FindingsError(f"{where}: {rest[2]!r} is not a number")
        a, b = RATIO.match(rest[0]).groups()
        return {"scenario": scenario, "params": params, "n": n, "kind": "ratio", "a": a,
                "b": b, "op": rest[1], "bound": bound, "text": text}
    raise FindingsError(f"{where}: cannot read claim {text!r}; after N=SIZE want 'A/B OP X' "
                        f"(OP one of {' '.join(OPS)}), 'fastest is S [significantly]' or "
                        "'A level B'")


def check_claim(run, all_cases, claim):
    """(state, what this run says): state "holds", "fails" or "unchecked"."""
    matching = [c for c in all_cases if base_scenario(c[0]) == claim["scenario"]
                and (claim["params"] <= param_set(c[1]) or
                     claim["params"] <= param_set(c[0].partition("~")[2].replace(",", ";")))]
    if len(matching) > 1 and not claim["params"]:
        matching = [c for c in matching if "~" not in c[0]] or matching  # the defaults
    if not matching:
        return "unchecked", f"the run has no {claim['scenario']}" + (
            f" with {' '.join(sorted(claim['params']))}" if claim["params"] else "")
    if len(matching) > 1:
        return "unchecked", (f"{len(matching)} cases of {claim['scenario']} match: name their "
                             "parameters (" + "; ".join(c[1] for c in matching) + ")")
    case, n = matching[0], claim["n"]
    if n not in all_cases[case]:
        return "unchecked", f"{case_name(case)} did not run at N = {n}"
    cell = cell_of(run, case, n)
    if claim["kind"] == "fastest":
        if not cell.leader:
            return "unchecked", f"no strategy has a time at N = {n}"
        who = cell.leader
        undecided = [s for s in cell.names[1:] if cell.pair(s, who).verdict != stats.FASTER]
        if who != claim["strategy"]:
            return "fails", f"fastest: {who}"
        if undecided:
            return "fails", (f"fastest: {who}, but against {undecided[0]} "
                             f"{cell.pair(undecided[0], who).words()}: restate as a level or "
                             "bound finding")
        return "holds", f"fastest: {who}, *faster* than every other layout"
    sides = [cell.leader if x == "fastest" else x for x in (claim["a"], claim["b"])]
    for side, name in zip(sides, (claim["a"], claim["b"])):
        if side is None or median(run, case, side, n) is None:
            return "unchecked", f"{name} has no time in {case_name(case)} at N = {n}"
    if sides[0] == sides[1]:
        return ("holds" if claim["kind"] == "ratio" and OPS[claim["op"]](1.0, claim["bound"])
                else "fails"), f"{claim['a']} is {claim['b']}"
    pair = cell_of(run, case, n, *sides).pair(*sides)
    if claim["kind"] == "level":
        says = f"{stats.fmt_ratio(pair.ratio)} ({stats.fmt_ci(pair.ci)}), {pair.words()}"
        return ("holds" if pair.verdict == stats.LEVEL else "fails"), says
    ratio = median(run, case, sides[0], n) / median(run, case, sides[1], n)
    ok = OPS[claim["op"]](ratio, claim["bound"])
    # A claimed margin: which side it says is faster (None for a bound)
    claimed = sides[1] if claim["op"] in (">=", ">") and claim["bound"] > 1 else \
        sides[0] if claim["op"] in ("<=", "<") and claim["bound"] < 1 else None
    if claimed is None:
        return ("holds" if ok else "fails"), f"{ratio:.3g}"
    decided = pair.verdict == stats.FASTER and pair.faster == claimed
    says = f"{ratio:.3g}, {pair.words()}"
    if ok and not decided:
        says += ": a margin the run does not call *faster*"
    return ("holds" if ok and decided else "fails"), says


def findings_section(run, all_cases, path):
    """(markdown lines, {state: count}) of the findings file with its claims checked."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise FindingsError(f"{path}: {e.strerror}; give the hand-written findings with "
                            "--findings FILE")
    out, counts = [], {"holds": 0, "fails": 0, "unchecked": 0}
    mark = {"holds": "✓ holds", "fails": "✗ **does not hold**", "unchecked": "? not checked"}
    for lineno, line in enumerate(text.splitlines(), start=1):
        m = CLAIM_LINE.match(line)
        if not m:
            # The file's title gives way to the section's; its other headings move down a level.
            if not re.match(r"^# ", line):
                out.append(re.sub(r"^(#{2,5}) ", r"\1# ", line))
            continue
        claim = parse_claim(m.group(2), f"{path}:{lineno}")
        state, says = check_claim(run, all_cases, claim)
        counts[state] += 1
        out.append(f"{m.group(1)}`{claim['text']}` — {mark[state]} (this run: {says})")
    while out and not out[0].strip():
        out.pop(0)
    return out, counts


# ---- generated sections ---------------------------------------------------------------------

def times_x(v):
    return f"{v:.2f}x" if v < 10 else f"{v:.3g}x"


def shown_sizes(sizes):
    """The columns of a case's table: every N of a case run at three sizes or fewer; else the
    articles' N = 4000 (or the size nearest it) and the largest, so the report stays a page per
    case (report.md under 40 KB with three world orders)."""
    if len(sizes) <= 3:
        return list(sizes)
    near = min(sizes, key=lambda n: (abs(n - 4000), n))
    return sorted({near, max(sizes)})


def case_table(run, case, sizes):
    """A row per line, a column per N: the leader's median ns per item in bold, every other
    line's ratio to it with its mark (= level, ? undecidable, none: the leader is faster; ⚠
    drift), then the runner-up's margin with its CI and verdict."""
    item = run.item(case[0])
    out = [f"| ns per {item}, × leader | " + " | ".join(n_text(n) for n in sizes) + " |",
           "| --- |" + " ---: |" * len(sizes)]
    cells = {n: cell_of(run, case, n) for n in sizes}
    for s in run.strategies:
        row = []
        for n in sizes:
            c, mine = cells[n], median(run, case, s, n)
            if mine is None:
                failed = (case[0], s, n) in run.errors and run.params_of((case[0], s, n)) == case[1]
                row.append("**failed**" if failed else "—")
                continue
            lead = c.leader and median(run, case, c.leader, n)
            text = f"**{fmt_ns(mine)}**" if s == c.leader else \
                (stats.fmt_ratio(mine / lead) if lead else fmt_ns(mine)) + \
                ("" if s in REFERENCES else c.mark(s))
            row.append(text + (" ⚠" if run.drifted((case[0], s, n)) else ""))
        if any(x != "—" for x in row):
            out.append(f"| {md_cell(label(s))} | " + " | ".join(row) + " |")
    margins = []
    for n in sizes:
        c = cells[n]
        r = c.runner_up()
        if not r:
            margins.append("—")
            continue
        p = c.pair(r, c.leader)
        mark = {stats.FASTER: " faster", stats.LEVEL: " ="}.get(
            p.verdict, f" ?{p.needed}" if p.needed else f" ?>{stats.MAX_REPS}")
        margins.append(f"{stats.fmt_ratio(p.ratio)} ({stats.fmt_ci(p.ci)}){mark}")
    out.append("| *runner-up's margin (95 % CI)* | " + " | ".join(margins) + " |")
    return out


def by_case(all_cases, cells):
    """"a at every N; b at 4,000 and 65,536 (1.02–1.10x)" from [(case, n, ratio or None)]."""
    grouped = {}
    for case, n, ratio in cells:
        grouped.setdefault(case, []).append((n, ratio))
    parts = []
    for case, got in grouped.items():
        sizes = [n for n, _ in got]
        where = "every N" if sizes == all_cases[case] and len(sizes) > 1 else \
            " and ".join(n_text(n) for n in sizes) if len(sizes) < 3 else \
            ", ".join(n_text(n) for n in sizes[:-1]) + " and " + n_text(sizes[-1])
        ratios = [r for _, r in got if r is not None]
        note = ""
        if ratios:
            lo, hi = min(ratios), max(ratios)
            note = f" ({lo:.2f}x)" if f"{lo:.2f}" == f"{hi:.2f}" else f" ({lo:.2f}–{hi:.2f}x)"
        parts.append((case, where, note))
    # a scenario whose every world order (and nothing else) reads alike: one entry
    worlds = {}
    for case, where, note in parts:
        base, _, changed = case[0].partition("~")
        if not note and (not changed or (changed.startswith("order=") and "," not in changed)):
            worlds.setdefault((base, where), []).append(case)
    orders = {}
    for case in all_cases:
        base, _, changed = case[0].partition("~")
        if not changed or (changed.startswith("order=") and "," not in changed):
            orders.setdefault(base, set()).add(case)
    out, merged = [], set()
    for case, where, note in parts:
        base = case[0].partition("~")[0]
        same = worlds.get((base, where), [])
        if len(orders.get(base, ())) > 1 and set(same) == orders[base]:
            if (base, where) not in merged:
                merged.add((base, where))
                out.append(f"{base} in every world at {where}")
            continue
        out.append(f"{case_name(case)} at {where}{note}")
    return "; ".join(out)


def strategy_paragraph(run, all_cases, st):
    led, decided, level, behind, floors, failed = [], [], [], [], [], []
    cells = 0
    for case, sizes in all_cases.items():
        for n in sizes:
            if run.failed((case[0], st, n)) and run.params_of((case[0], st, n)) == case[1]:
                failed.append((case, n, None))
                continue
            mine, c = median(run, case, st, n), cell_of(run, case, n)
            if not mine or not c.leader:
                continue
            cells += 1
            ratio = mine / median(run, case, c.leader, n)
            if c.leader == st:
                led.append((case, n, None))
                if all(c.pair(s, st).verdict == stats.FASTER for s in c.names[1:]):
                    decided.append((case, n, None))
            elif c.pair(st, c.leader).verdict == stats.LEVEL:
                level.append((case, n, ratio))
            behind.append((ratio, case, n))
            floor = median(run, case, FLOOR, n)
            if floor:
                floors.append(mine / floor)
    if not cells and not failed:
        return []
    if led:
        undecided = [x for x in led if x not in decided]
        text = (f"**{st}** leads in {len(led)} of {cells} cells: {by_case(all_cases, led)}. "
                + ("*Faster* than every other layout in all of them." if not undecided else
                   f"*Faster* than every other layout in {len(decided)}, all but "
                   f"{by_case(all_cases, undecided)}." if len(undecided) < len(decided) else
                   f"*Faster* than every other layout in {len(decided)}: "
                   f"{by_case(all_cases, decided)}." if decided else
                   "In none of them *faster* than every other layout."))
    else:
        text = f"**{st}** leads in none of its {cells} cells."
    if level:
        text += (f" *Level* with the leader in {len(level)}{' more' if led else ''}: "
                 f"{by_case(all_cases, level)}.")
    if behind:
        ratio, case, n = max(behind)
        if ratio > stats.MARGIN:
            text += (f" Furthest behind: {case_name(case)} at {n_text(n)} "
                     f"({times_x(ratio)} the leader's time).")
    if floors:
        text += (f" Against the floor: {times_x(min(floors))} to {times_x(max(floors))} "
                 f"(geometric mean {times_x(stats.geomean(floors))}).")
    if failed:
        text += f" Failed: {by_case(all_cases, failed)}."
    return [text, ""]


def report(run_dir, findings=FINDINGS):
    """(markdown, {state: count} of the claims)."""
    run = load_run(run_dir)
    all_cases = cases(run)
    ctx = run.context
    out = [f"# ecsbench report: run {run.run_id}", "",
           f"{run.date()}, {run.host()}" + (f" ({run.cpu()})" if run.cpu() else "")
           + f", {ctx.get('ecsb_repetitions', '?')} repetitions. Generated by scripts/report.py "
           f"from the run's files (`make report RUN=results/{run.run_id}`); the answer per "
           "workload is in [choose.md](choose.md), the run's provenance, plots and errors in "
           "[summary.md](summary.md).", "", stats.FAMILY, ""]
    lines, counts = findings_section(run, all_cases, findings)
    out += ["## Findings (hand-written, checked against this run)", "",
            f"From {os.path.relpath(findings, TOP) if findings.startswith(TOP) else findings}: "
            f"{counts['holds']} claims hold, {counts['fails']} do not, "
            f"{counts['unchecked']} cannot be checked against this run.", ""] + lines + [""]
    out += ["## Per case", "",
            "A row per line, a column per N: the leader's median time per item in bold, every "
            "other line's median / the leader's, marked *=* level with it, *?* undecidable "
            "against it, no mark when the leader is *faster* (the floor and limit, references "
            "outside the family, are unmarked); *⚠* the line's timed passes still drifted. Last row: the runner-up's median / the leader's, its 95 % "
            "confidence interval and verdict (*?23*: undecidable, 23 repetitions a side would "
            f"tell; *?>{stats.MAX_REPS}*: more than {stats.MAX_REPS}). A case run at more than "
            "three sizes (the articles' sweep) shows N = 4000 and its largest N here; "
            "[summary.md](summary.md) and the charts have every N.", ""]
    described = set()
    for case, sizes in all_cases.items():
        out += [f"### {case_name(case)}", ""]
        summary = run.meta.scenarios.get(case[0], {}).get("summary")
        if summary and base_scenario(case[0]) not in described:  # once per scenario
            described.add(base_scenario(case[0]))
            out += [summary, ""]
        out += case_table(run, case, shown_sizes(sizes)) + [""]
    out += ["## Per strategy", "",
            "Over every case and N of the run (a *cell*): where each strategy leads (and where "
            "it is *faster* than every other layout), where it is *level* with the leader, "
            "where it is furthest behind, and its time against the floor's.", ""]
    for st in run.contenders():
        out += strategy_paragraph(run, all_cases, st)
    return "\n".join(out), counts


def main(argv=None):
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    parser = argparse.ArgumentParser(description="write a run's report.md and check the "
                                     "hand-written findings against the run")
    parser.add_argument("run_dir", help="results/<run-id>")
    parser.add_argument("--findings", default=FINDINGS,
                        help="the hand-written findings with claims (default docs/findings.md)")
    parser.add_argument("-o", "--output", help="where to write (default RUN_DIR/report.md; - "
                        "for stdout)")
    parser.add_argument("--strict", action="store_true",
                        help="a claim that cannot be checked against the run fails too")
    args = parser.parse_args(argv)
    if not args.run_dir:
        print("report: error: no run given; usage: make report RUN=results/<id>", file=sys.stderr)
        return 2
    try:
        text, counts = report(args.run_dir, args.findings)
    except (RunError, FindingsError) as e:
        print(f"report: error: {e}", file=sys.stderr)
        return 2
    output = args.output or os.path.join(args.run_dir, "report.md")
    if output == "-":
        sys.stdout.write(text)
    else:
        tmp = f"{output}.tmp-{os.getpid()}"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, output)
    bad = counts["fails"] + (counts["unchecked"] if args.strict else 0)
    if bad:
        print(f"report: {counts['fails']} claim(s) of {args.findings} do not hold in "
              f"{args.run_dir}" + (f", {counts['unchecked']} cannot be checked" if args.strict
                                   and counts["unchecked"] else "")
              + f" (marked in {output if output != '-' else 'the report'})", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
