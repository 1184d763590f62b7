# ecsbench — `make help` lists the targets. GNU make; one build/ tree; auto dependencies.

PYTHON   ?= /usr/bin/python3
BUILD    ?= build
OPT      ?= -O2
# Every loop head on a 64-byte boundary. Without it a hot loop's place in the binary decides
# its speed: archetype's dual_iterate loop (33 bytes) straddled a boundary that the limit's
# did not, and ran 1.5-2x the limit's time for the same 8 instructions per pair; aligned, the
# two ran alike (0.8-1.0x). gcc aligns only blocks run at least 1/align-threshold (default
# 100) as often as the hottest of their function: owning_group's group loop, in a function
# whose guessed-hottest block is a view loop, was left unaligned and ran 1.7x the limit's
# time. Applied to every strategy, the floor and the limit alike. clang (CC=clang) has
# -falign-loops but no such threshold: it aligns every loop it is asked to.
CC_IS_CLANG := $(shell $(CC) --version 2>/dev/null | grep -qi clang && echo yes)
ifeq ($(CC_IS_CLANG),yes)
ALIGN    ?= -falign-loops=64
else
ALIGN    ?= -falign-loops=64 --param=align-threshold=65536
endif
QUICK    ?=
LARGE    ?=
ORDERS   ?= regular,shuffled,aged

# Implicit declarations are errors: a strategy calling a function that does not exist (or a
# contract function it forgot) must not build. harness/strategy_impl.h checks each contract
# function's type.
WARN     := -Wall -Wextra -Wpedantic -Werror=implicit-function-declaration
CPPFLAGS := -I. -MMD -MP
# clang 14 writes DWARF 5 forms valgrind 3.19 cannot read (make cachegrind would stop): DWARF 4.
DEBUG    := -g $(if $(findstring clang,$(CC)),-gdwarf-4)
CFLAGS   := -std=c17 $(WARN) $(OPT) $(ALIGN) $(DEBUG)
CXXFLAGS := -std=c++17 -Wall -Wextra $(OPT) $(DEBUG)
SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# The test build's debug information: line tables only (-g1), which is all a sanitizer report
# needs for its file:line stacks; it compiles the test build (every scenario inlined into every
# strategy, under ASan and UBSan: most of make test's build time) about 30% faster than -g.
# make TEST_DEBUG=-g for a debugger's variables (with ECSB_NO_FORK=1, tests/main.c).
TEST_DEBUG ?= -g1
TEST_OPT ?= -O1
# ECSB_NO_FORCED_INLINE (harness/strategy.h): a strategy's hot functions are not forced inline
# into every scenario of the test build. Forced, they made every strategy object (each with
# every scenario compiled against it) a large function per scenario under ASan+UBSan: the
# strategy objects were most of make test's build even at -O0 (sparse_set at -Og 22 s of CPU,
# owning_group at -O0 18 s); unforced, at the -O1 of the rest of the test build, 2-4 s each
# (the whole test build about 143 s -> 55 s of CPU), and the C tests run faster than the -O0
# objects did. The release build (what is measured) keeps them forced.
TEST_CFLAGS = -std=c17 $(WARN) $(TEST_OPT) $(TEST_DEBUG) $(SANITIZE) -DECSB_CHECKED -DECSB_NO_FORCED_INLINE
# entt_lib.cc at -O1, as the rest: about 17 s of CPU to compile (10 s at -O0), and the C tests
# of entt then take 36-44 s of CPU instead of 148 (EnTT's small functions out of line at -O0).
TEST_LIBCXX_OPT ?= -O1

# Every strategy file is compiled (the registry in strategies/strategies.def picks which run).
CORE_SRC  := harness/core.c harness/registry.c harness/timing.c harness/sentinel.c harness/machine_cpuid.c scenarios/scenarios.c scenarios/floor.c scenarios/limit.c \
             $(wildcard strategies/*.c)
# The vendored libraries (strategies/libs/, README.md there), each compiled once per build
# flavour into an object of its own (flecs.c is 2.9 MB: compiled into the strategy file, it
# would be compiled again for every flavour's every change of that file), with the flavour's
# optimisation, sanitizers and ECSB_CHECKED but without the project's warnings (their code,
# unchanged). Their strategies (strategies/flecs.c) are compiled like every other.
LIB_SRC   := strategies/libs/flecs_lib.c
LIB_CFLAGS = -std=gnu17 -w
# EnTT (C++, header only) is driven by strategies/libs/entt_lib.cc, its strategy's other half,
# compiled once per flavour, without exceptions (EnTT's ENTT_NOEXCEPTION: gcc inlines no C++
# function that has cleanups into C). In the release build the strategy and entt_lib.cc are
# compiled to LTO bytecode and joined into strategies/entt.o by a relocatable link-time
# optimisation (-r): the C++ calls are inlined into the scenario loops as an EnTT user's
# would be, and entt.o is an ordinary object (test_no_indirect_calls.sh reads it; the final
# link needs no LTO). The test and fuzz builds link the two objects as they are.
LIBCXX_SRC := strategies/libs/entt_lib.cc
LIBCXX_FLAGS = -std=c++17 -Wall -Wextra -fno-exceptions -DENTT_NOEXCEPTION -fno-jump-tables
LTO_SRC   := strategies/entt.c
# -fno-jump-tables: the switch from a type to its EnTT storage (entt_lib.cc) as compares, not
# an indirect jump (the C side too: the switch is inlined into it, with its options).
LTO_C     := -flto -fno-jump-tables
ifeq ($(CC_IS_CLANG),yes)
LTO_R     := -flto -fuse-ld=lld -r -nostdlib
else
LTO_R     := -flto=auto -flinker-output=nolto-rel -r -nostdlib
endif
BENCH_SRC := $(filter-out harness/core.c harness/registry.c harness/timing.c harness/sentinel.c harness/machine_cpuid.c,$(wildcard harness/*.c))
BENCH_CXX := $(wildcard harness/*.cc)
TEST_SRC  := $(wildcard tests/*.c)

REL := $(BUILD)/release
TST := $(BUILD)/test
CORE_OBJ  := $(CORE_SRC:%.c=$(REL)/%.o) $(LIB_SRC:%.c=$(REL)/%.o)
BENCH_OBJ := $(BENCH_SRC:%.c=$(REL)/%.o) $(BENCH_CXX:%.cc=$(REL)/%.o)
TEST_OBJ  := $(CORE_SRC:%.c=$(TST)/%.o) $(LIB_SRC:%.c=$(TST)/%.o) $(LIBCXX_SRC:%.cc=$(TST)/%.o) \
             $(TEST_SRC:%.c=$(TST)/%.o)
LTO_BC    := $(LTO_SRC:%.c=$(REL)/%.bc.o) $(LIBCXX_SRC:%.cc=$(REL)/%.bc.o)

# Tools are checked where a target needs them (scripts/setup.sh GROUP: installs as root, else
# prints the one apt-get command and stops). The build needs only the compilers and Google
# Benchmark (a version ecsbench was tested with); its check reruns when the library changes.
SETUP       := scripts/setup.sh
BUILD_STAMP := $(BUILD)/.deps-build
TEST_STAMP  := $(BUILD)/.deps-test

# Every compiled source with its SHA-256, recorded in each run's context (provenance.c).
# Every header the C sources include (strategies may share some, as paged_sparse_set.h and its
# parts in strategies/paged/).
ALL_HDR      := $(wildcard harness/*.h scenarios/*.h scenarios/defs/*.h scenarios/floors/*.h scenarios/limits/*.h \
                scenarios/*.def strategies/*.h strategies/*/*.h strategies/libs/*/*.h strategies/*.def)
HASHED_SRC   := $(sort $(CORE_SRC) $(LIB_SRC) $(LIBCXX_SRC) $(wildcard strategies/libs/*.h strategies/libs/*/*.c strategies/libs/*/*.hpp) $(BENCH_SRC) $(BENCH_CXX) $(ALL_HDR))
SOURCE_HASHES := $(REL)/generated/source_hashes.h

.PHONY: all deps bench machine sweep sweeps test test-fast test-slow test-c test-fuzz test-scripts run-c run-fuzz run-scripts-fast run-scripts-slow soak fuzz coverage plots page-check screenshot report findings choose compare hyperfine \
        cachegrind clean help new-strategy FORCE
.DEFAULT_GOAL := help

help: ## list the targets
	@echo "ecsbench — ECS component-storage strategies side by side"
	@echo
	@grep -hE '^[a-z-]+:.*## ' Makefile | sed 's/:.*## /\t/' | awk -F'\t' '{printf "  make %-12s %s\n", $$1, $$2}'
	@echo
	@echo "  Options: QUICK=1 (bench: a smoke run, not for verdicts)   RUN=results/<id> (plots, report)"
	@echo "           LARGE=1 (bench: the sizes above 65536 too, 262144 .. 4194304: the reference run)"
	@echo "           A=results/<id> B=results/<id> | STRATEGIES=s1,s2 (compare)"
	@echo "           WEIGHTS=frame:3,dual_iterate:1 (choose: scenario:weight, with RUN=)"
	@echo "           SIZE_WEIGHTS=4000:1,65536:3 (choose: how each scenario's weight is shared among its sizes; default equally)"
	@echo "           SCENARIOS=a,b STRATEGIES=x,y SIZES=4000,65536 (bench, hyperfine, cachegrind)"
	@echo "           PARAMS='match=1/16,1/4 order=regular,shuffled' (bench: scenario parameters;"
	@echo "           default order=regular,shuffled,aged; build/ecsbench list shows them)"
	@echo "           HYPERFINE_RUNS=10 (hyperfine)   CACHEGRIND_PASSES=1,3 (cachegrind)"
	@echo "           NAME=<name> (new-strategy)"

all: $(BUILD)/ecsbench ## build the benchmark binary (build/ecsbench)

deps: ## install every missing Debian package (as root), or print the apt command
	@$(SETUP) all

$(BUILD_STAMP): $(SETUP) $(wildcard /usr/include/benchmark/benchmark.h)
	@$(SETUP) build
	@mkdir -p $(@D) && touch $@

$(TEST_STAMP): $(SETUP)
	@$(SETUP) test
	@mkdir -p $(@D) && touch $@

$(BUILD)/ecsbench: $(CORE_OBJ) $(BENCH_OBJ) | $(BUILD_STAMP)
	$(CXX) $(OPT) -o $@ $^ -lbenchmark -lpthread

# The compile command of the release build: rewritten when it changes (make OPT=-O3, another
# CC), and every object depends on it, so no object built with other flags is ever linked.
FLAGS_STAMP := $(REL)/flags
$(FLAGS_STAMP): FORCE
	@mkdir -p $(@D)
	@echo '$(CC) $(CPPFLAGS) $(CFLAGS) | $(CXX) $(CXXFLAGS) | $(LIBCXX_FLAGS) $(LTO_C) $(LTO_R)' >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

$(REL)/%.o: %.c $(FLAGS_STAMP) | $(BUILD_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(LIB_SRC:%.c=$(REL)/%.o): $(REL)/%.o: %.c $(FLAGS_STAMP) | $(BUILD_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(LIB_CFLAGS) $(OPT) $(ALIGN) $(DEBUG) -c -o $@ $<

$(REL)/%.o: %.cc $(FLAGS_STAMP) | $(BUILD_STAMP)
	@mkdir -p $(@D)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) -c -o $@ $<

# EnTT's strategy: both halves as LTO bytecode, joined by a relocatable link-time optimisation.
$(LTO_SRC:%.c=$(REL)/%.bc.o): $(REL)/%.bc.o: %.c $(FLAGS_STAMP) | $(BUILD_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LTO_C) -c -o $@ $<
$(LIBCXX_SRC:%.cc=$(REL)/%.bc.o): $(REL)/%.bc.o: %.cc $(FLAGS_STAMP) | $(BUILD_STAMP)
	@mkdir -p $(@D)
	$(CXX) $(CPPFLAGS) $(LIBCXX_FLAGS) -DENTT_DISABLE_ASSERT $(OPT) $(ALIGN) $(DEBUG) $(LTO_C) -c -o $@ $<
$(LTO_SRC:%.c=$(REL)/%.o): $(REL)/%.o: $(LTO_BC)
	$(CXX) $(OPT) $(ALIGN) $(DEBUG) $(LTO_R) -o $@ $^

# Provenance: the exact build and its sources go into every run's JSON context.
# The Google Benchmark version built against (pkg-config, else Debian's package version).
GBENCH_VERSION := $(shell pkg-config --modversion benchmark 2>/dev/null || \
	dpkg-query -W -f='$${Version}' libbenchmark-dev 2>/dev/null | sed 's/-[^-]*$$//; s/^[0-9]*://')
$(REL)/harness/provenance.o: CPPFLAGS += -DECSB_GBENCH_VERSION='"$(or $(GBENCH_VERSION),unknown)"' \
	-DECSB_BUILD_CC='"$(CC)"' \
	-DECSB_BUILD_CFLAGS='"$(CFLAGS)"' -DECSB_BUILD_CXXFLAGS='"$(CXXFLAGS)"' \
	-DECSB_SOURCE_HASHES='"$(SOURCE_HASHES)"'
$(REL)/harness/provenance.o: Makefile $(SOURCE_HASHES)
# ecsbench machine: its kernels at fixed flags (the last -O wins), so the machine's figures,
# and the hardware line drawn from them, do not change with OPT; machine.json records both.
MACHINE_KERNEL_FLAGS := -O3
$(REL)/harness/machine_measure.o: CFLAGS += $(MACHINE_KERNEL_FLAGS)
$(REL)/harness/machine.o: CPPFLAGS += -DECSB_BUILD_CC='"$(CC)"' -DECSB_BUILD_CFLAGS='"$(CFLAGS)"' \
	-DECSB_MACHINE_KERNEL_FLAGS='"$(CFLAGS) $(MACHINE_KERNEL_FLAGS)"'
$(REL)/harness/machine.o: Makefile

# Rewritten (and provenance.o rebuilt) only when a hash or the list of sources changes.
$(SOURCE_HASHES): FORCE
	@mkdir -p $(@D)
	@sha256sum $(HASHED_SRC) | awk '{ printf "{\"%s\", \"%s\"},\n", $$2, substr($$1, 1, 16) }' >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

$(TST)/%.o: %.c | $(BUILD_STAMP) $(TEST_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(TEST_CFLAGS) -c -o $@ $<

# The C libraries (flecs) at the test build's -O1, without the sanitizers' instrumentation:
# their code is not ours to check, and flecs.c compiled 17 s of CPU with it, 8 s without.
# What they allocate still comes from ASan's malloc (redzones, leak checks), and our side of
# them (strategies/flecs.c) is compiled with the sanitizers as every strategy is.
$(LIB_SRC:%.c=$(TST)/%.o): $(TST)/%.o: %.c | $(BUILD_STAMP) $(TEST_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(LIB_CFLAGS) -O1 $(TEST_DEBUG) -DECSB_CHECKED -c -o $@ $<

$(LIBCXX_SRC:%.cc=$(TST)/%.o): $(TST)/%.o: %.cc | $(BUILD_STAMP) $(TEST_STAMP)
	@mkdir -p $(@D)
	$(CXX) $(CPPFLAGS) $(LIBCXX_FLAGS) $(TEST_LIBCXX_OPT) $(TEST_DEBUG) $(SANITIZE) -DECSB_CHECKED -c -o $@ $<

$(TST)/ecsbench_tests: $(TEST_OBJ)
	$(CXX) $(SANITIZE) -o $@ $^ -lcmocka -lm

# make test: one make graph, TEST_JOBS jobs at a time, kept going past a failing part (-k): the
# three builds, and each part as soon as its binary is built (the script tests need only the
# release binary, which builds first), so that no core idles while one part waits for another.
# Each part prints its output whole when it ends (--output-sync) and ends in its count line.
# The C tests and the script tests run TEST_JOBS processes of their own inside their job.
TEST_JOBS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); [ $$n -ge 2 ] && echo 2 || echo 1)
TEST_GRAPH = $(MAKE) --no-print-directory -k -j$(TEST_JOBS) --output-sync=target
test: ## build and run every test (sanitizers on): test-fast and test-slow, side by side
	@echo "make test: the test, fuzz and benchmark builds and every test part, $(TEST_JOBS) jobs at a time"
	@$(TEST_GRAPH) run-scripts-fast run-c run-scripts-slow run-fuzz

test-fast: ## the C tests and the quick script tests
	@$(TEST_GRAPH) run-scripts-fast run-c

test-slow: ## fuzzing, memcheck, the pipeline, crash and build script tests
	@$(TEST_GRAPH) run-scripts-slow run-fuzz

test-c: $(TST)/ecsbench_tests ## conformance, differential and bad-input tests, ASan+UBSan
	$(TST)/ecsbench_tests

soak: $(TST)/ecsbench_tests ## differential, fresh seeds until time is up: make soak SECONDS=n [STRATEGY=x]
	ECSB_SOAK_SECONDS=$(or $(SECONDS),60) $(TST)/ecsbench_tests $(or $(STRATEGY),all) 'differential*'

# The libFuzzer target (clang): the differential engine driven by input bytes, every strategy.
# Built by make from one object per source (in parallel with -j, rebuilt only where a source
# or a header it includes changed); the strategies are compiled with ECSB_NO_SCENARIOS: the
# fuzzer drives only world operations, so no scenario body is compiled into them. (Sharing the
# test build's objects instead would need that build in clang, which compiles the scenarios
# about 1.8x as long as gcc: more than this whole build costs.)
FUZZ_CC  ?= clang
FUZZ     := $(BUILD)/fuzz
FUZZ_BIN := $(FUZZ)/fuzz_world
FUZZ_CXX ?= clang++
FUZZ_SRC := harness/core.c harness/registry.c $(wildcard strategies/*.c) $(LIB_SRC) tests/support.c \
            tests/differential.c tests/fuzz/fuzz_world.c
FUZZ_OBJ := $(FUZZ_SRC:%.c=$(FUZZ)/obj/%.o) $(LIBCXX_SRC:%.cc=$(FUZZ)/obj/%.o)
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# The fuzz objects at -O0: clang -O1 spent about 140 s of CPU on them (flat_map alone 26 s),
# -O0 about 6 s; the target then runs about 0.6x as many inputs a second (flat_map 2,700 vs
# 4,600 under load), so make test fuzzes 5 s per strategy instead of 3 for as many inputs.
# For long runs: rm -rf build/fuzz; make fuzz FUZZ_OPT=-O1 (no stamp: objects keep their flags).
FUZZ_TEST_SECONDS ?= 5
FUZZ_OPT ?= -O0

$(LIBCXX_SRC:%.cc=$(FUZZ)/obj/%.o): $(FUZZ)/obj/%.o: %.cc | $(TEST_STAMP)
	@mkdir -p $(@D)
	$(FUZZ_CXX) $(CPPFLAGS) -DECSB_CHECKED $(LIBCXX_FLAGS) $(FUZZ_OPT) -g1 -fsanitize=fuzzer-no-link $(FUZZ_SAN) -c -o $@ $<

# The C libraries with libFuzzer's coverage (so inputs reaching new paths inside flecs count)
# but, as in the test build, without sanitizer instrumentation: 11 s -> 3 s of CPU to compile.
$(LIB_SRC:%.c=$(FUZZ)/obj/%.o): $(FUZZ)/obj/%.o: %.c | $(TEST_STAMP)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) -DECSB_CHECKED $(LIB_CFLAGS) $(FUZZ_OPT) -g1 -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ)/obj/%.o: %.c | $(TEST_STAMP)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) -DECSB_NO_SCENARIOS -DECSB_CHECKED -std=c17 $(WARN) $(FUZZ_OPT) -g1 -fsanitize=fuzzer-no-link \
		$(FUZZ_SAN) -c -o $@ $<

$(FUZZ_BIN): $(FUZZ_OBJ)
	$(FUZZ_CXX) -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $^ -lcmocka -lm

fuzz: $(FUZZ_BIN) ## coverage-guided fuzzing against the model: make fuzz [STRATEGY=x] [SECONDS=n] [NICE=19]
	@NICE=$(NICE) tests/fuzz/run.sh $(FUZZ_BIN) "$(STRATEGY)" $(or $(SECONDS),60)

test-fuzz: $(FUZZ_BIN) ## a short fuzz run per strategy (FUZZ_TEST_SECONDS each, default 5; make fuzz runs longer)
	@tests/fuzz/run.sh $(FUZZ_BIN) each $(FUZZ_TEST_SECONDS)

# The parts. The script tests' own make calls get no -j, jobserver or output sync from this
# graph (their make output must read as it does from a shell).
SCRIPT_MAKEFLAGS = MAKEFLAGS="$$(echo " $$MAKEFLAGS" | sed -E 's/ (-j[0-9]*|--jobserver-auth=[^ ]*|-O[a-z]*)//g')"
run-c: $(TST)/ecsbench_tests
	@ECSB_TEST_JOBS=$(TEST_JOBS) $(TST)/ecsbench_tests
run-fuzz: $(FUZZ_BIN)
	@FUZZ_JOBS=$(TEST_JOBS) tests/fuzz/run.sh $(FUZZ_BIN) each $(FUZZ_TEST_SECONDS)
run-scripts-fast run-scripts-slow: run-scripts-%: $(BUILD)/ecsbench | $(TEST_STAMP)
	@$(SCRIPT_MAKEFLAGS) ECSB_SCRIPT_JOBS=$(TEST_JOBS) ECSB_SCRIPT_TIER=$* PYTHON=$(PYTHON) BUILD=$(BUILD) \
		tests/scripts/run_all.sh

# Line coverage (gcov/lcov) of strategies/ and harness/ under the C tests and the script tests,
# from a separate -O0 build without sanitizers: build/coverage/html/index.html. Unoptimised, the
# scenarios make the indirect calls test_no_indirect_calls.sh looks for: that script fails here.
COV := $(BUILD)/coverage
coverage: ## line coverage of strategies/ and harness/ from the C and script tests
	@$(SETUP) coverage
	@$(MAKE) --no-print-directory BUILD=$(COV) OPT='-O0 --coverage' SANITIZE=--coverage \
		TEST_CFLAGS='-std=c17 $(WARN) -O0 -g --coverage -DECSB_CHECKED' $(COV)/test/ecsbench_tests $(COV)/ecsbench
	@lcov -q --zerocounters --directory $(COV)
	-$(COV)/test/ecsbench_tests > $(COV)/tests.log 2>&1; tail -1 $(COV)/tests.log
	-@PYTHON=$(PYTHON) BUILD=$(COV) tests/scripts/run_all.sh > $(COV)/scripts.log 2>&1; tail -1 $(COV)/scripts.log
	@lcov -q --capture --directory $(COV) --output-file $(COV)/all.info 2>&1 | grep -v redefined || true
	@lcov -q --extract $(COV)/all.info '$(CURDIR)/strategies/*' '$(CURDIR)/harness/*' \
		--output-file $(COV)/coverage.info
	@genhtml -q --output-directory $(COV)/html $(COV)/coverage.info
	@lcov --list $(COV)/coverage.info

test-scripts: $(BUILD)/ecsbench | $(TEST_STAMP) ## CLI, registry, memcheck, JSON->CSV, plots, compare, a QUICK pipeline run
	@PYTHON=$(PYTHON) BUILD=$(BUILD) tests/scripts/run_all.sh

bench: $(BUILD)/ecsbench ## run the default suite (<= 65536: ~5 min); results/<id>/ and plots/<id>/ (QUICK=1: a smoke run; LARGE=1: 34+ min, unmeasured since frame moved to 65,536)
	@$(SETUP) bench
	@PYTHON=$(PYTHON) QUICK=$(QUICK) LARGE=$(LARGE) scripts/bench.sh $(BUILD)/ecsbench

MACHINE_OUT ?= $(BUILD)/machine.json
machine: $(BUILD)/ecsbench ## the machine (CPUID fingerprint, clock, bandwidth, latency) as $(BUILD)/machine.json (MACHINE_OUT=), at most 20 s
	$(BUILD)/ecsbench machine --out=$(MACHINE_OUT)

sweep: $(BUILD)/ecsbench ## one parameter swept in every world: make sweep SCENARIO=x PARAM=p [VALUES=a,b] [SIZES=..] [STRATEGIES=..] [ORDERS=regular,shuffled,aged]
	@$(SETUP) bench
	@PYTHON=$(PYTHON) QUICK=$(QUICK) ORDERS=$(ORDERS) scripts/sweep.sh $(BUILD)/ecsbench "$(SCENARIO)" "$(PARAM)" "$(VALUES)"

sweeps: $(BUILD)/ecsbench ## every scenario parameter's default sweep in every world (ORDERS= narrows), one run each (crossover table and chart)
	@$(SETUP) bench
	@PYTHON=$(PYTHON) QUICK=$(QUICK) ORDERS=$(ORDERS) scripts/sweep.sh $(BUILD)/ecsbench --all

plots: ## redraw a run's plots and its page (plots/<id>/index.html): make plots RUN=results/<id>
	@$(SETUP) plots
	@PYTHON=$(PYTHON) scripts/plots.sh "$(RUN)"

# The page is plots/<id>/index.html (make plots draws it); its check as a person sees it, and
# its screenshot (the README's docs/page.png is the reference run's).
page-check: ## check a run's page in headless chromium (overlaps, pictures, index links, answer first) and take its picture: make page-check RUN=results/<id> [OUT=x.png]
	@[ -n "$(RUN)" ] || { echo "usage: make page-check RUN=results/<id> [OUT=page.png]" >&2; exit 2; }
	@id=$$(basename "$(RUN)"); page=plots/$$id/index.html; out="$(OUT)"; out=$${out:-plots/$$id/page.png}; \
	[ -f "$$page" ] || { echo "error: $$page is missing; draw it with: make plots RUN=$(RUN)" >&2; exit 2; }; \
	$(PYTHON) scripts/page_check.py "$$page" --screenshot "$$out" && echo "screenshot: $$out"

screenshot: page-check

report: ## write a run's report.md, checking docs/findings.md against it: make report RUN=results/<id>
	@$(SETUP) compare
	@$(PYTHON) scripts/report.py "$(RUN)"

findings: ## check docs/findings.md on every run it lists; write its where: lines and the tables by machine (docs/results.md, README)
	@$(SETUP) compare
	@$(PYTHON) scripts/findings.py

choose: ## rank the layouts for a mix of workloads: make choose RUN=results/<id> WEIGHTS=frame:3,dual_iterate:1
	@$(SETUP) compare
	@$(PYTHON) scripts/choose.py "$(RUN)" --weights "$(WEIGHTS)" $(if $(SIZE_WEIGHTS),--size-weights "$(SIZE_WEIGHTS)")

compare: ## compare runs A= and B= (table + heat map of B÷A in plots/compare/), or strategies in run A (STRATEGIES=s1,s2)
	@$(SETUP) compare
	@PYTHON=$(PYTHON) scripts/compare.sh $(if $(STRATEGIES),--strategies "$(STRATEGIES)") "$(A)" "$(B)"

hyperfine: $(BUILD)/ecsbench ## whole-process runs per strategy and scenario, with hyperfine
	@$(SETUP) hyperfine
	@PYTHON=$(PYTHON) scripts/hyperfine.sh $(BUILD)/ecsbench

cachegrind: $(BUILD)/ecsbench ## instructions and simulated cache misses per item, noise-free (valgrind, ~35 s)
	@$(SETUP) cachegrind
	@PYTHON=$(PYTHON) scripts/cachegrind.sh $(BUILD)/ecsbench

new-strategy: ## copy the template to strategies/NAME.c and register it: make new-strategy NAME=x
	@scripts/new_strategy.sh "$(NAME)"

# For tests: make -s print-CFLAGS prints a variable's value.
print-%:
	@printf '%s\n' '$($*)'

clean: ## remove build/ (results/ and plots/ are kept)
	rm -rf $(BUILD)

-include $(CORE_OBJ:.o=.d) $(BENCH_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(FUZZ_OBJ:.o=.d) $(LTO_BC:.o=.d)
