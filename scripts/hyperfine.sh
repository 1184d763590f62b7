#!/usr/bin/env bash
# hyperfine.sh ECSBENCH — whole-process timing: per scenario, every strategy and the floor run
# as its own process (`ECSBENCH run <scenario> <strategy> <N>`) under hyperfine, so the times
# include process start, first-touch page faults and the allocator, which in-process figures
# leave out. Before timing, every strategy's checksum must equal the floor's (else exit 1).
#
# Writes a new run folder $RESULTS_DIR/<run-id>/hyperfine/ (staged, published atomically):
#   <scenario>.md  <scenario>.csv  <scenario>.json   hyperfine's exports, one command per strategy
#   checksums.txt                                    what each strategy printed
#   summary.md                                       settings, provenance and every table
# Environment (defaults): HYPERFINE_N (1048576) entities; HYPERFINE_RUNS (10) timed runs and
# HYPERFINE_WARMUP (2) warm-up runs per command; HYPERFINE_PASSES (the binary's default);
# HYPERFINE_SCENARIOS, HYPERFINE_STRATEGIES (comma lists; default every registered one; the
# floor is always included); RESULTS_DIR (results); HYPERFINE (the hyperfine binary).
# Exit 2 on bad arguments, 1 on a failed run or a checksum mismatch.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source=scripts/lib.sh
source "$here/lib.sh"

HYPERFINE=${HYPERFINE:-hyperfine}
n=${HYPERFINE_N:-1048576}
runs=${HYPERFINE_RUNS:-10}
warmup=${HYPERFINE_WARMUP:-2}
passes=${HYPERFINE_PASSES:-}
results_dir=${RESULTS_DIR:-$top/results}

[ $# -eq 1 ] || ecsb_usage_error "usage: scripts/hyperfine.sh build/ecsbench   (or: make hyperfine)"
bin=$1
if [ ! -f "$bin" ] || [ ! -x "$bin" ]; then
  ecsb_usage_error "$bin: no such executable; build it first with: make build/ecsbench"
fi
[[ $n =~ ^[1-9][0-9]*$ ]] || ecsb_usage_error "HYPERFINE_N=$n: want a positive whole number of entities"
[[ $runs =~ ^[1-9][0-9]*$ && $runs -ge 2 ]] || ecsb_usage_error "HYPERFINE_RUNS=$runs: want a whole number >= 2"
[[ $warmup =~ ^[0-9]+$ ]] || ecsb_usage_error "HYPERFINE_WARMUP=$warmup: want a whole number >= 0"
[[ -z $passes || $passes =~ ^[1-9][0-9]*$ ]] || ecsb_usage_error "HYPERFINE_PASSES=$passes: want a positive whole number"
command -v "$HYPERFINE" >/dev/null || { echo "error: hyperfine not found; install it with: sudo apt-get install hyperfine" >&2; exit 1; }

# Names: the environment's lists, else the binary's own registry (`ecsbench list`: lines
# "strategy <name> ..." and "scenario <name> ..."), else the registry files it is built from.
def_names() { # def_names FILE MACRO: the first argument of each MACRO(...) line, comments skipped
  sed -e 's:/\*.*\*/::g' "$1" | sed -n "s/^[[:space:]]*$2([[:space:]]*\([A-Za-z0-9_]*\).*/\1/p"
}
list_names() { # list_names KIND: names the binary lists as KIND
  "$bin" list 2>/dev/null | awk -v kind="$1" '$1 == kind && $2 ~ /^[A-Za-z0-9_]+$/ { print $2 }'
}
split_list() { sed -e 's/[[:space:],][[:space:],]*/\n/g' <<<"$1" | sed '/^$/d'; }
if [ -n "${HYPERFINE_SCENARIOS:-}" ]; then mapfile -t scenarios < <(split_list "$HYPERFINE_SCENARIOS")
else
  mapfile -t scenarios < <(list_names scenario)
  [ ${#scenarios[@]} -gt 0 ] || mapfile -t scenarios < <(def_names "$top/scenarios/scenarios.def" ECSB_SCENARIO)
fi
if [ -n "${HYPERFINE_STRATEGIES:-}" ]; then mapfile -t strategies < <(split_list "$HYPERFINE_STRATEGIES" | grep -vx floor)
else
  mapfile -t strategies < <(list_names strategy | grep -vx floor)
  [ ${#strategies[@]} -gt 0 ] || mapfile -t strategies < <(def_names "$top/strategies/strategies.def" ECSB_STRATEGY)
fi
[ ${#scenarios[@]} -gt 0 ] || ecsb_usage_error "no scenarios (HYPERFINE_SCENARIOS, or scenarios/scenarios.def)"
[ ${#strategies[@]} -gt 0 ] || ecsb_usage_error "no strategies (HYPERFINE_STRATEGIES, or strategies/strategies.def)"
all=(floor "${strategies[@]}")
pass_arg=()
[ -z "$passes" ] || pass_arg=("$passes")

staging=$(ecsb_staging_dir "$results_dir")
trap 'rm -rf "$staging"' EXIT
out="$staging/hyperfine"
mkdir -p "$out"

# One run of one scenario and strategy; prints its checksum, or fails loudly.
checksum_of() { ecsb_run_checksum "$bin" "$1" "$2" "$n" "${pass_arg[0]:-}"; }

# ---- 1. every strategy must compute what the floor computes ----------------------------------
echo "hyperfine: checking checksums (N = $n) ..." >&2
bad=0
for scenario in "${scenarios[@]}"; do
  floor_sum=$(checksum_of "$scenario" floor) || exit 1
  for strategy in "${all[@]}"; do
    sum=$([ "$strategy" = floor ] && echo "$floor_sum" || checksum_of "$scenario" "$strategy") || exit 1
    printf '%-14s %-14s N=%-10s checksum=%s\n' "$scenario" "$strategy" "$n" "$sum" >>"$out/checksums.txt"
    if [ "$sum" != "$floor_sum" ]; then
      echo "error: CHECKSUM MISMATCH: $strategy on $scenario at N = $n printed checksum=$sum," \
           "the floor checksum=$floor_sum: $strategy computes something else; its times mean nothing" >&2
      bad=1
    fi
  done
done
[ "$bad" -eq 0 ] || { echo "hyperfine: no timing done (fix the strategy, then make test)" >&2; exit 1; }

# ---- 2. time each scenario: one hyperfine call, one command per strategy -----------------------
for scenario in "${scenarios[@]}"; do
  echo "hyperfine: $scenario, N = $n, $runs runs after $warmup warm-up, ${#all[@]} commands" >&2
  args=()
  for strategy in "${all[@]}"; do
    args+=(--command-name "$strategy" "$bin run $scenario $strategy $n${passes:+ $passes}")
  done
  "$HYPERFINE" -N --warmup "$warmup" --runs "$runs" \
    --export-markdown "$out/$scenario.md" --export-csv "$out/$scenario.csv" \
    --export-json "$out/$scenario.json" "${args[@]}" >&2 ||
    { echo "error: hyperfine failed on $scenario" >&2; exit 1; }
done

# ---- 3. provenance and the tables in one page ---------------------------------------------------
{
  echo "# Whole-process times (hyperfine)"
  echo
  echo "Each row is one process: \`$(basename "$bin") run <scenario> <strategy> $n${passes:+ $passes}\`,"
  echo "timed from exec to exit (process start, set-up, first-touch page faults, the timed pass,"
  echo "freeing) with hyperfine $("$HYPERFINE" --version | awk '{print $2}'): $warmup warm-up and $runs timed runs each."
  echo "Every strategy printed the floor's checksum (checksums.txt)."
  echo
  echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "- host: $(hostname -s 2>/dev/null || hostname)"
  echo "- cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)"
  echo "- git: $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$top" diff --quiet HEAD -- 2>/dev/null || echo ' (dirty)')"
  echo "- N: $n; passes: ${passes:-binary default}"
  for scenario in "${scenarios[@]}"; do
    echo
    echo "## $scenario"
    echo
    cat "$out/$scenario.md"
  done
} >"$out/summary.md"

final=$(ecsb_publish_dir "$staging" "$results_dir")
trap - EXIT
echo "hyperfine: results in ${final#"$top"/}/hyperfine/ (summary.md, <scenario>.md/.csv/.json)"
