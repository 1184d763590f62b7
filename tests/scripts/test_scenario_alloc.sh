#!/usr/bin/env bash
# test_scenario_alloc.sh — every array a scenario, floor or limit uses comes from the shared
# allocator (scenarios/alloc.h: ecsb_state_alloc, ecsb_array_alloc, ecsb_array_zalloc, each
# block at a sampled placement, as the layouts' blocks are), so no line of code in scenarios/
# outside alloc.h calls malloc, calloc, realloc or free. Comments are not code: a line's text
# after // and inside /* ... */ is dropped first (comments that open and close on the same
# line, and lines inside a block comment that start with " *").
# The check is first run on a copy with a calloc put in, which it must catch (so the test can
# fail), then on scenarios/.
# Usage: test_scenario_alloc.sh [folder] (default: scenarios/ of this repo). Exit 0 when clean;
# 1 with one line per call (file:line: text).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)

# calls FOLDER: prints every direct allocator call in its .c and .h files but alloc.h
calls() {
  find "$1" -name '*.[ch]' ! -name alloc.h -print0 | sort -z |
    xargs -0 awk '
      { line = $0
        gsub(/\/\*.*\*\//, "", line)       # /* ... */ on one line
        sub(/\/\/.*/, "", line)            # // to the end of the line
        if (line ~ /^[ \t]*\*/ || line ~ /^[ \t]*\/\*/) next   # inside a block comment
        if (line ~ /(^|[^A-Za-z0-9_])(malloc|calloc|realloc|free)[ \t]*\(/)
          printf "%s:%d: %s\n", FILENAME, FNR, $0 }'
}

mutant=$(mktemp -d)
trap 'rm -rf "$mutant"' EXIT
cp -r "$top/scenarios" "$mutant/"
printf 'static void *leak(void) { return calloc(1, 8); }\n' >> "$mutant/scenarios/floors/frame.h"
if [ -z "$(calls "$mutant/scenarios")" ]; then
  echo "test_scenario_alloc: the check missed a calloc put into a copy of floors/frame.h" >&2
  exit 1
fi

found=$(calls "${1:-$top/scenarios}")
if [ -n "$found" ]; then
  echo "test_scenario_alloc: allocator calls outside scenarios/alloc.h (use ecsb_array_alloc / ecsb_array_zalloc / ecsb_array_free):" >&2
  echo "$found" >&2
  exit 1
fi
echo "test_scenario_alloc: no malloc, calloc, realloc or free in scenarios/ outside alloc.h"
