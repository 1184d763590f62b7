"""ecsb_rundata — read one ecsbench run folder for the summary, plot and compare scripts.

A run folder (results/<run-id>/, written by `make bench`) holds
  list.json    `ecsbench list --json` of the binary that ran: the strategies (registry order)
               and the scenarios (item, limit line or not, default sizes). The scripts take
               scenario names, items and units from here and nowhere else. A run made before
               list.json existed gets the same facts from its raw.json instead (context
               ecsb_item_<scenario> and ecsb_strategies; a limit line where it has limit rows).
  raw.json     Google Benchmark JSON: "context" (host, date, caches, our ecsb_* keys) and one
               "iteration" row per repetition of each benchmark `scenario/strategy/N[/...]`
  results.csv  tidy: scenario,strategy,n,metric,unit,median,min,max,mean,stddev,cv,repetitions
               (and optionally, anywhere, a params column: "name=value;...", empty by default,
               drift: the timed passes' last-third / first-third time, drifting: yes when that
               lies beyond +-10 %; a hand-made run may carry drift alone as a 0/1 flag)
               with metrics time_per_item (ns), seconds_per_pass (s) and bytes_per_entity (B);
               metric "error" (no figures) marks a benchmark that failed its checksum or a status
  errors.csv   why each failed benchmark failed (optional)
The figures come from results.csv; the per-repetition samples for significance tests from
raw.json. Anything missing, truncated or malformed raises RunError with a message that says what
is wrong and what to do; the scripts exit 2 on it, never with a traceback.
"""
import csv
import json
import math
import os
import re

FLOOR = "floor"
LIMIT = "limit"
REFERENCES = (FLOOR, LIMIT)
LABELS = {FLOOR: "floor (plain arrays)", LIMIT: "limit (touched data only)"}
CSV_HEADER = ["scenario", "strategy", "n", "metric", "unit", "median", "min", "max", "mean",
              "stddev", "cv", "repetitions"]
OPTIONAL = ("params", "drift", "drifting", "speed_index", "disturbed")
TIME_UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}
NAME = re.compile(r"^[A-Za-z0-9_]+$")


class RunError(Exception):
    """A run folder or argument that cannot be used (the scripts exit 2)."""


# A repetition the sentinel found disturbed and could not repeat (counter disturbed = 1) is
# left out of its line's figures and verdicts while at least LEAST_CLEAN of the line's
# repetitions are clean: it was timed on a slowed machine (docs/measuring.md, "Marked
# repetitions"). A line with fewer clean ones keeps them all; the banner says how many.
LEAST_CLEAN = 3


def kept(values, marked):
    """The values of a line's repetitions its figures use: those not marked disturbed when at
    least LEAST_CLEAN are clean, else all (marked: a flag per value, true = disturbed)."""
    clean = [v for v, m in zip(values, marked) if not m]
    return clean if len(clean) >= LEAST_CLEAN else list(values)


def _number_or_zero(value):
    return float(value) if isinstance(value, (int, float)) else 0.0


def parse_benchmark_name(name):
    """(scenario, strategy, n) from `scenario/strategy/N[/name=value,...][/manual_time|...]`,
    or None. A benchmark run with parameters other than its scenario's defaults belongs to the
    scenario variant `scenario~name=value,...` (variant()): tables, plots and comparisons treat
    each variant as a scenario of its own, beside its base."""
    parts = str(name).split("/")
    if len(parts) < 3 or not NAME.match(parts[0]) or not NAME.match(parts[1]) \
            or not parts[2].isdigit():
        return None
    changed = [p for p in parts[3:] if "=" in p]
    return variant(parts[0], ",".join(changed)), parts[1], int(parts[2])


def variant(scenario, changed):
    """The name of a scenario run with the parameters `changed` ("name=value,..." that differ
    from its defaults; "" for none)."""
    return f"{scenario}~{changed}" if changed else scenario


def base_scenario(name):
    """The scenario a variant name belongs to: dual_iterate~order=shuffled -> dual_iterate."""
    return name.split("~", 1)[0]


def label(strategy):
    """The legend and table name of a strategy or reference line."""
    return LABELS.get(strategy, strategy)


def human_bytes(size):
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale:
            value = size / scale
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.2f} {unit}"
    return f"{size:.0f} B"


# ---- what the binary says about itself (list.json) ---------------------------------------------

class ScenarioFacts(dict):
    """{scenario: facts}; a variant (scenario~name=value,...) has its base scenario's facts."""

    def get(self, name, default=None):
        return super().get(name, super().get(base_scenario(name), default))


class Meta:
    """The binary's registry: .strategies (names, registry order), .scenarios ({name: {"item",
    "has_limit", "default_sizes", "summary"}} in scenarios.def order), .source (where from)."""

    def __init__(self, strategies, scenarios, source):
        self.strategies = strategies
        self.scenarios = ScenarioFacts(scenarios)
        self.source = source

    def item(self, scenario):
        return self.scenarios.get(scenario, {}).get("item") or "item"

    def has_limit(self, scenario):
        return bool(self.scenarios.get(scenario, {}).get("has_limit"))


def meta_from_list(doc, where):
    """A Meta from the parsed output of `ecsbench list --json`; RunError when malformed."""
    def bad(what):
        return RunError(f"{where}: {what}; it should be the output of `ecsbench list --json` "
                        "(CONTRACT.md)")
    if not isinstance(doc, dict) or not isinstance(doc.get("strategies"), list) \
            or not isinstance(doc.get("scenarios"), list):
        raise bad('no "strategies" and "scenarios" lists')
    strategies = []
    for s in doc["strategies"]:
        if not isinstance(s, dict) or not NAME.match(str(s.get("name", ""))):
            raise bad(f"strategy entry {s!r} has no valid name")
        strategies.append(s["name"])
    scenarios = {}
    for s in doc["scenarios"]:
        if not isinstance(s, dict) or not NAME.match(str(s.get("name", ""))):
            raise bad(f"scenario entry {s!r} has no valid name")
        sizes = s.get("default_sizes", [])
        if not isinstance(sizes, list) or not all(isinstance(n, int) and n > 0 for n in sizes):
            raise bad(f"scenario {s['name']}: default_sizes {sizes!r} is not a list of sizes")
        if not isinstance(s.get("item", ""), str) or not isinstance(s.get("has_limit", False), bool):
            raise bad(f"scenario {s['name']}: item must be a string and has_limit a boolean")
        scenarios[s["name"]] = {"item": s.get("item") or "item",
                                "has_limit": s.get("has_limit", False),
                                "default_sizes": sizes, "summary": str(s.get("summary", ""))}
    return Meta(strategies, scenarios, where)


def load_list_json(path, source=None):
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        raise RunError(f"{path}: {e.strerror}")
    except ValueError as e:
        raise RunError(f"{path} is not valid JSON ({e}); the run is damaged")
    meta = meta_from_list(doc, path)
    meta.source = source or path
    return meta


def meta_from_run(context, keys):
    """The registry facts of a run made before list.json: from its context and its rows."""
    listed = context.get("ecsb_strategies")
    strategies = [s for s in re.split(r"[,\s]+", listed) if NAME.match(s) and s not in REFERENCES] \
        if isinstance(listed, str) else []
    strategies += [k[1] for k in keys if k[1] not in strategies and k[1] not in REFERENCES]
    strategies = list(dict.fromkeys(strategies))
    order = context.get("ecsb_scenarios")
    names = [s for s in order.split(",") if NAME.match(s)] if isinstance(order, str) else []
    names = list(dict.fromkeys(names + [k[0] for k in keys]))
    scenarios = {}
    for name in names:
        item = context.get(f"ecsb_item_{name}")
        scenarios[name] = {"item": item.strip() if isinstance(item, str) and item.strip() else "item",
                           "has_limit": any(k[0] == name and k[1] == LIMIT for k in keys),
                           "default_sizes": sorted({k[2] for k in keys if k[0] == name}),
                           "summary": ""}
    return Meta(strategies, scenarios, "raw.json (this run has no list.json)")


# ---- one run ---------------------------------------------------------------------------------

class Run:
    """One run folder: .path, .run_id, .context, .meta, .rows, .samples, .errors, .scenarios,
    .strategies (legend order: floor, limit, then the registry's order)."""

    def __init__(self, path):
        self.path = path.rstrip("/") or path
        self.run_id = os.path.basename(os.path.abspath(self.path))
        self.context = {}
        self.meta = None
        # rows[(scenario, strategy, n)][metric] = {"median": float, "min": ..., "unit": str, ...}
        self.rows = {}
        # params[(scenario, strategy, n)] = the "name=value;..." of its rows ("" or absent: none)
        self.params = {}
        # drift[(scenario, strategy, n)] = True when its timed passes still drifted (csv "drift")
        self.drift = {}
        # samples[(scenario, strategy, n)] = [seconds per pass, one per repetition], those
        # marked disturbed left out while LEAST_CLEAN are clean (kept()); left_out counts them
        self.samples = {}
        self.left_out = 0
        # (scenario, strategy, n) of benchmarks that failed, how many repetitions, and why
        self.errors = []
        self.error_repetitions = {}
        self.error_messages = {}
        self.scenarios = []
        self.strategies = []

    def load(self):
        if not os.path.isdir(self.path):
            raise RunError(f"{self.path}: no such run folder")
        raw_keys = self._load_raw()
        self._load_csv()
        self._load_errors()
        csv_keys = set(self.rows) | set(self.errors)
        if raw_keys - csv_keys:
            missing = sorted(raw_keys - csv_keys)
            raise RunError(
                f"{self.path}/results.csv lacks {len(missing)} benchmark(s) that raw.json has "
                f"(first: {'/'.join(map(str, missing[0]))}): truncated or from another run; "
                f"write it again with: scripts/json_to_csv.py {self.path}/raw.json "
                f"-o {self.path}/results.csv --errors {self.path}/errors.csv")
        listed = os.path.join(self.path, "list.json")
        self.meta = load_list_json(listed, "list.json (ecsbench list --json)") \
            if os.path.exists(listed) \
            else meta_from_run(self.context, csv_keys)
        present = {k[0] for k in csv_keys}
        order = list(self.meta.scenarios)
        rank = {s: i for i, s in enumerate(order)}
        # each scenario, then its variants (other parameter sets) right after it
        self.scenarios = sorted(present, key=lambda s: (rank.get(base_scenario(s), len(order)),
                                                         base_scenario(s), s != base_scenario(s), s))
        self.strategies = self.legend_order({k[1] for k in csv_keys})
        run_id = self.context.get("ecsb_run_id")
        if isinstance(run_id, str) and re.match(r"^[A-Za-z0-9._-]+$", run_id) \
                and self.run_id.startswith("."):
            self.run_id = run_id  # a staging folder: the id the run will be published under
        return self

    def _load_raw(self):
        raw = os.path.join(self.path, "raw.json")
        if not os.path.isfile(raw):
            raise RunError(f"{raw} is missing; is {self.path} a complete ecsbench run?")
        try:
            with open(raw, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, UnicodeDecodeError) as e:
            raise RunError(f"{raw}: cannot read it ({e})")
        except ValueError as e:
            raise RunError(f"{raw} is not valid JSON ({e}): truncated or damaged; "
                           "run make bench again")
        if not isinstance(doc, dict) or not isinstance(doc.get("context"), dict) \
                or not isinstance(doc.get("benchmarks"), list):
            raise RunError(f"{raw} is not Google Benchmark JSON (needs \"context\" and "
                           "\"benchmarks\")")
        self.context = doc["context"]
        keys, flags = set(), {}
        for b in doc["benchmarks"]:
            if not isinstance(b, dict) or b.get("run_type", "iteration") != "iteration" \
                    or "aggregate_name" in b:
                continue
            key = parse_benchmark_name(b.get("run_name") or b.get("name", ""))
            if key is None:
                raise RunError(f"{raw}: benchmark {str(b.get('name'))[:60]!r} is not named "
                               "scenario/strategy/N")
            keys.add(key)
            if b.get("error_occurred"):
                continue
            try:
                seconds = float(b["real_time"]) * TIME_UNITS[b.get("time_unit", "ns")]
            except (KeyError, TypeError, ValueError):
                raise RunError(f"{raw}: {'/'.join(map(str, key))} has no usable real_time "
                               "and time_unit")
            if not math.isfinite(seconds) or seconds <= 0:
                raise RunError(f"{raw}: {'/'.join(map(str, key))}: real_time {seconds} s")
            self.samples.setdefault(key, []).append(seconds)
            flags.setdefault(key, []).append(_number_or_zero(b.get("disturbed")) >= 1)
        for key, values in self.samples.items():
            self.samples[key] = kept(values, flags[key])
            self.left_out += len(values) - len(self.samples[key])
        if not keys:
            raise RunError(f"{raw} holds no benchmark repetitions named scenario/strategy/N")
        return keys

    def _load_csv(self):
        path = os.path.join(self.path, "results.csv")
        if not os.path.isfile(path):
            raise RunError(f"{path} is missing; is {self.path} a complete ecsbench run?")
        try:
            with open(path, newline="", encoding="utf-8") as f:
                reader = csv.reader(f)
                header = next(reader, None)
                if header is None or [h for h in header if h not in OPTIONAL] != CSV_HEADER:
                    raise RunError(f"{path}: unexpected header {header!r}; want "
                                   f"{','.join(CSV_HEADER)} (and optionally params, drift, drifting)")
                for lineno, rec in enumerate(reader, start=2):
                    if not rec:
                        continue
                    if len(rec) != len(header):
                        raise RunError(f"{path}:{lineno}: {len(rec)} fields, want "
                                       f"{len(header)}: truncated or damaged")
                    self._add_csv_row(path, lineno, dict(zip(header, rec)))
        except OSError as e:
            raise RunError(f"{path}: {e}")
        except (csv.Error, UnicodeDecodeError) as e:
            raise RunError(f"{path}: not valid CSV ({e})")
        if not any("time_per_item" in m for m in self.rows.values()) and not self.errors:
            raise RunError(f"{path} has no time_per_item rows")

    def _add_csv_row(self, path, lineno, row):
        if not NAME.match(row["scenario"]) or not NAME.match(row["strategy"]) \
                or not row["n"].isdigit():
            raise RunError(f"{path}:{lineno}: {row['scenario']!r}/{row['strategy']!r}/"
                           f"{row['n']!r} is not scenario/strategy/N")
        params = row.get("params", "")
        key = (variant(row["scenario"], self.changed_params(row["scenario"], params)),
               row["strategy"], int(row["n"]))
        if self.params.setdefault(key, params) != params:
            raise RunError(f"{path}:{lineno}: {'/'.join(map(str, key))} has rows with params "
                           f"{self.params[key]!r} and {params!r}; these scripts read one "
                           "parameter set per scenario, strategy and N")
        # json_to_csv.py writes drift (the figure) and drifting (yes/no); hand-made runs and
        # fixtures may carry drift alone as a 0/1 flag
        flag = row.get("drifting")
        if flag is not None and flag.strip() != "":
            if flag.strip() == "yes":
                self.drift[key] = True
        elif str(row.get("drift", "0")).strip() in ("1", "yes"):
            self.drift[key] = True
        if row["metric"] == "error":
            # A benchmark that failed its checksum check or a status: no figures.
            if key not in self.errors:
                self.errors.append(key)
            self.error_repetitions[key] = row["repetitions"]
            return
        try:
            stats = {k: float(row[k]) for k in ("median", "min", "max", "mean", "stddev", "cv")}
            stats["repetitions"] = int(float(row["repetitions"]))
        except ValueError as e:
            raise RunError(f"{path}:{lineno}: not a number ({e})")
        if row["metric"] in ("time_per_item", "seconds_per_pass") and \
                not all(math.isfinite(stats[k]) and stats[k] > 0 for k in ("median", "min", "max")):
            raise RunError(f"{path}:{lineno}: {row['metric']} must be a positive number")
        stats["unit"] = row["unit"]
        self.rows.setdefault(key, {})[row["metric"]] = stats

    def _load_errors(self):
        path = os.path.join(self.path, "errors.csv")
        if not os.path.isfile(path):
            return
        try:
            with open(path, newline="", encoding="utf-8") as f:
                for r in csv.DictReader(f):
                    changed = self.changed_params(r.get("scenario"), r.get("params") or "")
                    key = parse_benchmark_name(f"{r.get('scenario')}/{r.get('strategy')}/{r.get('n')}"
                                               + (f"/{changed}" if changed else ""))
                    if key:
                        self.error_messages[key] = str(r.get("message") or "")
                        if key not in self.errors:
                            self.errors.append(key)
        except (OSError, csv.Error, UnicodeDecodeError) as e:
            raise RunError(f"{path}: not readable CSV ({e})")

    # ---- queries ------------------------------------------------------------------------
    def legend_order(self, names):
        """floor, limit, the registry's strategies in order, then any others."""
        known = list(dict.fromkeys(s for s in REFERENCES + tuple(self.meta.strategies)
                                   if s in names))
        return known + sorted(set(names) - set(known))

    def contenders(self):
        """The strategies of the run, the floor and limit lines left out."""
        return [s for s in self.strategies if s not in REFERENCES]

    def stats(self, key, metric):
        return self.rows.get(key, {}).get(metric)

    def time_per_item(self, key):
        """The time_per_item stats of (scenario, strategy, n), or None."""
        return self.stats(key, "time_per_item")

    def bytes_per_entity(self, key):
        """The median bytes per live entity after set-up, or None (unknown or no entity)."""
        s = self.stats(key, "bytes_per_entity")
        return s["median"] if s and math.isfinite(s["median"]) else None

    def changed_params(self, scenario, params):
        """Of a row's "name=value;..." parameters, those that differ from the scenario's
        defaults (the context's ecsb_params_default), joined by ","; all of them when the
        defaults are unknown."""
        defaults = set()
        for part in str(self.context.get("ecsb_params_default", "")).split("|"):
            sc, _, assignments = part.partition(":")
            if sc == scenario:
                defaults = set(assignments.split(";"))
        return ",".join(a for a in params.split(";") if a and a not in defaults)

    def params_of(self, key):
        """The "name=value;..." parameters of (scenario, strategy, n); "" when none."""
        return self.params.get(key, "")

    def drifted(self, key):
        """True when results.csv flags (scenario, strategy, n)'s timed passes as drifting."""
        return self.drift.get(key, False)

    def failed(self, key):
        return key in self.errors and not self.time_per_item(key)

    def sizes(self, scenario):
        return sorted({k[2] for k in list(self.rows) + self.errors if k[0] == scenario})

    def item(self, scenario):
        return self.meta.item(scenario)

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

    def cpu(self):
        return str(self.context.get("ecsb_cpu_model") or "").strip()

    def date(self):
        """The run's date, shortened to minutes: 2026-11-01 09:00 UTC."""
        d = str(self.context.get("date") or "")
        m = re.match(r"(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d)(?::\d\d(?:\.\d+)?)?(Z|[+-]\d\d:\d\d)?$", d)
        if not m:
            return d or "unknown date"
        tz = m.group(3) or ""
        tz = " UTC" if tz in ("Z", "+00:00") else (f" {tz}" if tz else "")
        return f"{m.group(1)} {m.group(2)}{tz}"


def load_run(path):
    return Run(path).load()


# ---- the machine (machine.json, written by `ecsbench machine`; docs/machine.md) -------------

def load_machine(run_dir):
    """The run's machine.json as a dict, or None when the run has none (runs before it) or it
    is unreadable (a damaged machine.json is treated as absent: the run's figures stand)."""
    try:
        with open(os.path.join(run_dir, "machine.json"), encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return doc if isinstance(doc, dict) else None


def _raw_context(run_dir):
    try:
        with open(os.path.join(run_dir, "raw.json"), encoding="utf-8") as f:
            ctx = json.load(f).get("context")
    except (OSError, ValueError, UnicodeDecodeError, AttributeError):
        return {}
    return ctx if isinstance(ctx, dict) else {}


def _cache_text(size):
    """48K, 2M; a size that is not a whole MiB in KiB (36608K), as `ecsbench machine` writes."""
    return f"{size >> 20}M" if size >= 1 << 20 and size % (1 << 20) == 0 else f"{size >> 10}K"


def machine_short_name(run_dir):
    """The short name of the machine a run was made on ("Intel Emerald Rapids, 2.6 GHz,
    48K/2M/300M"), what documents and chart stamps print: machine.json's short_name; for a run
    without one (made before machine.json), the same form from raw.json's context: its CPU
    model, Google Benchmark's MHz and its data caches."""
    doc = load_machine(run_dir)
    if doc and isinstance(doc.get("short_name"), str) and doc["short_name"].strip():
        return doc["short_name"].strip()
    ctx = _raw_context(run_dir)
    cpu = re.sub(r"\((R|TM)\)|\b(Processor|CPU)\b|@.*$", "",
                 str(ctx.get("ecsb_cpu_model") or ""))
    parts = [" ".join(cpu.split()) or str(ctx.get("host_name") or "unknown machine")]
    mhz = ctx.get("mhz_per_cpu")
    if isinstance(mhz, (int, float)) and mhz > 0:
        parts.append(f"{mhz / 1000:.1f} GHz")
    sizes = []
    for c in ctx.get("caches") or []:
        try:
            if c.get("type") != "Instruction" and int(c["size"]) > 0:
                sizes.append((int(c["level"]), int(c["size"])))
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
    if sizes:
        parts.append("/".join(_cache_text(s) for _, s in sorted(sizes)))
    return ", ".join(parts)
