#!/usr/bin/env bash
# test_sweep.sh — make sweep's arguments: an unknown scenario, a parameter the scenario does
# not declare (or `order`), a value out of range and a world order that does not exist each
# stop before anything runs, exit 2, with the valid names or range; nothing is written to
# results/. A sweep runs in every world order (rows and a crossover section per world), and
# ORDERS narrows it.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
bin=${BUILD:-build}/ecsbench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "  FAIL: $*" >&2; failures=$((failures + 1)); }
expect() { # FRAGMENT ARGS...: sweep.sh exits 2 naming FRAGMENT, writing no run
  local fragment=$1 rc
  shift
  RESULTS_DIR=$tmp/results PLOTS_DIR=$tmp/plots scripts/sweep.sh "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ "$rc" -eq 2 ] || fail "sweep.sh $*: exit $rc, want 2: $(head -c 300 "$tmp/err")"
  grep -qF -- "$fragment" "$tmp/err" || fail "sweep.sh $*: stderr lacks '$fragment': $(head -c 300 "$tmp/err")"
  [ ! -e "$tmp/results" ] || [ -z "$(ls -A "$tmp/results")" ] || fail "sweep.sh $*: wrote a run"
}
expect "unknown scenario 'nosuch'; valid: platformer | dual_iterate" nosuch match
expect "dual_iterate has no parameter 'size' to sweep; valid: match" dual_iterate size
expect "has no parameter 'order' to sweep" dual_iterate order
expect "packed_1 has no parameter 'match' to sweep; valid: (none: it declares only order)" packed_1 match
expect "platformer has no parameter 'match' to sweep; valid: queries" platformer match
expect "match takes a number 0.00390625 .. 1" dual_iterate match 0.5,3
expect "want SCENARIO and PARAM" dual_iterate
ORDERS=regular,old expect "order=old is not valid; order takes regular | shuffled | aged" dual_iterate match
# a tiny sweep: rows in every world, a crossover section per world; ORDERS=aged: aged rows only
sweep_rows() { # ORDERS: the parameter sets of a tiny sweep's results.csv rows
  rm -rf "$tmp/results" "$tmp/plots"
  ORDERS=$1 RESULTS_DIR=$tmp/results PLOTS_DIR=$tmp/plots QUICK=1 SIZES=64 STRATEGIES=index_is_id \
    scripts/sweep.sh "$bin" dual_iterate match 0.5,1 >"$tmp/out" 2>"$tmp/err" ||
    fail "sweep.sh in ORDERS=$1 exited $?: $(tail -3 "$tmp/err")"
  awk -F, 'NR > 1 { print $NF }' "$tmp"/results/*/results.csv | tr -d '\r' | sort -u | tr '\n' ' '
}
got=$(sweep_rows "")
want="order=aged;match=0.5 order=aged;match=1 order=regular;match=0.5 order=regular;match=1 order=shuffled;match=0.5 order=shuffled;match=1 "
[ "$got" = "$want" ] || fail "a sweep's rows: got '$got', want '$want'"
for world in "dual_iterate: match" "dual_iterate (order=shuffled): match" "dual_iterate (order=aged): match"; do
  grep -qF "### $world, N = 64" "$tmp"/results/*/summary.md || fail "no crossover section '$world' in the sweep's summary.md"
done
got=$(sweep_rows aged)
[ "$got" = "order=aged;match=0.5 order=aged;match=1 " ] || fail "ORDERS=aged: rows '$got'"
# --all: one sweep per declared parameter but order, each scenario's in declaration order
want=$("${PYTHON:-python3}" -c 'import json,sys; d=json.load(sys.stdin)
for s in d["scenarios"]:
    for p in s["params"]:
        if p["name"] != "order": print(s["name"], p["name"])' < <("$bin" list --json))
got=$(scripts/sweep.sh "$bin" --all --list) || fail "sweep.sh --all --list exited $?"
[ -n "$got" ] && [ "$got" = "$want" ] || fail "sweep.sh --all --list: got '$got', want '$want'"
grep -qx "frame churn" <<<"$got" && grep -qx "churn_iterate rounds" <<<"$got" || fail "sweep.sh --all --list lacks frame churn or churn_iterate rounds"
# make passes them through
make -s --no-print-directory BUILD="${BUILD:-build}" sweep SCENARIO=dual_iterate PARAM=nosuch >"$tmp/out" 2>&1 &&
  fail "make sweep with a bad PARAM succeeded"
grep -q "has no parameter 'nosuch'" "$tmp/out" || fail "make sweep does not say what is wrong: $(tail -3 "$tmp/out")"
[ "$failures" -eq 0 ]
