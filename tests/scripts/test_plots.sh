#!/usr/bin/env bash
# test_plots.sh — scripts/plots.sh on the fixture run draws a PNG and an SVG per scenario and
# chart (1000x640 PNGs, SVG documents), publishes only complete files, and rejects unusable
# runs with exit 2.
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
run=tests/fixtures/runs/20261101T090000Z-fixture
id=$(basename "$run")

# ---- a good run: every file, non-empty, with sane headers ---------------------------------
if ! PLOTS_DIR="$tmp/plots" scripts/plots.sh "$run" >"$tmp/out" 2>&1; then
  echo "  not ok: plots.sh failed on the fixture run:" >&2; cat "$tmp/out" >&2; exit 1
fi
png_ok() { # PNG signature, IHDR 1000 x 640
  "$PYTHON" - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read(32)
ok = d[:8] == b"\x89PNG\r\n\x1a\n" and d[12:16] == b"IHDR" and struct.unpack(">II", d[16:24]) == (1000, 640)
sys.exit(0 if ok else 1)
PY
}
svg_ok() { # well-formed XML whose root is an <svg> 1000 x 640
  "$PYTHON" - "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
sys.exit(0 if root.tag.endswith("svg") and root.get("viewBox") == "0 0 1000 640" else 1)
PY
}
for scenario in platformer dual_iterate; do
  for chart in vs_n n4000; do
    f="$tmp/plots/$id/${scenario}_$chart"
    check "non-empty $scenario $chart PNG" test -s "$f.png"
    check "non-empty $scenario $chart SVG" test -s "$f.svg"
    check "PNG header, 1000x640: $f.png" png_ok "$f.png"
    check "SVG document: $f.svg" svg_ok "$f.svg"
  done
done
check "exactly 8 images" test "$(find "$tmp/plots/$id" -type f | wc -l)" -eq 8
check "no staging folder left" test "$(find "$tmp/plots" -mindepth 1 -maxdepth 1 | wc -l)" -eq 1
check "the legend names every strategy and the floor" \
  grep -q 'floor (plain arrays)' "$tmp/plots/$id/dual_iterate_vs_n.svg"
for s in index_is_id handle_table flat_map sparse_set; do
  check "legend has $s" grep -q ">$s<" "$tmp/plots/$id/platformer_vs_n.svg"
done
check "cache markers from the run's context" grep -q 'L2 1 MiB' "$tmp/plots/$id/dual_iterate_vs_n.svg"
check "host and date in the corner" grep -q '2026-11-01 09:00 UTC' "$tmp/plots/$id/platformer_n4000.svg"

# A redraw replaces the images in place.
check "redraw succeeds" env PLOTS_DIR="$tmp/plots" scripts/plots.sh "$run" >/dev/null

# A failed benchmark (results.csv metric "error", CRLF lines as json_to_csv.py writes them) is
# named on the plot, not drawn.
mkdir -p "$tmp/failed"
cp "$run/raw.json" "$tmp/failed/"
sed -e '/^dual_iterate,sparse_set,65536,/d' -e 's/$/\r/' "$run/results.csv" >"$tmp/failed/results.csv"
printf 'dual_iterate,sparse_set,65536,error,,,,,,,,5\r\n' >>"$tmp/failed/results.csv"
if PLOTS_DIR="$tmp/pf" scripts/plots.sh "$tmp/failed" >/dev/null 2>&1; then
  check "a failed benchmark is named on the plot" \
    grep -q 'failed, not drawn (see errors.csv): sparse_set N=65536' "$tmp/pf/failed/dual_iterate_vs_n.svg"
else
  echo "  not ok: plots.sh failed on a run with a failed benchmark" >&2; fail=1
fi

# ---- unusable runs: exit 2, a message, nothing written ------------------------------------
mkdir -p "$tmp/empty" "$tmp/badjson" "$tmp/nocsv" "$tmp/badcsv"
echo '{"context": ' >"$tmp/badjson/raw.json"; cp "$run/results.csv" "$tmp/badjson/"
cp "$run/raw.json" "$tmp/nocsv/"
cp "$run/raw.json" "$tmp/badcsv/"; printf 'scenario,strategy\nx,y\n' >"$tmp/badcsv/results.csv"
expect2() { # expect2 DESCRIPTION ARGS...: plots.sh exits 2 with an error message
  local what=$1; shift
  PLOTS_DIR="$tmp/p2" scripts/plots.sh "$@" >/dev/null 2>"$tmp/err"
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
expect2 "malformed raw.json" "$tmp/badjson"
expect2 "run without results.csv" "$tmp/nocsv"
expect2 "malformed results.csv" "$tmp/badcsv"
check "nothing published nor staged for unusable runs" test -z "$(ls -A "$tmp/p2" 2>/dev/null)"
exit $fail
