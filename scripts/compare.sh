#!/usr/bin/env bash
# compare.sh — compare two runs, or strategies inside one run (the work is in compare.py).
#   scripts/compare.sh results/<A> results/<B>                      B against A, every row in both,
#       and a heat map of B ÷ A per strategy and scenario in plots/compare/<A>_vs_<B>/
#   scripts/compare.sh --strategies flat_map,sparse_set results/<A>  sparse_set against flat_map
#   STRATEGIES=flat_map,sparse_set scripts/compare.sh results/<A> "" (what make passes)
# Options (before or after the runs): --alpha P, --threshold F, --json FILE, --no-color.
# A run is a folder (results/<id>) or a run id. Exit 2 on bad arguments or unusable runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib.sh
source "$here/lib.sh"
PYTHON=${PYTHON:-/usr/bin/python3}

usage="usage: make compare A=results/<id> B=results/<id>   or   make compare A=results/<id> STRATEGIES=s1,s2"
opts=() runs=() strategies=${STRATEGIES:-} json=""
while [ $# -gt 0 ]; do
  case $1 in
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --strategies) [ $# -ge 2 ] || ecsb_usage_error "--strategies needs a value, e.g. flat_map,sparse_set"
                  strategies=$2; shift 2 ;;
    --strategies=*) strategies=${1#*=}; shift ;;
    --alpha|--threshold)
      [ $# -ge 2 ] || ecsb_usage_error "$1 needs a value"
      opts+=("$1" "$2"); shift 2 ;;
    --json)
      [ $# -ge 2 ] || ecsb_usage_error "$1 needs a value"
      json=$2; shift 2 ;;
    --no-color) opts+=("$1"); shift ;;
    -*) ecsb_usage_error "unknown option $1; $usage" ;;
    *) runs+=("$1"); shift ;;
  esac
done
# make passes both A and B, one possibly empty.
[ ${#runs[@]} -le 2 ] || ecsb_usage_error "too many arguments: ${runs[*]}; $usage"
a=${runs[0]:-} b=${runs[1]:-}

a=$(ecsb_resolve_run "$a" A)
if [ -n "$strategies" ]; then
  [ -z "$b" ] || ecsb_usage_error "STRATEGIES compares strategies inside one run: give A only, not B=$b"
  exec "$PYTHON" "$here/compare.py" --strategies "$strategies" "${opts[@]}" ${json:+--json "$json"} "$a"
fi
[ -n "$b" ] || ecsb_usage_error "B is missing: $usage"
b=$(ecsb_resolve_run "$b" B)
# Two runs: the table, then its picture (compare_heatmap.py) in plots/compare/<A>_vs_<B>/.
if [ -z "$json" ]; then
  json=$(mktemp)
  trap 'rm -f "$json"' EXIT
fi
"$PYTHON" "$here/compare.py" "${opts[@]}" --json "$json" "$a" "$b" || exit $?
top=$(cd "$here/.." && pwd)
out=${COMPARE_PLOTS_DIR:-$top/plots/compare}/$(basename "$a")_vs_$(basename "$b")
if ! command -v gnuplot >/dev/null; then
  echo "note: gnuplot not found: no heat map (scripts/setup.sh installs it)" >&2
elif "$PYTHON" "$here/compare_heatmap.py" "$json" "$out"; then
  echo "heat map of B ÷ A: $out/compare_heatmap.png (and .svg)"
else
  echo "warning: the heat map could not be drawn (the table above stands)" >&2
fi
