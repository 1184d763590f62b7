#!/usr/bin/env bash
# test_contract.sh — a strategy file that breaks the contract does not build, and the message
# names the contract: the template compiled with the Makefile's own flags (make print-CFLAGS)
# builds cleanly; with a contract function missing, or of the wrong type, the build stops
# with "strategy contract" / ECSB_STRATEGY_CONTRACT and the function's name; a call to a
# function that does not exist is an error, not a warning.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "  FAIL: $*" >&2; failures=$((failures + 1)); }

cc=$(make -s --no-print-directory -C "$top" print-CC)
read -r -a cflags <<<"$(make -s --no-print-directory -C "$top" print-CFLAGS)"
# compile NAME: strategies' flags, the file $tmp/NAME.c; output in $tmp/NAME.log
compile() { (cd "$top" && "$cc" -I. "${cflags[@]}" -c -o "$tmp/$1.o" "$tmp/$1.c") >"$tmp/$1.log" 2>&1; }

cp "$top/strategies/template.c" "$tmp/good.c"
compile good || fail "the template does not build with the Makefile's flags: $(head -c 400 "$tmp/good.log")"
[ ! -s "$tmp/good.log" ] || fail "the template builds with messages: $(head -c 400 "$tmp/good.log")"

# missing: world_corrupt's definition removed (it is the last function before the descriptor)
sed '/^static int world_corrupt(world \*w, unsigned which)$/,/^}$/d' "$top/strategies/template.c" >"$tmp/missing.c"
if grep -q "world_corrupt(world \*w" "$tmp/missing.c"; then
  fail "could not remove world_corrupt from the template (template changed?)"
elif compile missing; then
  fail "a strategy without world_corrupt builds"
else
  grep -q "ECSB_STRATEGY_CONTRACT(world_corrupt" "$tmp/missing.log" ||
    fail "a missing world_corrupt: the message does not name the contract: $(head -c 600 "$tmp/missing.log")"
fi

# mistyped: entity_count returning int instead of size_t
sed 's/^static size_t entity_count(const world \*w)/static int entity_count(const world *w)/' \
  "$top/strategies/template.c" >"$tmp/mistyped.c"
if ! grep -q "^static int entity_count" "$tmp/mistyped.c"; then
  fail "could not retype entity_count in the template (template changed?)"
elif compile mistyped; then
  fail "a strategy whose entity_count returns int builds"
else
  grep -q "strategy contract (harness/strategy.h): entity_count must have type" "$tmp/mistyped.log" ||
    fail "a mistyped entity_count: the message does not name the contract: $(head -c 600 "$tmp/mistyped.log")"
fi

# an undeclared function is an error
sed 's/^\(static size_t entity_count(const world \*w) {\) return [^;]*; }/\1 return live_entities(w); }/' \
  "$top/strategies/template.c" >"$tmp/implicit.c"
if ! grep -q "live_entities(w)" "$tmp/implicit.c"; then
  fail "could not plant an undeclared call in the template (template changed?)"
elif compile implicit; then
  fail "a strategy calling an undeclared function builds"
else
  grep -q "error: implicit declaration of function .live_entities" "$tmp/implicit.log" ||
    fail "an undeclared call: not an implicit-declaration error: $(head -c 400 "$tmp/implicit.log")"
fi

[ "$failures" -eq 0 ]
