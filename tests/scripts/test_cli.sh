#!/usr/bin/env bash
# test_cli.sh — the ecsbench command line: usage (no arguments, help), list and list --json,
# run (output format, every strategy's and the limit's checksum equal to the floor's, a long
# run announcing itself), the suite behind `bench` (selection flags, names and order, counters
# on every row, the plan: repetitions by size and clock reads under 1% of a timed span), and
# every error path (exit 2, a message on stderr saying what is wrong and what is valid,
# nothing on stdout, no crash).
# Environment: BUILD (folder holding ecsbench, default build), PYTHON.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${BUILD:-build}/ecsbench
case $bin in /*) ;; *) bin=$top/$bin ;; esac
PYTHON=${PYTHON:-/usr/bin/python3}
[ -x "$bin" ] || { echo "test_cli: $bin missing; run make build/ecsbench" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "  FAIL: $*" >&2; failures=$((failures + 1)); }

# expect_usage_error FRAGMENT ARGS...: exit 2, FRAGMENT in stderr, stdout empty.
expect_usage_error() {
  local fragment=$1 rc
  shift
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ "$rc" -eq 2 ] || fail "ecsbench $* exited $rc, want 2 (stderr: $(head -c 300 "$tmp/err"))"
  [ -s "$tmp/err" ] || fail "ecsbench $*: no message on stderr"
  grep -qF -- "$fragment" "$tmp/err" || fail "ecsbench $*: stderr lacks '$fragment': $(head -c 300 "$tmp/err")"
  [ ! -s "$tmp/out" ] || fail "ecsbench $*: printed to stdout on error: $(head -c 200 "$tmp/out")"
}

# ---- usage: no arguments runs nothing; help -------------------------------------------------
expect_usage_error "usage: ecsbench list" # no arguments: a short usage, exit 2, nothing run
expect_usage_error "ecsbench bench" # no arguments names the suite's subcommand
expect_usage_error "the suite is \`ecsbench bench --ecsb_sizes=1" --ecsb_sizes=1
expect_usage_error "the suite is \`ecsbench bench --benchmark_filter=x" --benchmark_filter=x
for h in --help help -h; do
  "$bin" "$h" >"$tmp/out" 2>"$tmp/err" || fail "ecsbench $h exited $?"
  grep -q "ecsbench run <scenario> <strategy> <N> \[passes\]" "$tmp/out" || fail "ecsbench $h: no run usage"
  grep -q "ecsbench bench \[flags\]" "$tmp/out" || fail "ecsbench $h: no bench usage"
  for flag in --ecsb_sizes --ecsb_scenarios --ecsb_strategies --ecsb_plan --benchmark_filter; do
    grep -q -- "$flag" "$tmp/out" || fail "ecsbench $h: does not document $flag"
  done
  grep -q -- "--benchmark_counters_tabular" "$tmp/out" || fail "ecsbench $h: does not list Google Benchmark's flags"
done

# ---- list and list --json -----------------------------------------------------------------
"$bin" list >"$tmp/list" 2>"$tmp/err" || fail "ecsbench list exited $?"
for s in index_is_id handle_table flat_map sparse_set; do
  grep -qE "^strategy +$s +[^ ]" "$tmp/list" || fail "list: no strategy line with a summary for $s"
done
grep -qE "^floor +floor +[^ ]" "$tmp/list" || fail "list: no floor line"
grep -qE "^limit +limit +[^ ]" "$tmp/list" || fail "list: no limit line"
for s in platformer dual_iterate; do
  grep -qE "^scenario +$s +.*\(item: [^)]+\)$" "$tmp/list" || fail "list: no scenario line for $s"
done
strategies=$(awk '$1 == "strategy" { print $2 }' "$tmp/list")
# one name column for every kind of line, as wide as the longest name: every summary starts
# in the same column (paged_sparse_set, sparse_set_prefetch and the like never push it over)
"$PYTHON" - "$tmp/list" <<'EOF' || fail "list: columns not aligned (above)"
import sys
lines = [l.rstrip("\n") for l in open(sys.argv[1]) if l.strip()]
starts = set()
for l in lines:
    kind, name = l.split()[:2]
    at = l.index(name, len(kind))
    rest = l[at + len(name):]
    starts.add(at + len(name) + len(rest) - len(rest.lstrip(" ")))
    if not rest.startswith(" "):
        print("   ", l, file=sys.stderr)
        sys.exit(1)
if len(starts) != 1:
    print(f"    summaries start in columns {sorted(starts)}", file=sys.stderr)
    sys.exit(1)
EOF
scenarios=$(awk '$1 == "scenario" { print $2 }' "$tmp/list")
[ "$(echo "$strategies" | wc -l)" -ge 4 ] || fail "list: fewer than 4 strategies"

"$bin" list --json >"$tmp/list.json" 2>"$tmp/err" || fail "ecsbench list --json exited $?"
"$PYTHON" - "$tmp/list.json" "$tmp/list" "$top/scenarios/scenarios.def" <<'EOF' || fail "list --json (above)"
import json, re, sys
doc = json.load(open(sys.argv[1]))
text = [l.split() for l in open(sys.argv[2]) if l.strip()]
bad = []
if sorted(doc) != ["bench_flags", "references", "scenarios", "strategies"]:
    bad.append(f"top-level keys {sorted(doc)}")
names = [s["name"] for s in doc["strategies"]]
if names != [w[1] for w in text if w[0] == "strategy"]:
    bad.append(f"strategies {names} differ from list")
if [r["name"] for r in doc["references"]] != ["floor", "limit"]:
    bad.append("references are not floor, limit")
for entry in doc["strategies"] + doc["references"]:
    keys = ["name", "summary"] + (["library"] if "library" in entry else [])
    if sorted(entry) != sorted(keys) or not entry["summary"]:
        bad.append(f"entry {entry}")
# A library (ecsb_strategy.library): a strategy entry with a non-empty "library", whose text
# line ends in [library: ...]; a design's line does not.
for entry, words in zip(doc["strategies"], [w for w in text if w[0] == "strategy"]):
    marked = " ".join(words).endswith(f"[library: {entry.get('library')}]")
    if ("library" in entry) != marked or ("library" in entry and not entry["library"]):
        bad.append(f"{entry['name']}: library {entry.get('library')!r} vs its list line")
if "library" in doc["references"][0] or "library" in doc["references"][1]:
    bad.append("a reference is marked a library")
defs = re.findall(r"^ECSB_SCENARIO\((\w+),", open(sys.argv[3]).read(), re.M)
if [s["name"] for s in doc["scenarios"]] != defs:
    bad.append(f"scenarios {[s['name'] for s in doc['scenarios']]} != scenarios.def {defs}")
sweep = [256, 1024, 4000, 4096, 16384, 65536, 262144, 1048576, 4194304]
for s in doc["scenarios"]:
    want = ["changes_structure", "consumes_setup", "default_sizes", "has_limit", "item", "name", "params", "summary"]
    if sorted(s) != want:
        bad.append(f"{s.get('name')}: keys {sorted(s)}")
        continue
    if not all(isinstance(s[k], bool) for k in ("consumes_setup", "changes_structure", "has_limit")):
        bad.append(f"{s['name']}: flags not booleans")
    if s["default_sizes"] not in (sweep, [4000, 65536, 1048576], [4000, 16384, 65536]):
        bad.append(f"{s['name']}: default_sizes {s['default_sizes']}")
    if not s["item"] or not s["summary"]:
        bad.append(f"{s['name']}: no item or summary")
by = {s["name"]: s for s in doc["scenarios"]}
if by.get("platformer", {}).get("consumes_setup") is not True or by.get("dual_iterate", {}).get("changes_structure") is not False:
    bad.append("platformer / dual_iterate flags wrong")
if by.get("platformer", {}).get("default_sizes") != sweep:
    bad.append("platformer does not run the sweep")
for b in bad:
    print("   ", b, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
limited=$("$PYTHON" -c 'import json,sys; print(" ".join(s["name"] for s in json.load(open(sys.argv[1]))["scenarios"] if s["has_limit"]))' "$tmp/list.json")
smallest() { "$PYTHON" -c 'import json,sys; print([s for s in json.load(open(sys.argv[1]))["scenarios"] if s["name"] == sys.argv[2]][0]["default_sizes"][0])' "$tmp/list.json" "$1"; }

# ---- run: format, and every strategy (and the limit) reproduces the floor's checksum --------
format='^checksum=[0-9a-f]{16} seconds=[0-9]+\.[0-9]+$'
for sc in $scenarios; do
  impls=$strategies
  case " $limited " in *" $sc "*) impls="limit $impls" ;; esac
  for n in 1 2 3 257 4000; do
    for passes in 1 3; do
      [ "$n" -le 257 ] || [ "$passes" -eq 1 ] || continue
      floor=$("$bin" run "$sc" floor "$n" "$passes" 2>"$tmp/err") || fail "run $sc floor $n $passes exited $?"
      if [ "$(printf '%s\n' "$floor" | grep -cE "$format")" -ne 1 ] ||
        [ "$(printf '%s\n' "$floor" | wc -l)" -ne 1 ]; then
        fail "run $sc floor $n: output '$floor' is not one 'checksum=<16 hex> seconds=<float>' line"
      fi
      [ ! -s "$tmp/err" ] || fail "run $sc floor $n $passes: a short run wrote to stderr: $(head -c 200 "$tmp/err")"
      want=${floor%% *}
      for st in $impls; do
        got=$("$bin" run "$sc" "$st" "$n" "$passes" 2>"$tmp/err") || { fail "run $sc $st $n $passes exited $?: $(cat "$tmp/err")"; continue; }
        printf '%s\n' "$got" | grep -qE "$format" || fail "run $sc $st $n: bad output '$got'"
        [ "${got%% *}" = "$want" ] || fail "run $sc $st $n $passes: ${got%% *}, floor has $want"
      done
    done
  done
  case " $limited " in
    *" $sc "*) ;;
    *) expect_usage_error "scenario $sc has no limit line; valid: floor | index_is_id" run "$sc" limit 10 ;;
  esac
done
# passes is optional and defaults to 1
a=$("$bin" run dual_iterate floor 100)
b=$("$bin" run dual_iterate floor 100 1)
[ "${a%% *}" = "${b%% *}" ] || fail "run without passes differs from passes=1"
# a run that will take long says so (and is stopped here after a few seconds)
timeout 8 "$bin" run dual_iterate floor 4194304 1000000 >"$tmp/out" 2>"$tmp/err"
grep -qE "^ecsbench: 1000000 passes at about .* will take about [0-9:]+; progress every 10 s" "$tmp/err" ||
  fail "a run of 1000000 passes at N = 4194304 did not announce its length: $(head -c 300 "$tmp/err")"
# ... and its estimate is the time of a pass, not of set-up and warm-up: within 5x of the time
# per pass of a 20-pass run (a generous bound on a shared machine; set-up alone is 10-50x)
per=$(sed -nE 's/^ecsbench: 1000000 passes at about ([0-9.e+-]+) s each.*/\1/p' "$tmp/err")
real=$("$bin" run dual_iterate floor 4194304 20 | sed -E 's/.*seconds=//')
awk -v a="$per" -v r="$real" 'BEGIN { exit !(a > 0 && a < 5 * r / 20 && a > r / 20 / 5) }' ||
  fail "run's estimate: $per s a pass announced, $real s for 20 passes measured"

# --spans: one line per timed span on stderr, in order, covering the timed passes exactly once
# (a frame run: its warm-up is timed in part, and those spans are not timed passes); stdout as
# without it; anywhere after N
"$bin" run frame floor 300 9 order=aged --spans >"$tmp/out" 2>"$tmp/err" || fail "run --spans failed"
grep -qE '^checksum=[0-9a-f]{16} seconds=' "$tmp/out" || fail "run --spans: stdout $(head -c 200 "$tmp/out")"
awk 'BEGIN { want = 0 }
     /^span / { if ($0 !~ /^span first=[0-9]+ passes=[0-9]+ seconds_per_pass=[0-9.e+-]+$/) exit 1
                split($2, f, "="); split($3, p, "=")
                if (f[2] != want || p[2] < 1) exit 1; want += p[2]; lines++ }
     END { exit !(lines >= 1 && want == 9) }' "$tmp/err" ||
  fail "run --spans: spans do not cover passes 0..8 in order: $(head -c 400 "$tmp/err")"
a=$("$bin" run frame floor 300 --spans 9 order=aged 2>/dev/null)
[ "${a%% *}" = "$(sed -E 's/ .*//' "$tmp/out")" ] || fail "run --spans before passes: checksum $a"
"$bin" run frame floor 300 9 order=aged 2>"$tmp/err2" >/dev/null
! grep -q '^span ' "$tmp/err2" || fail "run without --spans printed spans"
expect_usage_error "--spans given twice" run frame floor 300 9 --spans --spans
expect_usage_error "run has one option, --spans, not '--span'" run frame floor 300 9 --span

# steady: two worlds, the young one as run leaves it after 3 x `pairs` passes (blocks of 3),
# the old one `older` passes more (their checksums are run's), a line of times, one of checksums
"$bin" steady frame archetype 300 40 order=aged >"$tmp/out" 2>"$tmp/err" || fail "steady failed: $(cat "$tmp/err")"
grep -qE '^young=[0-9.e+-]+ old=[0-9.e+-]+ ratio=[0-9.]+ pairs=11 older=40$' "$tmp/out" ||
  fail "steady's first line: $(head -c 300 "$tmp/out")"
young=$("$bin" run frame archetype 300 33 order=aged | sed -E 's/checksum=([0-9a-f]+) .*/\1/')
old=$("$bin" run frame archetype 300 73 order=aged | sed -E 's/checksum=([0-9a-f]+) .*/\1/')
grep -qx "young_checksum=$young old_checksum=$old" "$tmp/out" ||
  fail "steady's worlds are not run's after 33 and 73 passes ($young, $old): $(tail -1 "$tmp/out")"
expect_usage_error "steady takes a scenario, a strategy and N" steady frame floor
expect_usage_error "unknown scenario" steady nope floor 10
expect_usage_error "unknown strategy" steady frame nope 10
expect_usage_error "builds a fresh world for every pass" steady level_load floor 10
expect_usage_error "bad N" steady frame floor 0
expect_usage_error "bad older: a decimal integer 1..100000" steady frame floor 10 0
expect_usage_error "bad older" steady frame floor 10 100001
expect_usage_error "order=old is not valid" steady frame floor 10 order=old

# ---- error paths: exit 2 with a message ---------------------------------------------------
expect_usage_error "run takes 3 or 4 arguments" run
expect_usage_error "run takes 3 or 4 arguments" run platformer
expect_usage_error "run takes 3 or 4 arguments" run platformer floor
expect_usage_error "is not name=value" run platformer floor 10 1 extra
expect_usage_error "run takes 3 or 4 arguments" run platformer floor 10 1 order=regular order=regular order=regular order=regular order=regular order=regular
expect_usage_error "unknown scenario 'nope'; valid: platformer" run nope floor 10
expect_usage_error "unknown scenario ''" run "" floor 10
expect_usage_error "unknown strategy 'nope'; valid: floor | " run platformer nope 10
expect_usage_error "unknown strategy 'FLOOR'" run platformer FLOOR 10
for n in 0 -1 +5 5x " 5" "5 " "" 0x10 1e3 3.0 16777217 18446744073709551616 99999999999999999999999; do
  expect_usage_error "bad N '$n'; N is a decimal integer 1..16777216" run platformer floor "$n"
done
for p in 0 -1 abc 1000001 "" 2x; do
  expect_usage_error "bad passes '$p'; passes is a decimal integer 1..1000000" run dual_iterate floor 10 "$p"
done
expect_usage_error "unknown subcommand 'foo'; valid: list, run, bench, age, steady, machine, help" foo
# age: how aged a world is (1 in id order, about 0.5 in none); bad arguments exit 2
expect_usage_error "age takes a scenario, a strategy and N" age dual_iterate sparse_set
expect_usage_error "unknown scenario" age nope sparse_set 10
expect_usage_error "unknown strategy" age dual_iterate floor 10
expect_usage_error "bad N" age dual_iterate sparse_set 0
expect_usage_error "order=old is not valid" age dual_iterate sparse_set 10 order=old
regular=$("$bin" age dual_iterate sparse_set 4096) || fail "age in the regular world exited $?"
aged=$("$bin" age dual_iterate sparse_set 4096 order=aged) || fail "age in the aged world exited $?"
[[ "$regular" =~ ^in_order=1\.0000\ pairs=[0-9]+\ fingerprint=[0-9a-f]{16}$ ]] ||
  fail "age dual_iterate sparse_set 4096: '$regular', want in_order=1.0000 pairs=.. fingerprint=.."
"$PYTHON" -c 'import sys; v = float(sys.argv[1].split()[0].split("=")[1]); sys.exit(0 if v < 0.75 else 1)' "$aged" ||
  fail "age dual_iterate sparse_set 4096 order=aged: '$aged', want in_order under 0.75"
# level_load is looked at after its pass (its prepare leaves no entity)
[ "$("$bin" age level_load sparse_set 100 | cut -d' ' -f2)" != "pairs=0" ] ||
  fail "age level_load: looked at an empty world (want the world its pass loads)"
expect_usage_error "unknown subcommand 'List'" List
expect_usage_error "list takes no arguments but --json" list extra
expect_usage_error "list takes no arguments but --json" list --json extra
# the suite's flags
expect_usage_error "unknown argument or bad flag value: --bogus" bench --bogus
expect_usage_error "unknown argument or bad flag value: stray" bench stray
expect_usage_error "bad --benchmark_min_time=1s" bench --benchmark_min_time=1s
expect_usage_error "unknown flag --ecsb_nope" bench --ecsb_nope
for z in 0 "" 1,,2 "256," abc 16777217; do
  expect_usage_error "bad --ecsb_sizes=$z" bench "--ecsb_sizes=$z"
done
expect_usage_error "bad --ecsb_sizes=" bench "--ecsb_sizes=$(seq -s, 1 33)"
expect_usage_error "unknown name 'nope' in --ecsb_scenarios=platformer,nope" bench --ecsb_scenarios=platformer,nope
expect_usage_error "valid: $(echo $scenarios | sed 's/ /, /g')" bench --ecsb_scenarios=nope
expect_usage_error "an empty name" bench --ecsb_scenarios=
expect_usage_error "an empty name" bench --ecsb_strategies=flat_map,,sparse_set
expect_usage_error "unknown name 'Sparse_set' in --ecsb_strategies=sparse_set,Sparse_set" bench --ecsb_strategies=sparse_set,Sparse_set
expect_usage_error "valid: $(echo $strategies | sed 's/ /, /g') (floor and limit always run)" bench --ecsb_strategies=x
expect_usage_error "bad --ecsb_run_id=../x" bench --ecsb_run_id=../x
expect_usage_error "valid values: console, json, csv" bench --benchmark_format=xml
expect_usage_error "bad --benchmark_out_format=xml" bench --benchmark_out_format=xml
expect_usage_error "valid values: ns, us, ms, s" bench --benchmark_time_unit=ps
expect_usage_error "bad --ecsb_context=x" bench --ecsb_context=x
expect_usage_error "bad --ecsb_progress=maybe" bench --ecsb_progress=maybe
expect_usage_error "bad --benchmark_repetitions=0" bench --ecsb_sizes=1 --benchmark_repetitions=0
for t in 0 -1 abc 1e999 nan 3601 ""; do
  expect_usage_error "bad --benchmark_min_time=$t" bench --ecsb_sizes=1 "--benchmark_min_time=$t"
done
expect_usage_error "bad --benchmark_filter=(" bench --benchmark_filter="("
expect_usage_error "selection names no benchmark" bench --ecsb_sizes=1 --ecsb_progress=off --benchmark_filter=nomatch
expect_usage_error "cannot write --benchmark_out=$tmp/no/such/dir/x.json" bench --ecsb_sizes=1 --benchmark_out="$tmp/no/such/dir/x.json"

# ---- the flag table (bench_flags.c): every flag in help, taking its example, refusing its bad value
"$bin" help >"$tmp/help" 2>&1
nflags=0
while IFS="|" read -r name example bad; do
  nflags=$((nflags + 1))
  grep -q -- "^  $name[= ]" "$tmp/help" || fail "flag $name is not in ecsbench help"
  arg=$name${example:+=$example}
  "$bin" bench --ecsb_scenarios=dual_iterate --ecsb_strategies=floor --ecsb_sizes=16 "$arg" \
    --benchmark_list_tests >"$tmp/out" 2>"$tmp/err" || fail "bench $arg (the table's example) exited $?: $(head -c 300 "$tmp/err")"
  expect_usage_error "$name=$bad" bench --ecsb_scenarios=dual_iterate --ecsb_sizes=16 "$name=$bad" --benchmark_list_tests
done < <("$PYTHON" -c 'import json,sys; [print(f["name"], f["example"], f["bad"], sep="|") for f in json.load(open(sys.argv[1]))["bench_flags"]]' "$tmp/list.json")
[ "$nflags" -ge 18 ] || fail "list --json: $nflags bench flags, want the table's 18 or more"

# ---- names: scenario/strategy/N, floor, limit, strategies; selection ----------------------
"$bin" bench --ecsb_sizes=7,3 --benchmark_list_tests=true >"$tmp/names" 2>"$tmp/err" || fail "list_tests exited $?"
nlimited=$(echo "$limited" | wc -w)
want=$(($(echo "$scenarios" | wc -l) * ($(echo "$strategies" | wc -l) + 1) * 2 + nlimited * 2))
[ "$(wc -l <"$tmp/names")" -eq "$want" ] || fail "list_tests: $(wc -l <"$tmp/names") names, want $want"
for sc in $scenarios; do
  for st in floor $strategies; do
    for n in 3 7; do
      grep -qx "$sc/$st/$n" "$tmp/names" || fail "list_tests: no $sc/$st/$n (names are exactly scenario/strategy/N)"
    done
  done
  for n in 3 7; do
    expect=$(printf '%s\n' floor $(case " $limited " in *" $sc "*) echo limit ;; esac) $strategies | sed "s|^|$sc/|; s|$|/$n|")
    [ "$(grep -E "^$sc/[^/]+/$n$" "$tmp/names")" = "$expect" ] || fail "list_tests: $sc at $n not in legend order floor, limit, strategies"
  done
done
"$bin" bench --ecsb_scenarios=dual_iterate --ecsb_strategies=sparse_set,index_is_id --ecsb_sizes=5 \
  --benchmark_list_tests >"$tmp/sel" 2>&1 || fail "selection exited $?"
expect="dual_iterate/floor/5"
case " $limited " in *" dual_iterate "*) expect="$expect"$'\n'"dual_iterate/limit/5" ;; esac
expect="$expect"$'\n'"dual_iterate/index_is_id/5"$'\n'"dual_iterate/sparse_set/5"
[ "$(cat "$tmp/sel")" = "$expect" ] || fail "selection: got $(tr '\n' ' ' <"$tmp/sel"), want $(echo $expect)"
# A strategy's size cap (flat_map: churn_iterate up to 65536) leaves the larger cells out, saying why.
"$bin" bench --ecsb_scenarios=churn_iterate --ecsb_strategies=flat_map --ecsb_sizes=65536,65537 \
  --benchmark_list_tests >"$tmp/sel" 2>"$tmp/err" || fail "capped selection exited $?"
grep -qx "churn_iterate/flat_map/65536" "$tmp/sel" && ! grep -q "flat_map/65537" "$tmp/sel" &&
  grep -q "not running churn_iterate/flat_map/65537: above its largest N 65536 (" "$tmp/err" ||
  fail "cap: $(tr '\n' ' ' <"$tmp/sel") / $(cat "$tmp/err")"
"$bin" run churn_iterate flat_map 65537 2>&1 >/dev/null | grep -q "warning: churn_iterate on flat_map is capped at N = 65536 (" ||
  fail "run above a cap does not warn"
# A cap of shuffled worlds only (flat_map: packed_5's random add order) leaves the regular cell in.
"$bin" bench --ecsb_scenarios=packed_5 --ecsb_strategies=flat_map --ecsb_sizes=65537 \
  --ecsb_param=order=regular,shuffled --benchmark_list_tests >"$tmp/sel" 2>"$tmp/err" ||
  fail "shuffled cap: selection exited $?"
[ "$(cat "$tmp/sel")" = "packed_5/floor/65537"$'\n'"packed_5/flat_map/65537"$'\n'"packed_5/floor/65537/order=shuffled" ] &&
  grep -q "not running packed_5/flat_map/65537 order=shuffled: above its largest N 65536 (" "$tmp/err" ||
  fail "shuffled cap: $(tr '\n' ' ' <"$tmp/sel") / $(cat "$tmp/err")"
"$bin" run packed_5 flat_map 65537 1 order=shuffled 2>&1 >/dev/null | grep -q "warning: packed_5 on flat_map is capped at N = 65536 (" ||
  fail "run above a shuffled cap does not warn"
# An aged world's set-up destroys N entities at random positions: flat_map takes the tighter of
# churn_iterate's cap and entity_cycle's shuffled one (4000), named with its order.
"$bin" bench --ecsb_scenarios=dual_iterate --ecsb_strategies=flat_map --ecsb_sizes=4000,4001 \
  --ecsb_param=order=aged --benchmark_list_tests >"$tmp/sel" 2>"$tmp/err" ||
  fail "aged cap: selection exited $?"
[ "$(cat "$tmp/sel")" = "dual_iterate/floor/4000/order=aged"$'\n'"dual_iterate/limit/4000/order=aged"$'\n'"dual_iterate/flat_map/4000/order=aged"$'\n'"dual_iterate/floor/4001/order=aged"$'\n'"dual_iterate/limit/4001/order=aged" ] &&
  grep -q "not running dual_iterate/flat_map/4001 order=aged: above its largest N 4000 (" "$tmp/err" ||
  fail "aged cap: $(tr '\n' ' ' <"$tmp/sel") / $(cat "$tmp/err")"
# paged ids hold 16,777,215 live entities: dual_iterate's largest N on paged_sparse_set and
# owning_group, entity_cycle's (three live entities per N at its peak) a third of it
"$bin" bench --ecsb_scenarios=dual_iterate,entity_cycle --ecsb_strategies=paged_sparse_set,owning_group \
  --ecsb_sizes=5592405,5592406,16777215,16777216 --benchmark_list_tests >"$tmp/sel" 2>"$tmp/err" ||
  fail "paged caps: selection exited $?"
for st in paged_sparse_set owning_group; do
  grep -qx "dual_iterate/$st/16777215" "$tmp/sel" && ! grep -q "dual_iterate/$st/16777216" "$tmp/sel" &&
    grep -qx "entity_cycle/$st/5592405" "$tmp/sel" && ! grep -q "entity_cycle/$st/5592406" "$tmp/sel" &&
    grep -q "not running dual_iterate/$st/16777216: above its largest N 16777215 (24-bit entity index" "$tmp/err" ||
    fail "paged caps ($st): $(tr '\n' ' ' <"$tmp/sel") / $(cat "$tmp/err")"
done
"$bin" bench --ecsb_scenarios=platformer --ecsb_strategies=floor --ecsb_sizes=5 --benchmark_list_tests >"$tmp/sel" 2>&1
[ "$(grep -c . "$tmp/sel")" -ge 1 ] && ! grep -qvE "^platformer/(floor|limit)/5$" "$tmp/sel" ||
  fail "--ecsb_strategies=floor: $(tr '\n' ' ' <"$tmp/sel")"
"$bin" bench --ecsb_scenarios=platformer --benchmark_filter='-/(floor|sparse_set)/' --ecsb_sizes=5 --benchmark_list_tests >"$tmp/sel" 2>&1
! grep -qE "/(floor|sparse_set)/" "$tmp/sel" && grep -q "platformer/flat_map/5" "$tmp/sel" ||
  fail "negative --benchmark_filter: $(tr '\n' ' ' <"$tmp/sel")"
# the floor filtered out: its reference checksum is still taken (one pass), so every line is
# checked and timed, not an error row (packed_5 and platformer: a world per pass and a reused one);
# above N = 65,536 no world is grown from empty (no bytes_grown counter), at 65,536 one is
"$bin" bench --ecsb_scenarios=platformer,packed_5 --benchmark_filter='-/floor/' --ecsb_sizes=64,65537 \
  --benchmark_repetitions=1 --benchmark_min_time=0.001 --ecsb_progress=off --benchmark_format=json \
  >"$tmp/nofloor.json" 2>"$tmp/err" || fail "the floor filtered out: exit $?: $(tail -n 3 "$tmp/err")"
"$PYTHON" - "$tmp/nofloor.json" <<'PY' || fail "the floor filtered out: see above"
import json, sys
rows = [b for b in json.load(open(sys.argv[1]))["benchmarks"] if b["run_type"] == "iteration"]
bad = [b["name"] for b in rows if b.get("error_occurred") or "/floor/" in b["name"]]
bad += [b["name"] + ": bytes_grown" for b in rows if ("bytes_grown" in b) != b["name"].endswith("/64")]
names = {b["name"].split("/")[0] for b in rows}
if bad or names != {"platformer", "packed_5"}:
    sys.exit(f"  not ok: error or floor rows {bad[:3]}, scenarios {sorted(names)}")
PY
# default sizes are each scenario's own, up to 65536 unless --ecsb_large
"$bin" bench --ecsb_scenarios=platformer --ecsb_strategies=floor --benchmark_list_tests >"$tmp/sel" 2>&1
[ "$(sed 's|.*/||' "$tmp/sel" | paste -sd, -)" = "256,1024,4000,4096,16384,65536" ] ||
  fail "platformer's default sizes: $(tr '\n' ' ' <"$tmp/sel")"
"$bin" bench --ecsb_scenarios=platformer,packed_1 --ecsb_strategies=floor --ecsb_large --benchmark_list_tests >"$tmp/sel" 2>&1
[ "$(grep ^platformer/ "$tmp/sel" | sed 's|.*/||' | paste -sd, -)" = "256,1024,4000,4096,16384,65536,262144,1048576,4194304" ] &&
  [ "$(grep ^packed_1/ "$tmp/sel" | sed 's|.*/||' | paste -sd, -)" = "4000,65536,1048576" ] ||
  fail "default sizes with --ecsb_large: $(tr '\n' ' ' <"$tmp/sel")"
expect_usage_error "takes no value" bench --ecsb_large=maybe --ecsb_plan

# ---- a run of the suite: every row is a success with the five counters --------------------
"$bin" bench --ecsb_sizes=1,64 --benchmark_repetitions=2 --benchmark_min_time=0.001 --ecsb_progress=off \
  --benchmark_out="$tmp/raw.json" >"$tmp/console" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || fail "a good suite run exited $rc: $(tail -n 5 "$tmp/err")"
"$PYTHON" - "$tmp/raw.json" "$tmp/names" <<'EOF' || fail "suite rows (above)"
import json, sys
doc = json.load(open(sys.argv[1]))
bad = []
names = {l.strip().rsplit("/", 1)[0] for l in open(sys.argv[2]) if l.strip()}
rows = [b for b in doc["benchmarks"] if b["run_type"] == "iteration"]
seen = {}
for b in rows:
    key = b["name"]
    seen[key] = seen.get(key, 0) + 1
    if b.get("error_occurred"):
        bad.append(f"{key}: error {b.get('error_message')}")
        continue
    for c in ("items_per_pass", "n", "bytes", "bytes_grown", "entities"):
        if c not in b:
            bad.append(f"{key}: no counter {c}")
    # entity_cycle reserves for 3N entities up front, so its world grown from empty holds
    # less; the floor's arrays are the same either way.
    if key.startswith("dual_iterate/floor/") and b.get("bytes_grown") != b.get("bytes"):
        bad.append(f"{key}: the floor's bytes_grown {b.get('bytes_grown')} != bytes {b.get('bytes')}")
    if key == "entity_cycle/sparse_set/64" and b.get("bytes_grown") == b.get("bytes"):
        bad.append(f"{key}: bytes_grown = bytes = {b.get('bytes')}: was the hint dropped?")
    n = int(key.rsplit("/", 1)[1])
    if b.get("n") != n or b.get("entities", -1) < 0 or b.get("bytes", 0) <= 0:
        bad.append(f"{key}: counters n={b.get('n')} entities={b.get('entities')} bytes={b.get('bytes')}")
    if b.get("repetitions") != 2 or b.get("iterations", 0) < 1:
        bad.append(f"{key}: repetitions {b.get('repetitions')} iterations {b.get('iterations')}")
    if not (0 < b.get("speed_index", 0) <= 1 + 1e-9) or b.get("disturbed") not in (0, 1) \
            or not b.get("sentinel_ns", 0) > 0:
        bad.append(f"{key}: sentinel counters speed_index={b.get('speed_index')} "
                   f"disturbed={b.get('disturbed')} sentinel_ns={b.get('sentinel_ns')}")
ctx = doc["context"]
try:
    sen = {k: float(ctx["ecsb_sentinel_" + k]) for k in (
        "margin", "best_ns", "reference_ns", "worst_ns", "repetitions", "disturbed", "repeated",
        "unrepeated", "repeat_seconds", "budget_seconds", "probe_seconds", "load_start",
        "load_end")}
    marked = sum(b.get("disturbed", 0) for b in rows)
    if sen["disturbed"] != sen["repeated"] + sen["unrepeated"] or sen["unrepeated"] != marked \
            or sen["repetitions"] != len(rows) or not 0 < sen["best_ns"] <= sen["worst_ns"] \
            or not sen["best_ns"] <= sen["reference_ns"] <= sen["worst_ns"] \
            or sen["margin"] != 0.25 or sen["repeat_seconds"] > sen["budget_seconds"] + 2.5:
        bad.append(f"sentinel context {sen}, {marked} rows marked disturbed")
    took = [float(ctx[k]) for k in ("ecsb_check_seconds", "ecsb_timing_seconds")]
    if not all(0 < t < 600 for t in took):
        bad.append(f"checking and timing seconds {took}")
except (KeyError, ValueError) as e:
    bad.append(f"sentinel context key missing or not a number: {e}")
want = {f"{p}/{n}" for p in names for n in (1, 64)}
if set(seen) != want or any(v != 2 for v in seen.values()):
    bad.append(f"rows {sorted(seen.items())[:6]}... want each of {len(want)} names twice")
for b in bad[:20]:
    print("   ", b, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF

# ---- the placement seed: drawn afresh by every run, recorded, replayed by --ecsb_seed ---------
seed_run() { # seed_run OUT [flags...]: a one-row run; prints its recorded ecsb_seed and ecsb_seed_drawn
  local out=$1
  shift
  "$bin" bench --ecsb_scenarios=dual_iterate --ecsb_strategies=floor --ecsb_sizes=16 \
    --benchmark_repetitions=1 --benchmark_min_time=0.0001 --ecsb_progress=off \
    --benchmark_out="$out" "$@" >/dev/null 2>"$tmp/err" || fail "seed run $* exited $?: $(tail -n 3 "$tmp/err")"
  "$PYTHON" -c 'import json,sys; c = json.load(open(sys.argv[1]))["context"]; print(c.get("ecsb_seed"), c.get("ecsb_seed_drawn"))' "$out"
}
s1=$(seed_run "$tmp/s1.json")
s2=$(seed_run "$tmp/s2.json")
[[ "$s1" =~ ^[1-9][0-9]*\ true$ && "$s2" =~ ^[1-9][0-9]*\ true$ && "${s1% *}" != "${s2% *}" ]] ||
  fail "two runs without --ecsb_seed: seeds '$s1' and '$s2', want two different drawn ones"
s3=$(seed_run "$tmp/s3.json" --ecsb_seed="${s1% *}")
[ "$s3" = "${s1% *} false" ] || fail "--ecsb_seed=${s1% *} recorded '$s3', want that seed, not drawn"
[ "$(seed_run "$tmp/s4.json" --ecsb_seed=0)" = "0 false" ] || fail "--ecsb_seed=0 not recorded as 0"
expect_usage_error "bad --ecsb_seed=x" bench --ecsb_seed=x --ecsb_plan
# The libraries (contract: ecsb_libraries = the registered strategies whose list line says
# [library: ...], comma-separated, registry order).
libs=$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["context"].get("ecsb_libraries"))' "$tmp/s1.json")
want=$("$bin" list | awk '$1 == "strategy" && /\[library: / { print $2 }' | paste -sd,)
[ -n "$want" ] && [ "$libs" = "$want" ] || fail "raw.json context ecsb_libraries '$libs', want '$want' (the list's libraries)"
expect_usage_error "bad --ecsb_seed=9223372036854775808x" bench --ecsb_seed=9223372036854775808x --ecsb_plan

# a repeat budget of 0: disturbed repetitions are marked, never timed again
"$bin" bench --ecsb_scenarios=dual_iterate,simple_iter --ecsb_sizes=64 --benchmark_repetitions=3 \
  --benchmark_min_time=0.001 --ecsb_repeat_budget=0 --ecsb_progress=off \
  --benchmark_out="$tmp/nobudget.json" >/dev/null 2>"$tmp/err" || fail "--ecsb_repeat_budget=0 exited $?"
"$PYTHON" - "$tmp/nobudget.json" <<'PY' || fail "--ecsb_repeat_budget=0 (above)"
import json, sys
doc = json.load(open(sys.argv[1]))
c = doc["context"]
rows = [b for b in doc["benchmarks"] if b["run_type"] == "iteration" and not b.get("error_occurred")]
marked = sum(b["disturbed"] for b in rows)
if c["ecsb_sentinel_budget_seconds"] != "0.00" or c["ecsb_sentinel_repeated"] != "0" \
        or int(c["ecsb_sentinel_unrepeated"]) != marked or c["ecsb_sentinel_repeat_seconds"] != "0.00":
    sys.exit(f"    budget 0: {({k: v for k, v in c.items() if 'sentinel' in k})}, {marked} marked")
PY

# ---- the plan: repetitions by size; clock reads < 1% of every timed span -----------------
"$bin" bench --ecsb_plan --ecsb_sizes=256,1048576 --ecsb_scenarios=dual_iterate --ecsb_strategies=floor --benchmark_min_time=0.0001 >"$tmp/plan" 2>"$tmp/err" ||
  fail "--ecsb_plan exited $?: $(cat "$tmp/err")"
awk '$1 == "dual_iterate/floor/256" && $2 >= 5 && $2 <= 9 { a = 1 } $1 == "dual_iterate/floor/1048576" && $2 >= 5 && $2 <= 9 { b = 1 }
     $1 !~ /^#/ && $3 < 3 { few = 1 }
     END { exit !(a && b && !few) }' "$tmp/plan" ||
  fail "plan: want 5 to 9 repetitions at every size and at least 3 timed passes each: $(cat "$tmp/plan")"
grep -q "^# total [0-9.]* seconds" "$tmp/plan" || fail "plan: no estimated total"
# Long passes (a shuffled world of 524,288 entities cycled: about 0.35 s a pass here): fewer
# than 3 timed passes, as many as make 0.25 s on the cell's slowest line, the same for its floor.
"$bin" bench --ecsb_plan --ecsb_scenarios=entity_cycle --ecsb_strategies=handle_table --ecsb_sizes=524288 \
  --ecsb_param=order=shuffled >"$tmp/plan" 2>"$tmp/err" || fail "long-pass plan exited $?: $(cat "$tmp/err")"
awk '$1 ~ /handle_table/ { slow = $5; hp = $3 } $1 ~ /floor/ { fp = $3 }
     END { exit !(slow >= 0.125 && hp < 3 && hp * slow >= 0.25 && (hp - 1) * slow < 0.25 && fp == hp) }' "$tmp/plan" ||
  fail "long passes: want fewer than 3 timed passes, as many as make 0.25 s, the floor's the same: $(cat "$tmp/plan")"
# A world per pass (level_load): a line whose aged world is dear to prepare (flat_map's, about
# 9 ms for a 0.1 ms pass) times no more fresh worlds than cost 4 x the min time (0.1 s a
# repetition, at least 3 passes); the floor's cheap worlds keep the cell's passes.
"$bin" bench --ecsb_plan --ecsb_scenarios=level_load --ecsb_strategies=flat_map --ecsb_sizes=4000 \
  --ecsb_param=order=aged >"$tmp/plan" 2>"$tmp/err" || fail "fresh-world plan exited $?: $(cat "$tmp/err")"
awk '$1 !~ /^#/ { world = $7 / $2 / ($3 + $8) # seconds a fresh world costs, prepared and passed
       if ($3 > 3 && ($3 - 1) * world >= 0.1) dear = dear " " $1 " " $3 " worlds of " world " s"
       if ($1 ~ /floor/) fp = $3; if ($1 ~ /flat_map/) mp = $3 }
     END { exit !(dear == "" && mp >= 3 && fp > mp) }' "$tmp/plan" ||
  fail "fresh worlds: want at most 0.1 s a repetition (at least 3 passes), the floor's passes above flat_map's: $(cat "$tmp/plan")"
# Every scenario whose pass consumes its set-up, at its smallest default size, every
# implementation: the two clock reads around a group of fresh worlds are under 1% of it.
for sc in $("$PYTHON" -c 'import json,sys; print(" ".join(s["name"] for s in json.load(open(sys.argv[1]))["scenarios"] if s["consumes_setup"]))' "$tmp/list.json"); do
  n=$(smallest "$sc")
  "$bin" bench --ecsb_plan --ecsb_scenarios="$sc" --ecsb_sizes="$n" >"$tmp/plan" 2>"$tmp/err" || fail "plan $sc exited $?"
  awk -v sc="$sc" '$1 ~ "^" sc "/" { rows++; if (!($6 < 0.01) || $4 < 1 || $4 > $3) { print "   ", $0; bad++ } }
       END { exit !(rows > 0 && !bad) }' "$tmp/plan" >&2 ||
    fail "plan for $sc at N = $n: a clock share of 1% or more, or a group beyond the passes"
done
# The same work in every line of a cell: one warm-up, one number of worlds and of timed
# passes, and one number of repetitions for the floor, the limit and every strategy (planned
# from the slowest line, never from each line's own speed); frame warms up for more than one
# frame (its slots turn over).
"$bin" bench --ecsb_plan --ecsb_scenarios=dual_iterate,frame,platformer --ecsb_sizes=4000 \
  --ecsb_param=order=regular,shuffled >"$tmp/plan" 2>"$tmp/err" || fail "cell plan exited $?"
awk '$1 !~ /^#/ { cell = $1; sub("/[^/]+/", "//", cell); key = $2 " " $3 " " $8 " " $9
       if (cell in seen && seen[cell] != key) { print "    " $0 " vs " seen[cell]; bad++ }
       seen[cell] = key; rows++ }
     $1 ~ /^frame\// && $8 < 2 { print "    frame warms up " $8 " frames: " $0; bad++ }
     END { exit !(rows >= 30 && !bad) }' "$tmp/plan" >&2 ||
  fail "cell plan: warm-up, worlds, passes or repetitions differ between the lines of a cell"
# The warm-up is the scenario's rule in full, whichever lines a run selects: frame at 4000 warms
# up 200 frames (every slot turned over at churn 0.01) with the floor alone and with its slowest
# strategy; at 1M its rule is beyond the budget: the cell is not run, and a line says so.
for sel in "--benchmark_filter=floor" "--ecsb_strategies=flat_map"; do
  "$bin" bench --ecsb_plan --ecsb_scenarios=frame --ecsb_sizes=4000 "$sel" >"$tmp/plan" 2>"$tmp/err" ||
    fail "frame plan ($sel) exited $?: $(cat "$tmp/err")"
  awk '$1 ~ /^frame\// { rows++; if ($8 != 200) { print "    " $0; bad++ } } END { exit !(rows > 0 && !bad) }' \
    "$tmp/plan" >&2 || fail "frame at 4000 ($sel): want a warm-up of 200 frames on every line"
done
"$bin" bench --ecsb_plan --ecsb_scenarios=frame --ecsb_sizes=1048576 --ecsb_strategies=sparse_set \
  >"$tmp/plan" 2>"$tmp/err"
grep -q "not running frame/\*/1048576: its warm-up" "$tmp/err" && ! grep -q '^frame/' "$tmp/plan" ||
  fail "frame at 1M: want 'not running frame/*/1048576: its warm-up ...' and no line: $(cat "$tmp/err")"

# frame's default sizes stop at 16,384 (its warm-up of ~200 frames a repetition at 65,536 would
# outlast the rest of make bench); --ecsb_large adds 65,536 (not 262,144: LARGE's 45 minutes);
# the others keep 65,536.
sizes_of() { "$bin" bench --ecsb_scenarios="$1" --ecsb_strategies=archetype "${@:2}" \
               --benchmark_list_tests=true 2>/dev/null | awk -F/ '$2 == "archetype" { printf "%s ", $3 }'; }
[ "$(sizes_of frame)" = "4000 16384 " ] || fail "frame's default sizes: want 4000 16384, got $(sizes_of frame)"
[ "$(sizes_of frame --ecsb_large)" = "4000 16384 65536 " ] ||
  fail "frame's sizes with --ecsb_large: want 4000 16384 65536, got $(sizes_of frame --ecsb_large)"
[ "$(sizes_of packed_1)" = "4000 65536 " ] || fail "packed_1's default sizes: want 4000 65536, got $(sizes_of packed_1)"

# ---- scenario parameters: run name=value, list, bench --ecsb_param ---------------------------
expect_usage_error "dual_iterate's parameters are: order, match" run dual_iterate floor 100 1 nosuch=1
expect_usage_error "match takes a number 0.00390625 .. 1" run dual_iterate floor 100 1 match=2
expect_usage_error "match takes a number 0.00390625 .. 1" run dual_iterate floor 100 match=0
expect_usage_error "match takes a number" run dual_iterate floor 100 match=1/0
expect_usage_error "match takes a number" run dual_iterate floor 100 match=0.5x
expect_usage_error "size takes a multiple of 4, 12 .. 256" run move3 floor 100 size=13
expect_usage_error "size takes a multiple of 4, 12 .. 256" run move3 floor 100 size=260
expect_usage_error "queries takes declared | none" run add_remove floor 100 queries=some
expect_usage_error "rounds takes a number 0 .. 4" run churn_iterate floor 100 rounds=-1
expect_usage_error "order takes regular | shuffled" run dual_iterate floor 100 order=sideways
expect_usage_error "churn takes a number 0 .. 0.1" run frame floor 100 churn=0.5
expect_usage_error "is not name=value" run dual_iterate floor 100 1 match
expect_usage_error "names no scenario parameter" bench --ecsb_param=nosuch=1 --ecsb_plan
# a parameter no selected scenario takes, or one given twice, is refused, named
expect_usage_error "no selected scenario takes parameter match (selected: frame; match is taken by: dual_iterate" \
  bench --ecsb_scenarios=frame --ecsb_param=match=1/2 --ecsb_plan
expect_usage_error "parameter churn given twice" bench --ecsb_scenarios=frame --ecsb_param=churn=0.01 \
  --ecsb_param=churn=0.02 --ecsb_plan
expect_usage_error "parameter churn given twice (churn=0.01 and churn=0.02)" run frame floor 100 1 churn=0.01 churn=0.02
expect_usage_error "parameter order given twice" run dual_iterate floor 100 order=regular match=1 order=shuffled
expect_usage_error "want NAME=V1,V2 with no empty value" bench --ecsb_param=match=1/2,,1/4 --ecsb_plan
expect_usage_error "match takes a number" bench --ecsb_param=match=0.5,7 --ecsb_plan
# the floor's checksum at non-default values, for a strategy: the parameters reach prepare
for args in "match=1/16" "order=shuffled" "order=shuffled match=1"; do
  want=$("$bin" run churn_iterate floor 3000 2 $args) || fail "floor with $args failed"
  got=$("$bin" run churn_iterate sparse_set 3000 2 $args) || fail "sparse_set with $args failed"
  [ "${got%% *}" = "${want%% *}" ] || fail "churn_iterate $args: sparse_set ${got%% *}, floor ${want%% *}"
done
[ "$("$bin" run dual_iterate floor 3000 1 match=1/16 | cut -d' ' -f1)" != \
  "$("$bin" run dual_iterate floor 3000 1 | cut -d' ' -f1)" ] || fail "match=1/16 changed nothing"
"$PYTHON" - "$tmp/list.json" <<'EOF2' || fail "list --json: parameters (above)"
import json, sys
doc = json.load(open(sys.argv[1]))
sc = {s["name"]: s for s in doc["scenarios"]}
bad = []
for s in sc.values():
    if not s.get("params") or s["params"][0]["name"] != "order" or "regular" not in s["params"][0]["choices"]:
        bad.append(f"{s['name']}: no order parameter first: {s.get('params')}")
match = [p for p in sc["dual_iterate"]["params"] if p["name"] == "match"]
if not match or match[0]["default"] != "0.5" or match[0]["min"] != 1 / 256 or not match[0]["geometric"] \
        or match[0]["sweep"][0] != "0.00390625":
    bad.append(f"dual_iterate's match: {match}")
for s in sc.values():
    if s["params"][0]["choices"] != ["regular", "shuffled", "aged"]:
        bad.append(f"{s['name']} does not take order=regular|shuffled|aged")
for b in bad:
    print("   ", b, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF2
# a suite run with a parameter list: one row per value, named with the changed ones only
"$bin" bench --ecsb_scenarios=dual_iterate --ecsb_strategies=archetype --ecsb_sizes=64 \
  --ecsb_param=match=0.5,0.25 --ecsb_param=order=regular,shuffled --benchmark_list_tests >"$tmp/names" 2>"$tmp/err" ||
  fail "bench with --ecsb_param: $(cat "$tmp/err")"
for want in dual_iterate/archetype/64 dual_iterate/archetype/64/match=0.25 \
    dual_iterate/archetype/64/order=shuffled dual_iterate/archetype/64/order=shuffled,match=0.25 \
    dual_iterate/floor/64/order=shuffled,match=0.25 dual_iterate/limit/64/match=0.25; do
  grep -qx "$want" "$tmp/names" || fail "bench --ecsb_param: no benchmark $want: $(tr '\n' ' ' <"$tmp/names")"
done
# a selected scenario that does not declare a parameter keeps its defaults (another selected
# one takes it; when none does, the flag is refused: above)
"$bin" bench --ecsb_scenarios=platformer,dual_iterate --ecsb_strategies=archetype --ecsb_sizes=64 \
  --ecsb_param=match=0.25 --benchmark_list_tests >"$tmp/names" 2>"$tmp/err"
[ "$(grep ^platformer/ "$tmp/names")" = "$(printf 'platformer/floor/64\nplatformer/archetype/64')" ] &&
  grep -qx "dual_iterate/archetype/64/match=0.25" "$tmp/names" ||
  fail "platformer with --ecsb_param=match=0.25: $(tr '\n' ' ' <"$tmp/names")"

if [ "$failures" -ne 0 ]; then
  echo "test_cli: $failures failure(s)" >&2
  exit 1
fi
exit 0
