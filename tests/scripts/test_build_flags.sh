#!/usr/bin/env bash
# test_build_flags.sh — an object of the release build is rebuilt when the compile flags
# change (make OPT=-O3 after a default build must not link -O2 objects under a provenance
# that says -O3), and only then. Builds one object in a scratch build folder. And the fuzz
# binary, built by one command from every source, is rebuilt when a header a strategy
# includes changes (strategies/paged_sparse_set.h), and the run provenance hashes it.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
obj=$tmp/release/scenarios/scenarios.o
rc=0
compiles() { # OPT: 0 when make compiled the object
  make --no-print-directory BUILD="$tmp" OPT="$1" "$obj" 2>&1 | grep -q -- "-c -o $obj"
}
compiles -O2 || { echo "  FAIL: the first build did not compile $obj" >&2; rc=1; }
! compiles -O2 || { echo "  FAIL: an unchanged build compiled $obj again" >&2; rc=1; }
compiles -O1 || { echo "  FAIL: OPT=-O1 after OPT=-O2 did not rebuild $obj (stale flags)" >&2; rc=1; }
grep -q -- "-O1" "$tmp/release/flags" || { echo "  FAIL: $tmp/release/flags does not record -O1" >&2; rc=1; }
compiles -O2 || { echo "  FAIL: OPT=-O2 after OPT=-O1 did not rebuild $obj" >&2; rc=1; }
# A fuzz binary newer than every source: out of date only through a changed header.
mkdir -p "$tmp/fuzz" && touch "$tmp/.deps-test" && touch -d '+1 hour' "$tmp/fuzz/fuzz_world"
make -n --no-print-directory BUILD="$tmp" "$tmp/fuzz/fuzz_world" 2>&1 | grep -q fuzz_world.c &&
  { echo "  FAIL: an up-to-date fuzz binary would be rebuilt" >&2; rc=1; }
for h in strategies/paged_sparse_set.h scenarios/floors/dual_iterate.h harness/ecsb.h; do
  make -n --no-print-directory BUILD="$tmp" -W "$h" "$tmp/fuzz/fuzz_world" 2>&1 | grep -q fuzz_world.c ||
    { echo "  FAIL: a change to $h does not rebuild the fuzz binary" >&2; rc=1; }
  make -s --no-print-directory print-HASHED_SRC | tr ' ' '\n' | grep -qx "$h" ||
    { echo "  FAIL: $h is not among the sources hashed into a run's provenance" >&2; rc=1; }
done
exit $rc
