#!/usr/bin/env bash
# hyperfine.sh ECSBENCH — whole-process timing: per scenario and size, every strategy and the
# floor run as its own process (`ECSBENCH run <scenario> <strategy> <N>`) under hyperfine, so
# the times include process start, set-up, first-touch page faults and the allocator, which
# in-process figures leave out. Beside them, "start-up" times `ECSBENCH run <scenario> floor 1`:
# when start-up is half or more of a command's time, the output warns that the figures measure
# process start-up, not storage. Before timing, every strategy's checksum must equal the
# floor's (else exit 1).
#
# Writes $RESULTS_DIR/hyperfine/<run-id>/ (staged, published atomically; apart from the make
# bench runs, so make compare never takes it for one):
#   <scenario>_n<N>.md  .csv  .json   hyperfine's exports, one command per strategy
#   checksums.txt                     what each strategy printed
#   summary.md                        settings, provenance, warnings and every table
# Environment (defaults): SCENARIOS, STRATEGIES (comma lists; default every one `ECSBENCH list
# --json` names; the floor always runs; the binary checks the names), SIZES (1048576);
# HYPERFINE_RUNS (10) timed runs and HYPERFINE_WARMUP (2) warm-up runs per command;
# HYPERFINE_PASSES (the binary's default); RESULTS_DIR (results); HYPERFINE (hyperfine).
# Exit 2 on bad arguments (unknown names: the binary's message), 1 on a failed run or a
# checksum mismatch.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source=scripts/lib.sh
source "$here/lib.sh"

HYPERFINE=${HYPERFINE:-hyperfine}
PYTHON=${PYTHON:-/usr/bin/python3}
runs=${HYPERFINE_RUNS:-10}
warmup=${HYPERFINE_WARMUP:-2}
passes=${HYPERFINE_PASSES:-}
results_dir=${RESULTS_DIR:-$top/results}/hyperfine

[ $# -eq 1 ] || ecsb_usage_error "usage: scripts/hyperfine.sh build/ecsbench   (or: make hyperfine)"
bin=$1
if [ ! -f "$bin" ] || [ ! -x "$bin" ]; then
  ecsb_usage_error "$bin: no such executable; build it first with: make build/ecsbench"
fi
[[ $runs =~ ^[1-9][0-9]*$ && $runs -ge 2 ]] || ecsb_usage_error "HYPERFINE_RUNS=$runs: want a whole number >= 2"
[[ $warmup =~ ^[0-9]+$ ]] || ecsb_usage_error "HYPERFINE_WARMUP=$warmup: want a whole number >= 0"
[[ -z $passes || $passes =~ ^[1-9][0-9]*$ ]] || ecsb_usage_error "HYPERFINE_PASSES=$passes: want a positive whole number"
command -v "$HYPERFINE" >/dev/null || { echo "error: hyperfine not found; install it with: sudo apt-get install hyperfine" >&2; exit 1; }

list=$(ecsb_names "$bin" scenarios "${SCENARIOS:-}") || exit $?
mapfile -t scenarios <<<"$list"
list=$(ecsb_names "$bin" strategies "${STRATEGIES:-}") || exit $?
mapfile -t strategies < <(grep -vx floor <<<"$list")
list=$(ecsb_sizes "${SIZES:-1048576}") || exit $?
mapfile -t sizes <<<"$list"
[ ${#scenarios[@]} -gt 0 ] && [ ${#strategies[@]} -gt 0 ] ||
  ecsb_usage_error "$bin list --json names no scenarios or strategies; is it ecsbench? (make build/ecsbench)"
all=(floor "${strategies[@]}")
pass_arg=()
[ -z "$passes" ] || pass_arg=("$passes")

ecsb_clean_stale "$results_dir" | sed 's/^/hyperfine: /' >&2
staging=$(ecsb_staging_dir "$results_dir")
trap 'rm -rf "$staging"' EXIT
out=$staging

# ---- 1. every strategy must compute what the floor computes (the binary checks the names) -----
echo "hyperfine: checking checksums ..." >&2
bad=0
for scenario in "${scenarios[@]}"; do
  for n in "${sizes[@]}"; do
    floor_sum=$(ecsb_run_checksum "$bin" "$scenario" floor "$n" "${pass_arg[0]:-}") || exit $?
    for strategy in "${all[@]}"; do
      sum=$floor_sum
      [ "$strategy" = floor ] ||
        sum=$(ecsb_run_checksum "$bin" "$scenario" "$strategy" "$n" "${pass_arg[0]:-}") || exit $?
      printf '%-14s %-16s N=%-10s checksum=%s\n' "$scenario" "$strategy" "$n" "$sum" >>"$out/checksums.txt"
      if [ "$sum" != "$floor_sum" ]; then
        echo "error: CHECKSUM MISMATCH: $strategy on $scenario at N = $n printed checksum=$sum," \
             "the floor checksum=$floor_sum: $strategy computes something else; its times mean nothing" >&2
        bad=1
      fi
    done
  done
done
[ "$bad" -eq 0 ] || { echo "hyperfine: no timing done (fix the strategy, then make test)" >&2; exit 1; }

# ---- 2. time each scenario and size: one hyperfine call, start-up + one command per strategy ----
for scenario in "${scenarios[@]}"; do
  for n in "${sizes[@]}"; do
    name="${scenario}_n$n"
    echo "hyperfine: $scenario, N = $n, $runs runs after $warmup warm-up, $((${#all[@]} + 1)) commands" >&2
    args=(--command-name start-up "$bin run $scenario floor 1")
    for strategy in "${all[@]}"; do
      args+=(--command-name "$strategy" "$bin run $scenario $strategy $n${passes:+ $passes}")
    done
    "$HYPERFINE" -N --warmup "$warmup" --runs "$runs" \
      --export-markdown "$out/$name.md" --export-csv "$out/$name.csv" \
      --export-json "$out/$name.json" "${args[@]}" >&2 ||
      { echo "error: hyperfine failed on $scenario at N = $n" >&2; exit 1; }
    # Start-up against each command: the warning when it is half of the time or more.
    touch "$out/warnings.txt"
    "$PYTHON" - "$out/$name.json" "$scenario" "$n" "$bin run $scenario floor 1" >>"$out/warnings.txt" <<'EOF'
import json, sys
path, scenario, n, startup_cmd = sys.argv[1:]
results = {r["command"]: r for r in json.load(open(path))["results"]}
startup = results.pop("start-up")["median"]
heavy = [(startup / r["median"], name, r["median"]) for name, r in results.items() if r["median"] > 0]
share, name, median = max(heavy)
if share >= 0.5:
    print(f"at N = {n} in {scenario}, process start-up ({startup * 1e3:.1f} ms: `{startup_cmd}`) "
          f"is {share:.0%} of {name}'s whole-process time ({median * 1e3:.1f} ms): these figures "
          "measure start-up more than storage; use a larger N (SIZES=1048576) or make bench's "
          "in-process times")
EOF
  done
done

# ---- 3. provenance and the tables in one page ---------------------------------------------------
{
  echo "# Whole-process times (hyperfine)"
  echo
  echo "Each row is one process: \`$(basename "$bin") run <scenario> <strategy> <N>${passes:+ $passes}\`,"
  echo "timed from exec to exit (process start, set-up, first-touch page faults, the timed pass,"
  echo "freeing) with hyperfine $("$HYPERFINE" --version | awk '{print $2}'): $warmup warm-up and $runs timed runs each."
  echo "*start-up* is \`$(basename "$bin") run <scenario> floor 1\`: what any process costs before"
  echo "storage matters. Every strategy printed the floor's checksum (checksums.txt)."
  echo
  echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "- host: $(hostname -s 2>/dev/null || hostname)"
  echo "- cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)"
  echo "- git: $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$top" diff --quiet HEAD -- 2>/dev/null || echo ' (dirty)')"
  echo "- N: ${sizes[*]}; passes: ${passes:-binary default}"
  if [ -s "$out/warnings.txt" ]; then
    echo
    echo "**Warning:** process start-up dominates some figures:"
    echo
    sed 's/^/- /' "$out/warnings.txt"
  fi
  for scenario in "${scenarios[@]}"; do
    for n in "${sizes[@]}"; do
      echo
      echo "## $scenario, N = $n"
      echo
      cat "$out/${scenario}_n$n.md"
    done
  done
} >"$out/summary.md"

sed 's/^/hyperfine: warning: /' "$out/warnings.txt" >&2
rm -f "$out/warnings.txt"
final=$(ecsb_publish_dir "$staging" "$results_dir")
trap - EXIT
echo "hyperfine: results in ${final#"$top"/}/ (summary.md, <scenario>_n<N>.md/.csv/.json)"
