#!/usr/bin/env bash
# run_all.sh — every script-level test: tests/scripts/test_*.sh (each exits 0 on success) and
# the Python unittest modules tests/scripts/test_*.py. Prints one "N passed, N failed" line.
# Environment: PYTHON (Debian's python3), BUILD (the build folder holding ecsbench).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
export PYTHON=${PYTHON:-/usr/bin/python3} BUILD=${BUILD:-build} ECSB_TOP=$top
cd "$top"
passed=0 failed=0
for t in "$here"/test_*.sh; do
  [ -e "$t" ] || continue
  if "$t"; then echo "PASS $(basename "$t")"; passed=$((passed + 1))
  else echo "FAIL $(basename "$t")"; failed=$((failed + 1)); fi
done
if ls "$here"/test_*.py >/dev/null 2>&1; then
  if "$PYTHON" -m unittest discover -s "$here" -p 'test_*.py' -t "$here"; then
    echo "PASS python unittest"; passed=$((passed + 1))
  else echo "FAIL python unittest"; failed=$((failed + 1)); fi
fi
echo "scripts: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
