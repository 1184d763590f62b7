#!/usr/bin/env bash
# run.sh — fuzz the strategies against the reference model (tests/fuzz/fuzz_world.c).
# Usage: tests/fuzz/run.sh <fuzz_world binary> <strategy|"" (all at once)|each> <seconds>
#   ""    one fuzzer run that plays every input on every strategy, for <seconds>
#   each  one run per strategy, <seconds> each (what make test does)
#   name  one run on that strategy
# The corpus grows in build/fuzz/corpus/<name>/ (seeded from tests/fuzz/corpus/); crashes go
# to build/fuzz/artifacts/ and the script prints the command that replays each. NICE=19 runs
# at low priority; FUZZ_JOBS=n runs n at a time. Prints per run: seconds, executions, coverage
# (cov: edges, ft: features).
set -u
bin=$1 which=$2 seconds=$3
here=$(cd "$(dirname "$0")" && pwd)
out=$(dirname "$bin")
mkdir -p "$out/artifacts"
if [ "$which" = each ]; then
  names=$(ECSB_FUZZ_LIST=1 "$bin") || exit 2
else
  names=${which:-all}
fi
# fuzz_one NAME: one fuzzer run; its report line(s) to $out/NAME.report, exit 1 on a crash.
fuzz_one() {
  local name=$1 strategy=$1 corpus log start rc took execs cov a
  [ "$name" = all ] && strategy=
  corpus="$out/corpus/$name"
  mkdir -p "$corpus"
  log="$out/$name.log"
  start=$(date +%s)
  ECSB_FUZZ_STRATEGY=$strategy nice -n "${NICE:-0}" "$bin" -max_total_time="$seconds" \
    -print_final_stats=1 -artifact_prefix="$out/artifacts/$name-" -timeout=30 \
    "$corpus" "$here/corpus" >"$log" 2>&1
  rc=$?
  took=$(( $(date +%s) - start ))
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
  if [ "$rc" -eq 0 ]; then
    echo "fuzz $name: ${took} s, ${execs:-?} executions, ${cov:-no coverage line}, corpus $(ls "$corpus" | wc -l) inputs, 0 crashes"
    return 0
  fi
  echo "fuzz $name: FAILED after ${took} s (exit $rc); the end of $log:"
  grep -E '^\[|ERROR|SUMMARY|differential' "$log" | tail -8 | sed 's/^/    /'
  for a in $(grep -oE "Test unit written to [^ ]+" "$log" | awk '{print $5}'); do
    echo "    replay: ECSB_FUZZ_STRATEGY=$strategy $bin $a"
  done
  return 1
}

# Up to FUZZ_JOBS runs at a time (default 1); reports printed in order.
jobs=${FUZZ_JOBS:-1}
set -- $names
total=$#
[ "$jobs" -gt 1 ] && echo "fuzz: $total runs of $seconds s, $jobs at a time (FUZZ_JOBS)"
failed=0 i=0 printed=0 running=0
names_arr=("$@")
while [ "$printed" -lt "$total" ]; do
  if [ "$i" -lt "$total" ] && [ "$running" -lt "$jobs" ]; then
    n=${names_arr[$i]}
    ( fuzz_one "$n" >"$out/$n.report"; echo $? >"$out/$n.rc" ) &
    i=$((i + 1)) running=$((running + 1))
    continue
  fi
  while [ "$printed" -lt "$i" ] && [ -e "$out/${names_arr[$printed]}.rc" ]; do
    n=${names_arr[$printed]}
    cat "$out/$n.report"
    [ "$(cat "$out/$n.rc")" = 0 ] || failed=$((failed + 1))
    rm -f "$out/$n.rc" "$out/$n.report"
    printed=$((printed + 1))
  done
  if [ "$printed" -lt "$total" ] && [ "$running" -gt 0 ]; then
    wait -n
    running=$((running - 1))
  fi
done
[ "$failed" -eq 0 ]
