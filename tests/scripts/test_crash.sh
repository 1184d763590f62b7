#!/usr/bin/env bash
# test_crash.sh — make bench killed with SIGKILL at several moments (scripts/bench.sh on the
# stand-in binary, tests/scripts/fakes.py, a tiny QUICK subset): at each step of the pipeline
# (ECSB_CRASH_AT) and from outside while the benchmarks run (the whole process group, as a
# crash or the OOM killer would). After every kill:
#   - no earlier run changed (checksums of every file under results/ and plots/);
#   - make compare and make plots refuse the half-written folder (exit 2) and do not offer it;
# and the next make bench removes the staging folders of dead processes (leaving a live one's
# alone), names a run whose plots the kill prevented, and publishes a complete run of its own.
set -u
top=${ECSB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 1
export PYTHON=${PYTHON:-/usr/bin/python3}
unset QUICK SCENARIOS STRATEGIES SIZES ECSB_BENCH_ARGS ECSB_CRASH_AT FAKE_FAIL FAKE_SLEEP
fake=$top/tests/scripts/fakes.py
tmp=$(mktemp -d /tmp/test_crash.XXXXXX)
sleeper=""
trap '[ -z "$sleeper" ] || kill "$sleeper" 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
no() { echo "  not ok: $*" >&2; fail=1; }
export RESULTS_DIR=$tmp/results PLOTS_DIR=$tmp/plots QUICK=1 SCENARIOS=sweep STRATEGIES=alpha,beta

runs() { find "$RESULTS_DIR" -mindepth 1 -maxdepth 1 -type d -not -name '.*' -printf '%f\n' | sort; }
sums() { (cd "$tmp" && find "$@" -type f -print0 | sort -z | xargs -0 -r sha256sum); }

scripts/bench.sh "$fake" >"$tmp/first.log" 2>&1 || { no "the first run failed: $(tail -n 5 "$tmp/first.log")"; exit 1; }
first=$(runs)
sums "results/$first" "plots/$first" >"$tmp/first.sums"

# after_kill WHAT: the checks every kill must pass
after_kill() {
  local what=$1 dir
  sums "results/$first" "plots/$first" | cmp -s - "$tmp/first.sums" || no "$what: the earlier run changed"
  for dir in "$RESULTS_DIR"/.incomplete-* "$PLOTS_DIR"/.incomplete-*; do
    [ -d "$dir" ] || continue
    env -u STRATEGIES scripts/compare.sh "$RESULTS_DIR/$first" "$dir" >/dev/null 2>"$tmp/err"
    [ $? -eq 2 ] && grep -q "staging folder of an unfinished" "$tmp/err" || no "$what: make compare took $dir: $(cat "$tmp/err")"
    scripts/plots.sh "$dir" >/dev/null 2>"$tmp/err"
    [ $? -eq 2 ] || no "$what: make plots took $dir"
  done
  env -u STRATEGIES scripts/compare.sh "$RESULTS_DIR/$first" "$tmp/nonexistent" >/dev/null 2>"$tmp/err"
  grep -q 'incomplete' "$tmp/err" && no "$what: make compare offers a staging folder: $(cat "$tmp/err")"
}

# ---- SIGKILL at each step of the pipeline ----------------------------------------------------
for step in started ran summarised drawn published-results; do
  rc=$( (ECSB_CRASH_AT=$step scripts/bench.sh "$fake" >"$tmp/$step.log" 2>&1; echo $?) 2>/dev/null)
  [ $rc -eq 137 ] || no "$step: exit $rc, want 137 (SIGKILL)"
  after_kill "killed at $step"
done
published=$(runs | grep -vx "$first")
[ "$(wc -w <<<"$published")" -eq 1 ] || no "only the kill after publishing the results leaves a run, got: $published"
for f in raw.json results.csv errors.csv summary.md list.json; do
  [ -s "$RESULTS_DIR/$published/$f" ] || no "the run published before the kill lacks $f"
done

# ---- SIGKILL from outside while the benchmarks run: raw.json half-written ----------------------
set -m # its own process group, killed whole
FAKE_SLEEP=0.3 scripts/bench.sh "$fake" >"$tmp/outside.log" 2>&1 &
pid=$!
set +m
for _ in $(seq 100); do
  grep -q '^bench: run ' "$tmp/outside.log" && [ -s "$(ls -d "$RESULTS_DIR"/.incomplete-*/raw.json 2>/dev/null | head -1)" ] && break
  sleep 0.05
done
sleep 0.4
kill -KILL -- -"$pid"
wait "$pid" 2>/dev/null
staged=$(ls -d "$RESULTS_DIR"/.incomplete-*-"$pid" 2>/dev/null)
[ -n "$staged" ] || no "outside kill: no staging folder of $pid to check"
"$PYTHON" -c 'import json,sys; json.load(open(sys.argv[1]))' "$staged/raw.json" 2>/dev/null &&
  no "outside kill: raw.json was complete: the kill came too late to test a half-written file"
after_kill "killed from outside"

# ---- the next make bench cleans up after the dead, not after the living -----------------------
sleep 60 &
sleeper=$!
mkdir -p "$RESULTS_DIR/.incomplete-20990101T000000Z-live-$sleeper"
scripts/bench.sh "$fake" >"$tmp/next.log" 2>&1 || no "the next run failed: $(tail -n 5 "$tmp/next.log")"
left=$(find "$RESULTS_DIR" "$PLOTS_DIR" -maxdepth 1 -name '.incomplete-*' -printf '%f\n')
[ "$left" = ".incomplete-20990101T000000Z-live-$sleeper" ] || no "stale staging folders left, or the live one removed: $left"
grep -q "^bench: removed .*\.incomplete-.*-$pid, left by process $pid, which is gone" "$tmp/next.log" ||
  no "the next run does not say what it removed: $(head -n 5 "$tmp/next.log")"
grep -q "^bench: note: $RESULTS_DIR/$published has no plots; draw them with: make plots RUN=$RESULTS_DIR/$published$" "$tmp/next.log" ||
  no "the run the kill left without plots is not named: $(head -n 12 "$tmp/next.log")"
sums "results/$first" "plots/$first" | cmp -s - "$tmp/first.sums" || no "the next run changed the earlier run"
new=$(runs | grep -vx "$first" | grep -vx "$published")
[ -s "$RESULTS_DIR/$new/summary.md" ] && [ -s "$PLOTS_DIR/$new/overview_heatmap.png" ] ||
  no "the next run is not complete: $new"
exit $fail
