#!/usr/bin/env bash
# test_compare.sh — scripts/compare.sh on the two fixture runs (B = A with flat_map x 0.6 and
# handle_table x 1.5, everything else the same medians) gives those verdicts and the expected
# geometric mean; comparing strategies inside one run works; bad arguments exit 2.
set -u
top=${ECSB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 1
export PYTHON=${PYTHON:-/usr/bin/python3}
unset STRATEGIES
tmp=$(mktemp -d /tmp/test_compare.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
a=tests/fixtures/runs/20261101T090000Z-fixture
b=tests/fixtures/runs/20261102T090000Z-fixture

# expect_json DESCRIPTION PYTHON-EXPRESSION: true for the JSON result `r` in $tmp/r.json
expect_json() {
  "$PYTHON" - "$tmp/r.json" "$2" <<'PY' || { echo "  not ok: $1" >&2; fail=1; }
import json, sys
r = json.load(open(sys.argv[1]))
rows = r["rows"]
def verdicts(strategy):
    return {x["verdict"] for x in rows if x["strategy"] == strategy}
ok = eval(sys.argv[2])
if not ok:
    print(f"    expression false: {sys.argv[2]}", file=sys.stderr)
sys.exit(0 if ok else 1)
PY
}

# ---- run B against run A --------------------------------------------------------------------
if ! scripts/compare.sh "$a" "$b" --json "$tmp/r.json" >"$tmp/out" 2>"$tmp/err"; then
  echo "  not ok: compare A B failed:" >&2; cat "$tmp/err" >&2; exit 1
fi
expect_json "50 rows: 2 scenarios x 5 strategies (floor included) x 5 sizes" 'len(rows) == 50'
expect_json "flat_map (x 0.6) is faster everywhere" 'verdicts("flat_map") == {"faster"}'
expect_json "handle_table (x 1.5) is slower everywhere" 'verdicts("handle_table") == {"slower"}'
expect_json "index_is_id is within noise" 'verdicts("index_is_id") == {"within noise"}'
expect_json "sparse_set is within noise" 'verdicts("sparse_set") == {"within noise"}'
expect_json "the floor is within noise" 'verdicts("floor") == {"within noise"}'
expect_json "ratios 0.6 and 1.5 exactly" \
  'all(abs(x["ratio"] - {"flat_map": 0.6, "handle_table": 1.5}.get(x["strategy"], 1.0)) < 1e-4 for x in rows)'
expect_json "significant rows have p < 0.05" \
  'all(x["p"] < 0.05 for x in rows if x["verdict"] in ("faster", "slower"))'
expect_json "geometric mean (0.6 * 1.5) ** (1/4) over the 40 non-floor rows" \
  'abs(r["summary"]["geomean"] - 0.9 ** 0.25) < 1e-4 and r["summary"]["geomean_rows"] == 40'
expect_json "the floor did not move" 'abs(r["summary"]["floor_geomean"] - 1) < 0.01'
expect_json "counts" 'r["summary"]["verdicts"] == {"faster": 10, "slower": 10, "within noise": 30, "untested": 0}'
grep -q '^geometric mean of ratios, all 40 rows (floor excluded): 0.974' "$tmp/out" ||
  { echo "  not ok: the table ends with the overall geometric mean" >&2; fail=1; }
grep -Eq '^dual_iterate +flat_map +4000 +1\.400 +0\.840 +0\.600 +0\.0[0-9]+ +faster$' "$tmp/out" ||
  { echo "  not ok: an aligned table row (dual_iterate flat_map 4000)" >&2; fail=1; }

# Same run against itself: nothing changes.
scripts/compare.sh "$a" "$a" --json "$tmp/r.json" >/dev/null 2>&1 ||
  { echo "  not ok: compare A A failed" >&2; fail=1; }
expect_json "a run against itself: all within noise, geomean 1" \
  'r["summary"]["verdicts"]["within noise"] == 50 and abs(r["summary"]["geomean"] - 1) < 1e-9'

# ---- two strategies inside one run (flag, and the STRATEGIES variable make passes) ------------
scripts/compare.sh --strategies flat_map,sparse_set "$a" --json "$tmp/r.json" >/dev/null 2>&1 ||
  { echo "  not ok: --strategies flat_map,sparse_set failed" >&2; fail=1; }
expect_json "sparse_set against flat_map: 10 rows, all slower" \
  'len(rows) == 10 and verdicts("sparse_set") == {"slower"} and all(x["baseline"] == "flat_map" for x in rows)'
STRATEGIES=handle_table,floor scripts/compare.sh "$a" "" --json "$tmp/r.json" >/dev/null 2>&1 ||
  { echo "  not ok: STRATEGIES=handle_table,floor with B empty failed" >&2; fail=1; }
expect_json "the floor beats handle_table everywhere" 'verdicts("floor") == {"faster"} and len(rows) == 10'

# ---- bad arguments: exit 2 with a message ---------------------------------------------------
mkdir -p "$tmp/empty" "$tmp/nocsv" "$tmp/badjson" "$tmp/other"
cp "$a/raw.json" "$tmp/nocsv/"
echo '[1, 2' >"$tmp/badjson/raw.json"; cp "$a/results.csv" "$tmp/badjson/"
# A run that shares no row with A: another scenario name.
sed 's/"platformer\//"elsewhere\//; s/"dual_iterate\//"elsewhere2\//' "$a/raw.json" >"$tmp/other/raw.json"
sed 's/^platformer,/elsewhere,/; s/^dual_iterate,/elsewhere2,/' "$a/results.csv" >"$tmp/other/results.csv"
expect2() { # expect2 DESCRIPTION ARGS...
  local what=$1; shift
  scripts/compare.sh "$@" >/dev/null 2>"$tmp/err"
  local rc=$?
  if [ $rc -ne 2 ] || ! grep -q 'error' "$tmp/err"; then
    echo "  not ok: $what: exit $rc, want 2 with a message ($(cat "$tmp/err"))" >&2; fail=1
  fi
}
expect2 "no arguments"
expect2 "missing A" "" "$b"
expect2 "missing B" "$a"
expect2 "missing B (empty)" "$a" ""
expect2 "nonexistent run" "$a" "$tmp/nonexistent"
expect2 "unknown run id" "$a" 19990101T000000Z-nowhere
expect2 "run without raw.json" "$a" "$tmp/empty"
expect2 "run without results.csv" "$tmp/nocsv" "$b"
expect2 "malformed raw.json" "$tmp/badjson" "$b"
expect2 "no rows in common" "$a" "$tmp/other"
expect2 "three runs" "$a" "$b" "$a"
expect2 "unknown option" --frobnicate "$a" "$b"
expect2 "alpha out of range" --alpha 1.5 "$a" "$b"
expect2 "one strategy only" --strategies flat_map "$a"
expect2 "unknown strategy" --strategies flat_map,no_such_strategy "$a"
expect2 "strategies and two runs" --strategies flat_map,sparse_set "$a" "$b"
exit $fail
