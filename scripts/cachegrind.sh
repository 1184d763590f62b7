#!/usr/bin/env bash
# cachegrind.sh ECSBENCH — noise-free counts: instructions, data references and simulated cache
# misses per item of each scenario's timed pass, per strategy and the floor, with valgrind.
# Wall-clock times on a shared VM move by 15-50% between identical runs; these counts do not.
#
# How the timed pass is isolated: every run is `ECSBENCH run <scenario> <strategy> <N> <P>` under
# `valgrind --tool=callgrind --cache-sim=yes --toggle-collect=<pass function>`. Callgrind uses
# Cachegrind's cache simulator, but can collect events only while one function runs (Cachegrind
# 3.19 cannot): the scenario's pass function, `<scenario>_pass` in a strategy's object
# (harness/strategy_impl.h) and `floor_<scenario>_pass` for the floor (scenarios/floor.c),
# exactly what the harness times. Set-up, the re-preparation platformer needs before every
# pass, checksum, release and process start are simulated (so the caches are as warm as in
# the real run) but not counted. Each run is made with P1 and P2 passes, and one pass is
#     (count with P2 passes - count with P1 passes) / (P2 - P1)
# which leaves out what only the first pass pays (a dual_iterate pass right after set-up sees
# the caches as set-up left them; later passes, like Google Benchmark's, see steady state).
# Per item = per pass / items per pass, read from the binary's own scenario table (the
# items_per_pass counter of a one-repetition `ecsbench bench` run of the floor).
#
# Before anything is counted, every strategy's checksum must equal the floor's (else exit 1);
# each run under valgrind must print it again.
#
# Writes $RESULTS_DIR/cachegrind/<run-id>/ (staged, published atomically; apart from the make
# bench runs, so make compare never takes it for one):
#   cachegrind.csv  scenario,strategy,n,metric,per_item,total,items_per_pass (RFC 4180, CRLF);
#                   total = the count in one timed pass; metrics: instructions, data_reads,
#                   data_writes, l1d_misses (+ _read/_write), ll_misses (+ _read/_write),
#                   l1i_misses, lli_misses
#   summary.md      settings, provenance, how to read, one table per scenario and N
#   checksums.txt   what each strategy printed natively at P1 and P2 passes
#   items.tsv       scenario, N, items per pass, item
#   raw/            callgrind's output and log for every run (callgrind_annotate reads them)
# Environment (defaults): SIZES (4000,65536); SCENARIOS, STRATEGIES (comma lists; default
# every one `ECSBENCH list --json` names; the floor always runs; the binary checks the names);
# CACHEGRIND_PASSES (1,3) the two pass counts P1,P2; CACHEGRIND_D1 (32768,8,64) and
# CACHEGRIND_LL (1048576,16,64) the simulated L1 data and last-level caches as
# bytes,ways,line bytes (defaults: this VM's L1d and 1 MiB L2, fixed so that counts compare
# across machines; left to itself valgrind would model the ~36 MiB shared L3 as LL, where
# nothing misses at these sizes); RESULTS_DIR (results);
# VALGRIND (valgrind); PYTHON (/usr/bin/python3).
# Exit 2 on bad arguments (unknown names: the binary's message), 1 on a failed run or a
# checksum mismatch.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source=scripts/lib.sh
source "$here/lib.sh"

VALGRIND=${VALGRIND:-valgrind}
PYTHON=${PYTHON:-/usr/bin/python3}
passes_text=${CACHEGRIND_PASSES:-1,3}
i1=32768,8,64
d1=${CACHEGRIND_D1:-32768,8,64}
ll=${CACHEGRIND_LL:-1048576,16,64}
results_dir=${RESULTS_DIR:-$top/results}/cachegrind

# ---- arguments and settings --------------------------------------------------------------------
[ $# -eq 1 ] || ecsb_usage_error "usage: scripts/cachegrind.sh build/ecsbench   (or: make cachegrind)"
bin=$1
if [ ! -f "$bin" ] || [ ! -x "$bin" ]; then
  ecsb_usage_error "$bin: no such executable; build it first with: make build/ecsbench"
fi
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac

describe_cache() { # describe_cache BYTES,WAYS,LINE: "32 KiB, 8-way, 64 B lines"
  local bytes=${1%%,*} rest=${1#*,} size
  if [ $((bytes % 1048576)) -eq 0 ]; then size="$((bytes / 1048576)) MiB"
  elif [ $((bytes % 1024)) -eq 0 ]; then size="$((bytes / 1024)) KiB"
  else size="$bytes B"; fi
  printf '%s, %s-way, %s B lines' "$size" "${rest%%,*}" "${rest#*,}"
}
list=$(ecsb_sizes "${SIZES:-4000,65536}") || exit $?
mapfile -t sizes <<<"$list"
for n in "${sizes[@]}"; do
  [ "$n" -ge 2 ] || ecsb_usage_error "SIZES=${SIZES:-}: $n is too small to count a pass (2 or more)"
done
p1=${passes_text%%,*} p2=${passes_text#*,}
if ! [[ $passes_text =~ ^[1-9][0-9]{0,6},[1-9][0-9]{0,6}$ ]] || [ "$p1" -ge "$p2" ] || [ "$p2" -gt 1000000 ]; then
  ecsb_usage_error "CACHEGRIND_PASSES=$passes_text: want two pass counts P1,P2 with 1 <= P1 < P2 <= 1000000, e.g. 1,3"
fi
for cache in "CACHEGRIND_D1=$d1" "CACHEGRIND_LL=$ll"; do
  [[ ${cache#*=} =~ ^[1-9][0-9]*,[1-9][0-9]*,[1-9][0-9]*$ ]] ||
    ecsb_usage_error "$cache: want bytes,ways,line bytes, e.g. 32768,8,64"
done

# Names: SCENARIOS / STRATEGIES, else the binary's registry; `run` checks them (step 1).
list=$(ecsb_names "$bin" scenarios "${SCENARIOS:-}") || exit $?
mapfile -t scenarios <<<"$list"
list=$(ecsb_names "$bin" strategies "${STRATEGIES:-}") || exit $?
mapfile -t strategies < <(grep -vx floor <<<"$list")
all=(floor "${strategies[@]}")

command -v "$VALGRIND" >/dev/null ||
  { echo "error: valgrind not found; install it with: sudo apt-get install valgrind" >&2; exit 1; }
valgrind_opts=(--tool=callgrind --cache-sim=yes --I1="$i1" --D1="$d1" --LL="$ll" --collect-atstart=no)
# The simulated caches: valgrind refuses some geometries (sets must be a power of two, ...).
if ! msg=$("$VALGRIND" "${valgrind_opts[@]}" --callgrind-out-file=/dev/null true 2>&1); then
  if [ -n "${CACHEGRIND_D1:-}${CACHEGRIND_LL:-}" ]; then
    ecsb_usage_error "valgrind refuses CACHEGRIND_D1=$d1 / CACHEGRIND_LL=$ll: $(grep '^valgrind:' <<<"$msg" | head -2 | tr '\n' ' ')(sets = bytes / (ways x line) must be a power of two, line >= 16)"
  fi
  echo "error: $VALGRIND does not run:" >&2; printf '  %s\n' "$msg" >&2; exit 1
fi

ecsb_clean_stale "$results_dir" | sed 's/^/cachegrind: /' >&2
staging=$(ecsb_staging_dir "$results_dir")
trap 'rm -rf "$staging"' EXIT
out=$staging
raw="$out/raw"
mkdir -p "$raw"

# ---- 1. every strategy must compute what the floor computes (the binary checks the names) ---
declare -A floor_sum
checksum_of() { # checksum_of SCENARIO STRATEGY N PASSES [valgrind args...]: its checksum
  ecsb_run_checksum "$bin" "$1" "$2" "$3" "$4" "${@:5}"
}
echo "cachegrind: checking checksums (N = ${sizes[*]}; $p1 and $p2 passes) ..." >&2
bad=0
for scenario in "${scenarios[@]}"; do
  for n in "${sizes[@]}"; do
    for p in "$p1" "$p2"; do
      floor_sum[$scenario.$n.$p]=$(checksum_of "$scenario" floor "$n" "$p") || exit $?
      for strategy in "${all[@]}"; do
        sum=${floor_sum[$scenario.$n.$p]}
        [ "$strategy" = floor ] || sum=$(checksum_of "$scenario" "$strategy" "$n" "$p") || exit $?
        printf '%-14s %-14s N=%-9s passes=%-7s checksum=%s\n' "$scenario" "$strategy" "$n" "$p" "$sum" \
          >>"$out/checksums.txt"
        if [ "$sum" != "${floor_sum[$scenario.$n.$p]}" ]; then
          echo "error: CHECKSUM MISMATCH: $strategy on $scenario at N = $n, $p passes printed" \
               "checksum=$sum, the floor checksum=${floor_sum[$scenario.$n.$p]}: $strategy computes" \
               "something else; its counts mean nothing" >&2
          bad=1
        fi
      done
    done
  done
done
[ "$bad" -eq 0 ] || { echo "cachegrind: nothing counted (fix the strategy, then make test)" >&2; exit 1; }

# ---- 2. items per pass, from the binary's scenario table ---------------------------------------
for n in "${sizes[@]}"; do
  if ! "$bin" bench --ecsb_scenarios="$(IFS=,; echo "${scenarios[*]}")" --ecsb_sizes="$n" \
      --ecsb_quick --benchmark_filter=/floor/ --benchmark_repetitions=1 \
      --benchmark_format=json >"$raw/items-n$n.json" 2>"$raw/items-n$n.log"; then
    echo "error: $bin could not report items per pass at N = $n:" >&2
    sed 's/^/  /' "$raw/items-n$n.log" >&2
    exit 1
  fi
  [ -s "$raw/items-n$n.log" ] || rm -f "$raw/items-n$n.log"
done
"$PYTHON" "$here/cachegrind_report.py" items "$raw"/items-n*.json >"$out/items.tsv"
for scenario in "${scenarios[@]}"; do
  for n in "${sizes[@]}"; do
    awk -F'\t' -v s="$scenario" -v n="$n" '$1 == s && $2 == n && $3 > 0 { ok = 1 } END { exit !ok }' \
      "$out/items.tsv" ||
      { echo "error: $bin reports no items per pass for $scenario at N = $n (see $raw/items-n$n.json)" >&2; exit 1; }
  done
done

# ---- 3. the pass functions must be in the symbol table ------------------------------------------
pass_function() { # pass_function SCENARIO STRATEGY: the function the harness times
  if [ "$2" = floor ]; then echo "floor_$1_pass"; else echo "$1_pass"; fi
}
if command -v nm >/dev/null; then
  symbols=$(nm "$bin" 2>/dev/null | awk '$2 ~ /^[tT]$/ { print $3 }' | sort -u)
  for scenario in "${scenarios[@]}"; do
    for fn in "$(pass_function "$scenario" floor)" "$(pass_function "$scenario" x)"; do
      grep -qx -- "$fn" <<<"$symbols" ||
        { echo "error: $bin has no function $fn in its symbol table (stripped, or built with LTO?);" \
               "the counts are collected inside it: build with make build/ecsbench" >&2; exit 1; }
    done
  done
fi

# ---- 4. count: every scenario, N, strategy, at P1 and P2 passes ------------------------------------
total_runs=$((${#scenarios[@]} * ${#sizes[@]} * ${#all[@]} * 2))
echo "cachegrind: $total_runs runs under valgrind (${#scenarios[@]} scenarios x ${#sizes[@]} sizes x" \
     "${#all[@]} implementations x $p1 and $p2 passes), ~50x slower than native ..." >&2
start=$SECONDS done_runs=0
: >"$out/manifest.tsv"
for scenario in "${scenarios[@]}"; do
  for n in "${sizes[@]}"; do
    for strategy in "${all[@]}"; do
      files=()
      for p in "$p1" "$p2"; do
        tag="$scenario.$strategy.n$n.p$p"
        done_runs=$((done_runs + 1))
        printf 'cachegrind: [%d/%d] %s %s N=%s passes=%s (%ds)\n' "$done_runs" "$total_runs" \
          "$scenario" "$strategy" "$n" "$p" $((SECONDS - start)) >&2
        sum=$(checksum_of "$scenario" "$strategy" "$n" "$p" "$VALGRIND" "${valgrind_opts[@]}" \
                --toggle-collect="$(pass_function "$scenario" "$strategy")" \
                --callgrind-out-file="$raw/$tag.callgrind.out" --log-file="$raw/$tag.log") ||
          { sed 's/^/  /' "$raw/$tag.log" >&2 2>/dev/null; exit 1; }
        if [ "$sum" != "${floor_sum[$scenario.$n.$p]}" ]; then
          echo "error: CHECKSUM MISMATCH under valgrind: $strategy on $scenario at N = $n, $p passes" \
               "printed checksum=$sum, the floor checksum=${floor_sum[$scenario.$n.$p]}" >&2
          exit 1
        fi
        files+=("$raw/$tag.callgrind.out")
      done
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$scenario" "$strategy" "$n" "$p1" "$p2" "${files[@]}" \
        >>"$out/manifest.tsv"
    done
  done
done

# ---- 5. tables -------------------------------------------------------------------------------------
"$PYTHON" "$here/cachegrind_report.py" report --manifest "$out/manifest.tsv" --items "$out/items.tsv" \
  --csv "$out/cachegrind.csv" --markdown "$out/tables.md" || exit 1
sed -i "s|$raw/||g" "$out/manifest.tsv" # names relative to raw/, as published
{
  echo "# Instructions and simulated cache misses per item (valgrind)"
  echo
  echo "Counted by \`valgrind --tool=callgrind --cache-sim=yes\` inside each scenario's timed pass"
  echo "function only (\`--toggle-collect=<scenario>_pass\`, \`floor_<scenario>_pass\` for the floor):"
  echo "set-up, platformer's re-preparation before each pass, checksum and process start are"
  echo "simulated but not counted. One pass = (count with $p2 passes − count with $p1) / $((p2 - p1)); per item"
  echo "= one pass / items per pass. Every strategy printed the floor's checksum (checksums.txt)."
  echo
  echo "- **Instructions** are exact and repeatable: the same binary and libraries give the same"
  echo "  counts run after run, busy or idle (on another machine too, unless glibc picks another"
  echo "  memcpy/memmove for its CPU features). They are not time: instructions per cycle differ"
  echo "  (a dependent load chain retires far fewer per cycle than a vectorised loop)."
  echo "- **Cache misses** come from valgrind's model of a generic two-level cache, not this CPU:"
  echo "  L1d $(describe_cache "$d1"), LL (last level) $(describe_cache "$ll");"
  echo "  LRU, write-allocate, no prefetcher, no other programs."
  echo "  Real hardware prefetches sequential walks, so their misses cost far less than dependent"
  echo "  random ones; read misses as lines that must come from farther away, not as time."
  echo "  Software prefetches (__builtin_prefetch) count as instructions but load nothing into"
  echo "  the simulated caches, so a strategy that prefetches shows its misses unhidden."
  echo "  Repeatable for the same binary, path and environment (a different environment size"
  echo "  moves the stack and can change a handful)."
  echo "- **× floor** = instructions per item / the floor's."
  echo
  echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "- host: $(hostname -s 2>/dev/null || hostname)"
  echo "- cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)"
  echo "- git: $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$top" diff --quiet HEAD -- 2>/dev/null || echo ' (dirty)')"
  echo "- valgrind: $("$VALGRIND" --version 2>/dev/null); binary: ${bin#"$top"/}"
  echo "- N: ${sizes[*]}; passes: $p1 and $p2; I1 $i1, D1 $d1, LL $ll (bytes,ways,line)"
  echo "- again: \`make cachegrind SIZES=$(IFS=,; echo "${sizes[*]}") SCENARIOS=$(IFS=,; echo "${scenarios[*]}") STRATEGIES=$(IFS=,; echo "${strategies[*]}") CACHEGRIND_PASSES=$p1,$p2 CACHEGRIND_D1=$d1 CACHEGRIND_LL=$ll\`"
  echo
  cat "$out/tables.md"
} >"$out/summary.md"
rm -f "$out/tables.md"

final=$(ecsb_publish_dir "$staging" "$results_dir")
trap - EXIT
echo
sed -n '/^### /,$p' "$final/summary.md"
echo "Instructions are exact; cache misses are simulated (generic L1d/LL model, not this CPU)."
echo "cachegrind: results in ${final#"$top"/}/ (summary.md, cachegrind.csv, raw/)"
