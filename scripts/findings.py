#!/usr/bin/env python3
"""findings.py — check every claim of docs/findings.md on every run it lists, and write where
each holds: the claims' where: lines in the findings file, the per-machine table in
docs/results.md and the per-machine counts in README.md (between their "findings by machine"
markers). One command after a new run is added to the findings' "## Runs" list: `make findings`.

Usage: findings.py [--findings FILE] [--results FILE] [--readme FILE] [--dry-run]

A column per machine (its short name, ecsb_findings.machine_name); a machine with several runs
listed shows each run's outcome. A claim holds on a machine when it holds in each of its runs,
is contradicted there when one run contradicts it, and is not confirmed otherwise. A claim
that holds on every machine listed is stated as a property of the layouts; one that holds on
some is stated with its machines. A run "confirms" a claim only when it started after the
commit that stated the claim in its present form (git); a run made before is where the claim
was seen, not a confirmation.

Exit status: 0 written (or, with --dry-run, printed); 2 a findings file, run or target file
that cannot be used (the message says why). Every listed run needs its raw.json.
"""
import argparse
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ecsb_findings as F  # noqa: E402
import ecsb_stats as stats  # noqa: E402
from ecsb_cases import cases  # noqa: E402
from ecsb_rundata import RunError, load_run  # noqa: E402

TOP = F.TOP
RESULTS = os.path.join(TOP, "docs", "results.md")
README = os.path.join(TOP, "README.md")
BEGIN = "<!-- findings by machine: begin (written by make findings; edit docs/findings.md) -->"
END = "<!-- findings by machine: end -->"


def check_runs(findings):
    """[(run id, machine, {claim text: Outcome}, run start (unix))] of the listed runs."""
    out = []
    for listed in findings.runs:
        path = listed if os.path.isabs(listed) else os.path.join(TOP, listed)
        run = load_run(path)
        all_cases = cases(run)
        outcomes = {c["text"]: F.check_claim(run, all_cases, c, findings.changes)
                    for _, _, c in findings.claims}
        out.append((run.run_id, F.machine_name(path, run), outcomes, F.run_time(run.run_id)))
    return out


def machines(checked):
    """{machine: [(run id, outcomes, start)]}, in the order the runs are listed."""
    out = {}
    for run_id, machine, outcomes, start in checked:
        out.setdefault(machine, []).append((run_id, outcomes, start))
    return out


def machine_state(runs, text):
    states = [outcomes[text].state for _, outcomes, _ in runs]
    if all(s == F.HOLDS for s in states):
        return F.HOLDS
    if F.CONTRADICTED in states:
        return F.CONTRADICTED
    if all(s == F.NOT_CHECKED for s in states):
        return F.NOT_CHECKED
    return F.NOT_CONFIRMED


def stamp(when):
    """A statement's time as its where: line prints it (the commit's author time: a rebase
    keeps it)."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(when))


def where_line(indent, text, stated, by_machine):
    """The where: line under a claim."""
    parts = [f"stated {stamp(stated[1])}"
             if stated else "not yet committed"]
    for machine, runs in by_machine.items():
        said = []
        for run_id, outcomes, start in runs:
            o = outcomes[text]
            if o.state == F.HOLDS:
                word = f"confirmed in {run_id}" if stated and start and start > stated[1] else \
                    f"held in {run_id} before it was stated"
            else:
                word = f"{o.state} in {run_id}"
            said.append(word + (f": {o.short()[2:]}" if len(o.short()) > 2 else ""))
        parts.append(f"{machine}: " + "; ".join(said))
    return f"{indent}  - where: " + " · ".join(parts)


def rewrite_findings(findings, by_machine, history):
    """The findings text with a fresh where: line under every claim."""
    claims = {i: (prefix, claim) for i, prefix, claim in findings.claims}
    out, skip = [], False
    for i, line in enumerate(findings.lines):
        if skip and F.WHERE_LINE.match(line):
            continue
        skip = False
        out.append(line)
        if i in claims:
            prefix, claim = claims[i]
            indent = re.match(r"^\s*", prefix).group(0)
            out.append(where_line(indent, claim["text"], F.stated(claim["text"], history),
                                  by_machine))
            skip = True
    return "\n".join(out) + "\n"


def header(by_machine):
    return [f"{m}<br>{', '.join(r for r, _, _ in runs)}" for m, runs in by_machine.items()]


def results_block(findings, by_machine):
    names = list(by_machine)
    texts = findings.claim_texts()
    out = [BEGIN, "",
           "Each claim of [docs/findings.md](findings.md) in each machine's run (`make findings` "
           "checks them on the runs that file lists): ✓ holds (the whole "
           f"{round(stats.CONFIDENCE * 100)} % interval of the "
           "ratio on the claimed side; *faster* for a leader); ? not confirmed (the run cannot "
           "tell; the repetitions a side that would); ✗ contradicted (the run decides the "
           "opposite). Ratio of times per item and its interval, three significant digits.", "",
           "| claim | " + " | ".join(header(by_machine)) + " |",
           "| --- |" + " --- |" * len(names)]
    for text in texts:
        cells = [" / ".join(outcomes[text].short() for _, outcomes, _ in runs)
                 for runs in by_machine.values()]
        out.append(f"| `{text}` | " + " | ".join(cells) + " |")
    every = [t for t in texts if all(machine_state(r, t) == F.HOLDS for r in by_machine.values())]
    some = [t for t in texts if t not in every
            and any(machine_state(r, t) == F.HOLDS for r in by_machine.values())]
    none = [t for t in texts if t not in every and t not in some]
    scope = (f"every one of the {len(names)} machines" if len(names) > 1
             else "the one machine measured so far")
    out += ["", f"**On {scope}** ({len(every)} of {len(texts)} claims): " +
            ("properties of the layouts." if len(names) > 1 else
             "facts about that machine until a run on another confirms them.")]
    if some:
        out += ["", f"**On some machines only** ({len(some)}): a finding about those machines."]
        for t in some:
            where = [m for m, r in by_machine.items() if machine_state(r, t) == F.HOLDS]
            elsewhere = [f"{machine_state(r, t)} on {m}" for m, r in by_machine.items()
                         if m not in where]
            out.append(f"- `{t}`: holds on {', '.join(where)}; {'; '.join(elsewhere)}")
    if none:
        out += ["", f"**On no machine listed** ({len(none)}): " +
                ", ".join(f"`{t}`" for t in none) + "."]
    return out + ["", END]


def readme_block(findings, by_machine):
    texts = findings.claim_texts()
    rows = [(F.HOLDS, "hold"), (F.NOT_CONFIRMED, "not confirmed"),
            (F.CONTRADICTED, "contradicted"), (F.NOT_CHECKED, "not checked")]
    out = [BEGIN, "", "| claims | " + " | ".join(by_machine) + " |",
           "| --- |" + " ---: |" * len(by_machine)]
    for state, word in rows:
        counts = [sum(machine_state(r, t) == state for t in texts) for r in by_machine.values()]
        if any(counts):
            out.append(f"| {word} | " + " | ".join(map(str, counts)) + " |")
    every = sum(all(machine_state(r, t) == F.HOLDS for r in by_machine.values()) for t in texts)
    scope = "every machine (properties of the layouts)" if len(by_machine) > 1 else \
        "the one machine measured so far"
    out += ["", f"{every} of {len(texts)} hold on {scope}; "
            "[per claim](docs/results.md#findings-by-machine).", "", END]
    return out


def replace_block(path, block):
    """The file's text with the lines between BEGIN and END replaced by block."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        raise F.FindingsError(f"{path}: wants one pair of lines '{BEGIN}' and '{END}' where "
                              "the findings by machine go")
    head, rest = text.split(BEGIN, 1)
    return head + "\n".join(block) + rest.split(END, 1)[1]


def write(path, text):
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def main(argv=None):
    parser = argparse.ArgumentParser(description="check the findings on every run they list "
                                     "and write where each holds")
    parser.add_argument("--findings", default=F.FINDINGS)
    parser.add_argument("--results", default=RESULTS)
    parser.add_argument("--readme", default=README)
    parser.add_argument("--dry-run", action="store_true", help="print, write nothing")
    args = parser.parse_args(argv)
    try:
        findings = F.Findings(args.findings)
        if not findings.runs:
            raise F.FindingsError(f"{args.findings} lists no run ('- run: results/<id>' under "
                                  "'## Runs')")
        by_machine = machines(check_runs(findings))
        texts = {args.findings: rewrite_findings(findings, by_machine,
                                                 F.versions(args.findings)),
                 args.results: replace_block(args.results, results_block(findings, by_machine)),
                 args.readme: replace_block(args.readme, readme_block(findings, by_machine))}
    except (RunError, F.FindingsError, OSError) as e:
        print(f"findings: error: {e}", file=sys.stderr)
        return 2
    for path, text in texts.items():
        if args.dry_run:
            print(f"==> {path}\n{text}")
        else:
            write(path, text)
            print(f"findings: wrote {os.path.relpath(path, TOP)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
