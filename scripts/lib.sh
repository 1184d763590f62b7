# lib.sh — shell helpers shared by the scripts (source it; bash only).

# Print an error that says what was wrong and what to do, and exit 2 (bad arguments).
ecsb_usage_error() {
  echo "error: $*" >&2
  exit 2
}

# A new run id: UTC timestamp + short host name, e.g. 20261121T214500Z-myhost.
ecsb_new_run_id() {
  local host
  host=$(hostname -s 2>/dev/null || hostname)
  host=${host//[^A-Za-z0-9-]/-}
  printf '%s-%s\n' "$(date -u +%Y%m%dT%H%M%SZ)" "${host:-host}"
}

# Runs are written into a staging folder, $parent/.incomplete-<id>-<pid> (optional 2nd arg: the
# id), and published under their final name only when complete: an interrupted or killed run
# leaves nothing half-written under a final name, and no run ever overwrites another. The pid
# in the name tells later runs whether its writer is still alive (ecsb_clean_stale).
ecsb_staging_dir() {
  local parent=$1 dir
  mkdir -p "$parent" || return 1
  dir="$parent/.incomplete-${2:-$(ecsb_new_run_id)}-$$"
  mkdir "$dir" || return 1
  printf '%s\n' "$dir"
}

# Remove the staging folders (.incomplete-*-<pid>) and set-aside folders (.old-*-<pid>) in $1
# whose process is gone: what a killed run (SIGKILL, a crash, a power cut) left behind. Folders
# of live processes are left alone. Prints one line per folder removed.
ecsb_clean_stale() {
  local parent=$1 dir pid
  [ -d "$parent" ] || return 0
  for dir in "$parent"/.incomplete-* "$parent"/.old-*; do
    [ -d "$dir" ] || continue
    pid=${dir##*-}
    [[ $pid =~ ^[0-9]+$ ]] || continue
    if [ "$pid" -ne $$ ] && ! kill -0 "$pid" 2>/dev/null && [ ! -d "/proc/$pid" ]; then
      rm -rf "$dir" && echo "removed $dir, left by process $pid, which is gone (killed?)"
    fi
  done
}

# Publish a finished staging folder as $parent/<run-id> (optional 3rd arg: the id; suffix -2,
# -3... if taken); prints the final path. mkdir claims the name atomically; rename then
# replaces the empty claimed folder.
ecsb_publish_dir() {
  local staging=$1 parent=$2 id base n=1
  base=${3:-$(ecsb_new_run_id)}
  id=$base
  until mkdir "$parent/$id" 2>/dev/null; do
    n=$((n + 1))
    id="$base-$n"
  done
  mv -T "$staging" "$parent/$id" || return 1
  printf '%s\n' "$parent/$id"
}

# Put a finished folder in place of $2 (which may exist: a redraw), atomically per rename; the
# old one is set aside as .old-<name>-<pid> and removed.
ecsb_replace_dir() {
  local new=$1 dest=$2 old
  old="$(dirname "$dest")/.old-$(basename "$dest")-$$"
  if [ -e "$dest" ]; then mv -T "$dest" "$old" || return 1; fi
  mv -T "$new" "$dest" || return 1
  rm -rf "$old"
}

# The make bench runs in a results folder (those holding raw.json), one per line.
ecsb_list_runs() {
  local dir
  for dir in "${1:-results}"/*/; do
    [ -f "$dir/raw.json" ] && basename "$dir"
  done
}

# Resolve a run argument (results/<id>, or just <id>) to a complete make bench run folder:
# raw.json and results.csv; exit 2 with a message otherwise (staging folders of unfinished
# runs and hyperfine or cachegrind outputs included). Usage: ecsb_resolve_run ARG NAME
ecsb_resolve_run() {
  local arg=$1 what=$2 dir results=${RESULTS_DIR:-results} runs
  runs="runs in $results/: $(ecsb_list_runs "$results" | tr '\n' ' ')"
  [ -n "$arg" ] || ecsb_usage_error "$what is missing: give a run folder, e.g. $what=$results/<id> ($runs)"
  dir=${arg%/}
  [ -d "$dir" ] || dir="$results/$arg"
  [ -d "$dir" ] || ecsb_usage_error "$what=$arg: no such run folder ($runs)"
  case $(basename "$dir") in
    .incomplete-* | .old-*)
      ecsb_usage_error "$what=$arg is the staging folder of an unfinished (or killed) make bench, not a run ($runs)" ;;
  esac
  case $(basename "$(dirname "$(cd "$dir" && pwd)")") in
    hyperfine | cachegrind)
      ecsb_usage_error "$what=$arg is a make $(basename "$(dirname "$(cd "$dir" && pwd)")") output, not a make bench run ($runs)" ;;
  esac
  [ -f "$dir/raw.json" ] || ecsb_usage_error "$what=$arg: $dir/raw.json is missing; is it a complete ecsbench run? ($runs)"
  [ -f "$dir/results.csv" ] || ecsb_usage_error "$what=$arg: $dir/results.csv is missing; is it a complete ecsbench run? ($runs)"
  printf '%s\n' "$dir"
}

# The names to run, one per line: the comma list VALUE if given (the binary checks them when it
# runs them), else every one `BIN list --json` names. Usage: ecsb_names BIN scenarios|strategies VALUE
ecsb_names() {
  local bin=$1 kind=$2 value=$3
  if [ -n "$value" ]; then
    [[ $value =~ ^[A-Za-z0-9_,]+$ ]] ||
      ecsb_usage_error "${kind^^}=$value: want a comma-separated list of names, e.g. ${kind^^}=a,b"
    tr ',' '\n' <<<"$value" | sed '/^$/d' | awk '!seen[$0]++'
    return
  fi
  "$bin" list --json | "${PYTHON:-/usr/bin/python3}" -c '
import json, sys
for entry in json.load(sys.stdin)[sys.argv[1]]:
    print(entry["name"])' "$kind" ||
    ecsb_usage_error "$bin list --json did not print the registry; is $bin up to date? (make build/ecsbench)"
}

# The sizes in the comma list $1, one per line, each checked: a whole number 1..16777216.
ecsb_sizes() {
  local n
  [[ $1 =~ ^[0-9,]+$ ]] || ecsb_usage_error "SIZES=$1: want entity counts, comma-separated, e.g. SIZES=4000,65536"
  for n in ${1//,/ }; do
    [[ $n =~ ^[1-9][0-9]{0,7}$ ]] && [ "$n" -le 16777216 ] ||
      ecsb_usage_error "SIZES=$1: '$n' is not a whole number 1..16777216"
  done
  tr ',' '\n' <<<"$1" | sed '/^$/d' | awk '!seen[$0]++'
}

# The checksum that `BIN run SCENARIO STRATEGY N [PASSES]` prints, optionally run under a
# command prefix (e.g. valgrind and its options); fails loudly with what it printed otherwise:
# status 2 when the binary refused the arguments (an unknown name: its message lists the valid
# ones), else 1. Usage: ecsb_run_checksum BIN SCENARIO STRATEGY N PASSES|"" [PREFIX...]
ecsb_run_checksum() {
  local bin=$1 scenario=$2 strategy=$3 n=$4 text rc=0
  local -a passes=()
  [ -z "$5" ] || passes=("$5")
  shift 5
  text=$("$@" "$bin" run "$scenario" "$strategy" "$n" "${passes[@]}" 2>&1) || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "error: ${*:+$* }$bin run $scenario $strategy $n ${passes[*]} failed:" >&2
    printf '  %s\n' "$text" >&2
    [ "$rc" -eq 2 ] && return 2
    return 1
  fi
  if ! [[ $text =~ checksum=([0-9A-Fa-fx]+) ]]; then
    echo "error: $bin run $scenario $strategy $n ${passes[*]} printed no checksum=<hex>: $text" >&2
    return 1
  fi
  printf '%s\n' "${BASH_REMATCH[1]}"
}
