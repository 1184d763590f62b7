#!/usr/bin/env bash
# test_new_strategy.sh — a newcomer's path, in a copy of the working tree (a fresh git repo):
# `make new-strategy NAME=x` refuses bad and taken names (exit 2, nothing changed), copies
# the template, renames and registers it; the copy builds, lists x, and x reproduces the
# floor's checksums; the untracked file leaves a trace in the run's context (dirty, its
# status line, its hash). Then x is broken (its query visits nothing): `ecsbench bench` still
# writes its JSON, with error rows for x, and exits 1.
# Environment: PYTHON.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
PYTHON=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "  FAIL: $*" >&2; failures=$((failures + 1)); }

repo=$tmp/repo
mkdir -p "$repo"
(cd "$top" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp -p --parents -t "$repo") ||
  { echo "test_new_strategy: cannot copy the working tree" >&2; exit 1; }
# The release objects come along, times kept (sources too, above), so the copy's make compiles
# only what the new strategy changes (its file, the registry, the provenance) instead of
# every strategy again; make alone decides what is out of date, as it would for a newcomer.
build=${BUILD:-build}
case $build in /*) build=build ;; esac # an absolute build folder is not the copy's: build afresh
if [ -d "$top/$build/release" ]; then
  mkdir -p "$repo/$build" && cp -pr "$top/$build/release" "$repo/$build/" &&
    cp -p "$top/$build"/.deps-* "$repo/$build/" 2>/dev/null
fi
export BUILD=$build
(cd "$repo" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm copy) ||
  { echo "test_new_strategy: cannot make a git repo of the copy" >&2; exit 1; }
snapshot() { (cd "$repo" && git status --porcelain && cat strategies/strategies.def) ; }

# ---- bad names: exit 2 with a message, nothing changed ------------------------------------
before=$(snapshot)
for bad in "" Bad 1abc "a-b" "a b" floor limit template all sparse_set "$(printf 'x%.0s' $(seq 33))"; do
  make -s -C "$repo" new-strategy NAME="$bad" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  # make reports the script's exit 2 as its own exit 2
  [ "$rc" -eq 2 ] || fail "new-strategy NAME='$bad' exited $rc, want 2"
  grep -q "^error: " "$tmp/err" || fail "new-strategy NAME='$bad': no error message: $(head -c 200 "$tmp/err")"
  [ "$(snapshot)" = "$before" ] || fail "new-strategy NAME='$bad' changed the tree"
done
grep -q "already exists" <(make -s -C "$repo" new-strategy NAME=sparse_set 2>&1) ||
  fail "new-strategy NAME=sparse_set does not say the file exists"

# ---- a good name: copied, renamed, registered, builds, reproduces the floor ----------------
make -s -C "$repo" new-strategy NAME=my_pool >"$tmp/out" 2>&1 || fail "new-strategy NAME=my_pool failed: $(cat "$tmp/out")"
grep -q "make test" "$tmp/out" || fail "new-strategy does not say what to do next"
f=$repo/strategies/my_pool.c
[ -f "$f" ] || fail "no strategies/my_pool.c"
grep -qx "#define ECSB_STRATEGY_NAME my_pool" "$f" || fail "my_pool.c is not named my_pool"
! grep -q "ECSB_STRATEGY_NAME template" "$f" || fail "my_pool.c still names the template"
[ "$(tail -n 1 "$repo/strategies/strategies.def")" = "ECSB_STRATEGY(my_pool)" ] || fail "my_pool not registered last"
make -s -C "$repo" new-strategy NAME=my_pool >/dev/null 2>&1
[ $? -eq 2 ] || fail "a second new-strategy NAME=my_pool did not exit 2"

if ! make -s -C "$repo" -j2 "$build/ecsbench" >"$tmp/build" 2>&1; then
  fail "the copy with my_pool does not build: $(tail -n 20 "$tmp/build")"
else
  # Compiler warnings only: make's own jobserver notes (under make -jN) are not the strategy's.
  ! grep -v "^make" "$tmp/build" | grep -q "warning:" ||
    fail "my_pool builds with warnings: $(grep -v "^make" "$tmp/build" | grep warning: | head -3)"
  bin=$repo/$build/ecsbench
  "$bin" list | grep -qE "^strategy +my_pool " || fail "ecsbench list does not show my_pool"
  for sc in $("$bin" list | awk '$1 == "scenario" { print $2 }'); do
    want=$("$bin" run "$sc" floor 300 2)
    got=$("$bin" run "$sc" my_pool 300 2) || fail "run $sc my_pool failed"
    [ "${got%% *}" = "${want%% *}" ] || fail "run $sc my_pool: ${got%% *}, floor has ${want%% *}"
  done

  # the untracked strategy leaves a trace in the run
  "$bin" bench --ecsb_scenarios=dual_iterate --ecsb_sizes=64 --benchmark_repetitions=1 \
    --benchmark_min_time=0.001 --ecsb_progress=off --benchmark_out="$tmp/raw.json" >/dev/null 2>"$tmp/err" ||
    fail "bench in the copy exited $?: $(tail -n 3 "$tmp/err")"
  hash=$(cd "$repo" && sha256sum strategies/my_pool.c | cut -c1-16)
  "$PYTHON" - "$tmp/raw.json" "$hash" <<'EOF' || fail "the untracked strategy left no trace (above)"
import json, sys
ctx = json.load(open(sys.argv[1]))["context"]
bad = []
if ctx.get("ecsb_git_dirty") != "dirty":
    bad.append(f"ecsb_git_dirty = {ctx.get('ecsb_git_dirty')!r}, want dirty")
if "?? strategies/my_pool.c" not in ctx.get("ecsb_git_changes", ""):
    bad.append(f"ecsb_git_changes = {ctx.get('ecsb_git_changes')!r}")
if f"strategies/my_pool.c={sys.argv[2]}" not in ctx.get("ecsb_sources_sha256", "").split(","):
    bad.append("ecsb_sources_sha256 lacks strategies/my_pool.c=" + sys.argv[2])
for b in bad:
    print("   ", b, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF

  # ---- a broken strategy: error rows, the JSON written, exit 1 ------------------------------
  sed -i '/^ECSB_INLINE ecsb_status query(/,/^{/ s/^{$/{\n    if (q->count == 2)\n        return ECSB_OK; \/* broken on purpose: visits nothing *\//' "$f"
  grep -q "broken on purpose" "$f" || fail "could not break my_pool's query (template changed?)"
  if make -s -C "$repo" -j2 "$build/ecsbench" >"$tmp/build" 2>&1; then
    "$bin" bench --ecsb_scenarios=dual_iterate --ecsb_sizes=64,300 --benchmark_repetitions=2 \
      --benchmark_min_time=0.001 --ecsb_progress=off --benchmark_out="$tmp/broken.json" >/dev/null 2>"$tmp/err"
    rc=$?
    [ "$rc" -eq 1 ] || fail "bench with a wrong checksum exited $rc, want 1"
    grep -q "dual_iterate on my_pool at N=64: wrong checksum" "$tmp/err" || fail "no error line for my_pool: $(tail -n 3 "$tmp/err")"
    "$PYTHON" - "$tmp/broken.json" <<'EOF' || fail "the broken run's JSON (above)"
import json, sys
rows = [b for b in json.load(open(sys.argv[1]))["benchmarks"] if b["run_type"] == "iteration"]
errors = {b["name"] for b in rows if b.get("error_occurred")}
good = {b["name"] for b in rows if not b.get("error_occurred")}
bad = []
if errors != {"dual_iterate/my_pool/64", "dual_iterate/my_pool/300"}:
    bad.append(f"error rows {sorted(errors)}")
if "dual_iterate/floor/64" not in good or "dual_iterate/sparse_set/300" not in good:
    bad.append("the other rows were not timed")
if not all("wrong checksum" in b.get("error_message", "") for b in rows if b.get("error_occurred")):
    bad.append("error rows without the checksum message")
for b in bad:
    print("   ", b, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
  else
    fail "the broken copy does not build: $(tail -n 5 "$tmp/build")"
  fi
fi

if [ "$failures" -ne 0 ]; then
  echo "test_new_strategy: $failures failure(s)" >&2
  exit 1
fi
exit 0
