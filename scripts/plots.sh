#!/usr/bin/env bash
# plots.sh RUN — draw a run's plots: per scenario, time per item against N (log-log, a line per
# strategy plus the floor, min–max error bars, cache markers from the run's own context) and a
# bar chart at N = 4000; PNG and SVG each, into $PLOTS_DIR/<run-id>/ (default plots/):
#   <scenario>_vs_n.png  <scenario>_vs_n.svg  <scenario>_n4000.png  <scenario>_n4000.svg
# RUN is a run folder (results/<id>) or a run id. Exit 2 when it is missing or malformed.
# Environment: PYTHON (Debian's python3), PLOTS_DIR, GNUPLOT (default gnuplot).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source=scripts/lib.sh
source "$here/lib.sh"
PYTHON=${PYTHON:-/usr/bin/python3}
GNUPLOT=${GNUPLOT:-gnuplot}

[ $# -eq 1 ] || ecsb_usage_error "usage: scripts/plots.sh results/<run-id>   (or: make plots RUN=results/<run-id>)"
run=$(ecsb_resolve_run "$1" RUN raw.json)
[ -f "$run/results.csv" ] || ecsb_usage_error "RUN=$1: $run/results.csv is missing; is it a complete ecsbench run?"
command -v "$GNUPLOT" >/dev/null || { echo "error: gnuplot not found; install it with: sudo apt-get install gnuplot-nox" >&2; exit 1; }

run_id=$(basename "$(cd "$run" && pwd)")
plots_dir=${PLOTS_DIR:-$top/plots}
staging=$(ecsb_staging_dir "$plots_dir")
trap 'rm -rf "$staging"' EXIT

# Data and settings for gnuplot (exit 2 from plot_data.py: malformed run).
"$PYTHON" "$here/plot_data.py" "$run" "$staging/data"

while IFS= read -r scenario; do
  vars="$staging/data/$scenario.vars.gp"
  for script in vs_n bars_n4000; do
    if ! "$GNUPLOT" -e "vars=\"$vars\"" "$top/plots/common.gp" "$top/plots/$script.gp" \
        2>"$staging/gnuplot.log"; then
      cat "$staging/gnuplot.log" >&2
      echo "error: gnuplot failed on plots/$script.gp for $scenario (run $run)" >&2
      exit 1
    fi
  done
done <"$staging/data/scenarios.txt"

# Publish: each image moved into place under its final name (a redraw replaces the old ones).
out="$plots_dir/$run_id"
mkdir -p "$out"
count=0
for f in "$staging/data"/*.png "$staging/data"/*.svg; do
  [ -s "$f" ] || { echo "error: gnuplot wrote an empty $(basename "$f")" >&2; exit 1; }
  mv -f "$f" "$out/"
  count=$((count + 1))
done
echo "plots: $count files in ${out#"$top"/}/"
