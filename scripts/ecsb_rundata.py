"""ecsb_rundata — read one ecsbench run folder for the plot and compare scripts.

A run folder (results/<run-id>/, written by `make bench`) holds
  raw.json     Google Benchmark JSON: "context" (host, date, caches, our ecsb_* keys) and one
               "iteration" row per repetition of each benchmark `scenario/strategy/N[/...]`
  results.csv  tidy: scenario,strategy,n,metric,unit,median,min,max,mean,stddev,cv,repetitions
               with metrics time_per_item (ns) and seconds_per_pass (s); metric "error" (no
               figures) marks a benchmark that failed its checksum check or a status
The figures (medians, min, max) come from results.csv, the one tidy source every table uses;
the per-repetition samples for significance tests come from raw.json. Anything missing or
malformed raises RunError with a message that says what is wrong; scripts exit 2 on it.
"""
import csv
import json
import math
import os
import re

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLOOR = "floor"
FLOOR_LABEL = "floor (plain arrays)"
CSV_HEADER = ["scenario", "strategy", "n", "metric", "unit", "median", "min", "max", "mean",
              "stddev", "cv", "repetitions"]
TIME_UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}


class RunError(Exception):
    """A run folder or argument that cannot be used (the scripts exit 2)."""


def parse_benchmark_name(name):
    """(scenario, strategy, n) from `scenario/strategy/N[/manual_time|/repeats:5|...]`, or None."""
    parts = name.split("/")
    if len(parts) < 3 or not parts[0] or not parts[1] or not parts[2].isdigit():
        return None
    return parts[0], parts[1], int(parts[2])


def registry_order():
    """Strategy names in strategies/strategies.def order (the legend order), [] if unreadable."""
    try:
        with open(os.path.join(TOP, "strategies", "strategies.def")) as f:
            text = f.read()
    except OSError:
        return []
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.findall(r"^\s*ECSB_STRATEGY\(\s*(\w+)\s*\)", text, flags=re.M)


def scenario_items(context=None):
    """{scenario: what one timed item is, spelled out ("component operation")}: from the run's
    context (ecsb_item_<scenario>), else scenarios/scenarios.def."""
    items = {"platformer": "component op", "dual_iterate": "matched pair"}
    try:
        with open(os.path.join(TOP, "scenarios", "scenarios.def")) as f:
            text = f.read()
        for name, item in re.findall(r'^\s*ECSB_SCENARIO\(\s*(\w+)\s*,\s*"(?:[^"\\]|\\.)*"\s*,'
                                     r'\s*"([^"]*)"', text, flags=re.M):
            items[name] = item
    except OSError:
        pass
    for key, value in (context or {}).items():
        if key.startswith("ecsb_item_") and isinstance(value, str) and value.strip():
            items[key[len("ecsb_item_"):]] = value.strip()
    return {k: re.sub(r"\bop\b", "operation", v) for k, v in items.items()}


def order_strategies(names, context):
    """Registry order: the run's own list (context ecsb_strategies) if it has one, else
    strategies/strategies.def, then any others as first seen; the floor last."""
    listed = context.get("ecsb_strategies")
    if isinstance(listed, str):
        listed = [s.strip() for s in re.split(r"[,\s]+", listed) if s.strip()]
    if not isinstance(listed, list) or not listed:
        listed = registry_order()
    ordered = [s for s in listed if s in names and s != FLOOR]
    ordered += [s for s in names if s not in ordered and s != FLOOR]
    if FLOOR in names:
        ordered.append(FLOOR)
    return ordered


def human_bytes(size):
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale:
            value = size / scale
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.2f} {unit}"
    return f"{size} B"


class Run:
    """One run folder: .path, .run_id, .context, .rows, .samples, .scenarios, .strategies."""

    def __init__(self, path):
        self.path = path.rstrip("/") or path
        self.run_id = os.path.basename(os.path.abspath(self.path))
        self.context = {}
        # rows[(scenario, strategy, n)][metric] = {"median": float, "min": ..., "unit": str, ...}
        self.rows = {}
        # samples[(scenario, strategy, n)] = [seconds per pass, one per repetition]
        self.samples = {}
        self.scenarios = []
        self.strategies = []
        # (scenario, strategy, n) of benchmarks that failed (results.csv metric "error")
        self.errors = []

    # ---- loading ------------------------------------------------------------------------
    def load(self, need_csv=True):
        if not os.path.isdir(self.path):
            raise RunError(f"{self.path}: no such run folder")
        self._load_raw()
        if need_csv:
            self._load_csv()
        else:
            names = []
            for key in self.samples:
                if key[1] not in names:
                    names.append(key[1])
            self.strategies = order_strategies(names, self.context)
        return self

    def _load_raw(self):
        raw = os.path.join(self.path, "raw.json")
        if not os.path.isfile(raw):
            raise RunError(f"{raw} is missing; is {self.path} a complete ecsbench run?")
        try:
            with open(raw) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            raise RunError(f"{raw} is not valid JSON ({e}); the run is damaged, run make bench again")
        if not isinstance(doc, dict) or not isinstance(doc.get("context"), dict) \
                or not isinstance(doc.get("benchmarks"), list):
            raise RunError(f"{raw} is not Google Benchmark JSON (needs \"context\" and \"benchmarks\")")
        self.context = doc["context"]
        for b in doc["benchmarks"]:
            if not isinstance(b, dict) or b.get("run_type", "iteration") != "iteration":
                continue
            if b.get("error_occurred"):
                continue
            key = parse_benchmark_name(str(b.get("run_name") or b.get("name", "")))
            try:
                seconds = float(b["real_time"]) * TIME_UNITS[b.get("time_unit", "ns")]
            except (KeyError, TypeError, ValueError):
                continue
            if key is not None and math.isfinite(seconds):
                self.samples.setdefault(key, []).append(seconds)
        if not self.samples:
            raise RunError(f"{raw} holds no benchmark repetitions named scenario/strategy/N")

    def _load_csv(self):
        path = os.path.join(self.path, "results.csv")
        if not os.path.isfile(path):
            raise RunError(f"{path} is missing; is {self.path} a complete ecsbench run?")
        try:
            with open(path, newline="") as f:
                reader = csv.reader(f)
                header = next(reader, None)
                if header != CSV_HEADER:
                    raise RunError(f"{path}: unexpected header {header!r}; want "
                                   f"{','.join(CSV_HEADER)}")
                names = []
                for lineno, rec in enumerate(reader, start=2):
                    if not rec:
                        continue
                    if len(rec) != len(CSV_HEADER):
                        raise RunError(f"{path}:{lineno}: {len(rec)} fields, want {len(CSV_HEADER)}")
                    row = dict(zip(CSV_HEADER, rec))
                    if row["metric"] == "error" or row["median"] == "":
                        # A benchmark that failed its checksum check or a status: no figures.
                        n = int(row["n"]) if row["n"].isdigit() else row["n"]
                        self.errors.append((row["scenario"], row["strategy"], n))
                        continue
                    try:
                        key = (row["scenario"], row["strategy"], int(row["n"]))
                        stats = {k: float(row[k]) for k in ("median", "min", "max", "mean",
                                                             "stddev", "cv")}
                        stats["repetitions"] = int(float(row["repetitions"]))
                    except ValueError as e:
                        raise RunError(f"{path}:{lineno}: not a number ({e})")
                    stats["unit"] = row["unit"]
                    self.rows.setdefault(key, {})[row["metric"]] = stats
                    if key[0] not in self.scenarios:
                        self.scenarios.append(key[0])
                    if key[1] not in names:
                        names.append(key[1])
        except OSError as e:
            raise RunError(f"{path}: {e}")
        except csv.Error as e:
            raise RunError(f"{path}: not valid CSV ({e})")
        if not any("time_per_item" in m for m in self.rows.values()):
            raise RunError(f"{path} has no time_per_item rows")
        self.strategies = order_strategies(names, self.context)

    # ---- queries ------------------------------------------------------------------------
    def time_per_item(self, key):
        """The time_per_item stats of (scenario, strategy, n), or None."""
        return self.rows.get(key, {}).get("time_per_item")

    def sizes(self, scenario):
        return sorted({k[2] for k in self.rows if k[0] == scenario})

    def caches(self):
        """[(label, bytes)] of the data caches in the run's context: L1d, L2, L3..."""
        out = []
        for c in self.context.get("caches") or []:
            try:
                level, size, kind = int(c["level"]), int(c["size"]), str(c.get("type", ""))
            except (KeyError, TypeError, ValueError):
                continue
            if kind == "Instruction" or size <= 0:
                continue
            out.append((f"L{level}d" if kind == "Data" else f"L{level}", size))
        return sorted(out, key=lambda x: x[1])

    def host(self):
        return str(self.context.get("host_name") or "unknown host")

    def date(self):
        """The run's date, shortened to minutes: 2026-11-01 09:00 UTC+00:00."""
        d = str(self.context.get("date") or "")
        m = re.match(r"(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d)(?::\d\d(?:\.\d+)?)?(Z|[+-]\d\d:\d\d)?$", d)
        if not m:
            return d or "unknown date"
        tz = m.group(3) or ""
        tz = " UTC" if tz in ("Z", "+00:00") else (f" {tz}" if tz else "")
        return f"{m.group(1)} {m.group(2)}{tz}"


def load_run(path, need_csv=True):
    return Run(path).load(need_csv=need_csv)
