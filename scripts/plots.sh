#!/usr/bin/env bash
# plots.sh [--into DIR] RUN — draw a run's plots, PNG and SVG each:
#   overview_heatmap[~order=O] strategies x the cases of one world order (regular: no suffix),
#                              ratio to the fastest of each, at N = 4000 and at the largest N
#   memory_n65536              bytes per entity per strategy and scenario at N = 65536
#   <scenario>_vs_n            time per item against N (log-log), a line per strategy plus the
#                              floor and the limit, min–max error bars, cache markers
#   <scenario>_n4000           bars at N = 4000
#   <scenario>_memory_vs_n     bytes per entity against N
#   <scenario>_sweep_<p>_n<N>  time per item against a swept parameter
#   index.html                 the run's page (page.py): answer, heat maps, charts, tables,
#                              provenance; opens from disk
# where <scenario> is each case (a scenario or a variant), drawn from that case's rows only;
# the SVGs name each point's figures on hover (svg_tooltips.py)
# into $PLOTS_DIR/<run-id>/ (default plots/), replacing an earlier drawing of the same run in
# one rename; with --into DIR into DIR, unpublished (make bench draws into its staging folder
# and publishes plots and results together). RUN is a run folder (results/<id>) or a run id.
# Exit 2 when RUN is missing, unfinished, truncated or malformed; 1 when gnuplot fails.
# Environment: PYTHON (Debian's python3), PLOTS_DIR, RESULTS_DIR, GNUPLOT (default gnuplot).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source=scripts/lib.sh
source "$here/lib.sh"
PYTHON=${PYTHON:-/usr/bin/python3}
GNUPLOT=${GNUPLOT:-gnuplot}

into=""
if [ "${1:-}" = --into ]; then
  [ $# -ge 2 ] || ecsb_usage_error "--into needs a folder"
  into=$2
  shift 2
fi
[ $# -eq 1 ] || ecsb_usage_error "usage: scripts/plots.sh results/<run-id>   (or: make plots RUN=results/<run-id>)"
if [ -n "$into" ]; then
  run=${1%/} # bench.sh's own staging folder
else
  run=$(ecsb_resolve_run "$1" RUN)
fi
command -v "$GNUPLOT" >/dev/null || { echo "error: gnuplot not found; install it with: sudo apt-get install gnuplot-nox" >&2; exit 1; }

run_id=$(basename "$(cd "$run" && pwd)")
plots_dir=${PLOTS_DIR:-$top/plots}
if [ -n "$into" ]; then
  staging=$into
  mkdir -p "$staging"
else
  ecsb_clean_stale "$plots_dir" | sed 's/^/plots: /' >&2
  staging=$(ecsb_staging_dir "$plots_dir" "$run_id")
  trap 'rm -rf "$staging"' EXIT
fi
data="$staging/.data"

# Data and settings for gnuplot (exit 2 from plot_data.py: a malformed run).
"$PYTHON" "$here/plot_data.py" "$run" "$data"

# A few gnuplot processes, one per CPU, each drawing its share of the charts in turn: starting
# gnuplot (cairo, fonts) costs more than most charts take to draw. Before each chart `reset
# session; unset datafile` (reset keeps the datafile settings: a CSV chart's column headers
# would eat the first row of the next chart's .dat), so it starts from gnuplot's defaults as in
# a process of its own. Each chart is named in the log first: a failure names its chart.
jobs=$(nproc 2>/dev/null || echo 2)
awk -v jobs="$jobs" -v top="$top" -v dir="$data" '
  function gp(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }
  NF >= 2 {
    script = $1; vars = substr($0, index($0, " ") + 1)
    f = dir "/batch" (NR - 1) % jobs ".gp"
    print "print " gp("chart: plots/" script " with " vars) > f
    print "reset session" > f
    print "unset datafile" > f
    print "vars = " gp(vars) > f
    print "load " gp(top "/plots/common.gp") > f
    print "load " gp(top "/plots/" script) > f
  }' "$data/plots.txt"
pids=()
for ((i = 0; i < jobs; i++)); do
  [ -f "$data/batch$i.gp" ] || break # fewer charts than CPUs
  "$GNUPLOT" "$data/batch$i.gp" 2>"$data/batch$i.log" &
  pids[i]=$!
done
failed=0
for i in "${!pids[@]}"; do
  wait "${pids[i]}" && continue
  failed=1
  log=$data/batch$i.log
  grep -v '^chart: ' "$log" >&2 || true
  chart=$(sed -n 's/^chart: //p' "$log" | tail -n 1)
  echo "error: gnuplot failed on ${chart:-its start, before any chart}" >&2
done
[ "$failed" -eq 0 ] || { echo "error: gnuplot failed (above) on run $run" >&2; exit 1; }
# Hover labels as the browser's own tooltips (no gnuplot_svg.js needed).
"$PYTHON" "$here/svg_tooltips.py" "$data"/*.svg
for f in "$data"/*.png "$data"/*.svg; do
  [ -s "$f" ] || { echo "error: gnuplot wrote an empty $(basename "$f")" >&2; exit 1; }
  mv -f "$f" "$staging/"
done
rm -rf "$data"
# The run's page beside its images (scripts/page.py: the answer, heat maps, charts, tables).
"$PYTHON" "$here/page.py" "$run" "$staging" ||
  { echo "error: the run's page (index.html) could not be written (above)" >&2; exit 1; }
count=$(find "$staging" -maxdepth 1 -type f \( -name '*.png' -o -name '*.svg' \) | wc -l)
[ -n "$into" ] && exit 0

# Publish: the new folder replaces the old drawing in one rename, Ctrl-C held off meanwhile.
out="$plots_dir/$run_id"
trap '' INT TERM HUP
ecsb_replace_dir "$staging" "$out"
trap - EXIT
echo "plots: $count files in ${out#"$top"/}/"
