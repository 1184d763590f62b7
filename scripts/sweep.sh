#!/usr/bin/env bash
# sweep.sh BIN SCENARIO PARAM [VALUES] — one sweep: SCENARIO at each value of its parameter
# PARAM (VALUES: comma list; default the parameter's declared sweep), through the pipeline of
# make bench (scripts/bench.sh: results/<id>/ with the crossover table in summary.md, and
# plots/<id>/ with the crossover chart). sweep.sh BIN --all: every scenario's every parameter
# but `order`, at its declared sweep, one run each (make sweeps); --all --list prints them.
# Every sweep runs in every world order: ORDERS (default regular,shuffled,aged; a comma list
# narrows it) gives its rows per world, and the crossover table one sweep per world (the
# order is one of the parameters each sweep holds fixed, scripts/ecsb_crossover.py).
# Environment: SIZES (default 65536), ORDERS, STRATEGIES, QUICK, PYTHON, and what bench.sh
# takes.
# Exit 2 with the valid names or range when SCENARIO, PARAM or a value is wrong.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib.sh disable=SC1091
. "$here/lib.sh"
PYTHON=${PYTHON:-/usr/bin/python3}
bin=${1:-}
[ -x "$bin" ] || ecsb_usage_error "usage: scripts/sweep.sh build/ecsbench SCENARIO PARAM [VALUES] | --all (or: make sweep / make sweeps)"
shift
list=$("$bin" list --json)

# The scenarios and PARAMS lists of the sweep(s), from the binary's own declarations.
plan=$(ECSB_LIST="$list" "$PYTHON" - "$@" <<'EOF2'
import json, os, sys
doc = json.loads(os.environ["ECSB_LIST"])
scen = {s["name"]: s for s in doc["scenarios"]}
args = sys.argv[1:]
def fail(msg):
    print(msg, file=sys.stderr)
    sys.exit(2)
if args[:1] == ["--all"] and args[1:] in ([], ["--list"]):
    pairs = [f"{s['name']} {p['name']}" for s in doc["scenarios"] for p in s["params"]
             if p["name"] != "order"]
    if not pairs:
        fail("sweep: no scenario declares a parameter to sweep")
    print("--all")
    print("\n".join(pairs))
    sys.exit(0)
if len(args) < 2 or len(args) > 3:
    fail("sweep: want SCENARIO and PARAM (make sweep SCENARIO=x PARAM=p [VALUES=a,b])")
name, param = args[0], args[1]
if name not in scen:
    fail(f"sweep: unknown scenario '{name}'; valid: {' | '.join(scen)}")
declared = {p["name"]: p for p in scen[name]["params"]}
sweepable = [p for p in declared if p != "order"]
if param not in declared or param == "order":
    fail(f"sweep: {name} has no parameter '{param}' to sweep; valid: "
         f"{' | '.join(sweepable) or '(none: it declares only order)'}")
values = args[2] if len(args) == 3 and args[2] else ",".join(declared[param]["sweep"])
print(name)
print(f"{param}={values}")
EOF2
) || exit 2
if [ "$(sed -n 1p <<<"$plan")" = "--all" ]; then
  # One run per (scenario, parameter): each sweep varies one parameter, the others at their
  # defaults, and gets its own results/<id>/ with its crossover table and chart.
  if [ "${2:-}" = "--list" ]; then # what make sweeps would run, one "scenario param" a line
    sed 1d <<<"$plan"
    exit 0
  fi
  sed 1d <<<"$plan" | while read -r scenario param; do
    "$0" "$bin" "$scenario" "$param" </dev/null || exit $?
  done
  exit $?
fi
scenarios=$(sed -n 1p <<<"$plan")
params=$(sed -n 2p <<<"$plan")
SIZES=${SIZES:-65536}
ORDERS=${ORDERS:-regular,shuffled,aged}
echo "sweep: $scenarios, $params, N = $SIZES, worlds $ORDERS" >&2
# Values the binary refuses (out of range, malformed) stop the run here with its message (exit 2).
for p in $params "order=$ORDERS"; do
  "$bin" bench --ecsb_scenarios="$scenarios" --ecsb_param="$p" --ecsb_sizes=1 \
    --benchmark_list_tests >/dev/null || exit 2
done
export SCENARIOS=$scenarios PARAMS="order=$ORDERS $params" SIZES
exec "$here/bench.sh" "$bin"
