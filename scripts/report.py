#!/usr/bin/env python3
"""report.py — a run's report.md: what the run found, generated from its files, plus the
hand-written findings (docs/findings.md) with every claim in them checked against the run.

Usage: report.py RUN_DIR [--findings FILE] [-o FILE | -o -] [--strict]

The run is read as summary.py reads it (scripts/ecsb_rundata.py); the leaders and their
significance come from scripts/ecsb_overview.py's choices() (SciPy's U test, Holm-adjusted
over every (case, N) of the report). A case is a scenario run with one parameter set: its
defaults, or a variant (scenario~name=value,..., shown as "scenario (name=value,...)"). Sections:
  - the hand-written findings, each claim marked: holds / does not hold / not checked;
  - per case: at every N who leads, by how much over the runner-up and whether that is
    significant, then a table per N (median time per item, min–max, x fastest, x floor);
  - per strategy: where it leads, where it is within 1.2x of the leader, where it is furthest
    behind, its range against the floor, and what failed — all from the run.

Claims are lines of the findings file (optionally list items) of two forms:
  claim: SCENARIO [name=value ...] N=SIZE A/B OP X   the ratio of A's median time per item to
        B's, where A is a strategy, B a strategy, floor, limit or fastest, OP one of <= < >= >
  claim: SCENARIO [name=value ...] N=SIZE fastest is S [significantly]
        S leads there (and, with "significantly", its lead over the runner-up is significant
        after Holm's correction over the report's cells)
name=value words pick the case whose parameters include them; without any, the defaults. Every other line of the file is
copied as written.

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
from ecsb_overview import WITHIN, choices  # noqa: E402
from ecsb_rundata import FLOOR, LIMIT, RunError, base_scenario, label, load_run  # noqa: E402
from ecsb_stats import fmt_p, geomean  # noqa: E402
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


def leads(run, all_cases):
    """{(case, n): choices() row}: leader, runner-up, margin, Holm-adjusted p, verdict."""
    cells = [(sc, n, params) for (sc, params), sizes in all_cases.items() for n in sizes]
    rows, note = choices(run, cells=cells)
    return {((r["scenario"], r["params"]), r["n"]): r for r in rows}, note


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
    if len(rest) == 3 and RATIO.match(rest[0]) and rest[1] in OPS:
        try:
            bound = float(rest[2])
        except ValueError:
            raise FindingsError(f"{where}: {rest[2]!r} is not a number")
        a, b = RATIO.match(rest[0]).groups()
        return {"scenario": scenario, "params": params, "n": n, "kind": "ratio", "a": a,
                "b": b, "op": rest[1], "bound": bound, "text": text}
    raise FindingsError(f"{where}: cannot read claim {text!r}; after N=SIZE want 'A/B OP X' "
                        f"(OP one of {' '.join(OPS)}) or 'fastest is S [significantly]'")


def check_claim(run, all_cases, lead, claim):
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
    row = lead[(case, n)]
    if claim["kind"] == "fastest":
        if not row["fastest"]:
            return "unchecked", f"no strategy has a time at N = {n}"
        who = row["fastest"][0]
        says = f"fastest: {who}" + (f", {p_is(row['p_holm'])} ({row['verdict']})"
                                    if row["runner_up"] else "")
        ok = who == claim["strategy"] and (row["verdict"] == "significant"
                                           or not claim["significantly"])
        return ("holds" if ok else "fails"), says
    times = {}
    for side in (claim["a"], claim["b"]):
        times[side] = row["fastest"][1] if side == "fastest" and row["fastest"] else \
            median(run, case, side, n)
        if times[side] is None:
            return "unchecked", f"{side} has no time in {case_name(case)} at N = {n}"
    ratio = times[claim["a"]] / times[claim["b"]]
    ok = OPS[claim["op"]](ratio, claim["bound"])
    return ("holds" if ok else "fails"), f"{ratio:.3g}"


def findings_section(run, all_cases, lead, path):
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
        state, says = check_claim(run, all_cases, lead, claim)
        counts[state] += 1
        out.append(f"{m.group(1)}`{claim['text']}` — {mark[state]} (this run: {says})")
    while out and not out[0].strip():
        out.pop(0)
    return out, counts


# ---- generated sections ---------------------------------------------------------------------

def p_is(p):
    """"p = 0.012" or "p < 0.001"."""
    text = fmt_p(p)
    return f"p {text[0]} {text[1:]}" if text.startswith("<") else f"p = {text}"


def times_x(v):
    return f"{v:.2f}x" if v < 10 else f"{v:.3g}x"


def case_findings(run, case, sizes, lead):
    item = run.item(case[0])
    out = []
    for n in sizes:
        row = lead[(case, n)]
        failed = f" Failed: {', '.join(row['failed'])}." if row["failed"] else ""
        if not row["fastest"]:
            out.append(f"- N = {n_text(n)}: no strategy has a time.{failed}")
            continue
        who, t = row["fastest"]
        floor = median(run, case, FLOOR, n)
        text = (f"- N = {n_text(n)}: **{who}** leads at {fmt_ns(t)} ns per {item}"
                + (f" ({times_x(t / floor)} the floor)" if floor else ""))
        if row["runner_up"]:
            text += (f", {times_x(row['margin'])} ahead of {row['runner_up'][0]} "
                     f"({p_is(row['p_holm'])}, {row['verdict']})")
            others = [(s, m / t) for s in run.contenders() if s not in (who, row["runner_up"][0])
                      for m in [median(run, case, s, n)] if m]
            if others:
                text += "; then " + ", ".join(f"{s} {times_x(r)}" for s, r in
                                              sorted(others, key=lambda x: x[1]))
        out.append(text + "." + failed)
    return out


def case_table(run, case, sizes):
    item = run.item(case[0])
    out = [f"| N | strategy | ns per {item}: median | min–max | × fastest | × floor |",
           "| ---: | --- | ---: | ---: | ---: | ---: |"]
    for n in sizes:
        timed = {s: run.time_per_item((case[0], s, n)) for s in run.strategies
                 if median(run, case, s, n)}
        fastest = min((t["median"] for s, t in timed.items() if s not in (FLOOR, LIMIT)),
                      default=None)
        floor = timed[FLOOR]["median"] if FLOOR in timed else None
        refs = [s for s in (FLOOR, LIMIT) if s in timed]
        ranked = refs + sorted((s for s in timed if s not in refs),
                               key=lambda s: timed[s]["median"])
        for s in ranked:
            t = timed[s]
            x_fast = f"{t['median'] / fastest:.2f}" if fastest else "—"
            x_floor = f"{t['median'] / floor:.2f}" if floor else "—"
            out.append(f"| {n_text(n)} | {md_cell(label(s))} | {fmt_ns(t['median'])} "
                       f"| {fmt_ns(t['min'])}–{fmt_ns(t['max'])} | {x_fast} | {x_floor} |")
        for s in run.contenders():
            if (case[0], s, n) in run.errors and s not in timed \
                    and run.params_of((case[0], s, n)) == case[1]:
                out.append(f"| {n_text(n)} | **{md_cell(s)}** | **failed** | — | — | — |")
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
        text = f"{case_name(case)} at {where}"
        ratios = [r for _, r in got if r is not None]
        if ratios:
            lo, hi = min(ratios), max(ratios)
            text += f" ({lo:.2f}x)" if f"{lo:.2f}" == f"{hi:.2f}" else f" ({lo:.2f}–{hi:.2f}x)"
        parts.append(text)
    return "; ".join(parts)


def strategy_paragraph(run, all_cases, lead, st):
    led, significant, close, behind, floors, failed = [], [], [], [], [], []
    cells = 0
    for case, sizes in all_cases.items():
        for n in sizes:
            if run.failed((case[0], st, n)) and run.params_of((case[0], st, n)) == case[1]:
                failed.append((case, n, None))
                continue
            mine, row = median(run, case, st, n), lead[(case, n)]
            if not mine or not row["fastest"]:
                continue
            cells += 1
            ratio = mine / row["fastest"][1]
            if row["fastest"][0] == st:
                led.append((case, n, None))
                if row["verdict"] == "significant":
                    significant.append((case, n, None))
            elif ratio <= WITHIN:
                close.append((case, n, ratio))
            behind.append((ratio, case, n))
            floor = median(run, case, FLOOR, n)
            if floor:
                floors.append(mine / floor)
    if not cells and not failed:
        return []
    if led:
        text = (f"**{st}** leads in {len(led)} of {cells} cells: {by_case(all_cases, led)}. "
                + (f"Significantly ahead of the runner-up in {len(significant)}: "
                   f"{by_case(all_cases, significant)}." if significant else
                   "In none of them significantly ahead of the runner-up."))
    else:
        text = f"**{st}** leads in none of its {cells} cells."
    if close:
        text += (f" Within {WITHIN}x of the leader in {len(close)}{' more' if led else ''}: "
                 f"{by_case(all_cases, close)}.")
    if behind:
        ratio, case, n = max(behind)
        if ratio > WITHIN:
            text += (f" Furthest behind: {case_name(case)} at {n_text(n)} "
                     f"({times_x(ratio)} the leader's time).")
    if floors:
        text += (f" Against the floor: {times_x(min(floors))} to {times_x(max(floors))} "
                 f"(geometric mean {times_x(geomean(floors))}).")
    if failed:
        text += f" Failed: {by_case(all_cases, failed)}."
    return [text, ""]


def report(run_dir, findings=FINDINGS):
    """(markdown, {state: count} of the claims)."""
    run = load_run(run_dir)
    all_cases = cases(run)
    lead, note = leads(run, all_cases)
    ctx = run.context
    out = [f"# ecsbench report: run {run.run_id}", "",
           f"{run.date()}, {run.host()}" + (f" ({run.cpu()})" if run.cpu() else "")
           + f", {ctx.get('ecsb_repetitions', '?')} repetitions. Generated by scripts/report.py "
           f"from the run's files (`make report RUN=results/{run.run_id}`); the run's "
           "provenance, plots and errors are in [summary.md](summary.md).", ""]
    lines, counts = findings_section(run, all_cases, lead, findings)
    out += ["## Findings (hand-written, checked against this run)", "",
            f"From {os.path.relpath(findings, TOP) if findings.startswith(TOP) else findings}: "
            f"{counts['holds']} claims hold, {counts['fails']} do not, "
            f"{counts['unchecked']} cannot be checked against this run.", ""] + lines + [""]
    out += ["## Per scenario", "",
            "Times are medians over the repetitions of time per item. *ahead of*: the "
            "runner-up's median / the leader's; *p*: two-sided Mann–Whitney U test of the two "
            f"strategies' repetitions, Holm-adjusted over the {len(lead)} (case, N) cells of "
            "this report; *significant* when below 0.05.", ""]
    if note:
        out += [f"**Note:** {note}", ""]
    for case, sizes in all_cases.items():
        out += [f"### {case_name(case)}", ""]
        summary = run.meta.scenarios.get(case[0], {}).get("summary")
        if summary:
            out += [summary, ""]
        out += case_findings(run, case, sizes, lead) + [""] + case_table(run, case, sizes) + [""]
    out += ["## Per strategy", "",
            "Over every case and N of the run (a *cell*): where each strategy leads (and where "
            "its lead over the runner-up is significant), where it is within "
            f"{WITHIN}x of the leader, where it is furthest behind, and its time against the "
            "floor's.", ""]
    for st in run.contenders():
        out += strategy_paragraph(run, all_cases, lead, st)
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
