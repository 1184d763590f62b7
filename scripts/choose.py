#!/usr/bin/env python3
"""choose.py — the answer: which storage layout to pick for a workload.

  choose.py RUN_DIR [-o FILE]     choose.md, the answer first: the run-quality banner and the
                                  machine; one line per kind of workload in plain words (KINDS)
                                  with the layout to pick, its lead over the next in plain terms,
                                  its bytes per entity and the sizes or worlds where another
                                  wins; then the words explained once, and the full table (a
                                  row per scenario and the worlds and sizes that share a pick:
                                  the pick, those as fast, those too close to call, the margin
                                  over the next with its confidence interval, memory by name)
  choose.py RUN_DIR --weights frame:3,dual_iterate:1[,frame~order=shuffled:2]
                [--size-weights 4000:1,65536:3]
                                  ranks the layouts for that mix of workloads
                                  (make choose RUN=... WEIGHTS=... [SIZE_WEIGHTS=...])

A workload's verdicts are those of one cell of the run (the size class's N nearest its typical
size: 4,000, 65,536, 1,048,576), decided by scripts/ecsb_stats.py as every other document
decides them. Only cases that vary the world order alone are workloads; sweeps of other
parameters are in summary.md's crossovers. A kind of workload's pick is the layout whose time
over each workload's pick has the least geometric mean over its workloads.

The mix: per layout the weighted geometric mean, over the weighted cases and their sizes (a
case's weight shared among its sizes equally, or as --size-weights says), of its median time /
the cell leader's; 1.00 is a layout that leads everywhere. Its 95 % confidence interval is
scipy.stats.bootstrap's (percentile, seeded) over every repetition involved. Memory: the same
weighted mean of bytes per entity. A layout missing from a weighted cell is named, not ranked.
Exit 0 ok, 2 on an unusable run, bad weights or no weighted cell with times (the message says
what to do).
"""
import argparse
import math
import os
import signal
import sys

import numpy as np
from scipy.stats import bootstrap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ecsb_rundata import RunError, base_scenario, load_run  # noqa: E402
import ecsb_stats as stats  # noqa: E402

# Size classes: (name, upper bound inclusive, typical N)
CLASSES = (("small", 16384, 4000), ("medium", 1048575, 65536), ("large", None, 1048576))
CLASS_WORDS = "small: N <= 16,384; medium: up to 1,048,575; large: N >= 1,048,576"


def size_class(n):
    for name, top, _ in CLASSES:
        if top is None or n <= top:
            return name


def world_of(case):
    """The world order of a case whose only changed parameter is the order ("regular" for
    the defaults); None for any other variant (a sweep point, not a workload)."""
    if "~" not in case:
        return "regular"
    changed = case.split("~", 1)[1].split(",")
    if len(changed) == 1 and changed[0].startswith("order="):
        return changed[0].split("=", 1)[1]
    return None


def workloads(run):
    """[(case, world, class, N)]: each workload and the N of the run that answers it."""
    out = []
    for case in run.scenarios:
        world = world_of(case)
        if world is None:
            continue
        sizes = run.sizes(case)
        for name, _, typical in CLASSES:
            inside = [n for n in sizes if size_class(n) == name]
            if inside:
                n = min(inside, key=lambda x: (abs(math.log(x / typical)), x))
                out.append((case, world, name, n))
    return out


def fmt_bytes(v):
    return "—" if v is None else (f"{v:.0f}" if v >= 100 else f"{v:.1f}")


# ---- the words of the answer ------------------------------------------------------------------

# The kinds of workload, in a game programmer's words, and the scenarios that measure each
# (README.md defines the scenarios; a scenario not named here gets a line of its own, under its
# list.json summary). The answer list has one line per kind the run measured, in this order.
KINDS = (
    ("Updating components on every entity (one or all five of them)", ("packed_1", "packed_5")),
    ("Systems over the entities that hold two or three components",
     ("dual_iterate", "simple_iter", "move3", "churn_iterate")),
    ("Iterating a world split into many different component sets", ("frag_iter",)),
    ("Adding and removing components on live entities", ("add_remove",)),
    ("Spawning and destroying entities", ("entity_cycle", "platformer")),
    ("Looking components up by entity handle, in random order", ("random_get",)),
    ("A whole game frame: movement, AI, damage, bullets, rendering", ("frame",)),
    ("Loading a level: building a world from empty", ("level_load",)),
)
# The mix's bootstrap (a ranking, not a verdict: ecsb_stats decides no mix)
RESAMPLES, SEED, CONFIDENCE = 2000, 27, 0.95
WORLD_WORDS = {"regular": "entities made in order", "shuffled": "made in random order",
               "aged": "after the world has lived (deaths and rebirths at random)"}

WORDS = """How to read this (the words once, in plain language):
- **pick**: the layout with the least time per item in that workload (the geometric mean of
  the run's repetitions; the tables show the median).
- **as fast**: the run measured it within 5 % of the pick, sure of it (its 90 % confidence
  interval lies within ±5 %): choose among them by memory or by your other workloads.
- **too close to call**: the run cannot say whether it is slower or as fast (the repetitions that
  would tell are given); treat it as a candidate.
- **faster than the next**: the pick's lead over the fastest layout that is neither, as a ratio
  of times (2.0x = takes half the time), with its 90 % confidence interval.
- **worlds**: *regular* = entities created in order; *shuffled* = created and given components in
  random order; *aged* = the world has lived (entities died and were reborn at random) before
  the pass. **sizes**: small up to 16,384 entities (the run's N nearest 4,000), medium up to
  1,048,575 (nearest 65,536), large from 1,048,576.
- **B per entity**: the whole world's bytes after set-up / its live entities."""


def libraries(run):
    """The run's library strategies (raw.json context key ecsb_libraries, "flecs,entt")."""
    return {s.strip() for s in str(run.context.get("ecsb_libraries", "")).split(",") if s.strip()}


def shown(run, name):
    """A layout's name as the documents print it: libraries marked as such."""
    return f"{name} (library)" if name in libraries(run) else name


def no_clear_pick(cell):
    """Hook for method-stats' "no clear pick" rule (ecsb_stats.no_clear_pick(cell)); until it
    lands every cell has a pick."""
    rule = getattr(stats, "no_clear_pick", None)
    return bool(rule(cell)) if rule else False


def quality_banner(run_dir):
    """The run-quality banner (ecsb_quality.banner_markdown, owner: method-stats); "" until that
    module exists."""
    try:
        import ecsb_quality
    except ImportError:
        return ""
    return ecsb_quality.banner_markdown(run_dir).strip()


def machine_line(run):
    """The machine's short name (ecsb_rundata.machine_short_name, owner: machine), else the host
    and CPU of raw.json's context."""
    import ecsb_rundata
    short = getattr(ecsb_rundata, "machine_short_name", None)
    name = short(run.path) if short else None
    return name or (run.host() + (f" ({run.cpu()})" if run.cpu() else ""))


def plain_margin(ratio, name):
    """The pick's lead over the next layout (its time / the pick's) in plain terms: "about 10 %
    faster than the next (x)", "about 2.0x faster than the next (x)"; under 5 %: "the next (x)
    within 5 %"."""
    if ratio < stats.MARGIN:
        return f"the next ({name}) within 5 %"
    if ratio < 1.5:
        return f"about {round((ratio - 1) * 100):d} % faster than the next ({name})"
    return f"about {ratio:.1f}x faster than the next ({name})" if ratio < 10 else \
        f"about {ratio:.0f}x faster than the next ({name})"


def range_text(values, fmt, unit=""):
    lo, hi = min(values), max(values)
    return f"{fmt(lo)}{unit}" if fmt(lo) == fmt(hi) else f"{fmt(lo)}–{fmt(hi)}{unit}"


class Verdict:
    """One workload (case, world, size class, N): its cell, pick, the layouts as fast, too close
    to call, the next one and the pick's margin over it."""

    def __init__(self, run, case, world, klass, n):
        self.case, self.world, self.klass, self.n = case, world, klass, n
        self.cell = stats.cell(run, case, n)
        self.pick = self.cell.leader
        self.level = self.cell.level_with_leader() if self.pick else []
        self.untold = self.cell.untold_from_leader() if self.pick else []
        rest = [s for s in self.cell.names[1:] if s not in self.level and s not in self.untold]
        self.next = rest[0] if rest else None
        self.pair = self.cell.pair(self.next, self.pick) if self.next else None
        self.unclear = bool(self.pick) and no_clear_pick(self.cell)

    def top(self):
        """The pick and every layout as fast or too close to call."""
        return [self.pick] + self.level + self.untold if self.pick else []


def verdicts(run):
    return [Verdict(run, *w) for w in workloads(run)]


def kinds_of(run):
    """[(words, [scenario])]: the kinds of workload of this run, in KINDS order, then any
    scenario no kind names (under its own summary)."""
    ran = {base_scenario(c) for c in run.scenarios if world_of(c) is not None}
    out = [(words, [s for s in names if s in ran]) for words, names in KINDS]
    out = [(w, s) for w, s in out if s]
    named = {s for _, names in KINDS for s in names}
    summaries = {s["name"]: s.get("summary", "") for s in (run.meta.scenarios if run.meta else [])} \
        if run.meta and isinstance(run.meta.scenarios, list) else {}
    for s in sorted(ran - named):
        out.append((f"{s}: {summaries.get(s) or 'a scenario of its own'}", [s]))
    return out


def best_of(vs):
    """(pick, others as fast everywhere, score) over a set of workloads: the layout whose time
    over each workload's pick has the least geometric mean (layouts missing from one of them
    left out); the others: those as fast as or too close to the pick in every workload."""
    names = set.intersection(*(set(v.cell.medians) for v in vs)) if vs else set()
    if not names:
        return None, [], {}
    score = {s: math.exp(sum(math.log(v.cell.medians[s] / v.cell.medians[v.pick]) for v in vs)
                         / len(vs)) for s in names}
    order = sorted(names, key=lambda s: (score[s], s))
    pick = order[0]
    others = [s for s in order[1:] if all(s in v.top() for v in vs)]
    return pick, others, score


def answer_line(run, words, vs):
    """One line of the answer list: the kind, its pick (and those as fast everywhere), the
    margin in plain terms, memory, and the sizes where the pick differs."""
    pick, others, score = best_of(vs)
    if pick is None:
        return f"- **{words}** → no layout ran in every one of its workloads."
    everywhere = sum(pick in v.top() for v in vs)
    # bold only where the run decides the pick in every workload of the kind (as the table)
    unclear = sum(stats.no_clear_pick(v.cell) for v in vs)
    b = "" if unclear else "**"
    choice = f"{b}{shown(run, pick)}{b}" + "".join(f" or {b}{shown(run, s)}{b}" for s in others[:2])
    if others[2:]:
        choice += f" (+{len(others) - 2} more as fast)"
    elif others:
        choice += " (as fast)"
    if everywhere < len(vs):
        choice += f"; best or as fast in {everywhere} of its {len(vs)} workloads"
    if unclear:
        choice += f" (no clear pick in {unclear} of its {len(vs)} workloads)"
    rest = sorted((s for s in score if s != pick and s not in others), key=lambda s: score[s])
    margin = ""
    if rest:
        ratio = math.exp(sum(math.log(v.cell.medians[rest[0]] / v.cell.medians[pick])
                             for v in vs) / len(vs))
        margin = f", {plain_margin(ratio, shown(run, rest[0]))}"
    memory = [run.bytes_per_entity((v.case, s, v.n)) for v in vs for s in [pick]]
    memory = [m for m in memory if m is not None]
    mem = f"; {range_text(memory, fmt_bytes, ' B')} per entity" if memory else ""
    notes = []
    for what, key, values in (("sizes", lambda v: v.klass, [c[0] for c in CLASSES]),
                              ("worlds", lambda v: v.world, list(WORLD_WORDS))):
        if len({key(v) for v in vs}) < 2:
            continue
        for value in values:
            inside = [v for v in vs if key(v) == value]
            p, o, _ = best_of(inside)
            if p is None or p == pick or pick in o:
                continue
            where = (f"at {', '.join(f'{x:,}' for x in sorted({v.n for v in inside}))} entities"
                     if what == "sizes" else f"in {value} worlds ({WORLD_WORDS[value]})")
            notes.append(f"{where}: {shown(run, p)}")
    at = f". At your sizes and worlds: {'; '.join(notes)}" if notes else ""
    return f"- **{words}** → {choice}{margin}{mem}{at}."


def size_words(vs):
    ns = sorted({v.n for v in vs})
    return ", ".join(f"{v.klass} ({v.n:,})" for v in sorted({(v.n, v.klass): v for v in vs}.values(),
                                                        key=lambda v: v.n)) if ns else "—"


def group_rows(vs):
    """The workloads of one scenario in as few rows as keep each row's pick one layout: all in
    one, else by size across worlds, else by world across sizes, else one row each."""
    def uniform(groups):
        return all(len({v.pick for v in g}) == 1 for g in groups)

    def by(key):
        out = {}
        for v in vs:
            out.setdefault(key(v), []).append(v)
        return list(out.values())
    tries = [[vs], by(lambda v: v.klass), by(lambda v: v.world)]
    good = [g for g in tries if uniform(g)]
    return min(good, key=len) if good else [[v] for v in vs]


def group_row(run, g):
    v0 = g[0]
    worlds = sorted({v.world for v in g}, key=lambda w: ("regular", "shuffled", "aged").index(w)
                    if w in ("regular", "shuffled", "aged") else 9)
    world = "all three" if len(worlds) == 3 else ", ".join(worlds)
    head = f"| {base_scenario(v0.case)} | {world} | {size_words(g)} |"
    if not v0.pick:
        return head + " — | — | — | — | — |"
    pick = v0.pick
    item = run.item(v0.case)
    times = [run.time_per_item((v.case, pick, v.n))["median"] for v in g]
    drift = " ⚠drift" if any(run.drifted((v.case, pick, v.n)) for v in g) else ""
    unclear = " (no clear pick)" if any(v.unclear for v in g) else ""
    level = [s for s in v0.level if all(s in v.level for v in g)]
    untold = [s for s in dict.fromkeys(s for v in g for s in v.untold) if s not in level]
    pairs = [v for v in g if v.pair]
    if not pairs:
        margin = "—"
    elif len(pairs) == 1:
        p = pairs[0].pair
        margin = (f"{stats.fmt_ratio(p.ratio)}x (90 % CI {stats.fmt_ci(p.ci)}) over "
                  f"{shown(run, pairs[0].next)}")
    else:
        nexts = list(dict.fromkeys(v.next for v in pairs))
        margin = (f"{range_text([v.pair.ratio for v in pairs], stats.fmt_ratio, 'x')} over "
                  f"{listing([shown(run, s) for s in nexts], 2)}")
    memory = []
    for s in [pick] + level:
        b = [run.bytes_per_entity((v.case, s, v.n)) for v in g]
        b = [x for x in b if x is not None]
        if b:
            memory.append(f"{shown(run, s)} {range_text(b, fmt_bytes, ' B')}")
    memory = listing(memory, 4)
    bold = "" if unclear else "**"  # bold only where the run decides the pick
    return (f"{head} {bold}{shown(run, pick)}{bold}{drift}{unclear} "
            f"({range_text(times, lambda t: f'{t:.3g}')} ns/{item}) "
            f"| {', '.join(shown(run, s) for s in level) or '—'} "
            f"| {listing([close(run, g, s) for s in untold])} | {margin} "
            f"| {memory} |")


def close(run, g, name):
    """A layout too close to call with the pick in some workloads of a row, with the
    repetitions a side that would tell in each (and which workload, in a collapsed row)."""
    says = []
    for v in g:
        if name not in v.untold:
            continue
        p = v.cell.pair(name, v.pick)
        reps = f"{p.needed} reps would tell" if p.needed else \
            f"more than {stats.MAX_REPS} reps" if p.ci else "under 2 reps"
        where = ([f"{v.n:,}"] if len({x.n for x in g}) > 1 else []) + \
            ([v.world] if len({x.world for x in g}) > 1 else [])
        says.append(f"{' '.join(where)}: {reps}" if where else reps)
    return f"{shown(run, name)} ({'; '.join(says[:2])}{'; ...' if len(says) > 2 else ''})" \
        if says else shown(run, name)


def listing(names, most=3):
    """Up to `most` names, then how many more: a row stays one line."""
    if not names:
        return "—"
    return ", ".join(names[:most]) + (f" +{len(names) - most} more" if len(names) > most else "")


def choose_md(run_dir):
    run = load_run(run_dir)
    vs = verdicts(run)
    banner = quality_banner(run_dir)
    out = [f"# Which layout to choose: run {run.run_id}", ""]
    out += [banner, ""] if banner else ["<!-- run-quality banner: scripts/ecsb_quality.py -->", ""]
    out += [f"Machine: {machine_line(run)}; {run.date()}.", "",
            "## The answer", "",
            "Per kind of workload, the layout to pick, how much faster it is than the next one "
            "(the geometric mean over the workload's worlds and sizes), and its memory:", ""]
    for words, names in kinds_of(run):
        out.append(answer_line(run, words, [v for v in vs if base_scenario(v.case) in names]))
    classes = {v.klass for v in vs}
    largest = max((v.n for v in vs), default=0)
    out.append("")
    if "large" not in classes:
        out.append(f"This run has no large worlds (N >= 1,048,576; its largest is {largest:,}): "
                   "for them, `make bench SIZES=4000,65536,1048576`.")
        out.append("")
    mix = ",".join(f"{c}:{w}" for c, w in zip(
        [c for c in run.scenarios if world_of(c) == "regular"][:2], (3, 1))) or "frame:3"
    out += [f"For your own mix of workloads: `make choose RUN=results/{run.run_id} "
            f"WEIGHTS={mix}`. Details: [summary.md](summary.md), "
            "[report.md](report.md).", "", "## Every workload", "", WORDS, "",
            "Rows whose pick is the same across worlds or sizes are one row; figures are ranges "
            "over them.", "",
            "| workload | worlds | sizes (N) | pick (ns per item) | as fast | too close to call "
            "| faster than the next (90 % CI) | B per entity (pick, as fast) |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for case in dict.fromkeys(base_scenario(v.case) for v in vs):
        mine = [v for v in vs if base_scenario(v.case) == case]
        out += [group_row(run, g) for g in group_rows(mine)]
    out += ["", "## The rule", "", stats.family_sentence(run), "",
            "*⚠drift*: the line's timed passes still drifted. *(no clear pick)*: the rule of "
            "scripts/ecsb_stats.py found no single layout to recommend there.", ""]
    return "\n".join(out)


# ---- a mix of workloads ---------------------------------------------------------------------

class WeightsError(Exception):
    pass


def parse_weights(text, run):
    """{case: weight} from "frame:3,dual_iterate:1"; WeightsError says what to do."""
    known = [c for c in run.scenarios if world_of(c) is not None]
    hint = (f"give WEIGHTS=scenario:weight,..., e.g. WEIGHTS={known[0]}:3"
            + (f",{known[1]}:1" if len(known) > 1 else "")
            + f"; this run's workloads: {', '.join(known)}") if known \
        else "this run has no workloads"
    if not text or not text.strip():
        raise WeightsError(f"no weights: {hint}")
    out = {}
    for part in text.split(","):
        name, sep, value = part.strip().partition(":")
        if not sep or not name:
            raise WeightsError(f"{part.strip()!r} is not scenario:weight; {hint}")
        if name not in known:
            raise WeightsError(f"unknown scenario {name!r}; {hint}")
        try:
            w = float(value)
        except ValueError:
            raise WeightsError(f"weight {value!r} of {name} is not a number; {hint}")
        if not math.isfinite(w) or w < 0:
            raise WeightsError(f"weight {value!r} of {name} must be a number >= 0; {hint}")
        if name in out:
            raise WeightsError(f"{name} is given twice; give each scenario once")
        out[name] = w
    if not sum(out.values()) > 0:
        raise WeightsError(f"every weight is 0; {hint}")
    return out


def parse_size_weights(text, run, weights):
    """{N: weight} from "4000:1,65536:3" (None: every size of a case weighs alike); the sizes
    must be sizes the weighted cases ran at."""
    if text is None or not text.strip():
        return None
    ran = sorted({n for case in weights for n in run.sizes(case)})
    hint = f"give SIZE_WEIGHTS=N:weight,..., N among this mix's sizes: " \
        f"{', '.join(str(n) for n in ran)}"
    out = {}
    for part in text.split(","):
        n, sep, value = part.strip().partition(":")
        try:
            n = int(n.replace("_", ""))
            w = float(value)
        except ValueError:
            raise WeightsError(f"{part.strip()!r} is not N:weight; {hint}")
        if not sep or not math.isfinite(w) or w < 0:
            raise WeightsError(f"{part.strip()!r} is not N:weight with a weight >= 0; {hint}")
        if n not in ran:
            raise WeightsError(f"no weighted scenario ran at N = {n}; {hint}")
        if n in out:
            raise WeightsError(f"N = {n} is given twice; give each size once")
        out[n] = w
    if not sum(out.values()) > 0:
        raise WeightsError(f"every size weight is 0; {hint}")
    return out


def weighted_cells(run, weights, size_weights=None):
    """[(weight, cell, case, n)] of the mix: a case's weight shared among its sizes equally, or
    in proportion to size_weights ({N: weight}; a size it leaves out weighs 0). Cells without
    times are left out. WeightsError when no weighted cell has times."""
    cells = []
    for case, w in weights.items():
        sizes = [n for n in run.sizes(case) if stats.cell(run, case, n).leader]
        share = {n: (size_weights or {}).get(n, 0.0) if size_weights else 1.0 for n in sizes}
        total = sum(share.values())
        if w > 0 and total > 0:
            cells += [(w * share[n] / total, stats.cell(run, case, n), case, n)
                      for n in sizes if share[n] > 0]
    if not cells:
        raise WeightsError("no weighted cell has times (every weighted scenario failed, or was "
                           "not run at a weighted size); weight scenarios and sizes this run "
                           "timed (see its choose.md)")
    return cells


def rank(run, weights, size_weights=None):
    """([(layout, score, (low, high), bytes per entity)] best first, {layout: [(case, n)] of the
    weighted cells it is missing from}); score 1.00 = leads in every weighted cell. A layout
    missing from a weighted cell is left out of the ranking (and named in the second part)."""
    cells = weighted_cells(run, weights, size_weights)
    total = sum(w for w, *_ in cells)
    out, missing = [], {}
    for layout in run.contenders():
        absent = [(case, n) for _, c, case, n in cells if layout not in c.samples]
        if absent:
            missing[layout] = absent
            continue
        data, terms = [], []
        for w, c, _, _ in cells:
            if c.leader != layout:  # the leader's own term is 0, with no noise
                terms.append(w / total)
                data += [c.samples[layout], c.samples[c.leader]]
        score = math.exp(sum(t * math.log(np.median(data[2 * i]) / np.median(data[2 * i + 1]))
                             for i, t in enumerate(terms)))

        def statistic(*samples, axis=-1):
            logs = [np.log(np.median(samples[2 * i], axis=axis) /
                           np.median(samples[2 * i + 1], axis=axis)) * t
                    for i, t in enumerate(terms)]
            return np.exp(np.sum(logs, axis=0))
        ci = (1.0, 1.0)
        if terms:
            res = bootstrap(tuple(np.asarray(d) for d in data), statistic, vectorized=True,
                            paired=False, n_resamples=RESAMPLES, method="percentile",
                            confidence_level=CONFIDENCE,
                            random_state=np.random.default_rng(SEED))
            ci = (float(res.confidence_interval.low), float(res.confidence_interval.high))
        memory = [(w, run.bytes_per_entity((case, layout, n))) for w, _, case, n in cells]
        memory = [(w, b) for w, b in memory if b is not None]
        out.append((layout, score, ci, sum(w * b for w, b in memory) / sum(w for w, _ in memory)
                    if memory else None))
    return sorted(out, key=lambda r: r[1]), missing


def rank_text(run, weights, size_weights=None):
    ranked, missing = rank(run, weights, size_weights)
    cells = weighted_cells(run, weights, size_weights)
    mix = ", ".join(f"{c}:{w:g}" for c, w in weights.items())
    sizes = sorted({n for _, _, _, n in cells})
    if size_weights:
        how = ("Sizes weighted as asked: " + ", ".join(f"{n:,}: {w:g}" for n, w in
                                                     sorted(size_weights.items())) +
               " (a scenario's weight shared among its sizes in these proportions).")
    else:
        how = ("Sizes: each scenario's weight shared equally among the sizes it ran at ("
               + ", ".join(f"{n:,}" for n in sizes) + "); SIZE_WEIGHTS=N:weight,... weights "
               "them otherwise (e.g. SIZE_WEIGHTS=" + ",".join(f"{n}:1" for n in sizes[:2]) + ").")
    out = [f"Layouts for the mix {mix} in run {run.run_id}: weighted geometric mean of each "
           "layout's median time / the cell leader's, over the weighted scenarios and their "
           "sizes (1.00 = leads everywhere), 95 % bootstrap confidence interval; memory: the "
           "same weighted mean of bytes per entity.", how, ""]
    width = max([len("layout")] + [len(shown(run, r[0])) for r in ranked])
    out.append(f"{'rank':>4}  {'layout':<{width}}  {'x best':>7}  {'95 % CI':>13}  B/entity")
    for i, (layout, score, ci, memory) in enumerate(ranked, 1):
        out.append(f"{i:>4}  {shown(run, layout):<{width}}  {score:>7.2f}  "
                   f"{stats.fmt_ci(ci):>13}  {fmt_bytes(memory)}")
    for layout, absent in missing.items():
        where = ", ".join(f"{case} at {n:,}" for case, n in absent[:3]) + \
            (f" +{len(absent) - 3} more" if len(absent) > 3 else "")
        out.append(f"  not ranked: {shown(run, layout)}, no times in a weighted cell ({where})")
    if not ranked:
        out.append("  (no layout has times in every weighted cell)")
    out += ["", "Each scenario's own verdicts (choose.md) follow the rule: " + stats.FAMILY]
    return "\n".join(out)


def main(argv=None):
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    p = argparse.ArgumentParser(description="which storage layout to choose (choose.md), or a "
                                "ranking for a weighted mix of workloads")
    p.add_argument("run_dir", nargs="?", default="", help="results/<id>")
    p.add_argument("-o", "--output", help="write choose.md here (default: stdout)")
    p.add_argument("--weights", help="scenario:weight,... (e.g. frame:3,dual_iterate:1): rank "
                   "the layouts for that mix instead")
    p.add_argument("--size-weights", help="N:weight,... (e.g. 4000:1,65536:3): how a scenario's "
                   "weight is shared among its sizes (default: equally)")
    args = p.parse_args(argv)
    if not args.run_dir:
        print("choose: error: no run given; usage: make choose RUN=results/<id> "
              "WEIGHTS=frame:3,dual_iterate:1", file=sys.stderr)
        return 2
    try:
        run = load_run(args.run_dir) if args.weights is not None else None
        if run:
            weights = parse_weights(args.weights, run)
            text = rank_text(run, weights, parse_size_weights(args.size_weights, run, weights))
        else:
            text = choose_md(args.run_dir)
    except (RunError, WeightsError) as e:
        print(f"choose: error: {e}", file=sys.stderr)
        return 2
    if args.output:
        tmp = f"{args.output}.tmp-{os.getpid()}"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text + "\n")
        os.replace(tmp, args.output)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
