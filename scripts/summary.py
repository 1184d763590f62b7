#!/usr/bin/env python3
"""summary.py — a run folder's summary.md.

Usage: summary.py RUN_DIR [--run-id ID] [-o summary.md]

Reads the run folder (scripts/ecsb_rundata.py: list.json, raw.json, results.csv, errors.csv)
and writes (stdout by default):
  - a warning line first if any benchmark failed its checksum check or a status;
  - the answer first: a link to choose.md (scripts/choose.py) and to report.md;
  - "Overview": the heat map of each world order and the memory chart, from plots/<run-id>/;
  - the crossovers of the run's sweeps (scripts/ecsb_crossover.py);
  - the run's provenance and the command that repeats it; the errors, if any;
  - per case (a scenario with one world order and parameter set) one table: a row per line,
    a column per N, the median time per item marked with its verdict against the cell's
    leader (scripts/ecsb_stats.py, whose FAMILY sentence is printed above the tables), the
    drift and wide-spread flags, and bytes per entity; then the case's plots.
The run id defaults to the context's ecsb_run_id, else the folder name.
Exit status: 0 ok, 2 an unusable run folder (the message says why).
"""
import argparse
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ecsb_crossover import section as crossover_section  # noqa: E402
from ecsb_overview import heatmaps  # noqa: E402
from ecsb_hardware import efficiency_section  # noqa: E402
from ecsb_rundata import REFERENCES, RunError, human_bytes, label, load_run, machine_short_name  # noqa: E402
import ecsb_quality  # noqa: E402
import ecsb_stats as stats  # noqa: E402


def fmt_ns(v):
    if v >= 100:
        return f"{v:.0f}"
    if v >= 10:
        return f"{v:.1f}"
    if v >= 0.01:
        return f"{v:.2f}"
    return f"{v:.2g}"


def fmt_bytes_per_entity(v):
    if v is None:
        return "—"
    return f"{v:.0f}" if v >= 100 else f"{v:.1f}"


def md_cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def n_text(n):
    return f"{n:,}"


def provenance(run, run_id):
    ctx = run.context
    caches = ", ".join(
        f"L{c.get('level')}{ {'Data': 'd', 'Instruction': 'i'}.get(c.get('type'), '') } "
        f"{human_bytes(int(c.get('size', 0)))}"
        + (f" (shared by {c['num_sharing']})" if c.get("num_sharing", 1) > 1 else "")
        for c in ctx.get("caches", []) if isinstance(c, dict))
    load = ", ".join(f"{x:.2f}" for x in ctx.get("load_avg", []) if isinstance(x, (int, float)))
    rows = [
        ("run id", run_id),
        ("date (UTC)", ctx.get("ecsb_date_utc", ctx.get("date", "unknown"))),
        ("host", ctx.get("ecsb_host", ctx.get("host_name", "unknown"))),
        ("CPU", f"{ctx.get('ecsb_cpu_model', 'unknown')}, {ctx.get('num_cpus', '?')} CPUs "
                f"at {ctx.get('mhz_per_cpu', '?')} MHz"),
        ("caches", caches or "unknown"),
        ("load average at start", load or "unknown"),
        ("C compiler", ctx.get("ecsb_compiler", "unknown")),
        ("C flags", ctx.get("ecsb_cflags", "unknown")),
        ("C++ compiler and flags",
         f"{ctx.get('ecsb_cxx_compiler', 'unknown')}; {ctx.get('ecsb_cxxflags', 'unknown')}"),
        ("Google Benchmark", ctx.get("ecsb_gbench_version", ctx.get("library_version", "unknown"))),
        ("git", f"{ctx.get('ecsb_git_commit', 'unknown')} ({ctx.get('ecsb_git_dirty', 'unknown')})"),
        ("uncommitted changes", ctx.get("ecsb_git_changes") or "none"),
        ("sources", f"{len(str(ctx['ecsb_sources_sha256']).split(','))} files, each with its "
                    "SHA-256 in raw.json (context ecsb_sources_sha256)"
         if ctx.get("ecsb_sources_sha256") else "unknown"),
        ("sizes (N)", str(ctx.get("ecsb_sizes", "each scenario's defaults")).replace(",", ", ")),
        ("repetitions", f"{ctx.get('ecsb_repetitions', '?')}, random interleaving "
                        f"{'on' if ctx.get('ecsb_random_interleaving') == 'true' else 'off'}"),
        ("min time per repetition", f"{ctx.get('ecsb_min_time', '?')} s"),
        ("scenario facts from", run.meta.source),
    ]
    lines = ["| | |", "| --- | --- |"] + [f"| {k} | {md_cell(v)} |" for k, v in rows]
    again = [c for c in (ctx.get("ecsb_make_command"), ctx.get("ecsb_command"))
             if isinstance(c, str) and c]
    if again:
        lines += ["", "Run it again (from the repository's top folder; the second line is the "
                      "binary alone, without the CSV, summary and plots):" if len(again) > 1
                  else "Run it again (from the repository's top folder):", "",
                  "```sh", *again, "```"]
    return lines


def errors_section(run):
    out = ["## Errors", ""]
    if not run.errors:
        return out + ["None: every strategy reproduced the floor's checksum at every size.", ""]
    out += [f"**⚠ {len(run.errors)} benchmark(s) failed** — a wrong checksum means the strategy "
            "computed something different from the floor; a status means an operation failed:",
            "", "| scenario | strategy | N | failed repetitions | message |",
            "| --- | --- | --- | --- | --- |"]
    for key in run.errors:
        sc, st, n = key
        out.append(f"| {md_cell(sc)} | **{md_cell(st)}** | {n} "
                   f"| {md_cell(run.error_repetitions.get(key, '?'))} "
                   f"| {md_cell(run.error_messages.get(key, 'see errors.csv'))} |")
    return out + [""]


def has_memory(run, scenario=None):
    return any(run.bytes_per_entity(k) for k in run.rows if scenario in (None, k[0]))


def overview(run, run_id):
    memory = [
        f"![Memory: bytes per entity after set-up](../../plots/{run_id}/memory_n65536.png)", "",
        "Bytes the scenario's world holds per live entity right after set-up (storage, "
        "indexes, free slots), per strategy and scenario (a heat map per world order, "
        "`memory_n65536~order=<order>` for the others; colour: × the scenario's leanest "
        "strategy); the floor's plain arrays are the last row. Against N: the "
        "`<scenario>_memory_vs_n` plots below.", ""]
    if not has_memory(run):
        memory = ["This run has no bytes per entity (it was made before ecsbench counted "
                  "them): no memory chart.", ""]
    maps = []
    for order, name, _ in heatmaps(run):  # one per world order (blank lines: one paragraph each)
        maps += [f"![Heat map, {order} worlds: time per item, ratio to the fastest strategy of "
                 f"each scenario](../../plots/{run_id}/{name}.png)", ""]
    return ["## Overview", "", *maps,
            "One heat map per world order the run has (regular, shuffled, aged). "
            "Each cell: the strategy's median time per item divided by the fastest strategy's in "
            "that scenario (1.00 = the fastest; the floor and limit are left out); = before it: "
            "as fast as the fastest (level); a grey ? and no ratio: the run cannot tell it from "
            "the fastest (undecidable). "
            "Green is close to the best, red far from it, on a log scale. *failed* = the "
            "benchmark failed its checksum check (see Errors); *not run* = the run has no such "
            "benchmark.", ""] + memory


MARKS = ("**bold**: the cell's leader; *=* level with it; *?* undecidable against it; no mark: "
         "the leader is *faster*; *⚠* the line's timed passes still drifted (results.csv "
         f"drift); *~* its repetitions spread over {stats.WIDE}x (max/min). *B/entity*: bytes "
         "per live entity after set-up at the largest N. The floor (plain arrays) and the limit "
         "(touched data only) are references, not in the family.")


def marked(run, cell, sc, s, n):
    """A table cell: median ns per item, bold for the leader, then its marks."""
    t = run.time_per_item((sc, s, n))
    if not t:
        return "**failed**" if run.failed((sc, s, n)) else "—"
    text = fmt_ns(t["median"])
    if s == cell.leader:
        text = f"**{text}**"
    elif s not in REFERENCES:
        text += cell.mark(s)
    if run.drifted((sc, s, n)):
        text += " ⚠"
    if stats.spread(run.samples.get((sc, s, n), [])) > stats.WIDE:
        text += " ~"
    if (sc, s, n) in run.errors:
        text += " (some repetitions failed)"
    return text


def scenario_table(run, sc):
    sizes = run.sizes(sc)
    out = ["| line | " + " | ".join(n_text(n) for n in sizes) + " | B/entity |",
           "| --- |" + " ---: |" * (len(sizes) + 1)]
    for s in run.strategies:
        if not any(run.time_per_item((sc, s, n)) or (sc, s, n) in run.errors for n in sizes):
            continue
        failed_everywhere = all(run.failed((sc, s, n)) or not run.time_per_item((sc, s, n))
                                for n in sizes)
        name = f"**{label(s)}**" if failed_everywhere else label(s)
        cells = [marked(run, stats.cell(run, sc, n), sc, s, n) for n in sizes]
        out.append(f"| {md_cell(name)} | " + " | ".join(md_cell(c) for c in cells)
                   + f" | {fmt_bytes_per_entity(run.bytes_per_entity((sc, s, sizes[-1])))} |")
    return out


def scenario_section(run, sc, run_id):
    item = run.item(sc)
    out = [f"## {sc} (ns per {item})", ""]
    summary = run.meta.scenarios.get(sc, {}).get("summary")
    if summary:
        out += [summary, ""]
    out += scenario_table(run, sc) + [""]
    small = min(run.sizes(sc), key=lambda n: (abs(n - 4000), n))
    out += [f"![{sc}: time per {item} against N](../../plots/{run_id}/{sc}_vs_n.png)",
            f"![{sc} at N = {small}](../../plots/{run_id}/{sc}_n4000.png)"]
    if has_memory(run, sc):
        out.append(f"![{sc}: bytes per entity against N]"
                   f"(../../plots/{run_id}/{sc}_memory_vs_n.png)")
    return out + [""]


def summary(run_dir, run_id=None):
    run = load_run(run_dir)
    run_id = run_id or run.run_id
    out = [f"# ecsbench run {run_id}", ""]
    banner = ecsb_quality.banner_markdown(run_dir, run)
    out += [banner, ""] if banner else []
    out += [f"Machine: {machine_short_name(run_dir)}", ""]
    if run.errors:
        out += [f"**⚠ {len(run.errors)} benchmark(s) failed their checksum check or a status "
                "and have no time: see [Errors](#errors).**", ""]
    out += ["**The answer: [choose.md](choose.md)**: per workload the layout to pick, those "
            "level with it, the margin with its confidence interval and the memory. What the "
            "run found, case by case and per layout: [report.md](report.md).", ""]
    out += overview(run, run_id)
    out += crossover_section(run)
    out += ["## The run", ""] + provenance(run, run_id) + [""]
    out += errors_section(run)
    wide, lines = stats.wide_share(run)
    out += ["## Time per item", "",
            "Real (wall-clock) time, the median over the repetitions, in ns per item; per case "
            "a row per line and a column per N. " + MARKS
            + f" {wide} of the run's {lines} lines spread over {stats.WIDE}x.", "",
            stats.family_sentence(run), ""]
    for sc in run.scenarios:
        out += scenario_section(run, sc, run_id)
    out += efficiency_section(run)
    return "\n".join(out)


def main(argv=None):
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C: stop quietly, make bench reports
    parser = argparse.ArgumentParser(description="write a run folder's summary.md")
    parser.add_argument("run_dir", help="results/<run-id> holding raw.json and results.csv")
    parser.add_argument("--run-id", help="run id for the plot paths (default: from the run)")
    parser.add_argument("-o", "--output", help="summary.md to write (default: stdout)")
    args = parser.parse_args(argv)
    try:
        text = summary(args.run_dir, args.run_id)
    except RunError as e:
        print(f"summary: error: {e}", file=sys.stderr)
        return 2
    if args.output:
        tmp = f"{args.output}.tmp-{os.getpid()}"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, args.output)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
