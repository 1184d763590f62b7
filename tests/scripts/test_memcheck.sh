#!/usr/bin/env bash
# test_memcheck.sh — the real binary under valgrind's memcheck: `ecsbench run` for every
# scenario x (floor, limit where there is one, every registered strategy) at a small N, two
# passes (so a scenario that consumes its set-up prepares, passes and releases twice), must
# report 0 errors and 0 bytes definitely lost, and print the floor's checksum; so must a small
# `ecsbench bench`. Two at a time (the machine has 2 cores): about a minute. A control (a
# program that leaks and reads out of bounds) must fail.
# Environment: BUILD (folder holding ecsbench), ECSB_MEMCHECK_N (default 257).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${BUILD:-build}/ecsbench
case $bin in /*) ;; *) bin=$top/$bin ;; esac
[ -x "$bin" ] || { echo "test_memcheck: $bin missing; run make build/ecsbench" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "test_memcheck: valgrind missing: sudo apt-get install -y valgrind" >&2; exit 1; }
n=${ECSB_MEMCHECK_N:-257}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# memcheck CMD...: CMD under memcheck; exit 99 on any error or definite leak.
memcheck() {
  valgrind --tool=memcheck --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
    --show-leak-kinds=definite --quiet "$@"
}
# memcheck_run SCENARIO IMPL: into $tmp/SCENARIO.IMPL.{out,log,rc}
memcheck_run() {
  memcheck --log-file="$tmp/$1.$2.log" "$bin" run "$1" "$2" "$n" 2 >"$tmp/$1.$2.out" 2>&1
  echo $? >"$tmp/$1.$2.rc"
}
export -f memcheck memcheck_run
export bin n tmp

jobs=()
limited=$("$bin" list --json | sed -n 's/.*"name": "\([a-z0-9_]*\)".*"has_limit": true.*/\1/p')
for sc in $("$bin" list | awk '$1 == "scenario" { print $2 }'); do
  impls="floor $("$bin" list | awk '$1 == "strategy" { print $2 }' | paste -sd' ')"
  grep -qx "$sc" <<<"$limited" && impls="$impls limit"
  for st in $impls; do jobs+=("$sc $st"); done
done
[ ${#jobs[@]} -ge 10 ] || { echo "test_memcheck: only ${#jobs[@]} scenario x strategy pairs found" >&2; exit 1; }

failures=0
printf '%s\n' "${jobs[@]}" | xargs -P 2 -L 1 bash -c 'memcheck_run "$@"' _
for job in "${jobs[@]}"; do
  read -r sc st <<<"$job"
  rc=$(cat "$tmp/$sc.$st.rc" 2>/dev/null || echo missing)
  if [ "$rc" != 0 ]; then
    echo "  FAIL: valgrind $bin run $sc $st $n 2: exit $rc" >&2
    sed 's/^/    /' "$tmp/$sc.$st.log" "$tmp/$sc.$st.out" | head -n 30 >&2
    failures=$((failures + 1))
    continue
  fi
  floor=$(cat "$tmp/$sc.floor.out")
  [ "$(cut -d' ' -f1 "$tmp/$sc.$st.out")" = "${floor%% *}" ] ||
    { echo "  FAIL: under valgrind, $sc $st printed $(cat "$tmp/$sc.$st.out"), floor ${floor%% *}" >&2; failures=$((failures + 1)); }
done
echo "  memcheck: ${#jobs[@]} runs at N = $n, $failures failed"

# the suite itself (checks, calibration, batches of fresh worlds, the Google Benchmark wrapper)
if ! memcheck --log-file="$tmp/bench.log" "$bin" bench --ecsb_sizes=3,40 --benchmark_repetitions=2 \
  --benchmark_min_time=0.0005 --ecsb_progress=off --benchmark_out="$tmp/bench.json" >/dev/null 2>"$tmp/bench.err"; then
  echo "  FAIL: valgrind $bin bench --ecsb_sizes=3,40 ...:" >&2
  sed 's/^/    /' "$tmp/bench.log" "$tmp/bench.err" | head -n 30 >&2
  failures=$((failures + 1))
fi

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
