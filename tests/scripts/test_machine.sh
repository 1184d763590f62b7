#!/usr/bin/env bash
# test_machine.sh — `ecsbench machine`: the JSON is valid and has every documented key (a short
# name, CPUID fingerprint, caches with their source, the measured clock, bandwidth of every
# kernel and latency at every working set, each a median with its spread); --out writes the
# file and a text report; --fingerprint prints the same 16-hex-digit key twice and measures
# nothing; bad flags exit 2 with a message and print nothing on stdout. Runs with a small
# --max-set so that it takes a second or two.
# Environment: BUILD (folder holding ecsbench, default build), PYTHON.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${BUILD:-build}/ecsbench
case $bin in /*) ;; *) bin=$top/$bin ;; esac
PYTHON=${PYTHON:-/usr/bin/python3}
[ -x "$bin" ] || { echo "test_machine: $bin missing; run make build/ecsbench" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "  FAIL: $*" >&2; failures=$((failures + 1)); }

"$bin" machine --quick --max-set=262144 >"$tmp/m.json" 2>"$tmp/err" || fail "machine exited $?: $(cat "$tmp/err")"
"$PYTHON" - "$tmp/m.json" <<'PY' || fail "machine.json lacks keys (above)"
import json, re, sys
m = json.load(open(sys.argv[1]))
bad = []
def need(cond, what):
    if not cond:
        bad.append(what)
need(isinstance(m.get("short_name"), str) and m["short_name"], "short_name")
need(re.fullmatch(r"[0-9a-f]{16}", m.get("fingerprint_key", "")), "fingerprint_key")
cpu = m.get("cpu", {})
for k in ("arch", "vendor", "family", "model", "stepping", "brand", "microarchitecture", "source"):
    need(k in cpu, f"cpu.{k}")
if cpu.get("arch") in ("x86_64", "i686"):
    need(isinstance(cpu.get("family"), int) and cpu["source"].startswith("cpuid"), "cpu from cpuid")
need(isinstance(m.get("caches"), list) and m.get("cache_source"), "caches and cache_source")
for c in m.get("caches", []):
    need({"level", "type", "size", "line"} <= set(c) and c["size"] > 0, f"cache {c}")
clock = m.get("clock", {})
need(clock.get("mhz", 0) > 0 and {"median", "min", "max", "tsc_mhz", "method"} <= set(clock), "clock")
need(m["short_name"].find("GHz") > 0, "short_name has the clock")
for k in ("kernel", "cores_online", "memory_bytes"):
    need(k in m.get("system", {}), f"system.{k}")
for k in ("compiler", "cflags", "kernel_flags"):
    need(k in m.get("build", {}), f"build.{k}")
need(m.get("measure", {}).get("quick") is True, "measure.quick")
sets = m.get("working_sets", [])
need(sets == [8192 * 2 ** i for i in range(6)], f"working sets {sets} (8 KiB .. 256 KiB)")
kernels = m.get("kernels", {})
need({"read_u32", "read_u64", "read_pair", "write_u32", "write_u64", "rmw_u32", "swap_u32",
      "rmw_pair"} <= set(kernels), "kernels")
for name, rows in m.get("bandwidth_gbps", {}).items():
    need(name in kernels, f"bandwidth of unknown kernel {name}")
    need([r["bytes"] for r in rows] == sets, f"{name}: a row per working set")
    for r in rows:
        need(0 < r["min"] <= r["median"] <= r["max"], f"{name} at {r['bytes']}: spread {r}")
need(set(m.get("bandwidth_gbps", {})) == set(kernels), "bandwidth of every kernel")
lat = m.get("latency_ns", [])
need([r["bytes"] for r in lat] == sets and all(0 < r["min"] <= r["median"] <= r["max"] for r in lat),
     "latency per working set")
if bad:
    print("missing or wrong: " + ", ".join(map(str, bad)))
    sys.exit(1)
PY

# --out: the file, and a text report naming it
"$bin" machine --quick --max-set=65536 --out="$tmp/out.json" >"$tmp/text" 2>"$tmp/err" ||
  fail "machine --out exited $?: $(cat "$tmp/err")"
"$PYTHON" -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out.json" 2>/dev/null ||
  fail "--out did not write valid JSON"
grep -q "written: $tmp/out.json" "$tmp/text" || fail "the text report does not name the file: $(cat "$tmp/text")"
head -n 1 "$tmp/text" | grep -q "GHz" || fail "the text report does not open with the short name"
[ ! -e "$tmp/out.json.tmp" ] || fail "--out left its .tmp file"

# --fingerprint: fast, stable, the key machine.json carries
k1=$("$bin" machine --fingerprint) k2=$("$bin" machine --fingerprint)
[[ $k1 =~ ^[0-9a-f]{16}$ ]] || fail "--fingerprint printed '$k1'"
[ "$k1" = "$k2" ] || fail "--fingerprint differs between two calls: $k1 $k2"
grep -q "\"fingerprint_key\": \"$k1\"" "$tmp/m.json" || fail "machine.json's fingerprint_key is not --fingerprint's"

# bad flags: exit 2, a message, nothing on stdout
for args in "--bogus" "--max-set=12x" "--max-set=1024" "--max-set=-5" "--out=" "extra"; do
  "$bin" machine $args >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ "$rc" -eq 2 ] || fail "machine $args exited $rc, want 2"
  grep -q "usage: ecsbench machine" "$tmp/err" || fail "machine $args: no usage on stderr"
  [ ! -s "$tmp/out" ] || fail "machine $args printed on stdout"
done
"$bin" machine --out=/nonexistent/dir/m.json >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "cannot write" "$tmp/err" || fail "an unwritable --out does not exit 1 with a message"

if [ "$failures" -gt 0 ]; then
  echo "test_machine: $failures failure(s)"
  exit 1
fi
echo "test_machine: ok"
