#!/usr/bin/env bash
# test_disturb.sh — scripts/disturb.sh: --help, bad arguments exit 2 with a message, a short
# run stops by itself within its total time, and it stops when the shell that started it dies,
# leaving no streamer behind. Cheap: about 4 s, mostly sleeping.
# Environment: PYTHON.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
script=$top/scripts/disturb.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "  FAIL: $*" >&2; failures=$((failures + 1)); }

"$script" --help >"$tmp/out" 2>&1 || fail "--help exited $?"
grep -q "stops by itself" "$tmp/out" || fail "--help does not say it stops by itself: $(head -c 200 "$tmp/out")"
for bad in 0 -5 abc 7201 --burst=0 --burst=x --pause=-1 --procs=0 --procs=x --nope; do
  "$script" "$bad" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ "$rc" -eq 2 ] || fail "disturb.sh $bad exited $rc, want 2"
  grep -q "disturb.sh: " "$tmp/err" || fail "disturb.sh $bad: no message: $(head -c 200 "$tmp/err")"
done

# a run of 1.2 s in all (bursts of 0.3 s, pauses of 0.2 s) ends by itself, in time
start=$(date +%s%N)
timeout 10 "$script" 1.2 --burst=0.3 --pause=0.2 --procs=1 || fail "a 1.2 s run exited $?"
ms=$((($(date +%s%N) - start) / 1000000))
[ "$ms" -ge 1100 ] && [ "$ms" -lt 4000 ] || fail "a 1.2 s run took $ms ms"

# its parent shell dies: it stops within a burst and a pause slice, its streamers too
bash -c "\"$script\" 60 --burst=0.3 --pause=5 --procs=1 & echo \$! >\"$tmp/pid\"; sleep 0.5"
pid=$(cat "$tmp/pid")
sleep 1.5
alive() { # PID: running (a zombie whose parent is gone counts as stopped: nothing reaps it here)
  local st
  st=$(ps -o stat= -p "$1" 2>/dev/null) && [[ $st != Z* ]]
}
if alive "$pid"; then
  fail "disturb.sh (pid $pid) still runs 1.5 s after its parent died"
  kill "$pid" 2>/dev/null
fi
for child in $(pgrep -P "$pid" 2>/dev/null); do
  alive "$child" && fail "streamer $child of $pid outlived it"
done

if [ "$failures" -ne 0 ]; then
  echo "test_disturb: $failures failure(s)" >&2
  exit 1
fi
exit 0
