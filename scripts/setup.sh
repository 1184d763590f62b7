#!/usr/bin/env bash
# setup.sh GROUP — make sure the Debian packages a make target needs are installed.
#   build       compilers and Google Benchmark (a version ecsbench was tested with)
#   test        what make test uses (cmocka, valgrind, clang + libFuzzer, Python + scipy and
#               statsmodels, gnuplot, hyperfine; chromium, jinja2 and markdown for the pages)
#   bench       make bench: Python + scipy and statsmodels for the CSV, summary and report,
#               gnuplot for the plots
#   plots       gnuplot and its font, Python + scipy, statsmodels, Jinja2 and Markdown
#   compare     Python + scipy and statsmodels, Google Benchmark's compare tools
#   hyperfine   hyperfine, Python
#   cachegrind  valgrind, Python
#   coverage    lcov (make coverage), and what make test uses
#   all         every one of them (make deps)
#   gbench-version V   only check a Google Benchmark version string (exit 0 or 2)
# As root: installs what is missing (apt-get). Otherwise: prints the one command that installs
# it and exits 1. On a system without apt-get: checks what the group needs by trying it (a
# compiler, a header, a command), and when something is missing prints what, by purpose, and
# exits 2. Google Benchmark older than 1.7 stops the build (exit 2): harness/gbench.cc uses only
# its public API of 1.7 and later (compiled with -Werror and run against 1.7.1, 1.8.3 and 1.9.5:
# 1.9 renamed the registered benchmark's type, and the wrapper never names it).
set -euo pipefail

# The oldest Google Benchmark the wrapper builds with.
gbench_oldest=1.7

# gbench_check VERSION: 0 when VERSION (major.minor[.patch...]) is gbench_oldest or later;
# else a message and 2.
gbench_check() {
  local version=$1 major minor
  if [[ ! $version =~ ^([0-9]+)\.([0-9]+)(\.[0-9]+)*$ ]]; then
    echo "error: cannot read the Google Benchmark version '${version:-}' (want major.minor[.patch])." >&2
    return 2
  fi
  major=${BASH_REMATCH[1]} minor=${BASH_REMATCH[2]}
  if (( major > 1 || (major == 1 && minor >= 7) )); then
    echo "setup: Google Benchmark $version found (ecsbench needs $gbench_oldest or later)" >&2
    return 0
  fi
  echo "error: Google Benchmark $version is installed; ecsbench needs $gbench_oldest or later" >&2
  echo "(harness/gbench.cc uses its public API of 1.7 on: State::KeepRunningBatch, counters, UseManualTime)." >&2
  echo "Install a newer libbenchmark-dev, or build Google Benchmark 1.7+ from source and make" >&2
  echo "pkg-config find it (PKG_CONFIG_PATH)." >&2
  return 2
}

group=${1:-all}
if [[ $group == gbench-version ]]; then
  gbench_check "${2:-}"
  exit $?
fi
case $group in
  build) packages=(gcc g++ make libbenchmark-dev) ;;
  test) packages=(libcmocka-dev valgrind clang libclang-rt-14-dev lld python3 python3-scipy
    python3-statsmodels gnuplot-nox fonts-dejavu-core hyperfine libbenchmark-tools
    chromium python3-jinja2 python3-markdown) ;;
  bench) packages=(python3 python3-scipy python3-statsmodels gnuplot-nox fonts-dejavu-core) ;;
  plots) packages=(python3 gnuplot-nox fonts-dejavu-core) ;;
  compare) packages=(python3 python3-scipy python3-statsmodels libbenchmark-tools) ;;
  hyperfine) packages=(hyperfine python3) ;;
  cachegrind) packages=(valgrind python3) ;;
  coverage) packages=(lcov libcmocka-dev valgrind clang libclang-rt-14-dev python3 python3-scipy
    python3-statsmodels gnuplot-nox fonts-dejavu-core hyperfine libbenchmark-tools
    chromium python3-jinja2 python3-markdown) ;;
  all) packages=(gcc g++ make libbenchmark-dev libbenchmark-tools python3 python3-scipy
    python3-statsmodels gnuplot-nox fonts-dejavu-core hyperfine libcmocka-dev valgrind clang libclang-rt-14-dev lld lcov
    chromium python3-jinja2 python3-markdown) ;;
  *)
    echo "setup.sh: unknown group '$group'; valid: build test bench plots compare hyperfine cachegrind coverage all gbench-version" >&2
    exit 2
    ;;
esac
# The run's page (scripts/page.py; make plots and make bench draw it): Jinja2 and Markdown. The
# heat map's marks of what a run cannot tell apart: the verdicts of scripts/ecsb_stats.py (SciPy,
# statsmodels). The page's browser test: chromium.
case $group in plots) packages+=(python3-scipy python3-statsmodels) ;; esac
case $group in test | bench | plots | coverage | all) packages+=(python3-jinja2 python3-markdown) ;; esac
case $group in test | coverage | all) packages+=(chromium) ;; esac
# clang joins the entt strategy's C and C++ halves with LTO through lld (Makefile LTO_R).
case $group in build | bench) [[ ${CC:-cc} == *clang* ]] && packages+=(lld) ;; esac

# ---- a system without apt-get: check by trying, say what is missing by purpose ------------
cc=${CC:-cc} cxx=${CXX:-c++}
try_compile() { # LANG FLAGS... < source: compiles and links quietly?
  local lang=$1; shift
  local out; out=$(mktemp); rm -f "$out"
  local compiler=$cc; [[ $lang == c++ ]] && compiler=$cxx
  "$compiler" -x "$lang" - -o "$out" "$@" >/dev/null 2>&1 && rm -f "$out"
}
need() { # PURPOSE: one line of the report
  lacking+=("  - $1")
}
check_by_trying() {
  lacking=()
  local p
  for p in "${packages[@]}"; do
    case $p in
      gcc) command -v "$cc" >/dev/null && command -v make >/dev/null ||
        need "a C17 compiler and make (gcc or clang; CC=$cc)" ;;
      g++) command -v "$cxx" >/dev/null || need "a C++17 compiler for the Google Benchmark wrapper (g++ or clang++; CXX=$cxx)" ;;
      libbenchmark-dev) printf '#include <benchmark/benchmark.h>\nint main() { return 0; }\n' |
        try_compile c++ -lbenchmark -lpthread ||
        need "Google Benchmark 1.7 or later: headers (benchmark/benchmark.h) and library (-lbenchmark)" ;;
      libcmocka-dev) printf '#include <stdarg.h>\n#include <stddef.h>\n#include <setjmp.h>\n#include <stdint.h>\n#include <cmocka.h>\nint main(void) { return 0; }\n' |
        try_compile c -lcmocka || need "cmocka (the C test framework: cmocka.h and -lcmocka)" ;;
      clang) printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' |
        cc=clang try_compile c -fsanitize=fuzzer ||
        need "clang with libFuzzer (clang -fsanitize=fuzzer), for make test's fuzz runs" ;;
      python3) command -v python3 >/dev/null || need "Python 3" ;;
      python3-scipy) python3 -c 'import scipy' 2>/dev/null || need "SciPy for Python 3 (statistics)" ;;
      python3-statsmodels) python3 -c 'import statsmodels' 2>/dev/null || need "statsmodels for Python 3 (the reference for the corrections)" ;;
      gnuplot-nox) command -v gnuplot >/dev/null || need "gnuplot (the plots)" ;;
      python3-jinja2) python3 -c 'import jinja2' 2>/dev/null || need "Jinja2 for Python 3 (the run's page)" ;;
      python3-markdown) python3 -c 'import markdown' 2>/dev/null || need "Python-Markdown (the run's page)" ;;
      chromium) command -v chromium >/dev/null || need "chromium (the run's page, tested headless)" ;;
      hyperfine) command -v hyperfine >/dev/null || need "hyperfine (whole-process timings)" ;;
      valgrind) command -v valgrind >/dev/null || need "valgrind (memcheck and cachegrind)" ;;
      lcov) command -v lcov >/dev/null || need "lcov (make coverage)" ;;
      lld) command -v ld.lld >/dev/null || need "lld (clang's linker: the entt strategy's LTO join)" ;;
      chromium) command -v chromium >/dev/null || need "chromium (renders the pages in the tests)" ;;
      python3-jinja2) python3 -c 'import jinja2' 2>/dev/null || need "Jinja2 for Python 3 (the pages)" ;;
      python3-markdown) python3 -c 'import markdown' 2>/dev/null || need "Markdown for Python 3 (the pages)" ;;
      *) ;; # fonts, Debian-only helpers: nothing to try
    esac
  done
}

if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-query >/dev/null 2>&1; then
  check_by_trying
  if [[ ${#lacking[@]} -ne 0 ]]; then
    echo "ecsbench ($group): this system has no apt-get, so setup.sh cannot install what is missing." >&2
    echo "Install these with your package manager, then run make again:" >&2
    printf '%s\n' "${lacking[@]}" >&2
    exit 2
  fi
  if [[ $group == build || $group == all ]] && command -v pkg-config >/dev/null &&
    version=$(pkg-config --modversion benchmark 2>/dev/null); then
    gbench_check "$version" || exit 2
  fi
  exit 0
fi

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
    dpkg-query -W -f='${Version}' libbenchmark-dev 2>/dev/null | sed 's/-[^-]*$//; s/^[0-9]*://' || true)
  gbench_check "$version" || exit 2
fi
