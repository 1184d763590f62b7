#!/usr/bin/env bash
# new_strategy.sh NAME — start a new strategy: copy strategies/template.c (the plainest correct
# strategy) to strategies/NAME.c, name it NAME, and register it by appending
# ECSB_STRATEGY(NAME) to strategies/strategies.def (last in legend order). `make new-strategy
# NAME=x` runs it. Then edit strategies/NAME.c; `make test` checks it like every other
# strategy and `make bench` puts it in every table and plot.
# Exit 2, changing nothing, when NAME is not a valid new name.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
name=${1:-}

die() {
  echo "error: $*" >&2
  exit 2
}
[ $# -eq 1 ] || die "usage: make new-strategy NAME=<name>  (or scripts/new_strategy.sh <name>)"
[ -n "$name" ] || die "no name: make new-strategy NAME=<name>, e.g. NAME=bitset_pool"
[[ $name =~ ^[a-z][a-z0-9_]{0,31}$ ]] ||
  die "'$name' is not a strategy name: 1 to 32 of a-z 0-9 _, starting with a letter (it names the file, the registry entry, the CSV value and the plot legend)"
case $name in
  floor | limit | template | all)
    die "'$name' is reserved (floor and limit are the references, template the file copied, all a selection word)" ;;
esac
def=$top/strategies/strategies.def
file=$top/strategies/$name.c
[ ! -e "$file" ] || die "strategies/$name.c already exists; pick another name"
if grep -qE "^[[:space:]]*ECSB_STRATEGY\([[:space:]]*$name[[:space:]]*\)" "$def"; then
  die "$name is already registered in strategies/strategies.def"
fi
template=$top/strategies/template.c
[ "$(grep -c '^#define ECSB_STRATEGY_NAME template$' "$template")" -eq 1 ] ||
  { echo "error: strategies/template.c has no '#define ECSB_STRATEGY_NAME template' line to rename" >&2; exit 1; }

tmp=$(mktemp "$top/strategies/.new-$name.XXXXXX")
trap 'rm -f "$tmp"' EXIT
sed -e "s/^#define ECSB_STRATEGY_NAME template\$/#define ECSB_STRATEGY_NAME $name/" \
  -e "s/^#define ECSB_STRATEGY_SUMMARY .*/#define ECSB_STRATEGY_SUMMARY \"$name: TODO one line, the idea (copied from the template)\"/" \
  -e "2s/^ \* template — .*/ * $name — TODO: the idea. Copied from strategies\/template.c: replace this comment with yours./" \
  "$template" >"$tmp"
mv "$tmp" "$file"
trap - EXIT
[ -z "$(tail -c 1 "$def")" ] || echo >>"$def" # the last line ends before ours starts
printf 'ECSB_STRATEGY(%s)\n' "$name" >>"$def"

cat <<EOF
new strategy $name:
  strategies/$name.c          a copy of the template, named $name (edit it: layout, functions, header comment)
  strategies/strategies.def   ECSB_STRATEGY($name) appended (line order = legend order)
next:
  make test                   conformance, differential and bad-input tests on every strategy, $name included
  make bench QUICK=1 STRATEGIES=$name   a first look beside the floor
EOF
