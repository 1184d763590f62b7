#!/usr/bin/env bash
# test_memcheck.sh — the real binary under valgrind's memcheck: one `ecsbench bench` process
# per registered strategy (the floor, and the limit where a scenario has one, run in each), so
# every scenario x strategy pair is prepared, checked against the floor's checksum, timed in
# repetitions and in batches of fresh worlds, and released, at two small sizes, through the
# Google Benchmark wrapper. Each process must report 0 errors and 0 bytes definitely lost,
# exit 0 (a wrong checksum is an error row and exit 1) and write a row for every scenario on
# its strategy and the floor. One valgrind process per strategy, not per pair: valgrind's
# start-up was most of the cost when it ran 160 times. Two at a time. A control (a program
# that leaks and reads out of bounds) must fail.
# Environment: BUILD (folder holding ecsbench), PYTHON, ECSB_MEMCHECK_SIZES (default 3,257).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${BUILD:-build}/ecsbench
case $bin in /*) ;; *) bin=$top/$bin ;; esac
PYTHON=${PYTHON:-/usr/bin/python3}
[ -x "$bin" ] || { echo "test_memcheck: $bin missing; run make build/ecsbench" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "test_memcheck: valgrind missing: sudo apt-get install -y valgrind" >&2; exit 1; }
sizes=${ECSB_MEMCHECK_SIZES:-3,257}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# memcheck CMD...: CMD under memcheck; exit 99 on any error or definite leak.
memcheck() {
  valgrind --tool=memcheck --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
    --show-leak-kinds=definite --quiet "$@"
}
# memcheck_bench STRATEGY: the suite on that strategy, into $tmp/STRATEGY.{json,log,err,rc}
memcheck_bench() {
  memcheck --log-file="$tmp/$1.log" "$bin" bench --ecsb_strategies="$1" --ecsb_sizes="$sizes" \
    --benchmark_repetitions=2 --benchmark_min_time=0.0005 --ecsb_progress=off \
    --benchmark_out="$tmp/$1.json" >/dev/null 2>"$tmp/$1.err"
  echo $? >"$tmp/$1.rc"
}
export -f memcheck memcheck_bench
export bin sizes tmp

strategies=$("$bin" list | awk '$1 == "strategy" { print $2 }')
scenarios=$("$bin" list | awk '$1 == "scenario" { print $2 }' | paste -sd' ')
count=$(wc -w <<<"$strategies")
[ "$count" -ge 3 ] || { echo "test_memcheck: only $count strategies listed" >&2; exit 1; }

# missing JSON STRATEGY SCENARIO...: the scenario/implementation pairs with no good row
missing() {
  "$PYTHON" -c '
import json, sys
doc = json.load(open(sys.argv[1]))
ran = {tuple(b["name"].split("/")[:2]) for b in doc["benchmarks"]
       if b.get("run_type") == "iteration" and not b.get("error_occurred")}
print(" ".join(f"{s}/{i}" for s in sys.argv[3:] for i in (sys.argv[2], "floor") if (s, i) not in ran))
' "$@"
}

failures=0
printf '%s\n' $strategies | xargs -P 2 -I{} bash -c 'memcheck_bench "$1"' _ {}
for st in $strategies; do
  rc=$(cat "$tmp/$st.rc" 2>/dev/null || echo missing)
  if [ "$rc" != 0 ]; then
    echo "  FAIL: valgrind $bin bench --ecsb_strategies=$st --ecsb_sizes=$sizes ...: exit $rc" >&2
    sed 's/^/    /' "$tmp/$st.log" "$tmp/$st.err" | head -n 30 >&2
    failures=$((failures + 1))
    continue
  fi
  gone=$(missing "$tmp/$st.json" "$st" $scenarios)
  [ -z "$gone" ] || { echo "  FAIL: under valgrind, bench on $st has no good row for: $gone" >&2; failures=$((failures + 1)); }
done
echo "  memcheck: $count bench processes (every scenario, sizes $sizes), $failures failed"

# control: the same options catch a definite leak and an invalid read
cat >"$tmp/leak.c" <<'EOF'
#include <stdlib.h>
int main(void) { char *p = malloc(64); p[0] = 1; p = NULL; int *q = malloc(4); int v = q[1]; free(q); return v & 0; }
EOF
if ${CC:-cc} -g -O0 -o "$tmp/leak" "$tmp/leak.c" 2>/dev/null; then
  memcheck --log-file="$tmp/leak.log" "$tmp/leak" >/dev/null 2>&1
  [ $? -eq 99 ] || { echo "  FAIL control: memcheck did not fail a program that leaks and reads out of bounds" >&2; failures=$((failures + 1)); }
else
  echo "  FAIL control: cannot compile the leaking program" >&2
  failures=$((failures + 1))
fi

[ "$failures" -eq 0 ]
