#!/usr/bin/env bash
# test_compare.sh — scripts/compare.sh on the two fixture runs (tests/scripts/fixture_runs.py: B =
# A with flat_map x 0.6 and handle_table x 1.5, everything else the same medians) gives those
# verdicts, shown as "1.67x faster" / "1.50x slower", and the expected geometric mean; the U
# test's p-values are Holm-corrected (a lone p = 0.024 among 55 rows is within noise); runs
# made on different CPUs or caches are flagged; too few repetitions for any verdict are
# flagged; the two runs' verdicts between layouts (scripts/ecsb_stats.py, its family sentence
# printed verbatim) are compared: 6 contradictions (index_is_id against flat_map, which B made
# faster) and, counted apart, 2 disagreements (faster in A; level, undecidable in B), none for a
# run against itself, and the share of wide lines per run; comparing
# strategies inside one run uses the same verdicts; bad arguments exit 2.
set -u
top=${ECSB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 1
export PYTHON=${PYTHON:-/usr/bin/python3}
unset STRATEGIES
tmp=$(mktemp -d /tmp/test_compare.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export COMPARE_PLOTS_DIR=$tmp/cplots  # heat maps go here, never into the repository
fail=0
"$PYTHON" tests/scripts/fixture_runs.py "$tmp/runs" || { echo "  not ok: fixture_runs.py failed" >&2; exit 1; }
a=$tmp/runs/20261101T090000Z-fixture
b=$tmp/runs/20261102T090000Z-fixture

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
expect_out() { # expect_out DESCRIPTION EXTENDED-REGEX: a line of $tmp/out matches
  grep -Eq -- "$2" "$tmp/out" || { echo "  not ok: $1 (no line matches /$2/)" >&2; fail=1; }
}

# ---- run B against run A --------------------------------------------------------------------
if ! scripts/compare.sh "$a" "$b" --json "$tmp/r.json" >"$tmp/out" 2>"$tmp/err"; then
  echo "  not ok: compare A B failed:" >&2; cat "$tmp/err" >&2; exit 1
fi
expect_json "55 rows: 2 scenarios x (floor, limit on dual_iterate, 4 strategies) x 5 sizes" 'len(rows) == 55'
expect_json "flat_map (x 0.6) is faster everywhere" 'verdicts("flat_map") == {"faster"}'
expect_json "handle_table (x 1.5) is slower everywhere" 'verdicts("handle_table") == {"slower"}'
expect_json "index_is_id is within noise" 'verdicts("index_is_id") == {"within noise"}'
expect_json "sparse_set is within noise" 'verdicts("sparse_set") == {"within noise"}'
expect_json "the floor and limit are within noise" 'verdicts("floor") == verdicts("limit") == {"within noise"}'
expect_json "ratios 0.6 and 1.5 exactly" \
  'all(abs(x["ratio"] - {"flat_map": 0.6, "handle_table": 1.5}.get(x["strategy"], 1.0)) < 1e-4 for x in rows)'
expect_json "significant rows have a Holm-adjusted p < 0.05" \
  'all(x["p_holm"] < 0.05 for x in rows if x["verdict"] in ("faster", "slower"))'
expect_json "Holm never lowers a p-value" 'all(x["p_holm"] >= x["p"] for x in rows) and r["correction"] == "holm"'
expect_json "geometric mean (0.6 * 1.5) ** (1/4) over the 40 rows without floor and limit" \
  'abs(r["summary"]["geomean"] - 0.9 ** 0.25) < 1e-4 and r["summary"]["geomean_rows"] == 40'
expect_json "the floor did not move" 'abs(r["summary"]["floor_geomean"] - 1) < 0.01'
expect_json "counts" 'r["summary"]["verdicts"] == {"faster": 10, "slower": 10, "within noise": 35, "too few repetitions": 0, "untested": 0}'
expect_json "same machine: nothing flagged" 'r["summary"]["machine_differences"] == []'
# its picture: B ÷ A per strategy and scenario, black where a size changed, grey where none did
heat=$tmp/cplots/20261101T090000Z-fixture_vs_20261102T090000Z-fixture
for f in compare_heatmap.png compare_heatmap.svg; do
  [ -s "$heat/$f" ] || { echo "  not ok: compare A B drew no $f" >&2; fail=1; }
done
expect_out "it says where the heat map is" "^heat map of B ÷ A: $heat/compare_heatmap.png"
"$PYTHON" - "$heat/compare_heatmap.dat" "$heat/compare_heatmap.vars.gp" <<'PY' || { echo "  not ok: the heat map's cells" >&2; fail=1; }
import re, sys
rows = [l.split() for l in open(sys.argv[1]) if l[0].isdigit() and not l.startswith("1e9")]
names = re.search(r'row_names\[\d+\] = \[(.*)\]', open(sys.argv[2]).read()).group(1)
names = [n.strip(' "') for n in names.split(",")]
cell = {(int(r[0]), names[int(r[1])]): (float(r[2]), r[3], int(r[4])) for r in rows}
want = {"flat_map": ("0.60", 0xFFFFFF), "handle_table": ("1.50", 0x111111),
        "index_is_id": ("1.00", 0x8a8a8a), "floor": ("1.00", 0x8a8a8a)}
bad = [(x, st, cell.get((x, st))) for x in (0, 1) for st, (text, colour) in want.items()
       if cell.get((x, st), (0, "", 0))[1:] != ('"%s"' % text, colour)]
assert names[-2:] == ["floor", "limit"], names
assert not bad, bad
PY
expect_out "the correction is named" '^p = two-sided Mann-Whitney U test over the repetitions, Holm-corrected for multiple comparisons over the 55 tested rows$'
expect_out "an aligned table row with the change as a factor" \
  '^dual_iterate +flat_map +4000 +1\.400 +0\.840 +1\.67x faster +0\.00[0-9] +faster$'
expect_out "slower as a factor" '^platformer +handle_table +256 +6\.000 +9\.000 +1\.50x slower +0\.00[0-9] +slower$'
expect_out "the overall geometric mean as a factor" \
  '^geometric mean of the changes, all 40 rows \(floor and limit excluded\): 1\.03x faster$'
if grep -Eq '[0-9] ?% (faster|slower)' "$tmp/out"; then
  echo "  not ok: a change is still shown in per cent: $(grep -E '% (faster|slower)' "$tmp/out" | head -1)" >&2; fail=1
fi
grep -q WARNING "$tmp/out" && { echo "  not ok: same machine flagged as different" >&2; fail=1; }
family=$("$PYTHON" -c 'import sys; sys.path.insert(0, "scripts"); import ecsb_stats; print(ecsb_stats.FAMILY)')
grep -Fxq -- "$family" "$tmp/out" || { echo "  not ok: compare A B does not print the family sentence verbatim" >&2; fail=1; }
expect_out "the contradictions counted" '^contradictions \(\*faster\* one way in A, the other way in B\): 6$'
expect_out "a contradiction named" '^  platformer N=256: A says index_is_id faster \(1\.14x\), B says flat_map faster \(1\.47x\)$'
expect_out "the one in dual_iterate" '^  dual_iterate N=4194304: A says index_is_id faster \(1\.54x\), B says flat_map faster \(1\.09x\)$'
expect_out "pairs and agreements" '^cells in both runs: 10; pairs of layouts: 60; the same verdict in both: 52; \*level\* in one, \*undecidable\* in the other: 0$'
expect_out "the disagreements counted apart" '^disagreements \(\*faster\* in one run, not in the other\): 2 \(1 \*level\* in the other, 1 \*undecidable\*\)$'
expect_out "a disagreement named" '^  dual_iterate N=256 index_is_id vs flat_map: A says index_is_id faster, B says level$'
expect_json "disagreements in the JSON" 'r["summary"]["agreement"]["disagreements"] == {"level": 1, "undecidable": 1}'
expect_out "no wide lines" '^lines whose repetitions spread over 1\.4x: A 0 of 55 \(0\.0 %\), B 0 of 55 \(0\.0 %\)$'
expect_json "contradictions in the JSON" 'len(r["summary"]["agreement"]["contradictions"]) == 6'

# Same run against itself: nothing changes.
scripts/compare.sh "$a" "$a" --json "$tmp/r.json" >/dev/null 2>&1 ||
  { echo "  not ok: compare A A failed" >&2; fail=1; }
expect_json "a run against itself: all within noise, geomean 1" \
  'r["summary"]["verdicts"]["within noise"] == 55 and abs(r["summary"]["geomean"] - 1) < 1e-9'
expect_json "a run against itself: no contradiction, every decided pair agrees" \
  'r["summary"]["agreement"]["contradictions"] == [] and sum(r["summary"]["agreement"]["disagreements"].values()) == 0'

# ---- Holm: a lone p = 0.024 (6 % slower, samples overlapping) among 55 rows is noise --------
cp -r "$a" "$tmp/holm_a" && cp -r "$a" "$tmp/holm_b"
"$PYTHON" - "$tmp/holm_a" "$tmp/holm_b" <<'PY' || fail=1
import sys
sys.path.insert(0, "tests/scripts")
from fakes import replace_samples
base = [1.00 + 0.02 * i for i in range(9)]
replace_samples(sys.argv[1], "dual_iterate", "sparse_set", 4000, base)
replace_samples(sys.argv[2], "dual_iterate", "sparse_set", 4000, [x + 0.065 for x in base])
PY
scripts/compare.sh "$tmp/holm_a" "$tmp/holm_b" --json "$tmp/r.json" >/dev/null 2>&1 ||
  { echo "  not ok: compare of the Holm pair failed" >&2; fail=1; }
expect_json "the crafted row: raw p 0.024, 6 % slower" \
  '[(round(x["p"], 3), round(x["ratio"], 2)) for x in rows if x["strategy"] == "sparse_set" and x["n"] == 4000 and x["scenario"] == "dual_iterate"] == [(0.024, 1.06)]'
expect_json "after Holm's correction it is within noise, not slower" \
  '[x["verdict"] for x in rows if x["p"] < 0.05 and x["strategy"] == "sparse_set"] == ["within noise"]'
expect_json "its repetitions spread 1.16x: no wide line" 'r["summary"]["agreement"]["wide"]["B"] == [0, 55]'
"$PYTHON" - "$tmp/holm_b" <<'PY' || fail=1
import sys
sys.path.insert(0, "tests/scripts")
from fakes import replace_samples
replace_samples(sys.argv[1], "dual_iterate", "sparse_set", 4000, [1.0, 1.2, 1.3, 1.4, 1.5])
PY
scripts/compare.sh "$tmp/holm_a" "$tmp/holm_b" >"$tmp/out" 2>&1 || { echo "  not ok: compare with a wide line failed" >&2; fail=1; }
expect_out "one wide line in B" '^lines whose repetitions spread over 1\.4x: A 0 of 55 \(0\.0 %\), B 1 of 55 \(1\.8 %\)$'

# ---- different machines are flagged ---------------------------------------------------------
cp -r "$b" "$tmp/other_cpu"
"$PYTHON" - "$tmp/other_cpu" <<'PY' || fail=1
import json, sys
sys.path.insert(0, "tests/scripts")
from fakes import write_run
d = sys.argv[1]
doc = json.load(open(d + "/raw.json"))
doc["context"]["ecsb_cpu_model"] = "Intel(R) Xeon(R) Processor @ 2.50GHz"
doc["context"]["caches"][2]["size"] = 2097152
write_run(d, json.load(open(d + "/list.json")), doc["context"], doc["benchmarks"])
PY
scripts/compare.sh "$a" "$tmp/other_cpu" --json "$tmp/r.json" >"$tmp/out" 2>&1 ||
  { echo "  not ok: compare across machines failed" >&2; fail=1; }
expect_out "different machines: a warning first" '^WARNING: A and B ran on different machines'
expect_out "the CPUs named" '^  CPU: A AMD EPYC 9R14 96-Core Processor, B Intel\(R\) Xeon\(R\) Processor @ 2\.50GHz$'
expect_out "the caches named" '^  caches: A L1d 32 KiB, L2 1024 KiB, L3 36608 KiB; B L1d 32 KiB, L2 2048 KiB, L3 36608 KiB$'
expect_json "different machines in the JSON" 'len(r["summary"]["machine_differences"]) == 2'
expect_json "same build: nothing flagged" 'r["summary"]["build_differences"] == []'

# ---- runs built with another compiler or Google Benchmark: a warning naming them -------------
mkdir -p "$tmp/other_build"
cp "$a"/* "$tmp/other_build/"
"$PYTHON" - "$tmp/other_build" <<'PY'
import json, sys
sys.path.insert(0, "tests/scripts")
from fakes import write_run
d = sys.argv[1]
doc = json.load(open(d + "/raw.json"))
doc["context"]["ecsb_compiler"] = "clang 14.0.6"
doc["context"]["ecsb_gbench_version"] = "1.9.1"
write_run(d, json.load(open(d + "/list.json")), doc["context"], doc["benchmarks"])
PY
scripts/compare.sh "$a" "$tmp/other_build" --json "$tmp/r.json" >"$tmp/out" 2>&1 ||
  { echo "  not ok: compare across builds failed" >&2; fail=1; }
expect_out "different builds: a warning" '^WARNING: A and B were built differently'
expect_out "the compilers named" '^  C compiler: A gcc 12\.2\.0, B clang 14\.0\.6$'
expect_out "the Google Benchmark versions named" '^  Google Benchmark: A 1\.7\.1, B 1\.9\.1$'
expect_json "different builds in the JSON" 'len(r["summary"]["build_differences"]) == 2'

# ---- too few repetitions for any verdict: said so -------------------------------------------
for run in few_a few_b; do
  mkdir -p "$tmp/$run"
  tests/scripts/fakes.py list --json >"$tmp/$run/list.json"
  tests/scripts/fakes.py bench --ecsb_run_id=$run --benchmark_repetitions=3 \
    --benchmark_out="$tmp/$run/raw.json" >/dev/null
  "$PYTHON" scripts/json_to_csv.py "$tmp/$run/raw.json" -o "$tmp/$run/results.csv"
done
scripts/compare.sh "$tmp/few_a" "$tmp/few_b" --json "$tmp/r.json" >"$tmp/out" 2>&1 || { echo "  not ok: compare of 3-repetition runs failed" >&2; fail=1; }
expect_json "3 repetitions: every row says so, none says within noise" 'verdicts("alpha") == {"too few repetitions"}'
expect_out "3 repetitions: no verdict possible, and it says so" \
  '^NOTE: with 3 repetitions the U test cannot give p below 0\.1; after Holm.s correction over [0-9]+ rows no row can be called faster or slower'

# ---- two strategies inside one run (flag, and the STRATEGIES variable make passes) ------------
scripts/compare.sh --strategies flat_map,sparse_set "$a" --json "$tmp/r.json" >"$tmp/out" 2>&1 ||
  { echo "  not ok: --strategies flat_map,sparse_set failed" >&2; fail=1; }
expect_json "sparse_set against flat_map: 10 rows, all slower" \
  'len(rows) == 10 and verdicts("sparse_set") == {"slower"} and all(x["baseline"] == "flat_map" for x in rows)'
grep -Fxq -- "$family" "$tmp/out" || { echo "  not ok: compare --strategies does not print the family sentence" >&2; fail=1; }
expect_out "strategies: the change column names both" '^scenario +N +flat_map ns +sparse_set ns +sparse_set vs flat_map +p \(BH\) +verdict$'
STRATEGIES=handle_table,floor scripts/compare.sh "$a" "" --json "$tmp/r.json" >/dev/null 2>&1 ||
  { echo "  not ok: STRATEGIES=handle_table,floor with B empty failed" >&2; fail=1; }
expect_json "the floor beats handle_table everywhere" 'verdicts("floor") == {"faster"} and len(rows) == 10'

# ---- bad arguments: exit 2 with a message ---------------------------------------------------
mkdir -p "$tmp/empty" "$tmp/nocsv" "$tmp/other" "$tmp/results/.incomplete-x-1" "$tmp/results/hyperfine/20261101T090000Z-vm"
cp "$a/raw.json" "$tmp/nocsv/"
cp "$a"/* "$tmp/results/.incomplete-x-1/"
echo "hyperfine output" >"$tmp/results/hyperfine/20261101T090000Z-vm/summary.md"
# A run that shares no row with A: another scenario name.
sed 's/"platformer\//"elsewhere\//; s/"dual_iterate\//"elsewhere2\//' "$a/raw.json" >"$tmp/other/raw.json"
sed 's/^platformer,/elsewhere,/; s/^dual_iterate,/elsewhere2,/' "$a/results.csv" >"$tmp/other/results.csv"
expect2() { # expect2 DESCRIPTION ARGS...
  local what=$1; shift
  RESULTS_DIR=$tmp/results scripts/compare.sh "$@" >/dev/null 2>"$tmp/err"
  local rc=$?
  if [ $rc -ne 2 ] || ! grep -q 'error' "$tmp/err" || grep -q Traceback "$tmp/err"; then
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
expect2 "no rows in common" "$a" "$tmp/other"
expect2 "three runs" "$a" "$b" "$a"
expect2 "unknown option" --frobnicate "$a" "$b"
expect2 "alpha out of range" --alpha 1.5 "$a" "$b"
expect2 "one strategy only" --strategies flat_map "$a"
expect2 "unknown strategy" --strategies flat_map,no_such_strategy "$a"
expect2 "strategies and two runs" --strategies flat_map,sparse_set "$a" "$b"
expect2 "a staging folder is not a run" "$a" "$tmp/results/.incomplete-x-1"
grep -q 'staging folder of an unfinished' "$tmp/err" || { echo "  not ok: staging folder: no reason given" >&2; fail=1; }
expect2 "a hyperfine output is not a run" "$a" "$tmp/results/hyperfine/20261101T090000Z-vm"
grep -q 'make hyperfine output, not a make bench run' "$tmp/err" || { echo "  not ok: hyperfine output: no reason given" >&2; fail=1; }
grep -q 'runs in .*results/: )' "$tmp/err" ||
  { echo "  not ok: the list of runs offers the hyperfine or staging folders: $(cat "$tmp/err")" >&2; fail=1; }
exit $fail
