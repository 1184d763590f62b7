#!/usr/bin/env bash
# setup.sh — make sure the Debian packages ecsbench needs are installed.
# As root: installs what is missing (apt-get). Otherwise: prints the one command to run, exit 1.
set -euo pipefail

packages=(
  gcc g++ make              # the build
  libbenchmark-dev          # Google Benchmark (through harness/gbench.cc)
  libbenchmark-tools        # its compare.py (make compare)
  python3 python3-scipy     # JSON -> CSV, summaries; scipy for compare.py's U test
  gnuplot-nox               # plots
  fonts-dejavu-core         # the plots' font (only recommended by gnuplot)
  hyperfine                 # whole-process timing (make hyperfine)
  libcmocka-dev             # the C test framework (make test)
  valgrind                  # cachegrind for noise-free instruction and miss counts
  clang libclang-rt-14-dev  # the fuzzer (make fuzz, make test): libFuzzer comes with clang's runtime
  lcov                      # line coverage (make coverage)
)
missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -ne 0 ]]; then
  echo "ecsbench needs these Debian packages: ${missing[*]}" >&2
  echo "Install them with:  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
