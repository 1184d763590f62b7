#!/usr/bin/env bash
# test_registry.sh — every strategy file is registered and every registration has its file:
# strategies/<name>.c (all but template.c, the file new strategies copy) <-> one line
# ECSB_STRATEGY(<name>) in strategies/strategies.def. A file that is not registered is
# compiled but never tested or benchmarked, so this fails naming it. A control run on a copy
# with an unregistered file must fail too.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)

# check_registry DIR: 0 when DIR/strategies matches its strategies.def; names each mismatch.
check_registry() {
  local dir=$1 rc=0 f name registered
  registered=$(sed -e 's:/\*.*\*/::g' "$dir/strategies/strategies.def" |
    sed -n 's/^[[:space:]]*ECSB_STRATEGY([[:space:]]*\([A-Za-z0-9_]*\)[[:space:]]*).*/\1/p')
  for f in "$dir"/strategies/*.c; do
    name=$(basename "$f" .c)
    [ "$name" = template ] && continue
    if ! grep -qx "$name" <<<"$registered"; then
      echo "  FAIL: strategies/$name.c is not registered: add ECSB_STRATEGY($name) to strategies/strategies.def (or remove the file); unregistered strategies are never tested" >&2
      rc=1
    fi
  done
  for name in $registered; do
    [ -f "$dir/strategies/$name.c" ] ||
      { echo "  FAIL: strategies.def registers $name but strategies/$name.c does not exist" >&2; rc=1; }
  done
  [ "$(sort <<<"$registered" | uniq -d)" = "" ] ||
    { echo "  FAIL: strategies.def registers $(sort <<<"$registered" | uniq -d | paste -sd' ') twice" >&2; rc=1; }
  return $rc
}

failures=0
check_registry "$top" || failures=$((failures + 1))

# control: an unregistered file in a copy is caught, by name
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/strategies"
cp "$top"/strategies/*.c "$top"/strategies/strategies.def "$tmp/strategies/"
cp "$top/strategies/template.c" "$tmp/strategies/forgotten.c"
if check_registry "$tmp" 2>"$tmp/err"; then
  echo "  FAIL control: an unregistered strategies/forgotten.c was not caught" >&2
  failures=$((failures + 1))
elif ! grep -q "strategies/forgotten.c is not registered" "$tmp/err"; then
  echo "  FAIL control: the message does not name strategies/forgotten.c: $(cat "$tmp/err")" >&2
  failures=$((failures + 1))
fi
rm "$tmp/strategies/forgotten.c"
echo "ECSB_STRATEGY(ghost)" >>"$tmp/strategies/strategies.def"
check_registry "$tmp" 2>/dev/null && { echo "  FAIL control: a registration without its file was not caught" >&2; failures=$((failures + 1)); }

[ "$failures" -eq 0 ]
