#!/usr/bin/env bash
# test_damaged_runs.sh — a run folder whose raw.json, results.csv or list.json is truncated,
# empty, garbage or the wrong shape, handed to make plots (plots.sh) or make compare
# (compare.sh; as B too, and summary.py, for one damage of each file): exit 2 with a message
# that names the file, never a Python traceback, and nothing drawn.
set -u
top=${ECSB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 1
export PYTHON=${PYTHON:-/usr/bin/python3}
unset STRATEGIES
tmp=$(mktemp -d /tmp/test_damaged.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
"$PYTHON" tests/scripts/fixture_runs.py "$tmp/runs" || { echo "  not ok: fixture_runs.py failed" >&2; exit 1; }
good=$tmp/runs/20261101T090000Z-fixture

# damage NAME FILE PYTHON-EXPRESSION: a copy of the good run whose FILE becomes the bytes the
# expression gives (`b` holds the file's bytes).
damage() {
  local dir=$tmp/$1
  cp -r "$good" "$dir"
  "$PYTHON" - "$dir/$2" "$3" <<'PY'
import sys
path, expr = sys.argv[1], sys.argv[2]
b = open(path, "rb").read()
open(path, "wb").write(eval(expr))
PY
}
damage raw_half raw.json 'b[: len(b) // 2]'
damage raw_empty raw.json 'b""'
damage raw_garbage raw.json 'bytes(range(256)) * 8'
damage raw_list raw.json 'b"[]"'
damage raw_shape raw.json 'b"{\"context\": 1, \"benchmarks\": []}"'
damage raw_time raw.json 'b.replace(b"\"real_time\": ", b"\"real_time\": \"x\" or ", 1).replace(b"\"x\" or ", b"\"x\", \"was\": ", 1)'
damage raw_name raw.json 'b.replace(b"\"run_name\": \"platformer/", b"\"run_name\": \"plat former/", 1)'
damage csv_mid_line results.csv 'b[: len(b) // 2]'
damage csv_line_boundary results.csv 'b[: b.rindex(b"\r\n", 0, len(b) // 2) + 2]'
damage csv_empty results.csv 'b""'
damage csv_garbage results.csv 'bytes(range(256)) * 8'
damage csv_number results.csv 'b.replace(b",time_per_item,ns,", b",time_per_item,ns,x", 1)'
damage csv_negative results.csv 'b.replace(b",time_per_item,ns,", b",time_per_item,ns,-", 1)'
damage list_half list.json 'b[: len(b) // 2]'
damage list_shape list.json 'b"{\"strategies\": 3}"'

no_traceback() { ! grep -q Traceback "$tmp/err"; }
for kind in raw_half raw_empty raw_garbage raw_list raw_shape raw_time raw_name csv_mid_line \
            csv_line_boundary csv_empty csv_garbage csv_number csv_negative list_half list_shape; do
  file=$(case $kind in raw_*) echo raw.json ;; csv_*) echo results.csv ;; *) echo list.json ;; esac)
  tools="plots compare-a"
  case $kind in raw_half | csv_mid_line | list_half) tools="$tools compare-b summary" ;; esac
  for tool in $tools; do
    case $tool in
      plots) PLOTS_DIR=$tmp/plots scripts/plots.sh "$tmp/$kind" >/dev/null 2>"$tmp/err" ;;
      compare-a) scripts/compare.sh "$tmp/$kind" "$good" >/dev/null 2>"$tmp/err" ;;
      compare-b) scripts/compare.sh "$good" "$tmp/$kind" >/dev/null 2>"$tmp/err" ;;
      summary) "$PYTHON" scripts/summary.py "$tmp/$kind" >/dev/null 2>"$tmp/err" ;;
    esac
    rc=$?
    if [ $rc -ne 2 ] || ! grep -q "error" "$tmp/err" || ! grep -q "$file" "$tmp/err" || ! no_traceback; then
      echo "  not ok: $tool on $kind: exit $rc, want 2 and a message naming $file:" >&2
      sed 's/^/    /' "$tmp/err" | tail -n 4 >&2
      fail=1
    fi
  done
done
[ -z "$(ls -A "$tmp/plots" 2>/dev/null)" ] || { echo "  not ok: plots drawn for a damaged run: $(ls -A "$tmp/plots")" >&2; fail=1; }
exit $fail
