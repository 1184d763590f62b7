#!/usr/bin/env python3
"""summary.py — a run folder's summary.md.

Usage: summary.py RUN_DIR [--run-id ID] [-o summary.md]

Reads the run folder (scripts/ecsb_rundata.py: list.json, raw.json, results.csv, errors.csv)
and writes (stdout by default):
  - a warning line first if any benchmark failed its checksum check or a status;
  - "Overview": the heat map (ratio to the fastest strategy per scenario at N = 4000 and at the
    largest N) and the memory chart (bytes per entity at N = 65536), from plots/<run-id>/;
  - "Which to choose": per scenario the fastest strategy, the runner-up and the margin with its
    significance (Mann–Whitney U over the repetitions, Holm-adjusted over the table); per
    strategy the scenarios where it is within 1.2x of the best;
  - the run's provenance and the command that repeats it;
  - the errors, if any;
  - per scenario, tables at N = 4000 and at the largest N: time per item, median (min–max),
    ratio to the fastest strategy, to the floor and to the limit, bytes per entity, seconds
    per pass; then the scenario's plots.
The run id defaults to the context's ecsb_run_id, else the folder name.
Exit status: 0 ok, 2 an unusable run folder (the message says why).
"""
import argparse
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ecsb_crossover import section as crossover_section  # noqa: E402
from ecsb_overview import SMALL_N, WITHIN, choices, panel_size, within_best  # noqa: E402
from ecsb_rundata import FLOOR, LIMIT, RunError, human_bytes, label, load_run  # noqa: E402
from ecsb_stats import fmt_p  # noqa: E402


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
        "indexes, free slots), per strategy and scenario; the floor's plain arrays are the "
        "black marks. Against N: the `<scenario>_memory_vs_n` plots below.", ""]
    if not has_memory(run):
        memory = ["This run has no bytes per entity (it was made before ecsbench counted "
                  "them): no memory chart.", ""]
    return ["## Overview", "",
            f"![Heat map: time per item, ratio to the fastest strategy of each scenario]"
            f"(../../plots/{run_id}/overview_heatmap.png)", "",
            "Each cell: the strategy's median time per item divided by the fastest strategy's in "
            "that scenario (1.00 = the fastest; the floor and limit are left out). Green is "
            "close to the best, red far from it, on a log scale. *failed* = the benchmark "
            "failed its checksum check (see Errors); *not run* = the run has no such benchmark.",
            ""] + memory


def choose_section(run):
    out = ["## Which to choose", ""]
    rows, note = choices(run)
    out += ["| scenario | N | fastest (ns per item) | runner-up | margin | p (Holm) | verdict "
            "| failed, not ranked |",
            "| --- | ---: | --- | --- | ---: | ---: | --- | --- |"]
    for r in rows:
        fastest = f"**{r['fastest'][0]}** ({fmt_ns(r['fastest'][1])})" if r["fastest"] else "—"
        runner = r["runner_up"][0] if r["runner_up"] else "—"
        margin = f"{r['margin']:.2f}x" if r["margin"] else "—"
        out.append(f"| {r['scenario']} | {n_text(r['n'])} | {fastest} | {runner} | {margin} "
                   f"| {fmt_p(r['p_holm'])} | {r['verdict']} "
                   f"| {', '.join(r['failed']) or '—'} |")
    out += ["", "*margin* = the runner-up's median time / the fastest's. *p*: two-sided "
            "Mann–Whitney U test of the two strategies' repetitions, Holm-adjusted over the "
            f"{len(rows)} rows of this table; *significant* when below 0.05."]
    if note:
        out += ["", f"**Note:** {note}"]
    out.append("")
    small, large = within_best(run, "small"), within_best(run, "large")

    def listing(pairs):
        return ", ".join(f"{sc} ({ratio:.2f})" for sc, ratio in pairs) or "—"
    out += [f"Where each strategy is within {WITHIN}x of the best (its ratio in brackets):", "",
            f"| strategy | at N = {SMALL_N} | at the largest N |", "| --- | --- | --- |"]
    out += [f"| {st} | {listing(small[st])} | {listing(large[st])} |" for st in run.contenders()]
    return out + [""]


def scenario_table(run, sc, n):
    lines_of = [s for s in run.strategies
                if run.time_per_item((sc, s, n)) or (sc, s, n) in run.errors]
    medians = {s: run.time_per_item((sc, s, n))["median"] for s in lines_of
               if run.time_per_item((sc, s, n))}
    contenders = [v for s, v in medians.items() if s not in (FLOOR, LIMIT)]
    fastest = min(contenders) if contenders else None
    has_limit = run.meta.has_limit(sc) or LIMIT in medians
    head = (f"| strategy | ns per {run.item(sc)}: median (min–max) | × fastest | × floor"
            + (" | × limit" if has_limit else "") + " | B per entity | s per pass (median) |")
    out = [head, "|" + " --- |" * (head.count("|") - 1)]
    for s in lines_of:
        t = run.time_per_item((sc, s, n))
        cells = [label(s)]
        if t:
            med = t["median"]
            cell = f"{fmt_ns(med)} ({fmt_ns(t['min'])}–{fmt_ns(t['max'])})"
            if (sc, s, n) in run.errors:
                cell += " ⚠ some repetitions failed"
            x_fast = f"{med / fastest:.2f}" if fastest else "—"
            if fastest and s not in (FLOOR, LIMIT) and med == fastest:
                x_fast = "**1.00** fastest"
            cells += [cell, x_fast]
            cells += [f"{med / medians[ref]:.2f}" if ref in medians else "—"
                      for ref in ((FLOOR, LIMIT) if has_limit else (FLOOR,))]
            per_pass = run.stats((sc, s, n), "seconds_per_pass")
            cells += [fmt_bytes_per_entity(run.bytes_per_entity((sc, s, n))),
                      f"{per_pass['median']:.3g}" if per_pass else "—"]
        else:
            cells = [f"**{label(s)}**", "**failed** (see Errors)"] + \
                ["—"] * (5 if has_limit else 4)
        out.append("| " + " | ".join(cells) + " |")
    return out


def scenario_section(run, sc, run_id):
    sizes = run.sizes(sc)
    item = run.item(sc)
    out = [f"## {sc} (ns per {item})", ""]
    summary = run.meta.scenarios.get(sc, {}).get("summary")
    if summary:
        out += [summary, ""]
    small = panel_size(run, sc, "small")
    if small != SMALL_N:
        out += [f"N = {SMALL_N} is not in this run (sizes: {', '.join(map(str, sizes))}).", ""]
    for n in dict.fromkeys((small, sizes[-1])):
        out += [f"### N = {n_text(n)}" + (" (largest)" if n == sizes[-1] and n != small else ""),
                ""]
        out += scenario_table(run, sc, n) + [""]
    out += [f"![{sc}: time per {item} against N](../../plots/{run_id}/{sc}_vs_n.png)", "",
            f"![{sc} at N = {small}](../../plots/{run_id}/{sc}_n4000.png)", ""]
    if has_memory(run, sc):
        out += [f"![{sc}: bytes per entity against N](../../plots/{run_id}/{sc}_memory_vs_n.png)",
                ""]
    return out


def summary(run_dir, run_id=None):
    run = load_run(run_dir)
    run_id = run_id or run.run_id
    out = [f"# ecsbench run {run_id}", ""]
    if run.errors:
        out += [f"**⚠ {len(run.errors)} benchmark(s) failed their checksum check or a status "
                "and have no time: see [Errors](#errors).**", ""]
    out += overview(run, run_id)
    out += choose_section(run)
    out += crossover_section(run)
    out += ["## The run", ""] + provenance(run, run_id)
    out += ["", "Times are real (wall-clock) time. Each cell is the median over the repetitions, "
            "with the fastest and slowest repetition; ratios divide medians. *× fastest* is "
            "relative to the fastest strategy (floor and limit excluded); *× floor* to the "
            "floor, the same arithmetic on plain packed arrays; *× limit* to the limit, the "
            "same arithmetic on arrays holding only what the pass touches (scenarios where a "
            "layout can move less memory than the floor). *B per entity*: the world's bytes "
            "per live entity after set-up. The machine may be shared and noisy: trust ratios "
            "inside one run more than absolute times; `make compare` tests differences "
            "between runs.", ""]
    out += errors_section(run)
    for sc in run.scenarios:
        out += scenario_section(run, sc, run_id)
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
