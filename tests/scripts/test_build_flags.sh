#!/usr/bin/env bash
# test_build_flags.sh — an object of the release build is rebuilt when the compile flags
# change (make OPT=-O3 after a default build must not link -O2 objects under a provenance
# that says -O3), and only then. Builds one object in a scratch build folder. And the fuzz
# binary's objects are rebuilt when a header they include changes, and only then.
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
# The fuzz binary is linked from one object per source. An object is rebuilt when a header it
# includes changes (its .d file), and only then; a strategy's fuzz object compiles no scenario
# (ECSB_NO_SCENARIOS), so a scenario header does not touch it. Every header is hashed into a
# run's provenance.
fobj=$tmp/fuzz/obj/strategies/paged_sparse_set.o
touch "$tmp/.deps-test"
make --no-print-directory BUILD="$tmp" "$fobj" >"$tmp/fuzz.log" 2>&1 ||
  { echo "  FAIL: could not build the fuzz object $fobj: $(tail -3 "$tmp/fuzz.log")" >&2; rc=1; }
make -n --no-print-directory BUILD="$tmp" "$fobj" 2>&1 | grep -q -- "-c -o $fobj" &&
  { echo "  FAIL: an up-to-date fuzz object would be rebuilt" >&2; rc=1; }
for h in strategies/paged_sparse_set.h strategies/paged/views.h harness/ecsb.h harness/strategy_impl.h; do
  make -n --no-print-directory BUILD="$tmp" -W "$h" "$fobj" 2>&1 | grep -q -- "-c -o $fobj" ||
    { echo "  FAIL: a change to $h does not rebuild the fuzz object" >&2; rc=1; }
done
make -n --no-print-directory BUILD="$tmp" -W scenarios/floors/dual_iterate.h "$fobj" 2>&1 |
  grep -q -- "-c -o $fobj" &&
  { echo "  FAIL: a scenario header rebuilds a fuzz object (are scenarios compiled into it?)" >&2; rc=1; }
make -n --no-print-directory BUILD="$tmp" "$tmp/fuzz/fuzz_world" 2>&1 | grep -q -- "-o $tmp/fuzz/fuzz_world .*paged_sparse_set.o" ||
  { echo "  FAIL: the fuzz binary is not linked from the per-source objects" >&2; rc=1; }
for h in strategies/paged_sparse_set.h strategies/paged/storage.h scenarios/floors/dual_iterate.h harness/ecsb.h; do
  make -s --no-print-directory print-HASHED_SRC | tr ' ' '\n' | grep -qx "$h" ||
    { echo "  FAIL: $h is not among the sources hashed into a run's provenance" >&2; rc=1; }
done
exit $rc
