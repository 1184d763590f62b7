#!/usr/bin/env bash
# test_no_indirect_calls.sh — the zero-overhead contract, checked on machine code: every
# strategy's timed scenario functions (platformer_pass, dual_iterate_pass: static functions
# in its release object) reach no indirect call — no `call *` / `jmp *` through a register or
# memory — in their own bodies or in any function of the same object they call directly
# (transitively, .cold/.part clones included). So no callback, vtable or allocator-free
# function pointer is called per entity.
#
# The same reachability checks the lead dispatch (harness/strategy.h ECSB_QUERY_BY_LEAD): a
# timed pass must not reach ecsb_query_any_lead, the out-of-line walk for a query whose type
# count is not a compile-time constant. Reaching it means __builtin_constant_p did not survive
# inlining, so the scenario walks with a variable lead and its loops over the types do not
# unroll.
#
# Two exceptions, by source line: calls through the world's allocator (a source line calling
# `->realloc(` or `->free(`, as harness/strategy.h's ecsb_resize/ecsb_release do), which run
# per growth of an array, not per entity; and the code of a vendored library
# (strategies/libs/<name>/<file>: EnTT's virtual calls in remove and destroy, the library's
# own, as its users get them; the glue around it, strategies/libs/entt_lib.cc, is checked). Objects are built with -g, so objdump -l
# attributes each instruction, inlined or not, to its source file and line, which is read.
#
# Usage: test_no_indirect_calls.sh [object.o ...]
#   no arguments: every strategies/<name>.c, from $BUILD/release/strategies/<name>.o (built
#   with make when missing). Exit 0 when clean; 1 with one line per offending call (strategy,
#   function, the function it is reached from, source line, instruction).
# Environment: BUILD (build folder, default build).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}
case $build in /*) ;; *) build=$top/$build ;; esac

command -v objdump >/dev/null || { echo "test_no_indirect_calls: objdump missing (binutils)" >&2; exit 1; }

objects=("$@")
if [ ${#objects[@]} -eq 0 ]; then
  for src in "$top"/strategies/*.c; do
    name=$(basename "$src" .c)
    obj=$build/release/strategies/$name.o
    if [ ! -e "$obj" ] || [ "$src" -nt "$obj" ]; then
      make -s -C "$top" BUILD="$build" "$obj" >/dev/null ||
        { echo "test_no_indirect_calls: cannot build $obj" >&2; exit 1; }
    fi
    objects+=("$obj")
  done
fi

# analyse NAME OBJECT: print "FAIL ..." lines for offending calls, "NOROOT ..." if a timed
# function is missing, "OK name roots reached" otherwise.
# The timed functions: <scenario>_pass for every scenario in scenarios/scenarios.def.
passes=$(sed -n 's/^ECSB_SCENARIO(\([a-z0-9_]*\),.*/\1_pass/p' "$top/scenarios/scenarios.def" | paste -sd' ')
analyse() {
  objdump -d -l -r --no-show-raw-insn "$2" | awk -v strategy="$1" -v header="$top/harness/strategy.h" \
    -v passes="$passes" '
    BEGIN { npass = split(passes, pass_name, " "); for (i = 1; i <= npass; i++) is_pass[pass_name[i]] = 1 }
    function root(f,    base) { base = f; sub(/\..*$/, "", base); return base in is_pass }
    # True when line `line` of `file` calls through an allocator slot.
    function calls_allocator(file, line,    text, n, ok) {
      n = 0; ok = 0
      while ((getline text < file) > 0)
        if (++n == line) { ok = text ~ /->[ \t]*(realloc|free)[ \t]*\(/; break }
      close(file)
      return ok
    }
    # True when source location "file:line" calls through an allocator slot. binutils 2.40
    # names header code at the start of a section (before the line program first switches
    # files; DWARF 5) after the main file: so a strategy file line is also tried in
    # harness/strategy.h, the first header every strategy includes.
    function allocator_call(where,    file, line) {
      if (!match(where, /:[0-9]+$/)) return 0
      file = substr(where, 1, RSTART - 1); line = substr(where, RSTART + 1) + 0
      return calls_allocator(file, line) ||
             (file ~ /\/strategies\/[^\/]+\.c$/ && calls_allocator(header, line))
    }
    # True when "file:line" is the code of a vendored library (strategies/libs/<name>/: the
    # virtual calls of EnTT in remove and destroy, inlined into entt.o by its link-time
    # optimisation), its own as the calls of flecs are (out of line there, never seen here).
    function library_code(where) { return where ~ /\/strategies\/libs\/[^\/]+\/[^\/]+:[0-9]+$/ }
    # A function header: "0000000000000fd0 <platformer_pass>:"
    /^[0-9a-f]+ <[^>]+>:$/ {
      fn = substr($2, 2, length($2) - 3); funcs[fn] = 1; loc = "?"; next
    }
    # A source line from -l: "/path/file.c:123" or "... (discriminator 2)"
    /^\/.*:[0-9]+( \(discriminator [0-9]+\))?$/ { loc = $1; next }
    fn == "" { next }
    # A relocation: the target of the call/jmp just above (calls across sections, externals).
    /^[ \t]+[0-9a-f]+: R_X86_64_(PLT32|PC32)/ {
      sym = $3; sub(/[-+]0x[0-9a-f]+$/, "", sym)
      if (last_branch) edge[fn, sym] = 1
      next
    }
    /^[ \t]+[0-9a-f]+:\t/ {
      insn = $0; sub(/^[ \t]+[0-9a-f]+:\t/, "", insn)
      last_branch = insn ~ /^(notrack |bnd )*(call|jmp|j[a-z]+)[a-z]* /
      if (insn ~ /^(notrack |bnd )*(call|jmp)[a-z]* +\*/) {
        nind++; ind_fn[nind] = fn; ind_loc[nind] = loc; ind_insn[nind] = insn
      } else if (last_branch && match(insn, /<[^>]+>$/)) {
        target = substr(insn, RSTART + 1, RLENGTH - 2); sub(/\+0x[0-9a-f]+$/, "", target)
        if (target != fn) edge[fn, target] = 1
      }
    }
    END {
      # Reachability from the timed functions over direct calls and jumps to local functions.
      n = 0
      for (f in funcs) if (root(f)) { reach[f] = f; queue[++n] = f }
      for (f in funcs) { base = f; sub(/\..*$/, "", base); has_root[base] = 1 }
      for (i = 1; i <= npass; i++)
        if (!(pass_name[i] in has_root))
          print "NOROOT " strategy ": " pass_name[i] " missing from the object"
      for (i = 1; i <= n; i++)
        for (k in edge) {
          split(k, pair, SUBSEP)
          if (pair[1] == queue[i] && (pair[2] in funcs) && !(pair[2] in reach)) {
            reach[pair[2]] = reach[queue[i]]; queue[++n] = pair[2]
          }
        }
      bad = 0
      for (f in reach) {
        base = f; sub(/\..*$/, "", base)
        if (base != "ecsb_query_any_lead") continue
        bad++
        printf "FAIL %s: %s reaches %s, the walk with a variable lead (q->count not constant there)\n",
               strategy, reach[f], f
      }
      for (i = 1; i <= nind; i++) {
        f = ind_fn[i]
        if (!(f in reach) || ((f, ind_loc[i]) in told) || allocator_call(ind_loc[i]) ||
            library_code(ind_loc[i])) continue
        told[f, ind_loc[i]] = 1
        bad++
        printf "FAIL %s: %s (reached from %s) makes an indirect call at %s: %s\n",
               strategy, f, reach[f], ind_loc[i], ind_insn[i]
      }
      if (!bad) printf "OK %s: %d functions reached from the timed passes, no indirect call\n", strategy, n
    }'
}

failed=0
for obj in "${objects[@]}"; do
  name=$(basename "$obj" .o)
  [ -e "$obj" ] || { echo "  FAIL $name: $obj missing" >&2; failed=1; continue; }
  out=$(analyse "$name" "$obj")
  if printf '%s\n' "$out" | grep -q '^OK '; then
    printf '%s\n' "$out" | sed 's/^/  /'
  else
    printf '%s\n' "$out" | sed 's/^/  /' >&2
    failed=1
  fi
done

# The check must be able to fail: the template built with ECSB_INLINE as noinline (query
# called out of line, the callback through its pointer) must be caught.
if [ $# -eq 0 ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/harness"
  sed 's/^#define ECSB_INLINE .*/#define ECSB_INLINE static __attribute__((noinline))/' \
    "$top/harness/strategy.h" >"$tmp/harness/strategy.h"
  if ! grep -q 'define ECSB_INLINE static __attribute__((noinline))' "$tmp/harness/strategy.h" ||
     ! ${CC:-gcc} -I"$tmp" -I"$top" -std=c17 -O2 -g -c -o "$tmp/template.o" \
       "$top/strategies/template.c" 2>"$tmp/cc.err"; then
    echo "  FAIL control: cannot build the template with ECSB_INLINE as noinline: $(head -c 300 "$tmp/cc.err")" >&2
    failed=1
  elif analyse template "$tmp/template.o" | grep -q '^FAIL template: .*reached from [a-z0-9_]*_pass'; then
    echo "  OK control: the template with query out of line is caught"
  else
    echo "  FAIL control: the template with query out of line was not caught; this check" \
         "cannot see indirect calls (objdump output changed?)" >&2
    failed=1
  fi
  # and a timed pass that calls the variable-lead walk (what a query whose count is not
  # constant at the call compiles to) must be caught
  printf '%s\n' 'static __attribute__((noinline)) void ecsb_query_any_lead(int *x) { __asm__ volatile("" : "+m"(*x)); }' \
    'void platformer_pass(int *x) { ecsb_query_any_lead(x); }' >"$tmp/lead.c"
  if ! ${CC:-gcc} -std=c17 -O2 -g -c -o "$tmp/lead.o" "$tmp/lead.c" 2>"$tmp/cc.err"; then
    echo "  FAIL control: cannot build the variable-lead control: $(head -c 300 "$tmp/cc.err")" >&2
    failed=1
  elif analyse lead "$tmp/lead.o" | grep -q '^FAIL lead: platformer_pass reaches ecsb_query_any_lead'; then
    echo "  OK control: a timed pass reaching the variable-lead walk is caught"
  else
    echo "  FAIL control: a timed pass reaching the variable-lead walk was not caught" >&2
    failed=1
  fi
fi
if [ "$failed" -ne 0 ]; then
  echo "test_no_indirect_calls: timed code reaches an indirect call (a callback, function pointer" \
       "or vtable per entity?) or the variable-lead walk; make query and the hot operations" \
       "ECSB_INLINE and call them directly, with a query whose count is a constant" >&2
fi
exit "$failed"
