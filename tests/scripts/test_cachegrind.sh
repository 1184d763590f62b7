#!/usr/bin/env bash
# test_cachegrind.sh — scripts/cachegrind.sh counts instructions and simulated cache misses
# inside the timed pass only, per item, into results/cachegrind/<id>/ (apart from the make
# bench runs), taking SCENARIOS / STRATEGIES / SIZES: a tiny real run writes the CSV
# and summary with sane figures (every count per item > 0 for instructions, the floor below
# every strategy on platformer, total = per_item x items_per_pass), a second run gives the very
# same instruction counts, a strategy whose checksum differs from the floor's stops the run
# before any counting (exit 1, nothing published), and bad arguments exit 2 with a message.
# Skipped (exit 0, with a message) when valgrind is not installed, or the binary does not speak
# `list --json` and `bench` yet (CONTRACT.md).
set -u
top=${ECSB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 1
bin=${BUILD:-build}/ecsbench
case $bin in /*) ;; *) bin=$top/$bin ;; esac
py=${PYTHON:-/usr/bin/python3}
if ! command -v valgrind >/dev/null; then
  echo "  skip: valgrind is not installed (sudo apt-get install valgrind); cachegrind.sh untested" >&2
  exit 0
fi
[ -x "$bin" ] || { echo "  not ok: $bin missing; run make build/ecsbench" >&2; exit 1; }
if ! "$bin" list --json >/dev/null 2>&1; then
  echo "  skip: $bin does not speak 'list --json' yet (CONTRACT.md); cachegrind.sh untested" >&2
  exit 0
fi
tmp=$(mktemp -d /tmp/test_cachegrind.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
unset SIZES SCENARIOS STRATEGIES CACHEGRIND_PASSES CACHEGRIND_D1 CACHEGRIND_LL
tiny=("SIZES=256" "SCENARIOS=platformer" "STRATEGIES=sparse_set,flat_map")

# the_run DIR: the one published run folder in DIR/cachegrind (fails the test otherwise).
the_run() {
  local runs
  runs=$(ls -A "$1/cachegrind" 2>/dev/null)
  if [ "$(wc -w <<<"$runs")" -ne 1 ] || [[ $runs == .incomplete* ]] || [ "$(ls -A "$1")" != cachegrind ]; then
    echo "  not ok: want one published run in $1/cachegrind and nothing beside, found: $runs" >&2; fail=1; return 1
  fi
  echo "$1/cachegrind/$runs"
}

# ---- a tiny real run: files, figures ----------------------------------------------------------
if env "${tiny[@]}" RESULTS_DIR="$tmp/r1" scripts/cachegrind.sh "$bin" >"$tmp/out1" 2>&1 &&
   run1=$(the_run "$tmp/r1"); then
  for f in summary.md cachegrind.csv checksums.txt items.tsv manifest.tsv \
           raw/platformer.floor.n256.p1.callgrind.out raw/platformer.flat_map.n256.p3.callgrind.out; do
    [ -s "$run1/$f" ] || { echo "  not ok: $run1/$f missing or empty" >&2; fail=1; }
  done
  grep -q 'not this CPU' "$run1/summary.md" ||
    { echo "  not ok: summary.md does not say the cache model is not this CPU" >&2; fail=1; }
  grep -q '^| flat_map | ' "$tmp/out1" ||
    { echo "  not ok: the table is not printed on the terminal:" >&2; cat "$tmp/out1" >&2; fail=1; }
  "$py" - "$run1/cachegrind.csv" <<'PY' || fail=1
import csv, sys
path = sys.argv[1]
raw = open(path, "rb").read()
problems = []
if not raw.startswith(b"scenario,strategy,n,metric,per_item,total,items_per_pass\r\n"):
    problems.append("header is not scenario,strategy,n,metric,per_item,total,items_per_pass (CRLF)")
rows = list(csv.DictReader(open(path, newline="")))
cells = {(r["strategy"], r["metric"]): r for r in rows}
strategies = ["floor", "sparse_set", "flat_map"]
if sorted({r["strategy"] for r in rows}) != sorted(strategies):
    problems.append(f"strategies {sorted({r['strategy'] for r in rows})}, want {strategies}")
for r in rows:
    per_item, total, items = float(r["per_item"]), float(r["total"]), int(r["items_per_pass"])
    if r["scenario"] != "platformer" or r["n"] != "256" or items != 5 * 256:
        problems.append(f"row {r}: want platformer, N = 256, 1280 items per pass")
    if per_item < 0 or abs(per_item * items - total) > 1e-5 * max(total, 1):
        problems.append(f"row {r}: per_item x items_per_pass != total")
for s in strategies:
    for m in ("instructions", "data_reads", "data_writes", "l1d_misses", "ll_misses"):
        if (s, m) not in cells:
            problems.append(f"no {m} row for {s}")
ins = {s: float(cells[(s, "instructions")]["per_item"]) for s in strategies if (s, "instructions") in cells}
if any(v <= 0 for v in ins.values()):
    problems.append(f"instructions per item must be > 0: {ins}")
if "floor" in ins and any(ins["floor"] >= ins[s] for s in strategies[1:] if s in ins):
    problems.append(f"the floor must need fewer instructions per item than every strategy: {ins}")
if "floor" in ins and not 1 < ins["floor"] < 100:
    problems.append(f"floor instructions per item {ins['floor']} implausible (set-up counted?)")
for p in problems:
    print(f"  not ok: cachegrind.csv: {p}", file=sys.stderr)
sys.exit(1 if problems else 0)
PY
else
  echo "  not ok: the tiny cachegrind run failed:" >&2; cat "$tmp/out1" >&2; fail=1; run1=
fi

# ---- determinism: the same instruction counts again -------------------------------------------
if [ -n "$run1" ]; then
  if env "${tiny[@]}" STRATEGIES=sparse_set RESULTS_DIR="$tmp/r2" scripts/cachegrind.sh "$bin" \
       >"$tmp/out2" 2>&1 && run2=$(the_run "$tmp/r2"); then
    pick() { awk -F, '$2 != "flat_map" && $4 ~ /^(instructions|data_reads|data_writes)$/' "$1"; }
    if ! diff <(pick "$run1/cachegrind.csv") <(pick "$run2/cachegrind.csv") >"$tmp/diff"; then
      echo "  not ok: a second run counted different instructions or data references:" >&2
      cat "$tmp/diff" >&2; fail=1
    fi
    [ "$(pick "$run2/cachegrind.csv" | wc -l)" -eq 6 ] ||
      { echo "  not ok: the second run lacks floor or sparse_set rows" >&2; fail=1; }
  else
    echo "  not ok: the second cachegrind run failed:" >&2; cat "$tmp/out2" >&2; fail=1
  fi
fi

# ---- a wrong checksum stops the run before valgrind ---------------------------------------------
fake="$tmp/fake-ecsbench"
cat >"$fake" <<SH
#!/bin/sh
[ "\$1" = run ] && [ "\$3" = sparse_set ] && { echo "checksum=00000000000000ff seconds=0.0001"; exit 0; }
exec "$bin" "\$@"
SH
chmod +x "$fake"
env "${tiny[@]}" RESULTS_DIR="$tmp/r3" scripts/cachegrind.sh "$fake" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -ne 1 ] || ! grep -q 'CHECKSUM MISMATCH: sparse_set' "$tmp/err"; then
  echo "  not ok: a wrong checksum must fail loudly (exit $rc): $(cat "$tmp/err")" >&2; fail=1
fi
grep -q 'runs under valgrind' "$tmp/err" &&
  { echo "  not ok: valgrind ran although a checksum was wrong" >&2; fail=1; }
[ -z "$(find "$tmp/r3" -mindepth 2 2>/dev/null)" ] ||
  { echo "  not ok: a failed run must publish nothing: $(find "$tmp/r3")" >&2; fail=1; }

# ---- bad arguments: exit 2, a message, nothing written -------------------------------------------
expect2() { # expect2 DESCRIPTION [VAR=value ...] -- ARGS...
  local what=$1; shift
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  env "${envs[@]}" RESULTS_DIR="$tmp/r4" scripts/cachegrind.sh "$@" >/dev/null 2>"$tmp/err"
  local rc=$?
  if [ $rc -ne 2 ] || ! grep -q error "$tmp/err"; then
    echo "  not ok: $what: exit $rc, want 2 with a message ($(cat "$tmp/err"))" >&2; fail=1
  fi
}
expect2 "no binary" --
expect2 "nonexistent binary" -- "$tmp/nonexistent"
expect2 "two arguments" -- "$bin" "$bin"
expect2 "not ecsbench" -- /bin/true
expect2 "N not a number" SIZES=lots -- "$bin"
expect2 "N too small" SIZES=1 -- "$bin"
expect2 "N too large" SIZES=4000,99999999 -- "$bin"
expect2 "passes not two" CACHEGRIND_PASSES=3 -- "$bin"
expect2 "passes not increasing" CACHEGRIND_PASSES=3,1 -- "$bin"
expect2 "unknown scenario" SCENARIOS=platformer,nosuch SIZES=256 -- "$bin"
grep -q "unknown scenario 'nosuch'" "$tmp/err" || { echo "  not ok: the binary's message is not passed on: $(cat "$tmp/err")" >&2; fail=1; }
expect2 "unknown strategy" STRATEGIES=nosuch SIZES=256 -- "$bin"
expect2 "cache not a triple" CACHEGRIND_D1=32k -- "$bin"
expect2 "cache valgrind refuses" CACHEGRIND_LL=1000000,3,64 -- "$bin"
[ -z "$(find "$tmp/r4" -mindepth 2 2>/dev/null)" ] || { echo "  not ok: bad arguments must write nothing: $(find "$tmp/r4")" >&2; fail=1; }
exit $fail
