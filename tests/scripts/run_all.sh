#!/usr/bin/env bash
# run_all.sh — every script-level test: tests/scripts/test_*.sh (each exits 0 on success) and
# the Python unittest modules tests/scripts/test_*.py (one item). Prints one "N passed,
# N failed" line.
# Usage: run_all.sh [NAME ...]: only those tests (test_cli.sh, "python unittest").
# Environment: ECSB_SCRIPT_TIER: slow (the tests that build, run valgrind or a whole bench
# pipeline), fast (the others) or all (the default); make test-fast and make test-slow pick one.
# PYTHON (Debian's python3), BUILD (the build folder holding ecsbench),
# ECSB_SCRIPT_JOBS (tests run this many at a time; default: the online CPUs, at most 2). The
# tests share nothing but the read-only build (each works in a temporary folder of its own and
# names its runs uniquely), so running them side by side changes no result; each one's output
# is printed whole, in order, once it is done.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
export PYTHON=${PYTHON:-/usr/bin/python3} BUILD=${BUILD:-build} ECSB_TOP=$top
cd "$top"
cpus=$(nproc 2>/dev/null || echo 1)
jobs=${ECSB_SCRIPT_JOBS:-$((cpus >= 2 ? 2 : 1))}
if ! [[ $jobs =~ ^[1-9][0-9]*$ ]]; then
  echo "run_all.sh: ECSB_SCRIPT_JOBS=$jobs: want a number of tests at a time, 1 or more" >&2
  exit 2
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

slow=" test_memcheck.sh test_cachegrind.sh test_new_strategy.sh test_build_flags.sh test_pipeline.sh test_crash.sh test_damaged_runs.sh "
tier=${ECSB_SCRIPT_TIER:-all}
case $tier in fast | slow | all) ;; *)
  echo "run_all.sh: ECSB_SCRIPT_TIER=$tier: want fast, slow or all" >&2
  exit 2 ;;
esac
in_tier() { # NAME: is it in the tier asked for?
  case $tier in all) return 0 ;; slow) [[ $slow == *" $1 "* ]] ;; fast) [[ $slow != *" $1 "* ]] ;; esac
}
names=()
if [ $# -gt 0 ]; then
  for t in "$@"; do
    [ "$t" = "python unittest" ] || [ -x "$here/$t" ] ||
      { echo "run_all.sh: no test $t in $here" >&2; exit 2; }
    names+=("$t")
  done
else
  for t in "$here"/test_*.sh; do
    [ -e "$t" ] && in_tier "$(basename "$t")" && names+=("$(basename "$t")")
  done
  ls "$here"/test_*.py >/dev/null 2>&1 && in_tier "python unittest" && names+=("python unittest")
  # The longest first, so that no long test starts last and runs alone while the other core
  # idles. By CPU seconds (ECSB_TEST_TIMES-style profile, 2-core VM under load): python
  # unittest 59, memcheck 39, pipeline 39, cli 17, crash 17, compare 13, damaged_runs 12.
  long=("python unittest" "test_memcheck.sh" "test_pipeline.sh" "test_cli.sh" "test_crash.sh"
    "test_compare.sh" "test_damaged_runs.sh" "test_new_strategy.sh")
  ordered=()
  for t in "${long[@]}"; do [[ " ${names[*]} " == *" $t "* ]] && ordered+=("$t"); done
  for t in "${names[@]}"; do [[ " ${long[*]} " == *" $t "* ]] || ordered+=("$t"); done
  names=("${ordered[@]}")
fi

run_one() { # INDEX NAME: output to $out/INDEX.log, status to $out/INDEX.rc, seconds to .secs
  local status start=$SECONDS
  if [ "$2" = "python unittest" ]; then
    "$PYTHON" -m unittest discover -s "$here" -p 'test_*.py' -t "$here" >"$out/$1.log" 2>&1
  else
    "$here/$2" >"$out/$1.log" 2>&1
  fi
  status=$?
  echo $((SECONDS - start)) >"$out/$1.secs"
  echo "$status" >"$out/$1.rc"
}

echo "scripts ($tier): ${#names[@]} tests, $jobs at a time (ECSB_SCRIPT_JOBS); each one's output follows when it is done"
passed=0 failed=0 next=0 printed=0 running=0
while [ "$printed" -lt "${#names[@]}" ]; do
  if [ "$next" -lt "${#names[@]}" ] && [ "$running" -lt "$jobs" ]; then
    run_one "$next" "${names[$next]}" &
    next=$((next + 1)) running=$((running + 1))
    continue
  fi
  while [ "$printed" -lt "$next" ] && [ -e "$out/$printed.rc" ]; do
    cat "$out/$printed.log"
    if [ "$(cat "$out/$printed.rc")" = 0 ]; then
      echo "PASS ${names[$printed]} ($(cat "$out/$printed.secs") s)"; passed=$((passed + 1))
    else
      echo "FAIL ${names[$printed]} ($(cat "$out/$printed.secs") s)"; failed=$((failed + 1))
    fi
    printed=$((printed + 1))
  done
  if [ "$printed" -lt "${#names[@]}" ] && [ "$running" -gt 0 ]; then
    wait -n
    running=$((running - 1))
  fi
done
echo "scripts ($tier): $passed passed, $failed failed"
[ "$failed" -eq 0 ]
