#!/usr/bin/env bash
# test_build_flags.sh — an object of the release build is rebuilt when the compile flags
# change (make OPT=-O3 after a default build must not link -O2 objects under a provenance
# that says -O3), and only then. Builds one object in a scratch build folder.
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
exit $rc
