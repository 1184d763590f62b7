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

# Reserve a fresh final directory name under $1 that no other run has: prints its path.
# The name is claimed atomically with mkdir, so two runs started in the same second differ.
ecsb_claim_run_dir() {
  local parent=$1 id base n=1
  mkdir -p "$parent"
  base=$(ecsb_new_run_id)
  id=$base
  until mkdir "$parent/$id" 2>/dev/null; do
    n=$((n + 1))
    id="$base-$n"
  done
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
