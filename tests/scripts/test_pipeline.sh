#!/usr/bin/env bash
# test_pipeline.sh — the `make bench` pipeline (scripts/bench.sh) into a temporary RESULTS_DIR /
# PLOTS_DIR, first with the stand-in binary (tests/scripts/fakes.py: made-up scenario and
# strategy names, so nothing can come from a table in the scripts), then a QUICK smoke run of
# the real build/ecsbench:
#   - one run folder <UTC stamp>-<host>: list.json, raw.json, results.csv (bytes_per_entity
#     too), errors.csv, choose.md (the answer, under the run's own id), summary.md (with a
#     command that repeats the run, choose.md linked first), report.md (under
#     the run's own id, docs/findings.md's claims about scenarios it did not run unchecked),
#     and its plots;
#   - SCENARIOS / STRATEGIES / SIZES reach the binary; a bad name exits 2 with the binary's
#     message listing the valid ones, and publishes nothing;
#   - a benchmark that fails its checksum: the rest is published, it is named, exit 1;
#   - staged repetitions: a cell the planned repetitions leave undecided gets a stage (5 more,
#     filtered to its lines), merged into raw.json and counted in results.csv, no file left;
#   - a taken name is never overwritten, even when taken while the run is on;
#   - Ctrl-C (SIGINT) or SIGTERM before publishing: nothing published, and it says so; during
#     publishing: results and plots both published, and it says so; at any moment: one or the
#     other, never a run without its plots.
# Environment: BUILD (folder holding ecsbench), PYTHON.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
PYTHON=${PYTHON:-/usr/bin/python3}
fake=$top/tests/scripts/fakes.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "  FAIL: $*" >&2; failures=$((failures + 1)); }
unset QUICK SCENARIOS STRATEGIES SIZES ECSB_BENCH_ARGS ECSB_CRASH_AT FAKE_FAIL FAKE_SLEEP
export PYTHON

# runs DIR: the published run folders in DIR, one per line
runs() { find "$1" -mindepth 1 -maxdepth 1 -type d -not -name '.*' -printf '%f\n' 2>/dev/null | sort; }
# bench NAME [VAR=value...]: scripts/bench.sh on the stand-in into $tmp/NAME/{results,plots},
# log in $tmp/NAME.log, exit status in $rc
# bench NAME VAR=value...: bench.sh with the stand-in binary, its signals at their defaults
# (a test run started in the background of a script inherits SIGINT ignored, which a shell
# cannot trap again; a user's Ctrl-C reaches a pipeline started from a terminal).
bench() {
  local name=$1; shift
  env --default-signal=INT,TERM "$@" RESULTS_DIR="$tmp/$name/results" PLOTS_DIR="$tmp/$name/plots" \
    scripts/bench.sh "$fake" >"$tmp/$name.log" 2>&1
  rc=$?
  return $rc
}

# ---- one run of the stand-in: files, names from list.json, the command again ---------------
bench one QUICK=1 SCENARIOS=sweep
[ "$rc" -eq 0 ] || fail "bench.sh failed (exit $rc): $(tail -n 20 "$tmp/one.log")"
run=$(runs "$tmp/one/results")
[ "$(printf '%s\n' "$run" | grep -c .)" -eq 1 ] || fail "want one run folder, got: $run"
printf '%s\n' "$run" | grep -qE '^[0-9]{8}T[0-9]{6}Z-[A-Za-z0-9-]+$' || fail "run id '$run' is not <UTC stamp>-<host>"
grep -qF "$tmp/one/results/$run" "$tmp/one.log" || fail "bench.sh did not print where the results are"
for f in list.json raw.json results.csv errors.csv choose.md summary.md report.md console.txt; do
  [ -s "$tmp/one/results/$run/$f" ] || fail "run folder lacks $f"
done
for f in overview_heatmap memory_n65536 sweep_vs_n sweep_n4000 sweep_memory_vs_n; do
  [ -s "$tmp/one/plots/$run/$f.png" ] && [ -s "$tmp/one/plots/$run/$f.svg" ] || fail "plots lack $f"
done
[ ! -e "$tmp/one/plots/$run/spawn_vs_n.png" ] || fail "SCENARIOS=sweep drew spawn too"
grep -q '^sweep,alpha,4000,bytes_per_entity,B,' "$tmp/one/results/$run/results.csv" ||
  fail "results.csv has no bytes_per_entity rows"
grep -q '^## sweep (ns per entity visited)$' "$tmp/one/results/$run/summary.md" ||
  fail "summary.md does not take the item from list.json"
grep -Fxq 'make bench QUICK=1 SCENARIOS=sweep' "$tmp/one/results/$run/summary.md" ||
  fail "summary.md lacks the command that repeats the run: $(grep -A2 'Run it again' "$tmp/one/results/$run/summary.md")"
grep -q 'incomplete' "$tmp/one/results/$run/summary.md" && fail "summary.md names the staging folder"
grep -Fxq "# ecsbench report: run $run" "$tmp/one/results/$run/report.md" ||
  fail "report.md is not titled with the run id: $(head -1 "$tmp/one/results/$run/report.md")"
grep -q '^| ns per entity visited, × leader | ' "$tmp/one/results/$run/report.md" ||
  fail "report.md has no per-case table"
grep -Fxq "# Which layout to choose: run $run" "$tmp/one/results/$run/choose.md" ||
  fail "choose.md is not titled with the run id: $(head -1 "$tmp/one/results/$run/choose.md")"
grep -q '^| sweep | regular | small (4,000)[^|]* | \*\*[a-z]*\*\*' "$tmp/one/results/$run/choose.md" ||
  fail "choose.md has no row for sweep at 4,000: $(cat "$tmp/one/results/$run/choose.md")"
grep -q 'answer:  .*/choose.md$' "$tmp/one.log" || fail "bench.sh did not print where the answer is"
grep -q 'incomplete' "$tmp/one/results/$run/report.md" && fail "report.md names the staging folder"
grep -q 'report:  .*/report.md$' "$tmp/one.log" || fail "bench.sh did not print where the report is"
[ -z "$(find "$tmp/one" -name '.incomplete-*')" ] || fail "staging folder left behind"

# ---- the subset reaches the binary; a bad name exits 2 with the binary's message ------------
bench subset STRATEGIES=beta SIZES=512,2048 SCENARIOS=spawn,sweep
[ "$rc" -eq 0 ] || fail "subset run failed (exit $rc): $(tail -n 5 "$tmp/subset.log")"
run=$(runs "$tmp/subset/results")
got=$(cut -d, -f1-3 "$tmp/subset/results/$run/results.csv" | tail -n +2 | sort -u | tr '\n' ' ')
want="spawn,beta,2048 spawn,beta,512 spawn,floor,2048 spawn,floor,512 sweep,beta,2048 sweep,beta,512 sweep,floor,2048 sweep,floor,512 sweep,limit,2048 sweep,limit,512 "
[ "$got" = "$want" ] || fail "subset: rows $got, want $want"
for var in SCENARIOS=nosuch STRATEGIES=alpha,nosuch; do
  bench bad "$var"
  [ "$rc" -eq 2 ] || fail "$var: exit $rc, want 2"
  grep -q "unknown name 'nosuch'.*valid: " "$tmp/bad.log" || fail "$var: the binary's message is not passed on: $(cat "$tmp/bad.log")"
  grep -q "nothing was published" "$tmp/bad.log" || fail "$var: does not say nothing was published"
  [ -z "$(runs "$tmp/bad/results")$(runs "$tmp/bad/plots")" ] || fail "$var: something was published"
done
bench bad SIZES='4000;rm'
[ "$rc" -eq 2 ] || fail "SIZES='4000;rm': exit $rc, want 2"
bench bad QUICK=banana
[ "$rc" -eq 2 ] && grep -q 'QUICK=banana' "$tmp/bad.log" || fail "QUICK=banana: exit $rc or no message naming it"
bench bad LARGE=banana
[ "$rc" -eq 2 ] && grep -q 'LARGE=banana' "$tmp/bad.log" || fail "LARGE=banana: exit $rc or no message naming it"
[ -z "$(find "$tmp/bad" -mindepth 2 2>/dev/null)" ] || fail "bad arguments left files: $(find "$tmp/bad" -mindepth 2)"

# ---- a failed checksum: published with the rest, named, exit 1 ------------------------------
bench failed QUICK=1 FAKE_FAIL=sweep/beta/4000
[ "$rc" -eq 1 ] || fail "a failed benchmark: exit $rc, want 1"
run=$(runs "$tmp/failed/results")
[ -n "$run" ] && [ -d "$tmp/failed/plots/$run" ] || fail "a failed benchmark: the rest was not published with its plots"
grep -q '^sweep,beta,4000,2,' "$tmp/failed/results/$run/errors.csv" || fail "errors.csv does not name sweep/beta/4000"
grep -q 'bench: 1 benchmark(s) failed their checksum check' "$tmp/failed.log" || fail "no failure message: $(tail -n 3 "$tmp/failed.log")"

# ---- a taken name is never overwritten, even when it is taken while the run is on ----------
bench taken FAKE_SLEEP=0.1 QUICK=1 SCENARIOS=sweep &
pid=$!
id=""
for _ in $(seq 100); do
  id=$(sed -n 's/^bench: run \([^ ]*\) -> .*/\1/p' "$tmp/taken.log" 2>/dev/null)
  [ -n "$id" ] && break
  sleep 0.05
done
mkdir -p "$tmp/taken/results/$id" "$tmp/taken/plots/$id"
wait "$pid"
rc=$?
[ "$rc" -eq 0 ] || fail "taken name: bench.sh failed: $(tail -n 5 "$tmp/taken.log")"
[ -z "$(find "$tmp/taken/results/$id" "$tmp/taken/plots/$id" -mindepth 1)" ] || fail "the taken folders were written into"
[ -s "$tmp/taken/results/$id-2/raw.json" ] && [ -s "$tmp/taken/plots/$id-2/sweep_vs_n.svg" ] ||
  fail "the run did not go to $id-2 with its plots: $(runs "$tmp/taken/results")"
"$PYTHON" -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["context"]["ecsb_run_id"] != sys.argv[2])' \
  "$tmp/taken/results/$id-2/raw.json" "$id-2" || fail "the -2 run's raw.json does not record its name"
grep -q "run $id-2" "$tmp/taken/plots/$id-2/sweep_vs_n.svg" || fail "the -2 run's plots name the old id"

# ---- signals -------------------------------------------------------------------------------
# Before publishing: nothing published, and it says so.
for step in summarised:INT drawn:TERM; do
  bench "sig-$step" QUICK=1 SCENARIOS=sweep ECSB_CRASH_AT=$step
  [ "$rc" -eq 130 ] || [ "$rc" -eq 143 ] || fail "$step: exit $rc, want 130 or 143"
  grep -q "nothing was published" "$tmp/sig-$step.log" || fail "$step: no 'nothing was published'"
  [ -z "$(find "$tmp/sig-$step/results" "$tmp/sig-$step/plots" -mindepth 1)" ] ||
    fail "$step: something was left: $(find "$tmp/sig-$step" -mindepth 2)"
done
# While publishing (results moved, plots not yet): both published, and it says so.
bench sig-publish QUICK=1 SCENARIOS=sweep ECSB_CRASH_AT=published-results:INT
[ "$rc" -eq 130 ] || fail "INT while publishing: exit $rc, want 130"
run=$(runs "$tmp/sig-publish/results")
[ -n "$run" ] && [ -s "$tmp/sig-publish/plots/$run/sweep_vs_n.png" ] || fail "INT while publishing: results without plots"
grep -q "INT arrived while publishing; the run above was published complete" "$tmp/sig-publish.log" ||
  fail "INT while publishing: no message: $(tail -n 3 "$tmp/sig-publish.log")"
grep -q "nothing was published" "$tmp/sig-publish.log" && fail "INT while publishing: says nothing was published"
# Ctrl-C at whatever moment (as `timeout -s INT` does): never a run without its plots.
for delay in 0.8 1.8; do
  name=late-$delay
  set -m # own process group, as a terminal's Ctrl-C reaches every process of the job
  bench "$name" QUICK=1 SCENARIOS=sweep &
  pid=$!
  set +m
  sleep "$delay"
  kill -INT -- -"$pid" 2>/dev/null
  wait "$pid"
  run=$(runs "$tmp/$name/results")
  if [ -n "$run" ]; then
    [ -s "$tmp/$name/plots/$run/overview_heatmap.png" ] || fail "INT after ${delay}s: results published without plots"
  else
    grep -q "nothing was published" "$tmp/$name.log" || fail "INT after ${delay}s: nothing published, and not said: $(tail -n 2 "$tmp/$name.log")"
    [ -z "$(ls -A "$tmp/$name/plots" 2>/dev/null)" ] || fail "INT after ${delay}s: plots without results"
  fi
  [ -z "$(find "$tmp/$name" -name '.incomplete-*')" ] || fail "INT after ${delay}s: staging folder left"
done

# ---- staged repetitions: an undecided cell gets a stage, merged into raw.json ----------------
# The stand-in, but its first bench leaves sweep alpha against beta at 4000 undecidable
# (5.5 % apart, 3 % noise); the filtered stage bench is the stand-in's own (decided).
cat >"$tmp/undecided.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = [b for b in d["benchmarks"] if b.get("run_type") == "iteration"]
base = [b["real_time"] for b in rows if b["run_name"] == "sweep/alpha/4000"][0]
for b in rows:
    if b["run_name"] in ("sweep/alpha/4000", "sweep/beta/4000"):
        f = [1.0, 1.06, 0.97, 1.03, 1.01][b["repetition_index"] % 5]
        b["real_time"] = base * f * (1.055 if "/beta/" in b["run_name"] else 1.0)
json.dump(d, open(sys.argv[1], "w"))
PY
{
  echo '#!/usr/bin/env bash'
  echo "\"$fake\" \"\$@\" || exit \$?"
  echo 'out="" filtered=""'
  echo 'for a in "$@"; do case $a in --benchmark_out=*) out=${a#*=} ;; --benchmark_filter=*) filtered=1 ;; esac; done'
  echo "[ \"\${1:-}\" = bench ] && [ -n \"\$out\" ] && [ -z \"\$filtered\" ] || exit 0"
  echo "\"$PYTHON\" \"$tmp/undecided.py\" \"\$out\""
} >"$tmp/undecided.sh"
chmod +x "$tmp/undecided.sh"
env --default-signal=INT,TERM FAKE_SLEEP=1 SCENARIOS=sweep ECSB_BENCH_ARGS=--benchmark_repetitions=5 \
  ECSB_STAGE_BUDGET=0.25 \
  RESULTS_DIR="$tmp/staged/results" PLOTS_DIR="$tmp/staged/plots" \
  scripts/bench.sh "$tmp/undecided.sh" >"$tmp/staged.log" 2>&1 ||
  fail "staged run failed: $(tail -n 20 "$tmp/staged.log")"
run=$(runs "$tmp/staged/results")
grep -q '^bench: stage 1: 1 undecided cell(s) get 5 more repetitions' "$tmp/staged.log" ||
  fail "staged run: no stage 1 for the undecided cell: $(grep -e stage "$tmp/staged.log")"
grep -q '^  stages:  stage 1: 1 cell(s) +5 repetitions; ' "$tmp/staged.log" ||
  fail "staged run: no stages: line"
grep -q '^  time:    [0-9]' "$tmp/staged.log" ||
  fail "staged run: no time: line (where make bench's seconds went)"
"$PYTHON" - "$tmp/staged/results/$run/raw.json" <<'PY' || fail "staged run: raw.json lacks the merged stage"
import json, sys
d = json.load(open(sys.argv[1]))
staged = [b for b in d["benchmarks"] if b.get("ecsb_stage") == 1]
assert sorted({b["run_name"] for b in staged}) == ["sweep/alpha/4000", "sweep/beta/4000"], staged
assert sorted(b["repetition_index"] for b in staged if "alpha" in b["run_name"]) == [5, 6, 7, 8, 9]
assert d["context"]["ecsb_stage_looks"] == "3"
PY
[ -z "$(find "$tmp/staged" -name 'stage-*' -o -name '.incomplete-*')" ] || fail "staged run: stage files left"
grep -q '^sweep,alpha,4000,time_per_item,ns,.*,10,' "$tmp/staged/results/$run/results.csv" ||
  fail "staged run: results.csv does not count the 10 repetitions"

# ---- the real binary, QUICK, a tiny subset -----------------------------------------------
bin=${BUILD:-build}/ecsbench
if ! "$bin" list --json >/dev/null 2>&1; then
  echo "  skip: $bin has no 'list --json' yet (CONTRACT.md); the real smoke run waits for it" >&2
else
  scenario=$("$bin" list --json | "$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)["scenarios"][0]["name"])')
  RESULTS_DIR=$tmp/real/results PLOTS_DIR=$tmp/real/plots QUICK=1 SCENARIOS=$scenario \
    scripts/bench.sh "$bin" >"$tmp/real.log" 2>&1 || fail "real QUICK run failed: $(tail -n 20 "$tmp/real.log")"
  run=$(runs "$tmp/real/results")
  [ -s "$tmp/real/plots/$run/${scenario}_vs_n.svg" ] || fail "real run: no plots"
  grep -q ",bytes_per_entity,B," "$tmp/real/results/$run/results.csv" || fail "real run: no bytes_per_entity"
fi

if [ "$failures" -ne 0 ]; then
  echo "test_pipeline: $failures failure(s)" >&2
  exit 1
fi
exit 0
