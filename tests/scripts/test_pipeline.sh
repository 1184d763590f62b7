#!/usr/bin/env bash
# test_pipeline.sh — the `make bench` pipeline (scripts/bench.sh), QUICK, into a temporary
# RESULTS_DIR/PLOTS_DIR: one run folder named <UTC stamp>-<host> holding well-formed raw.json
# (with the run id and provenance in its context), results.csv (header, 12 columns, every
# scenario x (floor + strategies) x N with both metrics, numbers that parse), errors.csv and
# summary.md; no .incomplete-* folder left; a taken name is never overwritten; an interrupted
# run (SIGINT, SIGTERM) publishes nothing.
# Environment: BUILD (folder holding ecsbench), PYTHON, ECSB_TEST_SIZES (default 256,4000).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
bin=${BUILD:-build}/ecsbench
PYTHON=${PYTHON:-/usr/bin/python3}
[ -x "$bin" ] || { echo "test_pipeline: $bin missing; run make build/ecsbench" >&2; exit 1; }
sizes=${ECSB_TEST_SIZES:-256,4000}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "  FAIL: $*" >&2; failures=$((failures + 1)); }

export RESULTS_DIR=$tmp/results PLOTS_DIR=$tmp/plots PYTHON
export ECSB_BENCH_ARGS="--ecsb_sizes=$sizes --benchmark_repetitions=2 --benchmark_min_time=0.002"

# ---- one QUICK run ------------------------------------------------------------------------
if ! QUICK=1 scripts/bench.sh "$bin" >"$tmp/log" 2>&1; then
  fail "bench.sh failed: $(tail -n 20 "$tmp/log")"
fi
runs=$(find "$RESULTS_DIR" -mindepth 1 -maxdepth 1 -type d -not -name '.incomplete-*' -printf '%f\n')
[ "$(printf '%s\n' "$runs" | grep -c .)" -eq 1 ] || fail "want one run folder, got: $runs"
run=$(printf '%s\n' "$runs" | head -n 1)
printf '%s\n' "$run" | grep -qE '^[0-9]{8}T[0-9]{6}Z-[A-Za-z0-9-]+$' || fail "run id '$run' is not <UTC stamp>-<host>"
grep -qF "$RESULTS_DIR/$run" "$tmp/log" || fail "bench.sh did not print where the results are"

"$bin" list >"$tmp/list"
"$PYTHON" - "$RESULTS_DIR/$run" "$run" "$sizes" "$tmp/list" <<'EOF' || fail "run folder contents (above)"
import csv, io, json, math, os, sys
folder, run_id, sizes, listing = sys.argv[1:]
sizes = [int(s) for s in sizes.split(",")]
bad = []
names = [l.split() for l in open(listing) if l.strip()]
strategies = ["floor"] + [w[1] for w in names if w[0] == "strategy"]
scenarios = [w[1] for w in names if w[0] == "scenario"]

with open(os.path.join(folder, "raw.json")) as f:
    doc = json.load(f)
ctx = doc["context"]
if ctx.get("ecsb_run_id") != run_id:
    bad.append(f"raw.json ecsb_run_id {ctx.get('ecsb_run_id')!r} != folder {run_id!r}")
for key in ("ecsb_date_utc", "ecsb_host", "ecsb_cpu_model", "ecsb_compiler", "ecsb_cflags",
            "ecsb_git_commit", "ecsb_git_dirty", "ecsb_sizes", "ecsb_repetitions",
            "ecsb_min_time", "date", "host_name"):
    if not ctx.get(key):
        bad.append(f"raw.json context lacks {key}")
# Google Benchmark reads the caches from sysfs; where the OS shows none (a chroot without
# /sys), the list is empty, but it must be there.
if "caches" not in ctx or (os.path.isdir("/sys/devices/system/cpu/cpu0/cache") and not ctx["caches"]):
    bad.append("raw.json context lacks caches")
if ctx.get("ecsb_sizes") != ",".join(map(str, sorted(sizes))):
    bad.append(f"ecsb_sizes {ctx.get('ecsb_sizes')!r}")
if ctx.get("ecsb_repetitions") != "2" or ctx.get("ecsb_quick") != "true":
    bad.append("context: repetitions/quick not as run")
reps = [b for b in doc["benchmarks"] if b.get("run_type") == "iteration"]
if len(reps) != 2 * len(scenarios) * len(strategies) * len(sizes):
    bad.append(f"raw.json: {len(reps)} repetitions")
if any(b["name"].endswith("manual_time") for b in doc["benchmarks"]):
    bad.append("raw.json names carry /manual_time")

raw = open(os.path.join(folder, "results.csv"), newline="").read()
if not raw.startswith("scenario,strategy,n,metric,unit,median,min,max,mean,stddev,cv,repetitions\r\n"):
    bad.append("results.csv does not start with the header line (CRLF)")
if "\n" in raw.replace("\r\n", ""):
    bad.append("results.csv has a bare LF line end")
rows = list(csv.reader(io.StringIO(raw, newline="")))
seen = set()
for i, row in enumerate(rows[1:], start=2):
    if len(row) != 12:
        bad.append(f"results.csv line {i}: {len(row)} fields")
        continue
    sc, st, n, metric, unit = row[:5]
    try:
        med, lo, hi, mean, sd, cv = map(float, row[5:11])
        r = int(row[11])
    except ValueError as e:
        bad.append(f"results.csv line {i}: {e}")
        continue
    if metric not in ("time_per_item", "seconds_per_pass") or unit != {"time_per_item": "ns", "seconds_per_pass": "s"}[metric]:
        bad.append(f"results.csv line {i}: metric {metric!r} unit {unit!r}")
    if not all(math.isfinite(v) for v in (med, lo, hi, mean, sd, cv)) or not 0 < lo <= med <= hi or r != 2:
        bad.append(f"results.csv line {i}: implausible {row}")
    seen.add((sc, st, int(n), metric))
for sc in scenarios:
    for st in strategies:
        for n in sizes:
            for m in ("time_per_item", "seconds_per_pass"):
                if (sc, st, n, m) not in seen:
                    bad.append(f"results.csv lacks {sc},{st},{n},{m}")
if len(rows) - 1 != len(seen):
    bad.append("results.csv has duplicate rows")

errors = open(os.path.join(folder, "errors.csv"), newline="").read()
if errors != "scenario,strategy,n,repetitions,message\r\n":
    bad.append(f"errors.csv is not just its header: {errors[:200]!r}")

md = open(os.path.join(folder, "summary.md")).read()
for want in [f"# ecsbench run {run_id}", "## Errors", "## Plots", "N = 4000",
             ctx.get("ecsb_git_commit", "?")] + \
            [f"../../plots/{run_id}/{sc}_vs_n.png" for sc in scenarios] + \
            [f"../../plots/{run_id}/{sc}_n4000.png" for sc in scenarios]:
    if want not in md:
        bad.append(f"summary.md lacks {want!r}")
for line in bad:
    print("   ", line, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
leftover=$(find "$RESULTS_DIR" -maxdepth 1 -name '.incomplete-*')
[ -z "$leftover" ] || fail "staging folder left behind: $leftover"

# ---- a taken name is never overwritten: every id of the next seconds is taken --------------
# shellcheck source=scripts/lib.sh disable=SC1091
. scripts/lib.sh
host=$(ecsb_new_run_id)
host=${host#*Z-}
now=$(date -u +%s)
for t in $(seq "$now" $((now + 20))); do
  mkdir -p "$RESULTS_DIR/$(date -u -d "@$t" +%Y%m%dT%H%M%SZ)-$host"
done
before=$(find "$RESULTS_DIR" -mindepth 1 -maxdepth 1 -type d | wc -l)
QUICK=1 ECSB_BENCH_ARGS="--ecsb_sizes=64 --benchmark_repetitions=1 --benchmark_min_time=0.001" \
  scripts/bench.sh "$bin" >"$tmp/log2" 2>&1 || fail "second bench.sh failed: $(tail -n 5 "$tmp/log2")"
after=$(find "$RESULTS_DIR" -mindepth 1 -maxdepth 1 -type d | wc -l)
[ "$after" -eq $((before + 1)) ] || fail "second run did not add exactly one folder ($before -> $after)"
nonempty=$(find "$RESULTS_DIR" -mindepth 2 -maxdepth 2 -name raw.json | wc -l)
[ "$nonempty" -eq 2 ] || fail "a pre-existing run folder was written into ($nonempty folders hold raw.json)"
second=$(find "$RESULTS_DIR" -mindepth 2 -maxdepth 2 -name raw.json -newer "$RESULTS_DIR/$run/raw.json" -printf '%h\n')
case $(basename "$second") in
  *-"$host"-[0-9]*) ;;
  *) fail "second run got '$(basename "$second")', want a -N suffixed id" ;;
esac
"$PYTHON" -c 'import json,sys,os; d=sys.argv[1]; c=json.load(open(d+"/raw.json"))["context"]; sys.exit(c["ecsb_run_id"] != os.path.basename(d))' "$second" ||
  fail "suffixed run's raw.json does not record its folder name"

# ---- interrupted runs publish nothing -----------------------------------------------------
interrupt() { # SIGNAL: start a long run, signal it once it is staged, check nothing stayed
  local sig=$1 pid count kids kid
  count=$(find "$RESULTS_DIR" -mindepth 1 -maxdepth 1 | wc -l)
  set -m # own process group, so SIGINT is not ignored as it is for plain background jobs
  ECSB_BENCH_ARGS="--ecsb_sizes=4000 --benchmark_min_time=30" scripts/bench.sh "$bin" >"$tmp/log3" 2>&1 &
  pid=$!
  set +m
  for _ in $(seq 100); do
    grep -q "progress\|ecsbench: run" "$tmp/log3" 2>/dev/null && break
    sleep 0.1
  done
  kids=$(pgrep -P "$pid")
  kill -"$sig" "$pid"
  wait "$pid"
  local rc=$?
  [ "$rc" -ne 0 ] || fail "$sig: interrupted bench.sh exited 0"
  [ -z "$(find "$RESULTS_DIR" -maxdepth 1 -name '.incomplete-*')" ] || fail "$sig: staging folder left"
  [ "$(find "$RESULTS_DIR" -mindepth 1 -maxdepth 1 | wc -l)" -eq "$count" ] || fail "$sig: something was published"
  [ -n "$kids" ] || fail "$sig: bench.sh had not started ecsbench"
  for kid in $kids; do
    ! kill -0 "$kid" 2>/dev/null || fail "$sig: bench.sh's child $kid is still running"
  done
  grep -q "nothing was published" "$tmp/log3" || fail "$sig: no message: $(tail -n 3 "$tmp/log3")"
}
interrupt INT
interrupt TERM

# ---- a QUICK value that is neither on nor off is refused, before anything runs ----------------
before=$(find "$RESULTS_DIR" -mindepth 1 -maxdepth 1 | wc -l)
QUICK=banana scripts/bench.sh "$bin" >"$tmp/quick.log" 2>&1
rc=$?
[ "$rc" -eq 2 ] || fail "QUICK=banana: exit $rc, want 2"
grep -q 'QUICK=banana' "$tmp/quick.log" || fail "QUICK=banana: the message does not name the value"
[ "$(find "$RESULTS_DIR" -mindepth 1 -maxdepth 1 | wc -l)" -eq "$before" ] || fail "QUICK=banana wrote something"

if [ "$failures" -ne 0 ]; then
  echo "test_pipeline: $failures failure(s); last log:" >&2
  tail -n 30 "$tmp/log" >&2
  exit 1
fi
exit 0
