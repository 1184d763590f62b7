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

The findings file's format, its claims and the check's outcomes (holds / contradicted / not
confirmed / not checked) are scripts/ecsb_findings.py's. The findings section opens with a
table of the reference machines (those of the runs the findings list) against this run's
machine; the claims follow, each with its outcome and what this run says (ratios and intervals
to three significant digits). The findings' where: lines, runs list and history stay in the
file; every other line is copied as written.

Writes RUN_DIR/report.md (by default; -o - for stdout), whatever the claims say. Exit status:
0 no claim is contradicted where it held before; 1 a claim is contradicted on a machine its
where: line says it held on (a claim without one: on any machine of the runs the findings list);
on other hardware a contradiction reads as *not confirmed here* and exits 0; with --strict, 1
unless every claim holds; 2 an unusable run or findings file (the message says why).
"""
import argparse
import os
import re
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ecsb_rundata import FLOOR, REFERENCES, RunError, base_scenario, label, load_run  # noqa: E402
from ecsb_cases import case_name, cases, cell_of, median  # noqa: E402
import ecsb_findings as F  # noqa: E402
from ecsb_findings import FindingsError  # noqa: E402
import ecsb_quality  # noqa: E402
import ecsb_stats as stats  # noqa: E402
from summary import fmt_ns, md_cell, n_text  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FINDINGS = F.FINDINGS


# ---- the findings --------------------------------------------------------------------------

MARK = {F.HOLDS: "✓ holds", F.CONTRADICTED: "✗ **contradicted**",
        F.NOT_CONFIRMED: "? not confirmed", F.NOT_CHECKED: "· not checked"}


def machine_table(run, findings):
    """"The reference machine against this machine": a column per machine of the runs the
    findings name (their first run on it; this run itself is not shown twice) and one for
    this run."""
    columns, seen = [], set()
    for listed in findings.runs:
        path = listed if os.path.isabs(listed) else os.path.join(TOP, listed)
        if not os.path.isdir(path):
            continue
        facts = F.machine_facts(path)
        if facts["machine"] not in seen:
            seen.add(facts["machine"])
            if os.path.realpath(path) != os.path.realpath(run.path):  # not this run itself
                columns.append((f"reference: {os.path.basename(path)}", facts))
    mine = F.machine_facts(run.path, run)
    columns.append(("this run", mine))
    rows = list(mine)
    out = ["| | " + " | ".join(md_cell(title) for title, _ in columns) + " |",
           "| --- |" + " --- |" * len(columns)]
    for row in rows:
        out.append(f"| {row} | " + " | ".join(md_cell(facts[row]) for _, facts in columns) + " |")
    same = mine["machine"] in seen
    if not findings.runs:
        note = "The findings name no reference run."
    elif same:
        note = ("This run's machine is a reference machine: a claim contradicted here that held "
                "on it before fails the check.")
    else:
        note = ("This machine is none of the reference machines: a claim that does not hold "
                "here reads as *not confirmed here*, not as an error — the findings are measured "
                "facts about the machines named, and other hardware (clock, caches, compiler) "
                "may rank the layouts otherwise.")
    return out + ["", note], same


def findings_section(run, all_cases, findings, machine, reference=True):
    """(markdown lines, {state: count}, failing) of the findings file with its claims checked.
    The generated where: lines and the history are left to the file. A contradicted claim fails
    (counted in failing) where it held before: on this run's machine by its where: line, or,
    for a claim without one, on a reference machine (reference True); elsewhere it is marked
    "contradicted here": other hardware, not confirmed here."""
    out, counts, failing = [], {s: 0 for s in MARK}, 0
    claims = {i: (prefix, claim) for i, prefix, claim in findings.claims}
    section = None  # the file's preamble (before its first section) describes the file
    for i, line in enumerate(findings.lines):
        if line.startswith("## "):
            section = line[3:].strip().lower()
        if i not in claims and (section in (None, "history", "runs")
                                or F.WHERE_LINE.match(line)):
            continue
        if i not in claims:
            # The file's headings move down a level.
            out.append(re.sub(r"^(#{2,5}) ", r"\1# ", line))
            continue
        prefix, claim = claims[i]
        outcome = F.check_claim(run, all_cases, claim, findings.changes)
        counts[outcome.state] += 1
        says = outcome.says + (f", {F.fmt_needed(outcome.needed)}"
                               if outcome.state == F.NOT_CONFIRMED else "")
        mark = MARK[outcome.state]
        if outcome.state == F.CONTRADICTED:
            held = findings.held_on.get(claim["text"])
            if (machine in held) if held is not None else reference:
                failing += 1
            else:
                mark = "✗ contradicted here"
        out.append(f"{prefix}`{claim['text']}` — {mark}: {says}")
    while out and not out[0].strip():
        out.pop(0)
    return out, counts, failing


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
    out.append("| *runner-up, 90 % CI* | " + " | ".join(margins) + " |")
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
    """(markdown, {state: count} of the claims, whether this run's machine is a reference
    machine)."""
    run = load_run(run_dir)
    all_cases = cases(run)
    ctx = run.context
    found = F.Findings(findings)
    banner = ecsb_quality.banner_markdown(run_dir, run)
    out = [f"# ecsbench report: run {run.run_id}", ""] + ([banner, ""] if banner else []) + [
           f"Machine: {F.machine_name(run.path)}", "",
           f"{run.date()}, {run.host()}" + (f" ({run.cpu()})" if run.cpu() else "")
           + f", {ctx.get('ecsb_repetitions', '?')} repetitions. Generated by scripts/report.py "
           f"from the run's files (`make report RUN=results/{run.run_id}`); the answer per "
           "workload is in [choose.md](choose.md), the run's provenance, plots and errors in "
           "[summary.md](summary.md).", ""]
    table, same = machine_table(run, found)
    machine = F.machine_name(run.path, run)
    name = os.path.relpath(findings, TOP) if os.path.abspath(findings).startswith(TOP + os.sep) \
        else findings
    out += ["## The reference machine against this machine", ""] + table + \
        ["", stats.family_sentence(run), ""]
    lines, counts, failing = findings_section(run, all_cases, found, machine, same)
    out += ["## Findings (hand-written, checked against this run)", "",
            f"From {name}: {counts[F.HOLDS]} claims hold, {counts[F.CONTRADICTED]} are "
            f"contradicted, {counts[F.NOT_CONFIRMED]} not confirmed (the run cannot tell), "
            f"{counts[F.NOT_CHECKED]} cannot be checked against this run (a bound holds when "
            f"its whole {round(stats.CONFIDENCE * 100)} % interval is on the claimed side).", ""] + lines + [""]
    out += ["## Per case", "",
            "A row per line, a column per N: the leader's median time per item in bold, every "
            "other line's median / the leader's, marked *=* level with it, *?* undecidable "
            "against it, no mark when the leader is *faster* (the floor and limit, references, "
            "are unmarked); *⚠* the line's timed passes still drifted. Last row: the "
            "runner-up's geometric mean / the leader's, its 90 % interval and verdict (*?23*: "
            "undecidable, 23 repetitions a side would tell; "
            f"*?>{stats.MAX_REPS}*: more than {stats.MAX_REPS}). A case with more than three "
            "sizes shows N = 4000 and its largest N ([summary.md](summary.md) has every N).", ""]
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
    return "\n".join(out), counts, failing


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
                        help="exit 1 unless every claim holds (not confirmed or not checked fail too)")
    args = parser.parse_args(argv)
    if not args.run_dir:
        print("report: error: no run given; usage: make report RUN=results/<id>", file=sys.stderr)
        return 2
    try:
        text, counts, failing = report(args.run_dir, args.findings)
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
    where = output if output != "-" else "the report"
    contradicted, short = counts[F.CONTRADICTED], sum(counts.values()) - counts[F.HOLDS]
    if args.strict and short:
        print(f"report: {short} claim(s) of {args.findings} do not hold in {args.run_dir} "
              f"({contradicted} contradicted, {counts[F.NOT_CONFIRMED]} not confirmed, "
              f"{counts[F.NOT_CHECKED]} not checked; marked in {where})", file=sys.stderr)
        return 1
    if failing:
        print(f"report: {failing} claim(s) of {args.findings} contradicted in {args.run_dir}, "
              f"on a machine where they held (marked in {where})", file=sys.stderr)
        return 1
    if contradicted:
        print(f"report: {contradicted} claim(s) of {args.findings} contradicted here, on "
              f"hardware where they never held: not confirmed here (marked in {where})",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
