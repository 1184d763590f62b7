#!/usr/bin/env python3
"""json_to_csv.py — Google Benchmark JSON (raw.json, the source of truth) to ecsbench's tidy CSV.

Usage: json_to_csv.py RAW_JSON [-o results.csv] [--errors errors.csv]

results.csv (RFC 4180: CRLF line ends, header first, nothing before it), one row per
scenario, strategy (the floor is strategy "floor"), N and metric, in the order the suite
registered them (scenario, then floor and strategies in registry order, then N):

  scenario,strategy,n,metric,unit,median,min,max,mean,stddev,cv,repetitions,params,drift,drifting,
  speed_index,disturbed

  params: every parameter of the scenario as "name=value;..." in its declaration order (the
  benchmark's name carries those that differ from the defaults, the run's context
  ecsb_params_default the rest); the same scenario, strategy and N with other parameters is
  another row.

  metric time_per_item    unit ns  real time of one pass / items per pass
  metric seconds_per_pass unit s   real time of one pass
  metric bytes_per_entity unit B   the scenario storage's bytes / live entities right after
                                   set-up with the scenario's capacity hint (counters bytes and
                                   entities; NaN when there is no entity; no row when the
                                   benchmark reports no bytes)
  metric bytes_per_entity_grown unit B   the same for a world grown from empty, no capacity
                                   hint (counter bytes_grown; no row without it)
  drift, drifting (time metrics only; empty on other rows and for runs without the counter):
                                   drift = the median over the repetitions of the counter drift
                                   (ecsbench: a world's last third of timed passes against its
                                   first third, least time per pass); drifting = yes when it lies
                                   beyond 1 +- DRIFT_LIMIT (10 %), else no: the world was
                                   still changing while it was timed
  speed_index, disturbed (time metrics only; empty for runs without the sentinel's counters):
                                   speed_index = the least over the repetitions of the counter
                                   speed_index (the sentinel's run-wide best / its time around
                                   the repetition: 1 = full speed; docs/measuring.md);
                                   disturbed = how many of the repetitions were kept although
                                   the machine was disturbed (counter disturbed = 1)

  metric error            unit ""  the benchmark failed its checksum check or a status: the
                                   statistics are NaN, repetitions = failed repetitions, and
                                   the message is in errors.csv (a benchmark whose repetitions
                                   all failed has only this row)

Statistics are over the per-repetition values (Google Benchmark's own aggregates are ignored):
median, min, max, mean, stddev (sample, n - 1; 0 for one repetition), cv = stddev / mean,
repetitions = how many repetitions succeeded (for the time metrics: how many the figures use;
a repetition marked disturbed is left out while 3 are clean: ecsb_rundata.kept). Numbers have 6 significant digits.

errors.csv: scenario,strategy,n,repetitions,message — one row per failing benchmark (header
only when none failed).

Exit status: 0 ok, 2 bad arguments or unreadable input (the message says which).
"""
import argparse
import csv
import io
import json
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ecsb_rundata import kept  # noqa: E402

HEADER = ["scenario", "strategy", "n", "metric", "unit", "median", "min", "max", "mean",
          "stddev", "cv", "repetitions", "params", "drift", "drifting", "speed_index",
          "disturbed"]

# A cell drifts when the median over its repetitions of (time per pass in the last third of a
# world's timed passes / in the first third) lies beyond 1 +- this share: the world was still
# changing (growing, decaying) while it was timed.
DRIFT_LIMIT = 0.10
ERROR_HEADER = ["scenario", "strategy", "n", "repetitions", "message", "params"]

# Google Benchmark time units, in seconds.
UNIT_SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


class InputError(Exception):
    """The JSON is not a Google Benchmark result this script understands."""


def number(value):
    """A statistic as CSV text: 6 significant digits, no trailing zeros; NaN as NaN."""
    return "NaN" if math.isnan(value) else format(value, ".6g")


def param_defaults(doc):
    """{scenario: [(name, value)]} from the context's ecsb_params_default
    ("scenario:name=value;...|..."); {} for runs made before parameters."""
    text = (doc.get("context") or {}).get("ecsb_params_default", "")
    out = {}
    for part in str(text).split("|"):
        scenario, _, assignments = part.partition(":")
        if scenario:
            out[scenario] = [tuple(a.split("=", 1)) for a in assignments.split(";") if "=" in a]
    return out


def canonical_params(defaults, scenario, changed):
    """Every parameter of the scenario as "name=value;...", the changed ones (from the
    benchmark's name) replacing the defaults; just the changed ones when no default is known."""
    given = dict(a.split("=", 1) for a in changed)
    if scenario not in defaults:
        return ";".join(changed)
    return ";".join(f"{k}={given.get(k, v)}" for k, v in defaults[scenario])


def parse_name(entry):
    """(scenario, strategy, n) from "scenario/strategy/N" (extra components are ignored)."""
    name = str(entry.get("run_name") or entry.get("name") or "")
    parts = name.split("/")
    if len(parts) < 3 or not parts[2].isdigit():
        raise InputError(f"benchmark name {name!r} is not scenario/strategy/N")
    changed = tuple(a for p in parts[3:] if "=" in p for a in p.split(","))
    return parts[0], parts[1], int(parts[2]), changed


def collect(doc):
    """Group the per-repetition runs by (scenario, strategy, n), in registration order.

    Returns a list of (key, good, failed) where good is a list of (seconds_per_pass,
    items_per_pass, bytes_per_entity or None, bytes_per_entity_grown or None) and failed a
    list of error messages.
    """
    if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks"), list):
        raise InputError("no \"benchmarks\" list: is this Google Benchmark JSON output?")
    groups = {}
    for index, entry in enumerate(doc["benchmarks"]):
        if not isinstance(entry, dict):
            raise InputError(f"benchmark entry {index} is not an object")
        if entry.get("run_type", "iteration") != "iteration" or "aggregate_name" in entry:
            continue
        key = parse_name(entry)
        order = entry.get("family_index", index)
        order = order if isinstance(order, int) else index
        group = groups.setdefault(key, {"order": order, "good": [], "failed": []})
        group["order"] = min(group["order"], order)
        if entry.get("error_occurred"):
            group["failed"].append(str(entry.get("error_message", "unknown error")))
            continue
        unit = entry.get("time_unit", "ns")
        if unit not in UNIT_SECONDS:
            raise InputError(f"{key}: unknown time_unit {unit!r}")
        try:
            seconds = float(entry["real_time"]) * UNIT_SECONDS[unit]
            items = float(entry["items_per_pass"])
        except (KeyError, TypeError, ValueError) as e:
            raise InputError(f"{'/'.join(map(str, key))}: missing or bad field {e}") from e
        if items <= 0 or not math.isfinite(seconds):
            raise InputError(f"{'/'.join(map(str, key))}: bad items_per_pass or real_time")
        drift = entry.get("drift")
        drift = float(drift) if isinstance(drift, (int, float)) and drift > 0 else None
        speed = entry.get("speed_index")
        speed = float(speed) if isinstance(speed, (int, float)) and speed > 0 else None
        disturbed = entry.get("disturbed")
        disturbed = int(disturbed) if isinstance(disturbed, (int, float)) else None
        group["good"].append((seconds, items, bytes_per_entity(key, entry),
                              bytes_per_entity(key, entry, "bytes_grown"), drift, speed,
                              disturbed))
    ordered = sorted(groups.items(), key=lambda kv: kv[1]["order"])
    return [(key, g["good"], g["failed"]) for key, g in ordered]


def bytes_per_entity(key, entry, counter="bytes"):
    """counter / entities from the row's counters; NaN with no entity; None without them."""
    if counter not in entry and (counter != "bytes" or "entities" not in entry):
        return None
    try:
        size, entities = float(entry[counter]), float(entry["entities"])
    except (KeyError, TypeError, ValueError) as e:
        raise InputError(f"{'/'.join(map(str, key))}: counters {counter} and entities must "
                         f"come together, as numbers ({e})") from e
    if size < 0 or entities < 0 or not math.isfinite(size) or not math.isfinite(entities):
        raise InputError(f"{'/'.join(map(str, key))}: bytes {size}, entities {entities}")
    return size / entities if entities else math.nan


def stats(values):
    """[median, min, max, mean, stddev, cv] of a non-empty list (all NaN if one value is)."""
    if any(math.isnan(v) for v in values):
        return [math.nan] * 6
    mean = math.fsum(values) / len(values)
    stddev = statistics.stdev(values) if len(values) > 1 else 0.0
    cv = stddev / mean if mean else 0.0
    return [statistics.median(values), min(values), max(values), mean, stddev, cv]


def tidy_rows(doc):
    """The results.csv rows (without header) and the errors.csv rows (without header)."""
    rows, errors = [], []
    defaults = param_defaults(doc)
    for (scenario, strategy, n, changed), good, failed in collect(doc):
        ident = [scenario, strategy, str(n)]
        params = canonical_params(defaults, scenario, changed)
        if good:
            # the repetitions marked disturbed stay out while enough are clean (the verdicts'
            # rule, ecsb_rundata.kept); the disturbed column still counts them
            used = kept(good, [g[6] is not None and g[6] >= 1 for g in good])
            per_item = [g[0] * 1e9 / g[1] for g in used]
            per_pass = [g[0] for g in used]
            memory = [g[2] for g in good if g[2] is not None]
            grown = [g[3] for g in good if g[3] is not None]
            drifts = [g[4] for g in good if g[4] is not None]
            drift = ["", ""]
            if drifts:
                median = statistics.median(drifts)
                drift = [number(median), "yes" if abs(median - 1) > DRIFT_LIMIT else "no"]
            speeds = [g[5] for g in good if g[5] is not None]
            marks = [g[6] for g in good if g[6] is not None]
            drift += [number(min(speeds)) if speeds else "", str(sum(marks)) if marks else ""]
            metrics = [("time_per_item", "ns", per_item, drift),
                       ("seconds_per_pass", "s", per_pass, drift)]
            if memory:
                metrics.append(("bytes_per_entity", "B", memory, ["", "", "", ""]))
            if grown:
                metrics.append(("bytes_per_entity_grown", "B", grown, ["", "", "", ""]))
            for metric, unit, values, tail in metrics:
                rows.append(ident + [metric, unit] + [number(v) for v in stats(values)]
                            + [str(len(values)), params] + tail)
        if failed:
            rows.append(ident + ["error", ""] + ["NaN"] * 6 + [str(len(failed)), params, "", "",
                                                                 "", ""])
            unique = list(dict.fromkeys(failed))
            errors.append(ident + [str(len(failed)), " | ".join(unique), params])
    return rows, errors


def csv_text(header, rows):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def write_atomically(path, text):
    """Write text to path through a temporary file in the same folder, then rename."""
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    os.replace(tmp, path)


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Google Benchmark JSON (raw.json) to ecsbench's tidy results.csv")
    parser.add_argument("raw_json", help="Google Benchmark JSON output (raw.json)")
    parser.add_argument("-o", "--output", help="results.csv to write (default: stdout)")
    parser.add_argument("--errors", help="errors.csv to write (failing benchmarks)")
    args = parser.parse_args(argv)
    try:
        with open(args.raw_json, encoding="utf-8") as f:
            doc = json.load(f)
        rows, errors = tidy_rows(doc)
    except OSError as e:
        print(f"json_to_csv: cannot read {args.raw_json}: {e.strerror}", file=sys.stderr)
        return 2
    except json.JSONDecodeError as e:
        print(f"json_to_csv: {args.raw_json} is not valid JSON ({e}); "
              "was the benchmark run interrupted?", file=sys.stderr)
        return 2
    except InputError as e:
        print(f"json_to_csv: {args.raw_json}: {e}", file=sys.stderr)
        return 2
    text = csv_text(HEADER, rows)
    if args.output:
        write_atomically(args.output, text)
    else:
        sys.stdout.write(text)
    if args.errors:
        write_atomically(args.errors, csv_text(ERROR_HEADER, errors))
    return 0


if __name__ == "__main__":
    sys.exit(main())
