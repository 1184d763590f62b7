#!/usr/bin/env bash
# test_plots.sh — scripts/plots.sh on the fixture runs (tests/scripts/fixture_runs.py) draws a PNG
# and an SVG of the overview heat map, the memory chart, and per scenario the time-per-item
# lines (with floor, and limit where the scenario has one), the bars at N = 4000 and the bytes
# per entity against N; names and items come from the run's list.json; a redraw replaces the
# old drawing whole; a failed benchmark is named, never drawn; unusable runs exit 2.
set -u
top=${ECSB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 1
export PYTHON=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d /tmp/test_plots.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # check DESCRIPTION COMMAND...: run the command, report a failure by description
  local what=$1; shift
  "$@" || { echo "  not ok: $what ($*)" >&2; fail=1; }
}
"$PYTHON" tests/scripts/fixture_runs.py "$tmp/runs" || { echo "  not ok: fixture_runs.py failed" >&2; exit 1; }
id=20261101T090000Z-fixture
run=$tmp/runs/$id

# ---- a good run: every file, non-empty, with sane headers ---------------------------------
if ! PLOTS_DIR="$tmp/plots" scripts/plots.sh "$run" >"$tmp/out" 2>&1; then
  echo "  not ok: plots.sh failed on the fixture run:" >&2; cat "$tmp/out" >&2; exit 1
fi
png_ok() { # PNG signature, IHDR width x height
  "$PYTHON" - "$1" "$2" "$3" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read(32)
ok = d[:8] == b"\x89PNG\r\n\x1a\n" and d[12:16] == b"IHDR" and \
    struct.unpack(">II", d[16:24]) == (int(sys.argv[2]), int(sys.argv[3]))
sys.exit(0 if ok else 1)
PY
}
svg_ok() { # well-formed XML whose root is an <svg> of the PNG's size
  "$PYTHON" - "$1" "$2" "$3" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
sys.exit(0 if root.tag.endswith("svg") and root.get("viewBox") == f"0 0 {sys.argv[2]} {sys.argv[3]}" else 1)
PY
}
out=$tmp/plots/$id
for scenario in platformer dual_iterate; do
  for chart in vs_n n4000 memory_vs_n; do
    f="$out/${scenario}_$chart"
    check "PNG header, 1000x640: $f.png" png_ok "$f.png" 1000 640
    check "SVG document, 1000x640: $f.svg" svg_ok "$f.svg" 1000 640
  done
done
# The heat map sizes itself to the matrix (2 scenarios x 4 strategies, 34 px rows) and its
# slanted column names.
check "heat map PNG 760x659" png_ok "$out/overview_heatmap.png" 760 659
check "heat map SVG" svg_ok "$out/overview_heatmap.svg" 760 659
# the memory heat map: its size follows its cells (a PNG and an SVG of the same size)
mem_size=$("$PYTHON" -c 'import struct, sys; print(*struct.unpack(">II", open(sys.argv[1], "rb").read(24)[16:24]))' "$out/memory_n65536.png")
check "memory heat map PNG" png_ok "$out/memory_n65536.png" $mem_size
check "memory heat map SVG" svg_ok "$out/memory_n65536.svg" $mem_size
check "exactly 16 images" test "$(find "$out" -type f \( -name "*.png" -o -name "*.svg" \) | wc -l)" -eq 16
check "and the run's page" test -s "$out/index.html"
check "no staging folder left" test "$(find "$tmp/plots" -mindepth 1 -maxdepth 1 | wc -l)" -eq 1
check "the floor on every time plot" grep -q '>floor (plain arrays)<' "$out/platformer_vs_n.svg"
check "the limit on dual_iterate's time plot" grep -q '>limit (touched data only)<' "$out/dual_iterate_vs_n.svg"
check "the limit among dual_iterate's bars" grep -q '>(touched data only)<' "$out/dual_iterate_n4000.svg"
check "the limit on dual_iterate's memory plot" grep -q '>limit (touched data only)<' "$out/dual_iterate_memory_vs_n.svg"
check "no limit where the scenario has none" test "$(grep -c 'touched data only' "$out/platformer_vs_n.svg")" -eq 0
for s in index_is_id handle_table flat_map sparse_set; do
  check "legend has $s" grep -q ">$s<" "$out/platformer_vs_n.svg"
  check "heat map row $s" grep -q ">$s<" "$out/overview_heatmap.svg"
  check "memory heat map row $s" grep -q ">$s<" "$out/memory_n65536.svg"
done
check "the item from list.json" grep -q 'time per matched pair against N' "$out/dual_iterate_vs_n.svg"
check "cache markers from the run's context" grep -q '>L2 1 MiB<' "$out/dual_iterate_vs_n.svg"
check "cache markers placed by the floor's measured bytes per entity" \
  grep -q "the floor's data (6 B per entity) fills each cache" "$out/dual_iterate_vs_n.svg"
# The bars at N = 4000 (read from results.csv by the plot script): medians and ratios to the floor.
check "bar labels: median and ratio to the floor" grep -q '>0.8 ns · 2.67× floor<' "$out/dual_iterate_n4000.svg"
upright() { grep -A1 -F 'rotate(-90)' "$1" | grep -qF "$2"; } # FILE TEXT: TEXT drawn upright
check "bar labels upright (never reaching the next bar)" \
  upright "$out/dual_iterate_n4000.svg" '>0.8 ns · 2.67× floor<'
check "the floor's bar has no ratio to itself" test "$(grep -c '>1.00× floor<' "$out/dual_iterate_n4000.svg")" -eq 0
check "host and date in the corner" grep -q '2026-11-01 09:00 UTC' "$out/platformer_n4000.svg"
check "bytes per entity against N" grep -q 'bytes per entity after set-up, against N' "$out/platformer_memory_vs_n.svg"

# A redraw replaces the whole drawing: a file the new drawing lacks does not survive.
touch "$out/stale.png"
check "redraw succeeds" env PLOTS_DIR="$tmp/plots" scripts/plots.sh "$run" >/dev/null
check "the redraw replaced the folder" test ! -e "$out/stale.png"
check "the redraw left no staging folder" test "$(find "$tmp/plots" -mindepth 1 -maxdepth 1 | wc -l)" -eq 1

# A failed benchmark (results.csv metric "error") is named on the plots, not drawn.
mkdir -p "$tmp/failed"
cp "$run"/* "$tmp/failed/"
grep -v '^dual_iterate,sparse_set,65536,' "$run/results.csv" >"$tmp/failed/results.csv"
printf 'dual_iterate,sparse_set,65536,error,,,,,,,,5,,,,,\r\n' >>"$tmp/failed/results.csv"
"$PYTHON" - "$tmp/failed/raw.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for b in doc["benchmarks"]:
    if b["run_name"] == "dual_iterate/sparse_set/65536":
        b.update(error_occurred=True, error_message="wrong checksum")
json.dump(doc, open(sys.argv[1], "w"))
PY
if PLOTS_DIR="$tmp/pf" scripts/plots.sh "$tmp/failed" >/dev/null 2>&1; then
  check "a failed benchmark is named on the plot" \
    grep -q 'failed, not drawn (see errors.csv): sparse_set N=65536' "$tmp/pf/failed/dual_iterate_vs_n.svg"
  check "and marked on the memory chart" grep -q '>failed<' "$tmp/pf/failed/memory_n65536.svg"
else
  echo "  not ok: plots.sh failed on a run with a failed benchmark" >&2; fail=1
fi

# gnuplot failing: exit 1, said, nothing published.
GNUPLOT=false PLOTS_DIR="$tmp/pg" scripts/plots.sh "$run" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && grep -q 'error: gnuplot failed' "$tmp/err" || { echo "  not ok: gnuplot failing: exit $rc: $(cat "$tmp/err")" >&2; fail=1; }
check "gnuplot failing publishes nothing" test -z "$(ls -A "$tmp/pg" 2>/dev/null)"

# gnuplot failing on one chart (its script not found): the message names that chart. The
# charts are drawn in a few gnuplot processes, each a batch of charts in turn.
cat >"$tmp/gnuplot-one-fails" <<'SH'
#!/usr/bin/env bash
sed -i 's|/plots/memory_vs_n.gp"$|/plots/no_such_script.gp"|' "$1" && exec gnuplot "$@"
SH
chmod +x "$tmp/gnuplot-one-fails"
GNUPLOT=$tmp/gnuplot-one-fails PLOTS_DIR="$tmp/pg1" scripts/plots.sh "$run" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && grep -q 'error: gnuplot failed on plots/memory_vs_n.gp with .*platformer.memory.vars.gp' "$tmp/err" ||
  { echo "  not ok: one chart failing is named: exit $rc: $(cat "$tmp/err")" >&2; fail=1; }
check "one chart failing publishes nothing" test -z "$(ls -A "$tmp/pg1" 2>/dev/null)"

# ---- unusable runs: exit 2, a message, nothing written ------------------------------------
mkdir -p "$tmp/empty" "$tmp/nocsv" "$tmp/results/.incomplete-x-1"
cp "$run/raw.json" "$tmp/nocsv/"
cp "$run"/* "$tmp/results/.incomplete-x-1/"
expect2() { # expect2 DESCRIPTION ARGS...: plots.sh exits 2 with an error message
  local what=$1; shift
  RESULTS_DIR=$tmp/results PLOTS_DIR="$tmp/p2" scripts/plots.sh "$@" >/dev/null 2>"$tmp/err"
  local rc=$?
  if [ $rc -ne 2 ] || ! grep -q 'error' "$tmp/err"; then
    echo "  not ok: $what: exit $rc, want 2 with a message ($(cat "$tmp/err"))" >&2; fail=1
  fi
}
expect2 "no argument"
expect2 "empty argument" ""
expect2 "two arguments" "$run" "$run"
expect2 "nonexistent run" "$tmp/nonexistent"
expect2 "run without raw.json" "$tmp/empty"
expect2 "run without results.csv" "$tmp/nocsv"
expect2 "a staging folder" "$tmp/results/.incomplete-x-1"
check "nothing published nor staged for unusable runs" test -z "$(ls -A "$tmp/p2" 2>/dev/null)"
exit $fail
