#!/usr/bin/env bash
# test_hyperfine.sh — scripts/hyperfine.sh writes hyperfine's markdown, CSV and JSON per scenario
# and size into results/hyperfine/<id>/, apart from the make bench runs (make compare does not
# offer it); takes SCENARIOS / STRATEGIES / SIZES, the binary checking the names (exit 2 with
# its message); times process start-up beside the strategies and warns when it is half or more
# of a command's time; refuses to time a strategy whose checksum differs from the floor's; and
# rejects bad arguments with exit 2. With the stand-in binary (tests/scripts/fakes.py) and the
# real hyperfine, then a stand-in hyperfine for the warning, then a tiny smoke run of the real
# build/ecsbench when it speaks `list --json`.
set -u
top=${ECSB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 1
build=${BUILD:-build}
export PYTHON=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d /tmp/test_hyperfine.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "  not ok: $*" >&2; fail=1; }
export HYPERFINE_RUNS=2 HYPERFINE_WARMUP=0
unset SCENARIOS STRATEGIES SIZES HYPERFINE_PASSES FAKE_BAD FAKE_HYPERFINE
fake=$top/tests/scripts/fakes.py
fake_hyperfine=$tmp/hyperfine
printf '#!/bin/sh\nexec %s %s hyperfine "$@"\n' "$PYTHON" "$fake" >"$fake_hyperfine"
chmod +x "$fake_hyperfine"

# the_run DIR: the one published hyperfine run in DIR/hyperfine (fails the test otherwise)
the_run() {
  local runs
  runs=$(ls -A "$1/hyperfine" 2>/dev/null)
  if [ "$(wc -w <<<"$runs")" -ne 1 ] || [[ $runs == .incomplete* ]]; then
    no "want one published run in $1/hyperfine, found: $runs"; return 1
  fi
  echo "$1/hyperfine/$runs"
}

# ---- the stand-in binary under the real hyperfine: files, place, names --------------------------
if RESULTS_DIR="$tmp/r1" SIZES=1000 scripts/hyperfine.sh "$fake" >"$tmp/out" 2>&1 && run=$(the_run "$tmp/r1"); then
  for s in sweep spawn; do
    for ext in md csv json; do
      [ -s "$run/${s}_n1000.$ext" ] || no "${s}_n1000.$ext missing or empty"
    done
    head -1 "$run/${s}_n1000.csv" | grep -q '^command,mean,stddev,median' || no "${s}_n1000.csv is not hyperfine CSV"
    "$PYTHON" -c 'import json,sys; r=[x["command"] for x in json.load(open(sys.argv[1]))["results"]]; sys.exit(r != ["start-up", "floor", "alpha", "beta", "gamma"])' "$run/${s}_n1000.json" ||
      no "${s}_n1000.json: want start-up, floor, then the strategies list --json names"
  done
  [[ -s $run/summary.md && -s $run/checksums.txt ]] || no "summary.md or checksums.txt missing"
  [ "$(ls -A "$tmp/r1")" = hyperfine ] || no "hyperfine wrote beside the make bench runs: $(ls -A "$tmp/r1")"
  RESULTS_DIR=$tmp/r1 scripts/compare.sh "$run" "$run" >/dev/null 2>"$tmp/err"
  [ $? -eq 2 ] && grep -q 'make hyperfine output, not a make bench run (runs in .*: )' "$tmp/err" ||
    no "make compare took or offered the hyperfine output: $(cat "$tmp/err")"
else
  no "hyperfine.sh failed with the stand-in binary: $(cat "$tmp/out")"
fi

# ---- a subset; unknown names: the binary's message, exit 2 ---------------------------------------
RESULTS_DIR="$tmp/r2" SCENARIOS=spawn STRATEGIES=beta SIZES=64,128 HYPERFINE="$fake_hyperfine" \
  scripts/hyperfine.sh "$fake" >"$tmp/out" 2>&1 || no "subset run failed: $(cat "$tmp/out")"
run=$(the_run "$tmp/r2") && [ "$(cd "$run" && ls ./*.json | tr '\n' ' ')" = "./spawn_n128.json ./spawn_n64.json " ] ||
  no "subset: want spawn at 64 and 128 only: $(ls "$run")"
for var in SCENARIOS=spawn,nosuch STRATEGIES=nosuch; do
  env "$var" RESULTS_DIR="$tmp/r3" SIZES=64 scripts/hyperfine.sh "$fake" >/dev/null 2>"$tmp/err"
  rc=$?
  [ $rc -eq 2 ] && grep -q "unknown [a-z]* 'nosuch'; valid: " "$tmp/err" ||
    no "$var: exit $rc, want 2 with the binary's list of valid names: $(cat "$tmp/err")"
done

# ---- start-up: a warning when it is half of a command's time or more --------------------------
FAKE_HYPERFINE=start-up=0.010,floor=0.012,alpha=0.02,beta=0.02,gamma=0.02 RESULTS_DIR="$tmp/r5" SCENARIOS=sweep SIZES=64 \
  HYPERFINE="$fake_hyperfine" scripts/hyperfine.sh "$fake" >"$tmp/out" 2>&1 || no "start-up run failed: $(cat "$tmp/out")"
grep -q "^hyperfine: warning: at N = 64 in sweep, process start-up (10.0 ms: .* floor 1\`) is 83% of floor's whole-process time (12.0 ms)" "$tmp/out" ||
  no "no start-up warning: $(cat "$tmp/out")"
run=$(the_run "$tmp/r5") && grep -q '^\*\*Warning:\*\* process start-up dominates some figures' "$run/summary.md" ||
  no "the warning is not in summary.md"
FAKE_HYPERFINE=start-up=0.001,floor=0.1,alpha=0.1,beta=0.1,gamma=0.1 RESULTS_DIR="$tmp/r6" SCENARIOS=sweep \
  SIZES=64 HYPERFINE="$fake_hyperfine" scripts/hyperfine.sh "$fake" >"$tmp/out" 2>&1 || no "no-warning run failed"
grep -q warning "$tmp/out" && no "a warning although start-up is 1 % of the time: $(cat "$tmp/out")"

# ---- a wrong checksum stops it; bad arguments exit 2; nothing published --------------------------
FAKE_BAD=beta RESULTS_DIR="$tmp/r7" SIZES=64 scripts/hyperfine.sh "$fake" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && grep -q 'CHECKSUM MISMATCH: beta' "$tmp/err" || no "a wrong checksum must fail loudly (exit $rc): $(cat "$tmp/err")"
[ -z "$(find "$tmp/r7" -mindepth 2 2>/dev/null)" ] || no "a failed run must publish nothing: $(find "$tmp/r7")"
expect2() { # expect2 DESCRIPTION [VAR=value ...] -- ARGS...
  local what=$1; shift
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  env "${envs[@]}" RESULTS_DIR="$tmp/r8" scripts/hyperfine.sh "$@" >/dev/null 2>"$tmp/err"
  local rc=$?
  [ $rc -eq 2 ] && grep -q error "$tmp/err" || no "$what: exit $rc, want 2 with a message"
}
expect2 "no binary" --
expect2 "nonexistent binary" -- "$tmp/nonexistent"
expect2 "two arguments" -- "$fake" "$fake"
expect2 "N not a number" SIZES=lots -- "$fake"
expect2 "N too large" SIZES=99999999 -- "$fake"
expect2 "one run only" HYPERFINE_RUNS=1 -- "$fake"
[ -z "$(find "$tmp/r8" -mindepth 2 2>/dev/null)" ] || no "bad arguments must write nothing"

# ---- the real binary, when it speaks list --json ---------------------------------------------
bin="$build/ecsbench"
if [ -x "$bin" ] && "$bin" list --json >/dev/null 2>&1; then
  first=$("$bin" list --json | "$PYTHON" -c 'import json,sys; d=json.load(sys.stdin); print(d["scenarios"][0]["name"], d["strategies"][0]["name"])')
  if RESULTS_DIR="$tmp/r9" SCENARIOS=${first% *} STRATEGIES=${first#* } SIZES=4096 \
      scripts/hyperfine.sh "$bin" >"$tmp/out" 2>&1 && run=$(the_run "$tmp/r9"); then
    [ -s "$run/${first% *}_n4096.json" ] || no "real smoke run: no export"
  else
    no "hyperfine.sh on $bin failed: $(cat "$tmp/out")"
  fi
else
  echo "  skip: $bin does not speak 'list --json' yet; real smoke run skipped" >&2
fi
exit $fail
