#!/usr/bin/env bash
# test_setup.sh — tools are checked where a target needs them (scripts/setup.sh GROUP), with
# fake dpkg-query / pkg-config / id / apt-get on PATH:
#  - the build group asks only for the compilers and Google Benchmark: nothing else missing
#    stops it; each group names exactly its missing packages in one apt-get command;
#  - as root the missing packages are installed (apt-get called with exactly them);
#  - Google Benchmark 1.7 and later is accepted (and named), older ones stop the build with a
#    message and exit 2 (gbench-version feeds it version strings);
#  - without apt-get, what a group needs is tried (compiler, headers, commands) and what is
#    missing is listed by purpose, exit 2;
#  - through make: `make plots` with gnuplot missing stops before plotting and names it, and
#    building the binary does not ask for gnuplot, hyperfine, valgrind or scipy.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "  FAIL: $*" >&2; failures=$((failures + 1)); }

fake=$tmp/bin
mkdir -p "$fake"
# dpkg-query: "installed" unless the package is listed in $FAKE_MISSING; version $FAKE_GB_VERSION
cat >"$fake/dpkg-query" <<'EOF'
#!/bin/bash
pkg=${!#}
for m in $FAKE_MISSING; do [ "$m" = "$pkg" ] && exit 1; done
case "$*" in *'${Version}'*) echo "${FAKE_GB_VERSION:-1.7.1}-1" ;; *) echo "install ok installed" ;; esac
EOF
cat >"$fake/pkg-config" <<'EOF'
#!/bin/bash
[ -n "${FAKE_PKGCONFIG:-}" ] || exit 1
case $1 in --modversion) echo "$FAKE_PKGCONFIG" ;; --exists) exit 0 ;; esac
EOF
printf '#!/bin/bash\necho "${FAKE_UID:-1000}"\n' >"$fake/id"
printf '#!/bin/bash\necho "$*" >>"%s/apt.log"\n' "$tmp" >"$fake/apt-get"
chmod +x "$fake"/*

# setup GROUP: run scripts/setup.sh with the fakes; output in $tmp/out, status in $rc
setup() { PATH=$fake:$PATH "$top/scripts/setup.sh" "$@" >"$tmp/out" 2>&1; rc=$?; }

all="gcc g++ make libbenchmark-dev libbenchmark-tools python3 python3-scipy python3-statsmodels gnuplot-nox fonts-dejavu-core hyperfine libcmocka-dev valgrind"
export FAKE_MISSING=""
setup build
[ "$rc" -eq 0 ] || fail "build with everything installed: exit $rc: $(cat "$tmp/out")"

# the build needs only compilers + Google Benchmark
export FAKE_MISSING="gnuplot-nox fonts-dejavu-core hyperfine valgrind python3-scipy python3-statsmodels libcmocka-dev libbenchmark-tools python3"
setup build
[ "$rc" -eq 0 ] || fail "build refused for a tool it does not need: $(cat "$tmp/out")"

# each group names exactly its missing packages, in one command
check_group() { # GROUP MISSING-EXPECTED
  setup "$1"
  [ "$rc" -eq 1 ] || fail "$1 with $2 missing: exit $rc, want 1"
  grep -qx "Install them with:  sudo apt-get update && sudo apt-get install -y $2" "$tmp/out" ||
    fail "$1: want the one command installing '$2', got: $(cat "$tmp/out")"
}
export FAKE_MISSING="$all"
check_group build "gcc g++ make libbenchmark-dev"
check_group plots "python3 gnuplot-nox fonts-dejavu-core python3-scipy python3-statsmodels"
check_group hyperfine "hyperfine python3"
check_group cachegrind "valgrind python3"
check_group compare "python3 python3-scipy python3-statsmodels libbenchmark-tools"
check_group bench "python3 python3-scipy python3-statsmodels gnuplot-nox fonts-dejavu-core"
export FAKE_MISSING="valgrind"
check_group test "valgrind"

# as root: apt-get installs exactly the missing ones
export FAKE_MISSING="gnuplot-nox"
rm -f "$tmp/apt.log"
FAKE_UID=0 setup plots
[ "$rc" -eq 0 ] || fail "plots as root: exit $rc: $(cat "$tmp/out")"
grep -q "install -y -qq --no-install-recommends gnuplot-nox$" "$tmp/apt.log" 2>/dev/null ||
  fail "as root, apt-get was not asked for gnuplot-nox: $(cat "$tmp/apt.log" 2>/dev/null)"

# Google Benchmark versions: 1.7 and later
export FAKE_MISSING=""
for v in 1.7.1 1.8.3 1.9.1 1.10.0 2.0.0; do
  setup gbench-version "$v"
  [ "$rc" -eq 0 ] && grep -q "Google Benchmark $v found" "$tmp/out" ||
    fail "version $v: exit $rc, want 0 and its name: $(cat "$tmp/out")"
done
for v in 1.6.1 1.5 0.9.0 1 junk ""; do
  setup gbench-version "$v"
  [ "$rc" -eq 2 ] || fail "version '$v': exit $rc, want 2"
done
setup gbench-version 1.6.1
grep -q "Google Benchmark 1.6.1 is installed; ecsbench needs 1.7 or later" "$tmp/out" ||
  fail "no clear message for 1.6.1: $(cat "$tmp/out")"
FAKE_GB_VERSION=1.6.1 setup build
[ "$rc" -eq 2 ] && grep -q "1.6.1 is installed; ecsbench needs 1.7" "$tmp/out" ||
  fail "the build with 1.6.1 installed: exit $rc: $(cat "$tmp/out")"
FAKE_GB_VERSION=1.8.3 setup build
[ "$rc" -eq 0 ] && grep -q "1.8.3 found" "$tmp/out" || fail "the build with 1.8.3: exit $rc: $(cat "$tmp/out")"
FAKE_PKGCONFIG=1.6.0 setup build
grep -q "Google Benchmark 1.6.0 is installed" "$tmp/out" || fail "pkg-config's version is not the one checked: $(cat "$tmp/out")"
FAKE_GB_VERSION=2:1.9.1 setup build
[ "$rc" -eq 0 ] || fail "a Debian epoch in the version (2:1.9.1): exit $rc: $(cat "$tmp/out")"

# ---- a system without apt-get: tried, and what is missing named by purpose (exit 2) -----------
bare=$tmp/bare
mkdir -p "$bare"
for t in bash env mktemp rm cat sed grep; do ln -s "$(command -v "$t")" "$bare/$t"; done
PATH=$bare CC=nocc CXX=nocxx "$top/scripts/setup.sh" build >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 2 ] || fail "build without apt-get or a compiler: exit $rc, want 2: $(cat "$tmp/out")"
for want in "has no apt-get" "a C17 compiler and make" "a C++17 compiler" "Google Benchmark 1.7 or later"; do
  grep -q "$want" "$tmp/out" || fail "without apt-get, build does not name '$want': $(cat "$tmp/out")"
done
grep -q "gnuplot" "$tmp/out" && fail "the build group names gnuplot, which it does not need"
PATH=$bare "$top/scripts/setup.sh" plots >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 2 ] && grep -q "gnuplot (the plots)" "$tmp/out" && grep -q "Python 3" "$tmp/out" ||
  fail "plots without apt-get, gnuplot or python3: exit $rc: $(cat "$tmp/out")"
# with everything the group needs on PATH, no apt-get is no problem
printf '#!/bin/sh
exit 0
' >"$bare/hyperfine"; printf '#!/bin/sh
exit 0
' >"$bare/python3"
chmod +x "$bare/hyperfine" "$bare/python3"
PATH=$bare "$top/scripts/setup.sh" hyperfine >"$tmp/out" 2>&1 ||
  fail "hyperfine without apt-get but with hyperfine and python3: exit $?: $(cat "$tmp/out")"
setup nonsense
[ "$rc" -eq 2 ] || fail "an unknown group: exit $rc, want 2"

# ---- through make -------------------------------------------------------------------------
export FAKE_MISSING="gnuplot-nox"
PATH=$fake:$PATH make -s --no-print-directory -C "$top" plots RUN=results/none >"$tmp/out" 2>&1
rc=$?
[ "$rc" -ne 0 ] || fail "make plots with gnuplot missing succeeded"
grep -q "apt-get install -y gnuplot-nox" "$tmp/out" || fail "make plots does not say how to install gnuplot: $(cat "$tmp/out")"
export FAKE_MISSING="gnuplot-nox fonts-dejavu-core hyperfine valgrind python3-scipy libcmocka-dev"
PATH=$fake:$PATH make -s --no-print-directory -C "$top" BUILD="$tmp/build" "$tmp/build/.deps-build" >"$tmp/out" 2>&1 ||
  fail "the build's tool check asks for more than it needs: $(cat "$tmp/out")"

[ "$failures" -eq 0 ]
