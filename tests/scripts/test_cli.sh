#!/usr/bin/env bash
# test_cli.sh — the ecsbench command line: help, list, run (output format, every strategy's
# checksum equal to the floor's), and every error path (exit 2, a message on stderr saying
# what is wrong and what is valid, nothing on stdout, no crash).
# Environment: BUILD (folder holding ecsbench, default build).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${BUILD:-build}/ecsbench
case $bin in /*) ;; *) bin=$top/$bin ;; esac
[ -x "$bin" ] || { echo "test_cli: $bin missing; run make build/ecsbench" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "  FAIL: $*" >&2; failures=$((failures + 1)); }

# expect_usage_error FRAGMENT ARGS...: exit 2, FRAGMENT in stderr, stdout empty.
expect_usage_error() {
  local fragment=$1 rc
  shift
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ "$rc" -eq 2 ] || fail "ecsbench $* exited $rc, want 2 (stderr: $(head -c 300 "$tmp/err"))"
  [ -s "$tmp/err" ] || fail "ecsbench $*: no message on stderr"
  grep -qF -- "$fragment" "$tmp/err" || fail "ecsbench $*: stderr lacks '$fragment': $(head -c 300 "$tmp/err")"
  [ ! -s "$tmp/out" ] || fail "ecsbench $*: printed to stdout on error: $(head -c 200 "$tmp/out")"
}

# ---- help ---------------------------------------------------------------------------------
for h in --help help -h; do
  "$bin" "$h" >"$tmp/out" 2>"$tmp/err" || fail "ecsbench $h exited $?"
  grep -q "ecsbench run <scenario> <strategy> <N> \[passes\]" "$tmp/out" || fail "ecsbench $h: no run usage"
  grep -q -- "--ecsb_sizes" "$tmp/out" || fail "ecsbench $h: does not document --ecsb_sizes"
  grep -q -- "--benchmark_filter" "$tmp/out" || fail "ecsbench $h: does not list Google Benchmark flags"
done

# ---- list ---------------------------------------------------------------------------------
"$bin" list >"$tmp/list" 2>"$tmp/err" || fail "ecsbench list exited $?"
for s in index_is_id handle_table flat_map sparse_set; do
  grep -qE "^strategy +$s +[^ ]" "$tmp/list" || fail "list: no strategy line with a summary for $s"
done
for s in platformer dual_iterate; do
  grep -qE "^scenario +$s +.*\(item: [^)]+\)$" "$tmp/list" || fail "list: no scenario line for $s"
done
strategies=$(awk '$1 == "strategy" { print $2 }' "$tmp/list")
scenarios=$(awk '$1 == "scenario" { print $2 }' "$tmp/list")
[ "$(echo "$strategies" | wc -l)" -ge 4 ] || fail "list: fewer than 4 strategies"

# ---- run: format, and every strategy reproduces the floor's checksum -----------------------
format='^checksum=[0-9a-f]{16} seconds=[0-9]+\.[0-9]+$'
for sc in $scenarios; do
  for n in 1 2 3 257 4000; do
    for passes in 1 3; do
      [ "$n" -le 257 ] || [ "$passes" -eq 1 ] || continue
      floor=$("$bin" run "$sc" floor "$n" "$passes" 2>"$tmp/err") || fail "run $sc floor $n $passes exited $?"
      if [ "$(printf '%s\n' "$floor" | grep -cE "$format")" -ne 1 ] ||
        [ "$(printf '%s\n' "$floor" | wc -l)" -ne 1 ]; then
        fail "run $sc floor $n: output '$floor' is not one 'checksum=<16 hex> seconds=<float>' line"
      fi
      want=${floor%% *}
      for st in $strategies; do
        got=$("$bin" run "$sc" "$st" "$n" "$passes" 2>"$tmp/err") || { fail "run $sc $st $n $passes exited $?: $(cat "$tmp/err")"; continue; }
        printf '%s\n' "$got" | grep -qE "$format" || fail "run $sc $st $n: bad output '$got'"
        [ "${got%% *}" = "$want" ] || fail "run $sc $st $n $passes: ${got%% *}, floor has $want"
      done
    done
  done
done
# passes is optional and defaults to 1
a=$("$bin" run dual_iterate floor 100)
b=$("$bin" run dual_iterate floor 100 1)
[ "${a%% *}" = "${b%% *}" ] || fail "run without passes differs from passes=1"

# ---- error paths: exit 2 with a message ---------------------------------------------------
expect_usage_error "run takes 3 or 4 arguments" run
expect_usage_error "run takes 3 or 4 arguments" run platformer
expect_usage_error "run takes 3 or 4 arguments" run platformer floor
expect_usage_error "run takes 3 or 4 arguments" run platformer floor 10 1 extra
expect_usage_error "unknown scenario 'nope'; valid: platformer" run nope floor 10
expect_usage_error "unknown scenario ''" run "" floor 10
expect_usage_error "unknown strategy 'nope'; valid: floor | index_is_id" run platformer nope 10
expect_usage_error "unknown strategy 'FLOOR'" run platformer FLOOR 10
for n in 0 -1 +5 5x " 5" "5 " "" 0x10 1e3 3.0 16777217 18446744073709551616 99999999999999999999999; do
  expect_usage_error "bad N '$n'; N is a decimal integer 1..16777216" run platformer floor "$n"
done
for p in 0 -1 abc 1000001 "" 2x; do
  expect_usage_error "bad passes '$p'; passes is a decimal integer 1..1000000" run dual_iterate floor 10 "$p"
done
expect_usage_error "unknown subcommand 'foo'; valid: list, run, help" foo
expect_usage_error "unknown subcommand 'List'" List
expect_usage_error "list takes no arguments" list extra
# the suite's flags
expect_usage_error "unknown argument or bad flag value: --bogus" --bogus
expect_usage_error "unknown argument or bad flag value: --benchmark_min_time=1s" --benchmark_min_time=1s
expect_usage_error "unknown flag --ecsb_nope" --ecsb_nope
for z in 0 "" 1,,2 "256," abc 16777217; do
  expect_usage_error "bad --ecsb_sizes=$z" "--ecsb_sizes=$z"
done
expect_usage_error "bad --ecsb_sizes=" "--ecsb_sizes=$(seq -s, 1 33)"
expect_usage_error "bad --ecsb_run_id=../x" --ecsb_run_id=../x
expect_usage_error "valid values: console, json, csv" --benchmark_format=xml
expect_usage_error "bad --benchmark_out_format=xml" --benchmark_out_format=xml
expect_usage_error "valid values: ns, us, ms, s" --benchmark_time_unit=ps
expect_usage_error "bad --ecsb_context=x" --ecsb_context=x
expect_usage_error "bad --ecsb_progress=maybe" --ecsb_progress=maybe
expect_usage_error "bad --benchmark_repetitions" --ecsb_sizes=1 --benchmark_repetitions=0
expect_usage_error "bad --benchmark_min_time" --ecsb_sizes=1 --benchmark_min_time=0
expect_usage_error "selects no benchmark" --ecsb_sizes=1 --ecsb_progress=off --benchmark_filter=nomatch

# ---- the suite registers scenario/strategy/N for scenario x (floor + strategies) x size -----
"$bin" --ecsb_sizes=7,3 --benchmark_list_tests=true >"$tmp/names" 2>"$tmp/err" || fail "list_tests exited $?"
want=$(($(echo "$scenarios" | wc -l) * ($(echo "$strategies" | wc -l) + 1) * 2))
[ "$(wc -l <"$tmp/names")" -eq "$want" ] || fail "list_tests: $(wc -l <"$tmp/names") names, want $want"
for sc in $scenarios; do
  for st in floor $strategies; do
    for n in 3 7; do
      grep -qE "^$sc/$st/$n(/manual_time)?$" "$tmp/names" || fail "list_tests: no $sc/$st/$n"
    done
  done
done
first=$(head -n 1 "$tmp/names")
case $first in */floor/3*) ;; *) fail "list_tests: first benchmark is $first, want <scenario>/floor/3" ;; esac

if [ "$failures" -ne 0 ]; then
  echo "test_cli: $failures failure(s)" >&2
  exit 1
fi
exit 0
