#!/usr/bin/env bash
# test_hyperfine.sh — scripts/hyperfine.sh writes hyperfine's markdown, CSV and JSON per scenario
# into a new run folder, refuses to time a strategy whose checksum differs from the floor's, and
# rejects bad arguments with exit 2. First with a stand-in binary (always), then a tiny smoke run
# of the real build/ecsbench (only when it has a working `run` subcommand; skipped otherwise).
set -u
top=${ECSB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 1
build=${BUILD:-build}
tmp=$(mktemp -d /tmp/test_hyperfine.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
export HYPERFINE_RUNS=2 HYPERFINE_WARMUP=0
unset HYPERFINE_SCENARIOS HYPERFINE_STRATEGIES HYPERFINE_PASSES

# expect_run_files DIR DESCRIPTION: exactly one published run in DIR, with the three exports per
# scenario (non-empty; JSON parses; CSV has hyperfine's header) and the summary.
expect_run_files() {
  local dir=$1 what=$2 runs run s
  runs=$(ls -A "$dir" 2>/dev/null)
  if [ "$(wc -w <<<"$runs")" -ne 1 ] || [[ $runs == .incomplete* ]]; then
    echo "  not ok: $what: want one published run in $dir, found: $runs" >&2; fail=1; return
  fi
  run="$dir/$runs/hyperfine"
  for s in platformer dual_iterate; do
    for ext in md csv json; do
      [ -s "$run/$s.$ext" ] || { echo "  not ok: $what: $run/$s.$ext missing or empty" >&2; fail=1; }
    done
    head -1 "$run/$s.csv" | grep -q '^command,mean,stddev,median' ||
      { echo "  not ok: $what: $s.csv is not hyperfine CSV" >&2; fail=1; }
    "${PYTHON:-/usr/bin/python3}" -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; sys.exit(0 if [x["command"] for x in r][0] == "floor" and len(r) >= 2 else 1)' "$run/$s.json" ||
      { echo "  not ok: $what: $s.json lacks the floor and strategy results" >&2; fail=1; }
  done
  [[ -s $run/summary.md && -s $run/checksums.txt ]] ||
    { echo "  not ok: $what: summary.md or checksums.txt missing" >&2; fail=1; }
}

# ---- a stand-in binary: every strategy agrees with the floor, unless FAKE_BAD names it --------
fake="$tmp/fake-ecsbench"
cat >"$fake" <<'SH'
#!/bin/sh
[ "$1" = run ] && [ $# -ge 4 ] || { echo "usage: run <scenario> <strategy> <N>" >&2; exit 2; }
[ "$3" = "${FAKE_BAD:-}" ] && { echo "checksum=0xbad seconds=0.0001"; exit 0; }
echo "checksum=0x$(printf '%s-%s' "$2" "$4" | cksum | cut -d' ' -f1) seconds=0.0001"
SH
chmod +x "$fake"
if RESULTS_DIR="$tmp/r1" HYPERFINE_N=1000 scripts/hyperfine.sh "$fake" >"$tmp/out" 2>&1; then
  expect_run_files "$tmp/r1" "stand-in binary"
else
  echo "  not ok: hyperfine.sh failed with the stand-in binary:" >&2; cat "$tmp/out" >&2; fail=1
fi

FAKE_BAD=sparse_set RESULTS_DIR="$tmp/r2" HYPERFINE_N=1000 scripts/hyperfine.sh "$fake" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -ne 1 ] || ! grep -q 'CHECKSUM MISMATCH: sparse_set' "$tmp/err"; then
  echo "  not ok: a wrong checksum must fail loudly (exit $rc): $(cat "$tmp/err")" >&2; fail=1
fi
[ -z "$(ls -A "$tmp/r2" 2>/dev/null)" ] ||
  { echo "  not ok: a failed run must publish nothing: $(ls -A "$tmp/r2")" >&2; fail=1; }

expect2() { # expect2 DESCRIPTION [VAR=value ...] -- ARGS...
  local what=$1; shift
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  env "${envs[@]}" RESULTS_DIR="$tmp/r3" scripts/hyperfine.sh "$@" >/dev/null 2>"$tmp/err"
  local rc=$?
  if [ $rc -ne 2 ] || ! grep -q error "$tmp/err"; then
    echo "  not ok: $what: exit $rc, want 2 with a message" >&2; fail=1
  fi
}
expect2 "no binary" --
expect2 "nonexistent binary" -- "$tmp/nonexistent"
expect2 "two arguments" -- "$fake" "$fake"
expect2 "N not a number" HYPERFINE_N=lots -- "$fake"
expect2 "one run only" HYPERFINE_RUNS=1 -- "$fake"
[ -z "$(ls -A "$tmp/r3" 2>/dev/null)" ] || { echo "  not ok: bad arguments must write nothing" >&2; fail=1; }

# ---- the real binary, when its `run` subcommand works ----------------------------------------
bin="$build/ecsbench"
if [ -x "$bin" ] && "$bin" run dual_iterate floor 256 2>/dev/null | grep -q 'checksum='; then
  if RESULTS_DIR="$tmp/r4" HYPERFINE_N=4096 scripts/hyperfine.sh "$bin" >"$tmp/out" 2>&1; then
    expect_run_files "$tmp/r4" "$bin smoke run"
  else
    echo "  not ok: hyperfine.sh on $bin failed:" >&2; cat "$tmp/out" >&2; fail=1
  fi
else
  echo "  skip: $bin has no working 'run' subcommand yet; real smoke run skipped" >&2
fi
exit $fail
