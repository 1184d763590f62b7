#!/usr/bin/env bash
# setup.sh GROUP — make sure the Debian packages a make target needs are installed.
#   build       compilers and Google Benchmark (a version ecsbench was tested with)
#   test        what make test uses (cmocka, valgrind, clang + libFuzzer, Python + scipy and
#               statsmodels, gnuplot, hyperfine)
#   bench       make bench: Python + scipy and statsmodels for the CSV, summary and report,
#               gnuplot for the plots
#   plots       gnuplot and its font, Python
#   compare     Python + scipy and statsmodels, Google Benchmark's compare tools
#   hyperfine   hyperfine, Python
#   cachegrind  valgrind, Python
#   coverage    lcov (make coverage), and what make test uses
#   all         every one of them (make deps)
# As root: installs what is missing (apt-get). Otherwise: prints the one command that installs
# it and exits 1. A Google Benchmark version other than the tested ones stops the build (exit 1)
# unless ECSB_GBENCH_UNTESTED=1.
set -euo pipefail

# Google Benchmark versions harness/gbench.cc was tested with.
gbench_tested=(1.7.1)

group=${1:-all}
case $group in
  build) packages=(gcc g++ make libbenchmark-dev) ;;
  test) packages=(libcmocka-dev valgrind clang libclang-rt-14-dev python3 python3-scipy
    python3-statsmodels gnuplot-nox fonts-dejavu-core hyperfine libbenchmark-tools) ;;
  bench) packages=(python3 python3-scipy python3-statsmodels gnuplot-nox fonts-dejavu-core) ;;
  plots) packages=(python3 gnuplot-nox fonts-dejavu-core) ;;
  compare) packages=(python3 python3-scipy python3-statsmodels libbenchmark-tools) ;;
  hyperfine) packages=(hyperfine python3) ;;
  cachegrind) packages=(valgrind python3) ;;
  coverage) packages=(lcov libcmocka-dev valgrind clang libclang-rt-14-dev python3 python3-scipy
    python3-statsmodels gnuplot-nox fonts-dejavu-core hyperfine libbenchmark-tools) ;;
  all) packages=(gcc g++ make libbenchmark-dev libbenchmark-tools python3 python3-scipy
    python3-statsmodels gnuplot-nox fonts-dejavu-core hyperfine libcmocka-dev valgrind clang libclang-rt-14-dev lcov) ;;
  *)
    echo "setup.sh: unknown group '$group'; valid: build test bench plots compare hyperfine cachegrind coverage all" >&2
    exit 2
    ;;
esac

installed() { [[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true) == "install ok installed" ]]; }

missing=()
for p in "${packages[@]}"; do
  # Google Benchmark built from source counts when pkg-config knows it.
  if [[ $p == libbenchmark-dev ]] && pkg-config --exists benchmark 2>/dev/null; then continue; fi
  installed "$p" || missing+=("$p")
done

if [[ ${#missing[@]} -ne 0 ]]; then
  if [[ $(id -u) -ne 0 ]]; then
    echo "ecsbench ($group) needs these Debian packages: ${missing[*]}" >&2
    echo "Install them with:  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [[ $group == build || $group == all ]]; then
  version=$(pkg-config --modversion benchmark 2>/dev/null ||
    dpkg-query -W -f='${Version}' libbenchmark-dev 2>/dev/null | sed 's/-[^-]*$//' || true)
  for v in "${gbench_tested[@]}"; do [[ $version == "$v" ]] && exit 0; done
  msg="Google Benchmark ${version:-of unknown version} is installed; ecsbench was tested with ${gbench_tested[*]} only"
  if [[ ${ECSB_GBENCH_UNTESTED:-} == 1 ]]; then
    echo "setup: warning: $msg (building anyway: ECSB_GBENCH_UNTESTED=1)" >&2
    exit 0
  fi
  echo "error: $msg (harness/gbench.cc; reporters and flags change between versions)." >&2
  echo "Install the tested one:  sudo apt-get install -y --allow-downgrades libbenchmark-dev=1.7.1-1 libbenchmark1debian=1.7.1-1" >&2
  echo "or build with it at your own risk:  make ECSB_GBENCH_UNTESTED=1 ...  (then say so in results)" >&2
  exit 1
fi
