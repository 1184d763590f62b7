#!/usr/bin/env python3
"""cachegrind_report.py — per-item instruction and cache-miss counts from callgrind runs.

Helper of scripts/cachegrind.sh; two subcommands:

  cachegrind_report.py items GBENCH_JSON...
      Items per pass, read from the binary's own scenario table: each file is the Google
      Benchmark JSON of a one-repetition run of the floor (`ecsbench --ecsb_sizes=N
      --benchmark_filter=... --benchmark_format=json`), whose rows carry the counters
      items_per_pass and n and the label (what one item is). Prints one tab-separated line per
      scenario and N: scenario, n, items_per_pass, item.

  cachegrind_report.py report --manifest M --items ITEMS --csv OUT.csv --markdown OUT.md
      M has one tab-separated line per scenario, strategy and N:
          scenario strategy n p1 p2 out_p1 out_p2
      where out_pK is the callgrind output file of `ecsbench run scenario strategy n pK`
      collected only inside the timed pass function (--toggle-collect). Per pass:
          (count at p2 - count at p1) / (p2 - p1)
      and per item: that / items per pass. Writes the CSV (RFC 4180, CRLF line ends)
          scenario,strategy,n,metric,per_item,total,items_per_pass
      (total = the count in one timed pass; per_item = total / items_per_pass), and the
      Markdown tables, one per scenario and N.

Exit status: 0 ok, 1 unusable input (the message says which file and what is wrong).
"""
import argparse
import csv
import json
import sys

FLOOR = "floor"

# callgrind --cache-sim=yes event names -> the CSV's metric names, in CSV order. Sums are
# computed from the events; a missing trailing event in a callgrind file counts 0.
METRICS = [
    ("instructions", ("Ir",)),
    ("data_reads", ("Dr",)),
    ("data_writes", ("Dw",)),
    ("l1d_misses", ("D1mr", "D1mw")),
    ("l1d_read_misses", ("D1mr",)),
    ("l1d_write_misses", ("D1mw",)),
    ("ll_misses", ("DLmr", "DLmw")),
    ("ll_read_misses", ("DLmr",)),
    ("ll_write_misses", ("DLmw",)),
    ("l1i_misses", ("I1mr",)),
    ("lli_misses", ("ILmr",)),
]
CSV_HEADER = ["scenario", "strategy", "n", "metric", "per_item", "total", "items_per_pass"]


class InputError(Exception):
    """An input file this script cannot use."""


def read_items(paths):
    """{(scenario, n): (items_per_pass, item)} from Google Benchmark JSON files."""
    items = {}
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError) as e:
            raise InputError(f"{path}: not readable Google Benchmark JSON ({e})") from e
        for row in data.get("benchmarks", []):
            parts = str(row.get("run_name") or row.get("name") or "").split("/")
            if len(parts) < 3 or "items_per_pass" not in row or "n" not in row:
                continue
            key = (parts[0], int(row["n"]))
            items.setdefault(key, (int(row["items_per_pass"]), str(row.get("label", "item"))))
    return items


def read_callgrind(path):
    """{event: count} from a callgrind output file's `events:` and `summary:` lines."""
    events = summary = None
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("events:"):
                    events = line.split()[1:]
                elif line.startswith("summary:") or (summary is None and line.startswith("totals:")):
                    summary = [int(x) for x in line.split()[1:]]
    except OSError as e:
        raise InputError(f"{path}: cannot read ({e})") from e
    except ValueError as e:
        raise InputError(f"{path}: malformed summary line ({e})") from e
    if not events or summary is None:
        raise InputError(f"{path}: no events:/summary: lines; not a callgrind output file")
    counts = dict.fromkeys(events, 0)
    counts.update(zip(events, summary))
    missing = sorted({e for _, evs in METRICS for e in evs} - set(counts))
    if missing:
        raise InputError(f"{path}: events {', '.join(missing)} missing; run with --cache-sim=yes")
    return counts


def number(value):
    """A CSV figure: 6 significant digits."""
    return format(value, ".6g")


def whole(value):
    """A per-pass count: exact when whole, else one decimal."""
    return str(int(value)) if value == int(value) else f"{value:.1f}"


def fmt(value):
    """A per-item figure for the tables."""
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    if value >= 0.1 or value == 0:
        return f"{value:.2f}"
    return f"{value:.2g}"  # small but not zero: two significant digits


def compute(manifest_path, items):
    """Rows (scenario, strategy, n, items, {metric: per pass}), in manifest order."""
    rows = []
    try:
        with open(manifest_path, encoding="utf-8") as f:
            lines = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    except OSError as e:
        raise InputError(f"{manifest_path}: cannot read ({e})") from e
    for fields in lines:
        if len(fields) != 7:
            raise InputError(f"{manifest_path}: want 7 tab-separated fields, got {fields}")
        scenario, strategy, n, p1, p2, out1, out2 = fields
        n, p1, p2 = int(n), int(p1), int(p2)
        if (scenario, n) not in items:
            raise InputError(f"no items per pass for {scenario} at N = {n} in the items file")
        count, _ = items[(scenario, n)]
        if count <= 0:
            raise InputError(f"{scenario} at N = {n} has {count} items per pass; use a larger N")
        c1, c2 = read_callgrind(out1), read_callgrind(out2)
        if c1["Ir"] == 0 or c2["Ir"] <= c1["Ir"]:
            raise InputError(
                f"{scenario}/{strategy} N = {n}: {c1['Ir']} instructions collected with {p1} "
                f"pass(es), {c2['Ir']} with {p2}: the timed pass function was not found or not "
                "entered (renamed, inlined, or a stripped binary?)")
        per_pass = {}
        for metric, events in METRICS:
            diff = sum(c2[e] for e in events) - sum(c1[e] for e in events)
            per_pass[metric] = diff / (p2 - p1)
        rows.append((scenario, strategy, n, count, per_pass))
    return rows


def write_csv(path, rows):
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(CSV_HEADER)
        for scenario, strategy, n, count, per_pass in rows:
            for metric, _ in METRICS:
                total = per_pass[metric]
                w.writerow([scenario, strategy, n, metric, number(total / count), whole(total),
                            count])


def markdown(rows, items):
    """One table per scenario and N: strategies in manifest order (the floor first)."""
    out = []
    groups = {}
    for row in rows:
        groups.setdefault((row[0], row[2]), []).append(row)
    for (scenario, n), group in groups.items():
        count, item = items[(scenario, n)]
        floor = next((r for r in group if r[1] == FLOOR), None)
        out.append(f"### {scenario}, N = {n} ({count} {item}s per pass)")
        out.append("")
        out.append("| strategy | instructions / item | × floor | data refs / item "
                   "| L1d misses / item | LL misses / item |")
        out.append("| --- | ---: | ---: | ---: | ---: | ---: |")
        for _, strategy, _, cnt, p in group:
            ratio = (f"{p['instructions'] / floor[4]['instructions']:.2f}"
                     if floor and floor[4]["instructions"] > 0 else "–")
            refs = (p["data_reads"] + p["data_writes"]) / cnt
            out.append(f"| {strategy} | {fmt(p['instructions'] / cnt)} | {ratio} | {fmt(refs)} "
                       f"| {fmt(p['l1d_misses'] / cnt)} | {fmt(p['ll_misses'] / cnt)} |")
        out.append("")
    return "\n".join(out)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    it = sub.add_parser("items", help="items per pass from Google Benchmark JSON")
    it.add_argument("json", nargs="+")
    rp = sub.add_parser("report", help="the CSV and Markdown tables")
    rp.add_argument("--manifest", required=True)
    rp.add_argument("--items", required=True, help="the output of the items subcommand")
    rp.add_argument("--csv", required=True)
    rp.add_argument("--markdown", required=True)
    args = ap.parse_args(argv)
    try:
        if args.cmd == "items":
            for (scenario, n), (count, item) in sorted(read_items(args.json).items()):
                print(f"{scenario}\t{n}\t{count}\t{item}")
            return 0
        items = {}
        with open(args.items, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    scenario, n, count, item = line.rstrip("\n").split("\t")
                    items[(scenario, int(n))] = (int(count), item)
        rows = compute(args.manifest, items)
        write_csv(args.csv, rows)
        text = markdown(rows, items)
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(text)
        return 0
    except (InputError, OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
