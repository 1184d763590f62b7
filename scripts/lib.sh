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

# Runs are written into a staging folder ($parent/.incomplete-<id>-<pid>; optional 2nd arg: the id) and published under
# their final name only when complete, so an interrupted run leaves nothing half-written under
# a final name, and no run ever overwrites another.
ecsb_staging_dir() {
  local parent=$1 dir
  mkdir -p "$parent"
  dir="$parent/.incomplete-${2:-$(ecsb_new_run_id)}-$$"
  mkdir "$dir" || return 1
  printf '%s\n' "$dir"
}

# Publish a finished staging folder as $parent/<run-id> (optional 3rd arg: the id; suffix -2,
# -3... if taken); prints the
# final path. mkdir claims the name atomically; rename then replaces the empty claimed folder.
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

# Resolve a run argument (results/<id>, or just <id>) to an existing run directory that holds
# the named file; exit 2 with a message otherwise. Usage: ecsb_resolve_run ARG NAME [FILE]
ecsb_resolve_run() {
  local arg=$1 what=$2 file=${3:-raw.json} dir
  [ -n "$arg" ] || ecsb_usage_error "$what is missing: give a run folder, e.g. $what=results/<id> (ls results/)"
  dir=$arg
  [ -d "$dir" ] || dir="results/$arg"
  [ -d "$dir" ] || ecsb_usage_error "$what=$arg: no such run folder (runs are in results/: $(ls results 2>/dev/null | tr '\n' ' '))"
  [ -f "$dir/$file" ] || ecsb_usage_error "$what=$arg: $dir/$file is missing; is it a complete ecsbench run?"
  printf '%s\n' "${dir%/}"
}

# The checksum that `BIN run SCENARIO STRATEGY N [PASSES]` prints, optionally run under a
# command prefix (e.g. valgrind and its options); fails loudly with what it printed otherwise.
# Usage: ecsb_run_checksum BIN SCENARIO STRATEGY N PASSES|"" [PREFIX...]
ecsb_run_checksum() {
  local bin=$1 scenario=$2 strategy=$3 n=$4 text
  local -a passes=()
  [ -z "$5" ] || passes=("$5")
  shift 5
  if ! text=$("$@" "$bin" run "$scenario" "$strategy" "$n" "${passes[@]}" 2>&1); then
    echo "error: ${*:+$* }$bin run $scenario $strategy $n ${passes[*]} failed:" >&2
    printf '  %s\n' "$text" >&2
    return 1
  fi
  if ! [[ $text =~ checksum=([0-9A-Fa-fx]+) ]]; then
    echo "error: $bin run $scenario $strategy $n ${passes[*]} printed no checksum=<hex>: $text" >&2
    return 1
  fi
  printf '%s\n' "${BASH_REMATCH[1]}"
}
