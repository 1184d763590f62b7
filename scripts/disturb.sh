#!/usr/bin/env bash
# disturb.sh [SECONDS] [--burst=S] [--pause=S] [--procs=N] — disturbs this machine the way a
# user's own programs do, to test the benchmark against (issue 31; docs/measuring.md): a burst
# of competing processes, one per online CPU (so one shares whichever core the benchmark runs
# on), each streaming memory (copying one 64 MiB buffer into another, beyond any cache) for
# --burst seconds (default 1), then a pause of --pause seconds (default 3), again and again.
# It stops by itself after SECONDS in all (default 600, at most 7200), when the shell that
# started it is gone, or on Ctrl-C / TERM, and leaves no process behind.
# Usage while a run works:   scripts/disturb.sh 900 & make bench ...; kill %1
# Exit 0 when done; 2 on a bad argument (saying which and what it takes).
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib.sh
source "$here/lib.sh"
PYTHON=${PYTHON:-/usr/bin/python3}

usage() {
  sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
}

total=600 burst=1 pause=3 procs=$(nproc 2>/dev/null || echo 1)
number='^([0-9]+([.][0-9]*)?|[.][0-9]+)$'
for arg in "$@"; do
  case $arg in
    -h | --help) usage; exit 0 ;;
    --burst=*) burst=${arg#*=}
      [[ $burst =~ $number ]] && awk -v v="$burst" 'BEGIN { exit !(v > 0 && v <= 60) }' ||
        ecsb_usage_error "disturb.sh: bad $arg: --burst takes seconds above 0, at most 60, e.g. --burst=1" ;;
    --pause=*) pause=${arg#*=}
      [[ $pause =~ $number ]] && awk -v v="$pause" 'BEGIN { exit !(v <= 600) }' ||
        ecsb_usage_error "disturb.sh: bad $arg: --pause takes seconds 0 .. 600, e.g. --pause=3" ;;
    --procs=*) procs=${arg#*=}
      [[ $procs =~ ^[1-9][0-9]?$ ]] ||
        ecsb_usage_error "disturb.sh: bad $arg: --procs takes a number of processes 1 .. 99" ;;
    -*) ecsb_usage_error "disturb.sh: unknown flag $arg (see: scripts/disturb.sh --help)" ;;
    *) total=$arg
      [[ $total =~ $number ]] && awk -v v="$total" 'BEGIN { exit !(v > 0 && v <= 7200) }' ||
        ecsb_usage_error "disturb.sh: bad SECONDS '$arg': the total time, seconds above 0, at most 7200 (default 600)" ;;
  esac
done

parent=$PPID
parent_alive() { # still a child of the shell that started it (not re-parented)
  local p
  p=$(ps -o ppid= -p $$ 2>/dev/null) && [ "${p// /}" = "$parent" ]
}
children=()
stop() {
  [ ${#children[@]} -eq 0 ] || kill "${children[@]}" 2>/dev/null
  wait 2>/dev/null
}
trap 'stop; exit 0' INT TERM
trap stop EXIT

# One streamer: copies a 64 MiB buffer into another until `seconds` have passed.
stream='
import sys, time
a, b = bytearray(64 << 20), bytearray(64 << 20)
end = time.monotonic() + float(sys.argv[1])
while time.monotonic() < end:
    b[:] = a
'
end=$(($(date +%s%N) / 1000000 + $(awk -v t="$total" 'BEGIN { printf "%d", t * 1000 }')))
while :; do
  now=$(($(date +%s%N) / 1000000))
  left=$((end - now))
  [ "$left" -gt 0 ] && parent_alive || break
  this=$(awk -v b="$burst" -v l="$left" 'BEGIN { printf "%.3f", b * 1000 < l ? b : l / 1000 }')
  children=()
  for ((i = 0; i < procs; i++)); do
    "$PYTHON" -c "$stream" "$this" &
    children+=($!)
  done
  wait "${children[@]}" 2>/dev/null
  children=()
  now=$(($(date +%s%N) / 1000000))
  left=$((end - now))
  [ "$left" -gt 0 ] && parent_alive || break
  # the pause in slices of at most 0.5 s, so a parent's death is noticed within half a second
  rest=$(awk -v p="$pause" -v l="$left" 'BEGIN { printf "%d", (p * 1000 < l ? p * 1000 : l) }')
  while [ "$rest" -gt 0 ] && parent_alive; do
    step=$((rest < 500 ? rest : 500))
    sleep "$(awk -v s="$step" 'BEGIN { printf "%.3f", s / 1000 }')"
    rest=$((rest - step))
  done
done
exit 0
