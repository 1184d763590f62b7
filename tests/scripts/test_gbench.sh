#!/usr/bin/env bash
# test_gbench.sh — the suite and Google Benchmark: only the library's public API (no FLAGS_*
# declarations, no copy of its runner's rules); the runner's own plan reaches the results
# exactly (R repetitions of a fixed pass count per benchmark, each repetition at least the
# min time, interleaving on and off, names as registered); and the run's context: the hash of
# every compiled source, and a command that, pasted into a shell, runs the same benchmarks
# (quoted, without the output file or the run id).
# Environment: BUILD (folder holding ecsbench), PYTHON.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${BUILD:-build}/ecsbench
case $bin in /*) ;; *) bin=$top/$bin ;; esac
PYTHON=${PYTHON:-/usr/bin/python3}
[ -x "$bin" ] || { echo "test_gbench: $bin missing; run make build/ecsbench" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "  FAIL: $*" >&2; failures=$((failures + 1)); }

# ---- public API only ----------------------------------------------------------------------
if grep -nE "FLAGS_|extern[^\"]*benchmark|benchmark::internal::|kMaxIterations" \
  "$top"/harness/*.cc "$top"/harness/*.h; then
  fail "harness/ reaches into Google Benchmark's internals (lines above)"
fi

# ---- the plan reaches the results ---------------------------------------------------------
out="$tmp/dir with space/raw.json"
mkdir -p "$(dirname "$out")"
args=(bench --ecsb_scenarios=platformer,dual_iterate --ecsb_strategies=sparse_set --ecsb_sizes=64,300
  --benchmark_repetitions=3 --benchmark_min_time=0.004 --ecsb_progress=off
  "--ecsb_context=note=two words, 'quoted'" --ecsb_run_id=test-run --benchmark_out="$out")
"$bin" "${args[@]}" >"$tmp/console" 2>"$tmp/err" || fail "bench exited $?: $(tail -n 3 "$tmp/err")"
"$bin" bench --ecsb_scenarios=platformer,dual_iterate --ecsb_strategies=sparse_set --ecsb_sizes=64,300 \
  --ecsb_plan --benchmark_min_time=0.004 >"$tmp/plan" 2>&1
"$bin" "${args[@]}" --benchmark_list_tests >"$tmp/first" 2>/dev/null
"$PYTHON" - "$out" "$top" "$tmp/first" <<'EOF' || fail "results vs plan (above)"
import hashlib, json, os, sys
doc = json.load(open(sys.argv[1]))
top = sys.argv[2]
want = {l.strip() for l in open(sys.argv[3]) if l.strip()}
bad = []
rows = [b for b in doc["benchmarks"] if b["run_type"] == "iteration"]
names = {}
for b in rows:
    names.setdefault(b["name"], []).append(b)
if len(want) < 8 or set(names) != want:
    bad.append(f"names {sorted(names)} (want exactly the registered names)")
cells = {}
for name, reps in names.items():
    if len(reps) != 3 or sorted(r["repetition_index"] for r in reps) != [0, 1, 2]:
        bad.append(f"{name}: {len(reps)} repetitions, want 3")
    if len({r["iterations"] for r in reps}) != 1:
        bad.append(f"{name}: iterations differ between repetitions: {[r['iterations'] for r in reps]}")
    scenario, strategy, n = name.split("/")[:3]
    cells.setdefault((scenario, n), []).append(reps)
    for r in reps:
        slices = [r[k] for k in sorted(r) if k.startswith("slice_")]
        if not slices or any(not v > 0 for v in slices) or r.get("warmup", 0) < 1:
            bad.append(f"{name}: per-pass times {slices}, warmup {r.get('warmup')}")
# A cell's lines run the same passes; its slowest line times at least the min time.
for cell, lines in cells.items():
    if len({r["iterations"] for reps in lines for r in reps}) != 1:
        bad.append(f"{cell}: lines run different pass counts")
    slowest = max(sorted(r["iterations"] * r["real_time"] * 1e-9 for r in reps)[1] for reps in lines)
    if lines[0][0]["iterations"] > 3 and slowest < 0.004 * 0.5:
        bad.append(f"{cell}: its slowest line timed {slowest:.4f} s of passes, min time 0.004")
# The first repetitions of the benchmarks come in a shuffled order with interleaving on.
ctx = doc["context"]
if ctx.get("ecsb_random_interleaving") != "true" or ctx.get("ecsb_repetitions") != "3" or ctx.get("ecsb_min_time") != "0.004":
    bad.append("context: interleaving/repetitions/min time not as run")
if ctx.get("ecsb_note") != "two words, 'quoted'":
    bad.append(f"context: ecsb_note = {ctx.get('ecsb_note')!r}")
# every compiled source, hashed
hashes = dict(kv.split("=", 1) for kv in ctx.get("ecsb_sources_sha256", "").split(",") if "=" in kv)
for folder, ext in (("strategies", ".c"), ("scenarios", ".h"), ("scenarios", ".c"), ("harness", ".c")):
    for f in sorted(os.listdir(os.path.join(top, folder))):
        if f.endswith(ext):
            path = f"{folder}/{f}"
            digest = hashlib.sha256(open(os.path.join(top, path), "rb").read()).hexdigest()[:16]
            if hashes.get(path) != digest:
                bad.append(f"ecsb_sources_sha256: {path} = {hashes.get(path)!r}, file has {digest}")
for key in ("ecsb_git_dirty", "ecsb_git_changes", "ecsb_command"):
    if key not in ctx:
        bad.append(f"context lacks {key}")
cmd = ctx.get("ecsb_command", "")
for gone in ("raw.json", "test-run", "ecsb_context", "ecsb_progress"):
    if gone in cmd:
        bad.append(f"ecsb_command names {gone}: {cmd}")
print(cmd, file=open(sys.argv[1] + ".cmd", "w"))
for b in bad[:20]:
    print("   ", b, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
# the recorded command, pasted into a shell, selects the same benchmarks
cmd=$(cat "$out.cmd")
(cd "$top" && bash -c "$cmd --benchmark_list_tests") >"$tmp/again" 2>"$tmp/err" || fail "the recorded command does not run: $cmd: $(cat "$tmp/err")"
[ -s "$tmp/first" ] && cmp -s "$tmp/first" "$tmp/again" || fail "the recorded command selects other benchmarks: $cmd"
# its quoting survives a value with spaces and quotes
"$bin" bench --ecsb_sizes=5 --ecsb_scenarios=dual_iterate "--benchmark_filter=^dual_iterate/(floor|sparse set)/" \
  --benchmark_repetitions=1 --benchmark_min_time=0.001 --ecsb_progress=off --benchmark_out="$tmp/q.json" >/dev/null 2>&1
cmd=$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["context"]["ecsb_command"])' "$tmp/q.json")
(cd "$top" && bash -c "$cmd --benchmark_list_tests") >"$tmp/again" 2>&1
[ "$(cat "$tmp/again")" = "dual_iterate/floor/5" ] || fail "quoting: $cmd lists $(cat "$tmp/again")"

# ---- interleaving off: each benchmark's repetitions back to back, in registration order ---
"$bin" bench --ecsb_scenarios=dual_iterate --ecsb_strategies=sparse_set --ecsb_sizes=64 --benchmark_repetitions=2 \
  --benchmark_min_time=0.001 --benchmark_enable_random_interleaving=false --ecsb_progress=off \
  --benchmark_format=json >"$tmp/seq.json" 2>/dev/null || fail "interleaving off: exit $?"
order=$("$PYTHON" -c 'import json,sys; print(" ".join(b["name"] for b in json.load(open(sys.argv[1]))["benchmarks"] if b["run_type"] == "iteration"))' "$tmp/seq.json")
want=$("$bin" bench --ecsb_scenarios=dual_iterate --ecsb_strategies=sparse_set --ecsb_sizes=64 --benchmark_list_tests |
  sed 'p' | paste -sd' ')
[ "$order" = "$want" ] || fail "interleaving off: order $order, want $want"

[ "$failures" -eq 0 ]
