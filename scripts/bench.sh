#!/usr/bin/env bash
# bench.sh — the `make bench` pipeline.
#
#   scripts/bench.sh BUILD/ecsbench [ecsbench flags...]
#
# 1. removes what killed runs left behind (staging folders whose process is gone), picks the
#    run id (UTC timestamp + short host name; -2, -3... if taken) and stages the run in
#    $RESULTS_DIR/.incomplete-<id>-<pid> and its plots in $PLOTS_DIR/.incomplete-<id>-<pid>;
# 2. saves `ecsbench list --json` (list.json: the scenarios' names, items, limit lines and
#    sizes, the scripts' one source for them) and `ecsbench machine` (machine.json: the machine,
#    once per boot; ECSB_MACHINE_ARGS, ECSB_MACHINE_CACHE below) and runs `ecsbench bench` there: raw.json (Google
#    Benchmark JSON, the source of truth, with the run id and provenance in its context) and
#    console.txt (the console table); progress on stderr;
# 2b. decides where it matters (not for QUICK=1, nor with ECSB_STAGES=0): the cells whose pick
#    the planned repetitions left undecided get more repetitions, in at most two stages
#    (scripts/ecsb_stages.py plans each: which cells, a --benchmark_filter, 5 repetitions, a
#    fresh placement seed; within a budget of 10 % of the planned run's seconds), each run by
#    `ecsbench bench` into the staging folder and merged into raw.json (docs/measuring.md);
# 3. writes results.csv + errors.csv (json_to_csv.py), summary.md (summary.py), choose.md
#    (choose.py: the answer table) and report.md
#    (report.py: docs/findings.md checked against the run; a claim the run does not support is
#    named, and the run is published all the same), and draws the plots (plots.sh --into);
# 4. publishes results and plots together: $RESULTS_DIR/<id> then $PLOTS_DIR/<id>, two renames
#    with Ctrl-C held off; prints where everything is, then the run-quality banner.
# A run never overwrites another. Ctrl-C or a failure before step 4 removes the staging
# folders: nothing was published, and it says so. A benchmark that failed its checksum check
# or a status (ecsbench exits 1) is published with the rest, named, and bench.sh exits 1.
#
# Environment:
#   QUICK=1           a smoke run of the whole pipeline, not for verdicts: every scenario
#                     and world order at sizes 256 and 4000, 3 repetitions, a short min
#                     time and at most 8 warm-up passes (under 45 s with the build done)
#   LARGE=1           the default sizes above 65,536 too (262,144 .. 4,194,304: the reference
#                     run; ecsbench bench --ecsb_large --ecsb_plan prints its estimate)
#   SCENARIOS, STRATEGIES, SIZES   comma lists: a subset (the binary checks the names and
#                     lists the valid ones; the floor and limit lines always run)
#   PARAMS            scenario parameter lists, space-separated NAME=V1,V2 (each becomes
#                     --ecsb_param=NAME=V1,V2: every scenario that declares NAME runs at each
#                     value it takes); default "order=regular,shuffled,aged", so every scenario
#                     runs in all three worlds, side by side; PARAMS= for none
#   RESULTS_DIR       where run folders go (default: results)
#   PLOTS_DIR         where plot folders go (default: plots)
#   PYTHON            Python 3 for the scripts (default: /usr/bin/python3)
#   ECSB_BENCH_ARGS   extra ecsbench flags, split on spaces (e.g. "--benchmark_repetitions=9")
#   ECSB_MACHINE_ARGS `ecsbench machine` flags (default none; with QUICK=1 --quick)
#   ECSB_MACHINE_CACHE where machine.json is kept per boot (default: machine-cache beside the binary)
#   ECSB_STAGES       0: no staged repetitions (default 1: up to two stages)
#   ECSB_STAGE_BUDGET the stages' budget, a share of the planned run's seconds (default 0.1)
#   ECSB_CRASH_AT     test aid: STEP or STEP:SIGNAL — send SIGNAL (default KILL) to this script
#                     at the named step (started, ran, summarised, drawn, published-results),
#                     as a crash or a Ctrl-C at that moment would
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib.sh disable=SC1091
. "$here/lib.sh"

bin=${1:-}
[ -n "$bin" ] ||
  ecsb_usage_error "no ecsbench binary given; usage: scripts/bench.sh build/ecsbench [flags...] (or: make bench)"
if [ ! -f "$bin" ] || [ ! -x "$bin" ]; then
  ecsb_usage_error "$bin is not an executable file; build it first: make build/ecsbench"
fi
shift

PYTHON=${PYTHON:-/usr/bin/python3}
RESULTS_DIR=${RESULTS_DIR:-results}
PLOTS_DIR=${PLOTS_DIR:-plots}
export PYTHON RESULTS_DIR PLOTS_DIR

flags=()
quick=""
again=(make bench) # the command that repeats this run, recorded in raw.json and summary.md
case ${QUICK:-} in
  "" | 0 | no | false) ;;
  1 | yes | true) flags+=(--ecsb_quick) again+=(QUICK=1) quick=1 ;;
  *) ecsb_usage_error "QUICK=$QUICK: use QUICK=1 for the quick run, or leave it out for the full suite" ;;
esac
case ${LARGE:-} in
  "" | 0 | no | false) ;;
  1 | yes | true) flags+=(--ecsb_large) again+=(LARGE=1) ;;
  *) ecsb_usage_error "LARGE=$LARGE: use LARGE=1 to add the sizes above 65536, or leave it out" ;;
esac
for var in SCENARIOS STRATEGIES SIZES; do
  value=${!var:-}
  [ -n "$value" ] || continue
  [[ $value =~ ^[A-Za-z0-9_,]+$ ]] ||
    ecsb_usage_error "$var=$value: want a comma-separated list of names or sizes, e.g. $var=$([ $var = SIZES ] && echo 4000,65536 || echo a,b)"
  flags+=("--ecsb_${var,,}=$value")
  again+=("$var=$value")
done
PARAMS=${PARAMS-order=regular,shuffled,aged}
for list in $PARAMS; do
  [[ $list =~ ^[a-z0-9_]+=[A-Za-z0-9_.,/]+$ ]] ||
    ecsb_usage_error "PARAMS: '$list' is not NAME=V1,V2 (e.g. PARAMS=\"match=1/16,1/4 order=shuffled\"); ecsbench list shows each scenario's parameters"
  flags+=("--ecsb_param=$list")
done
[ "$PARAMS" = "order=regular,shuffled,aged" ] || again+=("PARAMS='$PARAMS'")
# shellcheck disable=SC2206  # word splitting is the point
extra=(${ECSB_BENCH_ARGS:-})
[ ${#extra[@]} -eq 0 ] || again+=("ECSB_BENCH_ARGS='${extra[*]}'")

crash_point() { # the ECSB_CRASH_AT test aid: a crash (or a signal) at this very step
  case ${ECSB_CRASH_AT:-} in
    "$1") kill -KILL $$ ;;
    "$1":*) kill "-${ECSB_CRASH_AT#*:}" $$ ;;
  esac
}

for dir in "$RESULTS_DIR" "$PLOTS_DIR"; do
  mkdir -p "$dir" || ecsb_usage_error "cannot create $dir; is its parent writable?"
  ecsb_clean_stale "$dir" | sed 's/^/bench: /' >&2
done
while read -r id; do # a run whose make bench was killed between its two renames
  [ -z "$id" ] || [ -d "$PLOTS_DIR/$id" ] ||
    echo "bench: note: $RESULTS_DIR/$id has no plots; draw them with: make plots RUN=$RESULTS_DIR/$id" >&2
done < <(ecsb_list_runs "$RESULTS_DIR")

# The run id, fixed now: it names the staging folders, goes into raw.json and summary.md, and
# is the name the run is published under.
base=$(ecsb_new_run_id)
run_id=$base
k=1
while [ -e "$RESULTS_DIR/$run_id" ] || [ -e "$PLOTS_DIR/$run_id" ] ||
  compgen -G "$RESULTS_DIR/.incomplete-$run_id-*" >/dev/null ||
  compgen -G "$PLOTS_DIR/.incomplete-$run_id-*" >/dev/null; do
  k=$((k + 1))
  run_id=$base-$k
done

child="" staging="" plots_staging="" published=""
cleanup() {
  if [ -n "$child" ]; then
    # shellcheck disable=SC2086 # $child: one pid, or the table scripts' three
    kill $child 2>/dev/null || true
    # shellcheck disable=SC2086
    wait $child 2>/dev/null || true
  fi
  if [ -z "$published" ]; then
    rm -rf "${staging:-/nonexistent}" "${plots_staging:-/nonexistent}"
  fi
}
trap cleanup EXIT
trap 'echo "bench: interrupted; nothing was published" >&2; exit 130' INT
trap 'echo "bench: terminated; nothing was published" >&2; exit 143' TERM HUP

staging=$(ecsb_staging_dir "$RESULTS_DIR" "$run_id") ||
  ecsb_usage_error "cannot create a staging folder in $RESULTS_DIR; is it writable?"
plots_staging=$(ecsb_staging_dir "$PLOTS_DIR" "$run_id") ||
  ecsb_usage_error "cannot create a staging folder in $PLOTS_DIR; is it writable?"
crash_point started

if ! "$bin" list --json >"$staging/list.json" 2>"$staging/list.log" ||
  ! "$PYTHON" -c 'import json, sys; json.load(open(sys.argv[1]))' "$staging/list.json" 2>/dev/null; then
  cat "$staging/list.log" >&2
  echo "bench: error: '$bin list --json' did not print the registry as JSON; is $bin" \
    "up to date? (make build/ecsbench); nothing was published" >&2
  exit 2
fi
rm -f "$staging/list.log"

# machine.json: the machine, from `ecsbench machine` (docs/machine.md), measured before the
# suite. Measured once per boot and kept in $ECSB_MACHINE_CACHE (default: a machine-cache
# folder beside the binary) under the boot id, the fingerprint's key, the binary's checksum
# and the arguments, so no run takes another machine's (or another boot's) figures.
# ECSB_MACHINE_ARGS: its flags (default none; QUICK=1: --quick). A machine that cannot be
# measured is a warning: the run's figures stand without it.
machine_args=${ECSB_MACHINE_ARGS-${quick:+--quick}}
machine_cache=${ECSB_MACHINE_CACHE:-$(dirname "$bin")/machine-cache}
boot=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo unknown-boot)
fingerprint=$("$bin" machine --fingerprint 2>/dev/null || echo none)
binsum=$(cksum <"$bin" | cut -d' ' -f1)
argsum=$(echo "$machine_args" | cksum | cut -d' ' -f1)
cached="$machine_cache/$boot-$fingerprint-$binsum-$argsum.json"
if [ "$fingerprint" != none ] && [ -s "$cached" ] && cp "$cached" "$staging/machine.json" 2>/dev/null; then
  echo "bench: machine.json of this boot reused ($cached)" >&2
else
  # shellcheck disable=SC2086 # the flags, split on spaces
  if "$bin" machine $machine_args --out="$staging/machine.json" >"$staging/machine.txt" 2>"$staging/machine.log"; then
    head -n 1 "$staging/machine.txt" | sed 's/^/bench: machine: /' >&2
    if [ "$fingerprint" != none ] && mkdir -p "$machine_cache" 2>/dev/null; then
      cp "$staging/machine.json" "$cached.$$" 2>/dev/null && mv -f "$cached.$$" "$cached" 2>/dev/null || true
    fi
  else
    sed 's/^/bench: /' "$staging/machine.log" >&2
    echo "bench: warning: ecsbench machine failed; this run has no machine.json" >&2
    rm -f "$staging/machine.json"
  fi
  rm -f "$staging/machine.txt" "$staging/machine.log"
fi

start=$(date +%s)
echo "bench: run $run_id -> $RESULTS_DIR/$run_id (staging in $staging)" >&2
smoke="QUICK=1 is a smoke run of the pipeline (small sizes, 3 repetitions, short passes): not for verdicts"
[ -z "$quick" ] || echo "bench: $smoke" >&2
# In the background so that a signal reaches the trap at once (the trap stops the run).
"$bin" bench --ecsb_run_id="$run_id" "${flags[@]}" "--ecsb_context=make_command=${again[*]}" \
  --benchmark_out="$staging/raw.json" --benchmark_out_format=json \
  "${extra[@]}" "$@" >"$staging/console.txt" &
child=$!
rc=0
wait "$child" || rc=$?
child=""
case $rc in
  0 | 1) ;; # 1: some benchmarks failed their checksum check or a status: publish the rest
  2)
    echo "bench: ecsbench refused the arguments (above); nothing was published" >&2
    exit 2 ;;
  *)
    tail -n 5 "$staging/console.txt" >&2 || true
    echo "bench: ecsbench failed (exit $rc); nothing was published" >&2
    exit "$rc" ;;
esac
crash_point ran

# Decide where it matters: staged repetitions for the cells the planned ones left undecided.
stages_note=""
case ${ECSB_STAGES:-1} in 0 | 1) ;; *)
  ecsb_usage_error "ECSB_STAGES=$ECSB_STAGES: 1 (the default) stages repetitions for undecided cells, 0 does not" ;;
esac
[ -z "${ECSB_STAGE_BUDGET:-}" ] || [[ $ECSB_STAGE_BUDGET =~ ^(0|[0-9]?[.][0-9]+|[1-9]([.][0-9]*)?|10)$ ]] ||
  ecsb_usage_error "ECSB_STAGE_BUDGET=$ECSB_STAGE_BUDGET: the stages' budget, a share of the run's seconds 0 .. 10 (default 0.1), e.g. ECSB_STAGE_BUDGET=0.25"
if [ -z "$quick" ] && [ "${ECSB_STAGES:-1}" = 1 ]; then
  run_seconds=$(($(date +%s) - start))
  "$PYTHON" "$here/ecsb_stages.py" design "$staging" ||
    { echo "bench: ecsbench's JSON is unusable (above); nothing was published" >&2; exit 2; }
  spent=0
  for stage in 1 2; do
    plan=$("$PYTHON" "$here/ecsb_stages.py" plan "$staging" --stage "$stage" \
      --run-seconds "$run_seconds" --spent "$spent" ${ECSB_STAGE_BUDGET:+--budget-share "$ECSB_STAGE_BUDGET"} --shell) || break
    stage_count=0 stage_reps=0 stage_seed=1 stage_seconds=0 stage_budget=0 stage_filter=""
    stage_hopeless=0 stage_over_budget=0 stage_share=10
    eval "$plan"
    [ "$stage_count" -gt 0 ] || break
    echo "bench: stage $stage: $stage_count undecided cell(s) get $stage_reps more repetitions" \
      "(about ${stage_seconds} s; budget ${stage_budget} s = ${stage_share} % of the run's ${run_seconds} s)" >&2
    stage_start=$(date +%s)
    "$bin" bench --ecsb_run_id="$run_id" "${flags[@]}" "--ecsb_context=make_command=${again[*]}" \
      --benchmark_out="$staging/stage-$stage.json" --benchmark_out_format=json \
      "${extra[@]}" "$@" "--benchmark_filter=$stage_filter" \
      "--benchmark_repetitions=$stage_reps" "--ecsb_seed=$stage_seed" \
      >"$staging/stage-$stage.txt" &
    child=$!
    stage_rc=0
    wait "$child" || stage_rc=$?
    child=""
    spent=$((spent + $(date +%s) - stage_start))
    if [ "$stage_rc" -gt 1 ] || [ ! -s "$staging/stage-$stage.json" ]; then
      echo "bench: stage $stage failed (exit $stage_rc); the run keeps its planned repetitions" >&2
      rm -f "$staging/stage-$stage.json" "$staging/stage-$stage.txt"
      break
    fi
    "$PYTHON" "$here/ecsb_stages.py" merge "$staging" "$staging/stage-$stage.json" \
      --stage "$stage" --seed "$stage_seed" --seconds "$spent" || break
    rm -f "$staging/stage-$stage.json" "$staging/stage-$stage.txt"
    stages_note="${stages_note:+$stages_note; }stage $stage: $stage_count cell(s) +$stage_reps repetitions"
  done
  stages_note="${stages_note:-no cell needed more repetitions}; ${spent} s of a budget of ${stage_budget:-$((run_seconds / 10))} s (${stage_share:-10} % of the planned run's ${run_seconds} s)"
  [ "${stage_hopeless:-0}" -eq 0 ] || stages_note="$stages_note; $stage_hopeless cell(s) need more than two stages can add"
  [ "${stage_over_budget:-0}" -eq 0 ] || stages_note="$stages_note; $stage_over_budget cell(s) left undecided at the budget"
fi

"$PYTHON" "$here/json_to_csv.py" "$staging/raw.json" -o "$staging/results.csv" \
  --errors "$staging/errors.csv" ||
  { echo "bench: ecsbench's JSON is unusable (above); nothing was published" >&2; exit 2; }
# The three tables read the run's files, not each other: written side by side (each loads
# scipy and tests every cell, a second or two of CPU).
"$PYTHON" "$here/summary.py" "$staging" --run-id "$run_id" -o "$staging/summary.md" &
summary_pid=$!
"$PYTHON" "$here/choose.py" "$staging" -o "$staging/choose.md" &
choose_pid=$!
"$PYTHON" "$here/report.py" "$staging" -o "$staging/report.md" &
report_pid=$!
child="$summary_pid $choose_pid $report_pid"
summary_rc=0 choose_rc=0 report_rc=0
wait "$summary_pid" || summary_rc=$?
wait "$choose_pid" || choose_rc=$?
wait "$report_pid" || report_rc=$?
child=""
[ "$summary_rc" -eq 0 ] || { echo "bench: no summary (above); nothing was published" >&2; exit 2; }
[ "$choose_rc" -eq 0 ] || { echo "bench: no choose.md (above); nothing was published" >&2; exit 2; }
report_note=""
case $report_rc in
  0) ;;
  1) report_note="docs/findings.md states what this run does not support (above; marked in report.md)" ;;
  *) report_note="report.py failed (above)" ;;
esac
crash_point summarised
plots_note=""
if ! bash "$here/plots.sh" --into "$plots_staging" "$staging"; then
  plots_note="the plots could not be drawn (above); once fixed: make plots RUN=$RESULTS_DIR/<id>"
fi
crash_point drawn

# Publish results, then plots. Ctrl-C is held off (ignored by the publishing commands, noted
# here and honoured afterwards), so the run is either unpublished or published with its plots.
shielded() { (trap '' INT TERM HUP; "$@"); }
signal=""
trap 'signal=INT' INT
trap 'signal=TERM' TERM HUP
final=$(shielded ecsb_publish_dir "$staging" "$RESULTS_DIR" "$run_id")
published=1
final_id=$(basename "$final")
crash_point published-results
if [ "$final_id" != "$run_id" ]; then
  # Another run took the name meanwhile: record the name this one got, and draw again.
  shielded "$PYTHON" - "$final/raw.json" "$final_id" <<'EOF'
import json, os, sys
path, run_id = sys.argv[1], sys.argv[2]
with open(path, encoding="utf-8") as f:
    doc = json.load(f)
doc["context"]["ecsb_run_id"] = run_id
with open(path + ".tmp", "w", encoding="utf-8") as f:
    json.dump(doc, f, indent=2)
os.replace(path + ".tmp", path)
EOF
  shielded "$PYTHON" "$here/summary.py" "$final" --run-id "$final_id" -o "$final/summary.md"
  shielded "$PYTHON" "$here/choose.py" "$final" -o "$final/choose.md"
  shielded "$PYTHON" "$here/report.py" "$final" 2>/dev/null || true
  rm -rf "$plots_staging"
  plots_staging=$(ecsb_staging_dir "$PLOTS_DIR" "$final_id")
  shielded bash "$here/plots.sh" --into "$plots_staging" "$final" ||
    plots_note="the plots could not be drawn (above); once fixed: make plots RUN=$final"
fi
if [ -z "$plots_note" ]; then
  shielded ecsb_replace_dir "$plots_staging" "$PLOTS_DIR/$final_id"
else
  rm -rf "$plots_staging"
fi
trap - INT TERM HUP

failed=$(($(wc -l <"$final/errors.csv") - 1))
echo
took=$(($(date +%s) - start))
echo "ecsbench run $final_id done in $took s"
"$PYTHON" "$here/ecsb_quality.py" --time "$final" "$took" | sed 's/^/  /' || true
[ -z "$quick" ] || echo "  note:    $smoke"
[ -z "$stages_note" ] || echo "  stages:  $stages_note"
echo "  results: $final/ (raw.json, results.csv, errors.csv, choose.md, summary.md, report.md, list.json, machine.json, console.txt)"
if [ -z "$plots_note" ]; then
  echo "  plots:   $PLOTS_DIR/$final_id/"
  echo "  page:    $PLOTS_DIR/$final_id/index.html (open it in a browser)"
else
  echo "  plots:   none: $plots_note"
fi
echo "  answer:  $final/choose.md"
echo "  summary: $final/summary.md"
if [ -f "$final/report.md" ]; then
  echo "  report:  $final/report.md${report_note:+ ($report_note)}"
else
  echo "  report:  none: $report_note"
fi
# Say it first, and last: the run's quality (scripts/ecsb_quality.py), the console's last lines.
echo
"$PYTHON" "$here/ecsb_quality.py" "$final" || true
if [ -n "$signal" ]; then
  echo "bench: $signal arrived while publishing; the run above was published complete" >&2
  exit $([ "$signal" = INT ] && echo 130 || echo 143)
fi
if [ "$failed" -gt 0 ]; then
  echo "bench: $failed benchmark(s) failed their checksum check or a status and have no time;" \
    "the others are published; see $final/errors.csv" >&2
  exit 1
fi
[ -z "$plots_note" ] || exit 1
