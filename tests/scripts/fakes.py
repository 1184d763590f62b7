#!/usr/bin/python3
"""fakes.py — a stand-in ecsbench binary and run-folder builders for the script tests.

As a program it speaks the binary's side of CONTRACT.md, with made-up registries and timings,
so the scripts can be tested fast, deterministically, and on cases a real run never gives
(a failed checksum, a crash at a chosen moment, a dozen strategies):

  fakes.py list [--json]                    the registry (FAKE_LIST: a list.json to use instead)
  fakes.py bench [--ecsb_* and --benchmark_* flags]
      Google Benchmark JSON rows scenario/strategy/N (floor, limit where the scenario has one,
      then the strategies) with the counters items_per_pass, n, bytes and entities; unknown
      names exit 2 listing the valid ones; rows matched by FAKE_FAIL fail their checksum and
      the exit status is then 1; FAKE_SLEEP seconds before each benchmark; the JSON file is
      written as the benchmarks complete (so a kill leaves it truncated, as a real one would)
  fakes.py run <scenario> <strategy> <N> [passes]
      checksum=<hex> seconds=<FAKE_RUN_SECONDS, slept too>; FAKE_BAD names a strategy whose
      checksum differs from the floor's
  fakes.py hyperfine [hyperfine's flags] --command-name NAME CMD ...
      a stand-in hyperfine: the three exports, each command's median from FAKE_HYPERFINE
      ("start-up=0.01,floor=0.02", seconds; 0.01 for the others), nothing run

As a module: gbench_rows(), context() and write_run() build run folders from exact samples.
"""
import hashlib
import json
import math
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
PYTHON = os.environ.get("PYTHON", "/usr/bin/python3")

# Names no real registry has: a script that still knew the real names would fail here.
DEFAULT_LIST = {
    "strategies": [{"name": "alpha", "summary": "the first made-up strategy"},
                   {"name": "beta", "summary": "the second"},
                   {"name": "gamma", "summary": "the third"}],
    "references": [{"name": "floor", "summary": "plain arrays"},
                   {"name": "limit", "summary": "touched data only"}],
    "scenarios": [
        {"name": "sweep", "summary": "visit every x", "item": "entity visited",
         "consumes_setup": False, "changes_structure": False, "has_limit": True,
         "default_sizes": [4000, 65536]},
        {"name": "spawn", "summary": "create and destroy", "item": "component op",
         "consumes_setup": True, "changes_structure": True, "has_limit": False,
         "default_sizes": [256, 4000]},
    ],
}
QUICK_SIZES = [64, 4000]
# Flags the binary leaves out of the command it records (they name this run's files).
RUN_SPECIFIC = ("--benchmark_out=", "--benchmark_out_format=", "--ecsb_run_id=", "--ecsb_context=",
                "--ecsb_progress=")
CACHES = [
    {"type": "Data", "level": 1, "size": 32768, "num_sharing": 1},
    {"type": "Instruction", "level": 1, "size": 32768, "num_sharing": 1},
    {"type": "Unified", "level": 2, "size": 1048576, "num_sharing": 1},
    {"type": "Unified", "level": 3, "size": 37486592, "num_sharing": 2},
]


def context(run_id, date="2026-11-01T09:00:00+00:00", cpu="Fake CPU @ 2.50GHz", caches=None,
            **extra):
    ctx = {"date": date, "host_name": "vm", "executable": "build/ecsbench", "num_cpus": 2,
           "mhz_per_cpu": 2500, "cpu_scaling_enabled": False,
           "caches": CACHES if caches is None else caches, "load_avg": [0.3, 0.2, 0.1],
           "library_build_type": "release", "ecsb_run_id": run_id, "ecsb_cpu_model": cpu,
           "ecsb_compiler": "gcc 12.2.0", "ecsb_cflags": "-O2", "ecsb_gbench_version": "1.7.1", "ecsb_git_commit": "f00d",
           "ecsb_git_dirty": "false"}
    ctx.update({k if k.startswith("ecsb_") else f"ecsb_{k}": v for k, v in extra.items()})
    return ctx


def gbench_rows(scenario, strategy, n, items, ns_per_item, family, bytes_per_entity=None,
                error=None, manual=False):
    """The Google Benchmark iteration rows of one benchmark: one per value of ns_per_item
    (ns per item of each repetition), or `error` repetitions failing with that message.
    bytes_per_entity 0 means a world left empty by set-up (bytes 0, entities 0)."""
    name = f"{scenario}/{strategy}/{n}" + ("/manual_time" if manual else "")
    common = {"name": name, "family_index": family, "per_family_instance_index": 0,
              "run_name": name, "run_type": "iteration", "threads": 1}
    if error:
        count, message = error
        return [dict(common, repetitions=count, repetition_index=r, error_occurred=True,
                     error_message=message, iterations=0, real_time=0.0, cpu_time=0.0,
                     time_unit="ns") for r in range(count)]
    rows = []
    for r, t in enumerate(ns_per_item):
        row = dict(common, repetitions=len(ns_per_item), repetition_index=r, iterations=100,
                   real_time=t * items, cpu_time=t * items, time_unit="ns",
                   items_per_pass=float(items), n=float(n))
        if bytes_per_entity is not None:
            row["bytes"], row["entities"] = float(bytes_per_entity * n), float(n if bytes_per_entity else 0)
        rows.append(row)
    return rows


def write_run(folder, list_doc, ctx, benchmarks):
    """A run folder as make bench leaves it: list.json, raw.json, results.csv, errors.csv."""
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "list.json"), "w") as f:
        json.dump(list_doc, f, indent=1)
    with open(os.path.join(folder, "raw.json"), "w") as f:
        json.dump({"context": ctx, "benchmarks": benchmarks}, f, indent=1)
    subprocess.run([PYTHON, os.path.join(TOP, "scripts", "json_to_csv.py"),
                    os.path.join(folder, "raw.json"), "-o", os.path.join(folder, "results.csv"),
                    "--errors", os.path.join(folder, "errors.csv")], check=True)
    return folder


def replace_samples(folder, scenario, strategy, n, ns_per_item):
    """Give one benchmark of a run folder these repetitions (ns per item), keeping its items
    and counters, and write results.csv and errors.csv again."""
    path = os.path.join(folder, "raw.json")
    with open(path) as f:
        doc = json.load(f)
    old = [b for b in doc["benchmarks"]
           if b.get("run_name", "").split("/")[:3] == [scenario, strategy, str(n)]]
    keep = [b for b in doc["benchmarks"] if b not in old]
    template = old[0]
    items = template["items_per_pass"]
    for r, t in enumerate(ns_per_item):
        keep.append(dict(template, repetition_index=r, repetitions=len(ns_per_item),
                         real_time=t * items, cpu_time=t * items))
    doc["benchmarks"] = keep
    list_path = os.path.join(folder, "list.json")
    with open(list_path) as f:
        list_doc = json.load(f)
    return write_run(folder, list_doc, doc["context"], doc["benchmarks"])


# ---- the stand-in binary --------------------------------------------------------------------

def registry():
    path = os.environ.get("FAKE_LIST")
    if path:
        with open(path) as f:
            return json.load(f)
    return DEFAULT_LIST


def jitter(*key):
    """A deterministic factor in [0.98, 1.02] for the key."""
    h = int(hashlib.sha1("/".join(map(str, key)).encode()).hexdigest()[:8], 16)
    return 0.98 + 0.04 * (h / 0xFFFFFFFF)


def model(reg, scenario, strategy, n):
    """(ns per item, bytes per entity) of the made-up machine."""
    names = [s["name"] for s in reg["strategies"]]
    sc = [s["name"] for s in reg["scenarios"]].index(scenario)
    rank = {"floor": -1, "limit": -1.5}.get(strategy)
    rank = names.index(strategy) if rank is None else rank
    # Each scenario favours another strategy: rotate the ranks.
    if rank >= 0:
        rank = (rank + sc) % len(names)
    ns = (1.0 + 0.6 * (rank + 1.5)) * (1 + 0.1 * math.log(max(n, 4) / 4, 4)) * (1 + 0.3 * sc)
    floor_bytes = 4.0 * (1 + sc)
    if strategy in ("floor", "limit"):
        return ns, floor_bytes / (1 if strategy == "floor" else 2)
    return ns, floor_bytes + 8 * (names.index(strategy) + 1) + 4096 / max(n, 1)


def usage_error(message):
    print(f"ecsbench: {message}", file=sys.stderr)
    sys.exit(2)


def pick(flag, value, valid):
    names = [x for x in value.split(",") if x]
    for x in names:
        if x not in valid:
            usage_error(f"unknown name '{x}' in {flag}; valid: {', '.join(valid)}")
    return names


def failing(scenario, strategy, n):
    for pattern in filter(None, os.environ.get("FAKE_FAIL", "").split(",")):
        want = pattern.split("/")
        if len(want) == 3 and all(w in ("*", str(v)) for w, v in zip(want, (scenario, strategy, n))):
            return True
    return False


def bench(argv):
    reg = registry()
    scenarios = [s["name"] for s in reg["scenarios"]]
    strategies = [s["name"] for s in reg["strategies"]]
    opts = {"reps": 3, "sizes": None, "out": None, "run_id": "fake-run", "quick": False,
            "list": False, "json_stdout": False, "filter": "", "extra": {}}
    chosen_sc, chosen_st = scenarios, strategies
    for arg in argv:
        key, _, value = arg.partition("=")
        if key == "--ecsb_scenarios":
            chosen_sc = pick(key, value, scenarios)
        elif key == "--ecsb_strategies":
            chosen_st = pick(key, value, strategies)
        elif key == "--ecsb_sizes":
            if not re.match(r"^[1-9][0-9]*(,[1-9][0-9]*)*$", value):
                usage_error(f"bad --ecsb_sizes={value}; sizes are 1..16777216, e.g. 256,4000")
            opts["sizes"] = sorted({int(x) for x in value.split(",")})
        elif key == "--ecsb_quick":
            opts["quick"], opts["reps"] = True, 2
        elif key == "--ecsb_run_id":
            opts["run_id"] = value
        elif key == "--ecsb_context":
            k, _, v = value.partition("=")
            opts["extra"][k] = v
        elif key == "--benchmark_out":
            opts["out"] = value
        elif key == "--benchmark_repetitions":
            opts["reps"] = int(value)
        elif key == "--benchmark_list_tests":
            opts["list"] = value in ("", "true", "1")
        elif key == "--benchmark_format":
            opts["json_stdout"] = value == "json"
        elif key == "--benchmark_filter":
            opts["filter"] = value
        elif key not in ("--benchmark_out_format", "--benchmark_min_time", "--ecsb_progress",
                         "--ecsb_seed",
                         "--ecsb_param"):  # the stand-in has no parameters: defaults only
            usage_error(f"unknown argument {arg}")
    cases = []
    for sc in reg["scenarios"]:
        if sc["name"] not in chosen_sc:
            continue
        sizes = opts["sizes"] or (QUICK_SIZES if opts["quick"] else sc["default_sizes"])
        lines = ["floor"] + (["limit"] if sc.get("has_limit") else []) + chosen_st
        for st in lines:
            for n in sizes:
                name = f"{sc['name']}/{st}/{n}"
                if re.search(opts["filter"], name):
                    cases.append((sc, st, n, len(cases)))
    if opts["list"]:
        print("\n".join(f"{sc['name']}/{st}/{n}" for sc, st, n, _ in cases))
        return 0
    ctx = context(opts["run_id"], date=time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime()),
                  cpu=os.environ.get("FAKE_CPU", "Fake CPU @ 2.50GHz"),
                  **{"ecsb_repetitions": str(opts["reps"]), "ecsb_quick": str(opts["quick"]).lower(),
                     "ecsb_strategies": ",".join(chosen_st), "ecsb_scenarios": ",".join(chosen_sc),
                     "ecsb_command": " ".join(["build/ecsbench", "bench"] + [
                         a for a in argv if not a.startswith(RUN_SPECIFIC)])},
                  **{f"ecsb_{k}": v for k, v in opts["extra"].items()})
    out = open(opts["out"], "w") if opts["out"] else None
    head = json.dumps({"context": ctx}, indent=1)[:-2] + ',\n "benchmarks": [\n'
    if out:
        out.write(head)
        out.flush()
    rows, failed, first = [], 0, True
    for sc, st, n, family in cases:
        time.sleep(float(os.environ.get("FAKE_SLEEP", "0")))
        items = n * (2 if sc.get("consumes_setup") else 1)
        ns, bpe = model(reg, sc["name"], st, n)
        if failing(sc["name"], st, n):
            failed += 1
            err = (opts["reps"], f"{sc['name']} on {st} at N={n}: wrong checksum: expected "
                                 "00000000000000aa (floor), got 00000000000000bb")
            new = gbench_rows(sc["name"], st, n, items, [], family, error=err)
            print(f"ecsbench: error: {err[1]}", file=sys.stderr)
        else:
            samples = [ns * jitter(sc["name"], st, n, r) for r in range(opts["reps"])]
            new = gbench_rows(sc["name"], st, n, items, samples, family, bpe,
                              manual=bool(sc.get("consumes_setup")))
        rows += new
        if out:
            for row in new:
                out.write(("" if first else ",\n") + json.dumps(row))
                first = False
            out.flush()
        print(f"{sc['name']}/{st}/{n}  {ns:.2f} ns per item")
    if out:
        out.write("\n ]\n}\n")
        out.close()
    if opts["json_stdout"]:
        print(json.dumps({"context": ctx, "benchmarks": rows}, indent=1))
    return 1 if failed else 0


def run(argv):
    reg = registry()
    if len(argv) not in (3, 4):
        usage_error("run takes 3 or 4 arguments: <scenario> <strategy> <N> [passes]")
    scenarios = [s["name"] for s in reg["scenarios"]]
    strategies = ["floor"] + [s["name"] for s in reg["strategies"]]
    if argv[0] not in scenarios:
        usage_error(f"unknown scenario '{argv[0]}'; valid: {' | '.join(scenarios)}")
    if argv[1] not in strategies:
        usage_error(f"unknown strategy '{argv[1]}'; valid: {' | '.join(strategies)}")
    if not argv[2].isdigit() or not 1 <= int(argv[2]) <= 16777216:
        usage_error(f"bad N '{argv[2]}'; N is a decimal integer 1..16777216")
    seconds = float(os.environ.get("FAKE_RUN_SECONDS", "0.0001"))
    time.sleep(seconds)
    bad = argv[1] == os.environ.get("FAKE_BAD")
    digest = hashlib.sha1(f"{argv[0]}/{argv[2]}/{argv[3:]}".encode()).hexdigest()[:16]
    print(f"checksum={'00000000000000ff' if bad else digest} seconds={seconds:.9f}")
    return 0


def hyperfine(argv):
    if argv == ["--version"]:
        print("hyperfine 0.0.0-stand-in")
        return 0
    times = dict(kv.split("=") for kv in filter(None, os.environ.get("FAKE_HYPERFINE", "").split(",")))
    exports, names, i = {}, [], 0
    while i < len(argv):
        if argv[i].startswith("--export-"):
            exports[argv[i][len("--export-"):]] = argv[i + 1]
            i += 2
        elif argv[i] == "--command-name":
            names.append((argv[i + 1], argv[i + 2]))
            i += 3
        elif argv[i] in ("--warmup", "--runs"):
            i += 2
        else:
            i += 1
    results = [{"command": name, "mean": float(times.get(name, 0.01)),
                "median": float(times.get(name, 0.01)), "stddev": 0.0,
                "min": float(times.get(name, 0.01)), "max": float(times.get(name, 0.01))}
               for name, _ in names]
    with open(exports["json"], "w") as f:
        json.dump({"results": results}, f)
    with open(exports["csv"], "w") as f:
        f.write("command,mean,stddev,median,user,system,min,max\n")
        f.writelines(f"{r['command']},{r['mean']},0,{r['median']},0,0,{r['min']},{r['max']}\n"
                     for r in results)
    with open(exports["markdown"], "w") as f:
        f.write("| Command | Mean [ms] |\n|:---|---:|\n")
        f.writelines(f"| `{r['command']}` | {r['mean'] * 1e3:.1f} |\n" for r in results)
    return 0


def main(argv):
    if argv[:1] == ["hyperfine"]:
        return hyperfine(argv[1:])
    if argv[:1] == ["list"]:
        if argv[1:] != ["--json"]:
            usage_error("the stand-in knows only: list --json")
        print(json.dumps(registry(), indent=1))
        return 0
    if argv[:1] == ["bench"]:
        return bench(argv[1:])
    if argv[:1] == ["run"]:
        return run(argv[1:])
    usage_error("usage: ecsbench list --json | bench [flags] | run <scenario> <strategy> <N> [passes]")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
