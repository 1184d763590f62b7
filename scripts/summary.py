#!/usr/bin/env python3
"""summary.py — a run folder's summary.md: provenance, errors, tables, plots.

Usage: summary.py RUN_DIR [--run-id ID] [-o summary.md]

Reads RUN_DIR/raw.json (context), RUN_DIR/results.csv and RUN_DIR/errors.csv (from
json_to_csv.py). Writes (stdout by default):
  - provenance: date, host, CPU and caches, compilers and flags, git commit and dirty state,
    sizes, repetitions, min time, command;
  - errors, prominently, if any benchmark failed its checksum check or a status;
  - per scenario, tables at N = 4000 and at the largest N: time per item, median (min-max),
    ratio to the fastest strategy and to the floor, seconds per pass; at N = 4000 the
    article's own figures beside ours;
  - "## Plots": ../../plots/<run-id>/<scenario>_vs_n.png and <scenario>_n4000.png.
The run id defaults to the context's ecsb_run_id, else the folder name.
"""
import argparse
import csv
import json
import os
import sys

ARTICLE_N = 4000

# Article 002's figures at N = 4000 (one unnamed machine, C++), by scenario and strategy.
ARTICLE = {
    "platformer": {
        "title": "article 002, Test 1 (add/remove components)",
        "column": "article: s per run",
        "figures": {"handle_table": "≈ 0.0002 (handles)",
                    "flat_map": "0.0002–0.0003 (flat map)"},
    },
    "dual_iterate": {
        "title": "article 002, Test 2 (dual iteration)",
        "column": "article: s per pass",
        "figures": {"handle_table": "≈ 4e-5 (handles)", "flat_map": "≈ 1e-5 (flat map)"},
    },
}


def read_csv(path):
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def fmt_ns(v):
    if v >= 100:
        return f"{v:.0f}"
    if v >= 10:
        return f"{v:.1f}"
    if v >= 0.01:
        return f"{v:.2f}"
    return f"{v:.2g}"


def fmt_s(v):
    return f"{v:.3g}"


def fmt_bytes(n):
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            v = n / size
            return f"{v:.0f} {unit}" if v == int(v) else f"{v:.2f} {unit}"
    return f"{n} B"


def md_cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def provenance(ctx, run_id):
    caches = ", ".join(
        f"L{c.get('level')}{ {'Data': 'd', 'Instruction': 'i'}.get(c.get('type'), '') } "
        f"{fmt_bytes(int(c.get('size', 0)))}"
        + (f" (shared by {c['num_sharing']})" if c.get("num_sharing", 1) > 1 else "")
        for c in ctx.get("caches", []))
    load = ", ".join(f"{x:.2f}" for x in ctx.get("load_avg", []))
    commit = ctx.get("ecsb_git_commit", "unknown")
    dirty = ctx.get("ecsb_git_dirty", "unknown")
    rows = [
        ("run id", run_id),
        ("date (UTC)", ctx.get("ecsb_date_utc", ctx.get("date", "unknown"))),
        ("host", ctx.get("ecsb_host", ctx.get("host_name", "unknown"))),
        ("CPU", f"{ctx.get('ecsb_cpu_model', 'unknown')}, {ctx.get('num_cpus', '?')} CPUs "
                f"at {ctx.get('mhz_per_cpu', '?')} MHz"),
        ("caches", caches or "unknown"),
        ("load average at start", load or "unknown"),
        ("C compiler", ctx.get("ecsb_compiler", "unknown")
         + (f" (CC={ctx['ecsb_cc']})" if not ctx.get("ecsb_cc", "unknown").startswith("unknown")
            else "")),
        ("C flags", ctx.get("ecsb_cflags", "unknown")),
        ("C++ compiler and flags",
         f"{ctx.get('ecsb_cxx_compiler', 'unknown')}; {ctx.get('ecsb_cxxflags', 'unknown')}"),
    ]
    if "ecsb_build_producer" in ctx:
        rows.append(("compilers' record (DW_AT_producer)", ctx["ecsb_build_producer"]))
    rows += [
        ("Google Benchmark library", f"{ctx.get('library_build_type', '?')} build (its set-up "
                                     "code only: the timed loops are ecsbench's own)"),
        ("git", f"{commit} ({dirty})"),
        ("sizes (N)", ctx.get("ecsb_sizes", "?").replace(",", ", ")),
        ("repetitions", f"{ctx.get('ecsb_repetitions', '?')}, random interleaving "
                        f"{'on' if ctx.get('ecsb_random_interleaving') == 'true' else 'off'}"),
        ("min time per repetition", f"{ctx.get('ecsb_min_time', '?')} s"),
        ("benchmark filter", ctx.get("ecsb_filter") or "(all)"),
        ("command", f"`{ctx.get('ecsb_command', '?')}`"),
    ]
    lines = ["| | |", "| --- | --- |"]
    lines += [f"| {k} | {md_cell(v)} |" for k, v in rows]
    return lines


def order_of(ctx, rows):
    """Scenarios and strategies in registry order (context), else first appearance."""
    def listed(key, column):
        names = [x for x in ctx.get(key, "").split(",") if x]
        for r in rows:
            if r[column] not in names:
                names.append(r[column])
        return names
    return listed("ecsb_scenarios", "scenario"), listed("ecsb_strategies", "strategy")


def table(scenario, n, strategies, by_key, errors, item, with_article):
    """Markdown lines of one (scenario, N) table."""
    have = {s: by_key.get((scenario, s, n, "time_per_item")) for s in strategies}
    medians = {s: float(r["median"]) for s, r in have.items() if r}
    contenders = [v for s, v in medians.items() if s != "floor"]
    fastest = min(contenders) if contenders else None
    floor = medians.get("floor")
    art = ARTICLE.get(scenario) if with_article else None
    head = (f"| strategy | ns per {item}: median (min–max) | × fastest | × floor "
            f"| s per pass (median) |")
    rule = "| --- | --- | --- | --- | --- |"
    if art:
        head += f" {art['column']} |"
        rule += " --- |"
    lines = [head, rule]
    for s in strategies:
        r = have[s]
        err = errors.get((scenario, s, n))
        if r:
            med = float(r["median"])
            cell = f"{fmt_ns(med)} ({fmt_ns(float(r['min']))}–{fmt_ns(float(r['max']))})"
            if err:
                cell += " ⚠ some repetitions failed"
            x_fast = f"{med / fastest:.2f}" if fastest else "—"
            if fastest and s != "floor" and med == fastest:
                x_fast = "**1.00** fastest"
            x_floor = f"{med / floor:.2f}" if floor else "—"
            sp = by_key.get((scenario, s, n, "seconds_per_pass"))
            per_pass = fmt_s(float(sp["median"])) if sp else "—"
            name = s
        elif err:
            cell, x_fast, x_floor, per_pass = "**error** (see Errors)", "—", "—", "—"
            name = f"**{s}**"
        else:
            continue
        line = f"| {name} | {cell} | {x_fast} | {x_floor} | {per_pass} |"
        if art:
            line += f" {art['figures'].get(s, '')} |"
        lines.append(line)
    return lines


def summary(run_dir, run_id=None):
    with open(os.path.join(run_dir, "raw.json"), encoding="utf-8") as f:
        ctx = json.load(f).get("context", {})
    rows = read_csv(os.path.join(run_dir, "results.csv"))
    errors_path = os.path.join(run_dir, "errors.csv")
    error_rows = read_csv(errors_path) if os.path.exists(errors_path) else []
    run_id = run_id or ctx.get("ecsb_run_id") or os.path.basename(os.path.normpath(run_dir))

    by_key = {(r["scenario"], r["strategy"], int(r["n"]), r["metric"]): r for r in rows}
    errors = {(r["scenario"], r["strategy"], int(r["n"])): r for r in error_rows}
    scenarios, strategies = order_of(ctx, rows)

    out = [f"# ecsbench run {run_id}", ""]
    out += provenance(ctx, run_id)
    out += ["",
            "Times are real (wall-clock) time. Each cell is the median over the repetitions, "
            "with the fastest and slowest repetition; ratios divide medians. *× fastest* is "
            "relative to the fastest strategy (the floor excluded), *× floor* to the floor: "
            "the same arithmetic on plain packed arrays, the lower bound. The machine may be "
            "shared and noisy, so trust ratios inside one run more than absolute times; "
            "`make compare` tests differences between runs.", ""]

    out += ["## Errors", ""]
    if error_rows:
        out += [f"**⚠ {len(error_rows)} benchmark(s) failed and have no time** — a wrong "
                "checksum means the strategy computed something different from the floor; "
                "a status means an operation failed:", "",
                "| scenario | strategy | N | failed repetitions | message |",
                "| --- | --- | --- | --- | --- |"]
        out += [f"| {md_cell(r['scenario'])} | **{md_cell(r['strategy'])}** | {r['n']} "
                f"| {r['repetitions']} | {md_cell(r['message'])} |" for r in error_rows]
    else:
        out += ["None: every strategy reproduced the floor's checksum at every size."]
    out.append("")

    for sc in scenarios:
        item = ctx.get(f"ecsb_item_{sc}", "item")
        sizes = sorted({int(r["n"]) for r in rows if r["scenario"] == sc}
                       | {n for (s, _, n) in errors if s == sc})
        if not sizes:
            continue
        art = ARTICLE.get(sc)
        out += [f"## {sc}" + (f" — {art['title']}" if art else ""), ""]
        shown = [ARTICLE_N] if ARTICLE_N in sizes else []
        if not shown:
            out += [f"N = {ARTICLE_N} is not in this run (sizes: "
                    f"{', '.join(map(str, sizes))}).", ""]
        if sizes[-1] not in shown:
            shown.append(sizes[-1])
        for n in shown:
            label = f"N = {n}"
            if n == sizes[-1] and n != ARTICLE_N:
                label += " (largest)"
            out += [f"### {label}", ""]
            out += table(sc, n, strategies, by_key, errors, item, n == ARTICLE_N)
            out.append("")
        if art and ARTICLE_N in shown:
            out += [f"The article's figures are from its author's machine and C++ code, "
                    f"for context only; for {sc} one pass is "
                    + ("one whole run of the test." if sc == "platformer" else
                       "one sweep over the matched pairs."), ""]

    out += ["## Plots", ""]
    for sc in scenarios:
        out += [f"![{sc}: time per item vs N](../../plots/{run_id}/{sc}_vs_n.png)", "",
                f"![{sc} at N = {ARTICLE_N}](../../plots/{run_id}/{sc}_n4000.png)", ""]
    return "\n".join(out)


def main(argv=None):
    parser = argparse.ArgumentParser(description="write a run folder's summary.md")
    parser.add_argument("run_dir", help="results/<run-id> holding raw.json and results.csv")
    parser.add_argument("--run-id", help="run id for the plot paths (default: from raw.json)")
    parser.add_argument("-o", "--output", help="summary.md to write (default: stdout)")
    args = parser.parse_args(argv)
    try:
        text = summary(args.run_dir, args.run_id)
    except (OSError, ValueError, KeyError) as e:
        print(f"summary: cannot summarise {args.run_dir}: {e}", file=sys.stderr)
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
