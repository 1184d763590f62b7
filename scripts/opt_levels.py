#!/usr/bin/env python3
"""opt_levels.py A B — the same suite built at two optimisation levels on one machine: each
layout's efficiency in both runs, and whether the second build made it faster.

    make bench SCENARIOS=dual_iterate,packed_1,simple_iter,move3 SIZES=4000,65536 \
         STRATEGIES=archetype,owning_group,sparse_set,index_is_id                  # -O2: A
    make bench BUILD=build-o3 OPT=-O3 SCENARIOS=... SIZES=... STRATEGIES=...       # -O3: B
    scripts/opt_levels.py results/<A> results/<B>

For every iteration scenario (one that declares its bytes per item, ecsb_hardware.py), every
line both runs have (the layouts, the floor and the limit) and every N: the efficiency in A and
in B (the hardware line / the line's median time per item, each run against its own
machine.json) and the verdict of B against A on the suite's one estimand (the ratio of the
geometric means of the repetition times, scripts/ecsb_stats.py), all the printed pairs in one
Benjamini-Hochberg family. A cell reads "0.62 → 0.91 ▲": ▲ B faster (by at least 5 %,
significant), ▼ B slower, = level (within 5 %), ? undecidable. Below each table: the lines B
made faster in every N, and those it changed nowhere.

A and B must come from one machine (machine.json's fingerprint_key), or the difference is the
machine's as much as the compiler's: then the script says so first. The optimisation levels
are read from each run's recorded C flags (the last -O option). Exit 2 with a message for a
missing or damaged run, or runs with no iteration scenario in common.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from ecsb_hardware import HardwareLine  # noqa: E402
from ecsb_rundata import RunError, load_machine, load_run  # noqa: E402
from ecsb_stats import FASTER, LEVEL, Family  # noqa: E402

MARK = {"B": "▲", "A": "▼", LEVEL: "=", None: "?"}


def fail(message):
    print(f"opt_levels: {message}", file=sys.stderr)
    sys.exit(2)


def opt_level(run):
    """The last -O option of the run's recorded C flags ("-O2"), or "unknown"."""
    flags = run.context.get("ecsb_cflags") or ""
    if not flags:
        doc = load_machine(run.path) or {}
        flags = (doc.get("build") or {}).get("cflags") or ""
    levels = re.findall(r"(?:^|\s)(-O[0-9sgz]?|-Ofast)(?=\s|$)", str(flags))
    return levels[-1] if levels else "unknown"


def same_machine(a, b):
    """(True, "") when both runs' machine.json name one fingerprint; else (False, why)."""
    ma, mb = load_machine(a.path), load_machine(b.path)
    if not ma or not mb:
        return False, "a run has no machine.json, so the two machines cannot be told apart"
    ka, kb = ma.get("fingerprint_key"), mb.get("fingerprint_key")
    if ka and ka == kb:
        return True, ""
    return False, (f"the runs come from different machines ({ma.get('short_name', '?')} and "
                   f"{mb.get('short_name', '?')}): the differences below are the machines' as "
                   "much as the builds'")


def cells(a, b):
    """[(scenario, strategy, n)] both runs timed, iteration scenarios only, in A's order."""
    hw_a = HardwareLine(a)
    out = []
    for sc in a.scenarios:
        if sc not in b.scenarios:
            continue
        for n in a.sizes(sc):
            if hw_a.of(sc, n) is None:
                continue
            for st in a.strategies:
                key = (sc, st, n)
                if a.samples.get(key) and b.samples.get(key):
                    out.append(key)
    return out


def verdicts(a, b, keys):
    """{key: "B" | "A" | LEVEL | None}: which build is faster, level, or undecidable."""
    family = Family({k: {"A": a.samples[k], "B": b.samples[k]} for k in keys})
    out = {}
    for k in keys:
        pair = family.pair(k, "A", "B")
        out[k] = pair.faster if pair.verdict == FASTER else LEVEL if pair.verdict == LEVEL \
            else None
    return out, family


def fmt(e):
    return f"{e:.2f}" if e is not None else "–"


def report(a, b):
    keys = cells(a, b)
    if not keys:
        fail(f"{a.path} and {b.path} have no iteration scenario (with a hardware line) in "
             "common; make both with make bench at the same SCENARIOS and SIZES")
    la, lb = opt_level(a), opt_level(b)
    same, why = same_machine(a, b)
    judged, family = verdicts(a, b, keys)
    hw_a, hw_b = HardwareLine(a), HardwareLine(b)
    out = [f"# Efficiency at {la} (A) and {lb} (B)", ""]
    if not same:
        out += [f"**Note:** {why}.", ""]
    out += [f"A: {a.run_id} ({la}); B: {b.run_id} ({lb}). A cell: efficiency in A → in B "
            f"(1.00: as fast as the machine moves the pass's bytes); ▲ {lb} faster, ▼ {lb} "
            "slower (by at least 5 %, significant), = level (within 5 %), ? undecidable. "
            + family.sentence(), ""]
    for sc in dict.fromkeys(k[0] for k in keys):
        sizes = sorted({k[2] for k in keys if k[0] == sc})
        out += [f"## {sc}", "", "| line | " + " | ".join(f"N = {n:,}" for n in sizes) + " |",
                "| --- |" + " ---: |" * len(sizes)]
        gained, unchanged = [], []
        for st in dict.fromkeys(k[1] for k in keys if k[0] == sc):
            row = []
            marks = []
            for n in sizes:
                k = (sc, st, n)
                if k not in judged:
                    row.append("–")
                    continue
                marks.append(judged[k])
                row.append(f"{fmt(hw_a.efficiency(k))} → {fmt(hw_b.efficiency(k))} "
                           f"{MARK[judged[k]]}")
            out.append(f"| {st} | " + " | ".join(row) + " |")
            if marks and all(m == "B" for m in marks):
                gained.append(st)
            elif marks and all(m == LEVEL for m in marks):
                unchanged.append(st)
        out += ["", f"{lb} faster at every N: {', '.join(gained) or 'none'}; level at every N: "
                f"{', '.join(unchanged) or 'none'}.", ""]
    return "\n".join(out)


def main(argv):
    if len(argv) != 2 or any(x.startswith("-") for x in argv):
        fail("usage: scripts/opt_levels.py RUN_A RUN_B (two run folders, results/<id>, of the "
             "same scenarios and sizes built at two optimisation levels)")
    try:
        a, b = load_run(argv[0]), load_run(argv[1])
    except RunError as e:
        fail(str(e))
    print(report(a, b))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
