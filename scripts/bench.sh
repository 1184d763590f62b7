#!/usr/bin/env bash
# bench.sh — the `make bench` pipeline.
#
#   scripts/bench.sh BUILD/ecsbench [ecsbench flags...]
#
# 1. picks the run id (UTC timestamp + short host name; -2, -3... if taken) and stages the run
#    in $RESULTS_DIR/.incomplete-<id>-<pid>;
# 2. runs the suite there: raw.json (Google Benchmark JSON, the source of truth, with the run id
#    and provenance in its context) and console.txt (the console table); progress on stderr;
# 3. writes results.csv + errors.csv (scripts/json_to_csv.py) and summary.md
#    (scripts/summary.py);
# 4. publishes the folder atomically as $RESULTS_DIR/<id>, then draws $PLOTS_DIR/<id> with
#    scripts/plots.sh if it exists (a failure there is a warning: the results stand);
# 5. prints where everything is.
# A run never overwrites another; an interrupted or failed run (Ctrl-C included) removes its
# staging folder and leaves nothing under a final name.
#
# Environment:
#   QUICK=1           small sizes (256, 4000, 16384) and a short min time: under a minute
#   RESULTS_DIR       where run folders go (default: results)
#   PLOTS_DIR         where plot folders go (default: plots; passed on to plots.sh)
#   PYTHON            Python 3 for the scripts (default: /usr/bin/python3)
#   ECSB_BENCH_ARGS   extra ecsbench flags, split on spaces (e.g. "--ecsb_sizes=256,4000")
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
case ${QUICK:-} in
  "" | 0 | no | false) ;;
  1 | yes | true) flags+=(--ecsb_quick) ;;
  *) ecsb_usage_error "QUICK=$QUICK: use QUICK=1 for the quick run, or leave it out for the full suite" ;;
esac
# shellcheck disable=SC2206  # word splitting is the point
extra=(${ECSB_BENCH_ARGS:-})

# The run id, fixed now: it names the staging folder, goes into raw.json and summary.md, and is
# the name the run is published under.
base=$(ecsb_new_run_id)
run_id=$base
k=1
while [ -e "$RESULTS_DIR/$run_id" ] || [ -e "$PLOTS_DIR/$run_id" ] ||
  compgen -G "$RESULTS_DIR/.incomplete-$run_id-*" >/dev/null; do
  k=$((k + 1))
  run_id=$base-$k
done


child="" staging="" published=""
cleanup() {
  if [ -n "$child" ]; then
    kill "$child" 2>/dev/null || true
    wait "$child" 2>/dev/null || true
  fi
  if [ -n "$staging" ] && [ -z "$published" ]; then
    rm -rf "$staging"
  fi
}
trap cleanup EXIT
trap 'echo "bench: interrupted; nothing was published" >&2; exit 130' INT
trap 'echo "bench: terminated; nothing was published" >&2; exit 143' TERM HUP

staging=$(ecsb_staging_dir "$RESULTS_DIR" "$run_id") ||
  ecsb_usage_error "cannot create a staging folder in $RESULTS_DIR; is it writable?"

# The compilers' own record of how each object was built (until the Makefile passes the flags).
producer=$(readelf --debug-dump=info "$bin" 2>/dev/null |
  sed -n 's/.*DW_AT_producer[^:]*:[[:space:]]*\((indirect[^)]*):[[:space:]]*\)\{0,1\}//p' |
  sort -u | paste -sd ';' - || true)
if [ -n "$producer" ]; then
  flags+=("--ecsb_context=build_producer=$producer")
fi

start=$(date +%s)
echo "bench: run $run_id -> $RESULTS_DIR/$run_id (staging in $staging)" >&2
# In the background so that a signal reaches the trap at once (the trap stops the run).
"$bin" bench --ecsb_run_id="$run_id" "${flags[@]}" \
  --benchmark_out="$staging/raw.json" --benchmark_out_format=json \
  "${extra[@]}" "$@" >"$staging/console.txt" &
child=$!
rc=0
wait "$child" || rc=$?
child=""
if [ "$rc" -ne 0 ]; then
  tail -n 5 "$staging/console.txt" >&2 || true
  echo "bench: ecsbench failed (exit $rc); nothing was published" >&2
  exit "$rc"
fi

"$PYTHON" "$here/json_to_csv.py" "$staging/raw.json" -o "$staging/results.csv" \
  --errors "$staging/errors.csv"
"$PYTHON" "$here/summary.py" "$staging" --run-id "$run_id" -o "$staging/summary.md"

final=$(ecsb_publish_dir "$staging" "$RESULTS_DIR" "$run_id")
published=1
final_id=$(basename "$final")
if [ "$final_id" != "$run_id" ]; then
  # Another run took the name meanwhile: record the name this one got, atomically per file.
  "$PYTHON" - "$final/raw.json" "$final_id" <<'EOF'
import json, os, sys
path, run_id = sys.argv[1], sys.argv[2]
with open(path, encoding="utf-8") as f:
    doc = json.load(f)
doc["context"]["ecsb_run_id"] = run_id
with open(path + ".tmp", "w", encoding="utf-8") as f:
    json.dump(doc, f, indent=2)
os.replace(path + ".tmp", path)
EOF
  "$PYTHON" "$here/summary.py" "$final" --run-id "$final_id" -o "$final/summary.md"
fi

if [ -f "$here/plots.sh" ]; then
  bash "$here/plots.sh" "$final" ||
    echo "bench: warning: scripts/plots.sh $final failed; the results are complete;" \
      "redraw with: make plots RUN=$final" >&2
else
  echo "bench: scripts/plots.sh is not there yet: no plots drawn" >&2
fi

errors=$(($(wc -l <"$final/errors.csv") - 1))
echo
echo "ecsbench run $final_id done in $(($(date +%s) - start)) s"
echo "  results: $final/ (raw.json, results.csv, errors.csv, summary.md, console.txt)"
echo "  plots:   $PLOTS_DIR/$final_id/"
echo "  summary: $final/summary.md"
if [ "$errors" -gt 0 ]; then
  echo "  WARNING: $errors benchmark(s) failed their checksum check or a status:" \
    "see $final/errors.csv"
fi
