#!/usr/bin/env python3
"""ecsb_quality — say it first: how well a run could answer, for the top of every document
(choose.md, summary.md, report.md, the page) and the console's last lines of `make bench`.

  banner_markdown(run_dir, run=None)   one Markdown paragraph (a block quote)
  banner_text(run_dir, run=None)       the same as console lines
  quality(run)                         the figures: a dict (below)
  time_line(run_dir, took)             where a run's seconds went (bench.sh's console)
  ecsb_quality.py RUN_DIR              prints banner_text (bench.sh's last lines)
  ecsb_quality.py --time RUN_DIR SECS  prints time_line (SECS: make bench's seconds in all)

The figures:
  sentinel    the machine's speed while the run timed (the sentinel kernel probed around
              every repetition, harness/sentinel.c): the least and the largest per-repetition
              `speed_index` counter (1.0 = the run's best speed), or the context's
              ecsb_sentinel_best_ns / ecsb_sentinel_worst_ns; None when the run has none
  disturbed   repetitions marked disturbed and kept (counter `disturbed` = 1) and those
              repeated (context ecsb_sentinel_repeated), each of all repetitions; left_out:
              the marked ones the figures leave out (ecsb_rundata.kept)
  wide        lines whose repetitions spread over ecsb_stats.WIDE (1.4x), of all lines
  undecided   workload rows of choose.md with no clear pick (ecsb_stats.no_clear_pick), of all
  load        the 1-minute load average at the start and the end (context
              ecsb_sentinel_load_start / _end; else Google Benchmark's load_avg), and the CPUs
The sentinel is the machine's witness: a run is *too disturbed to answer* when more than
TOO_DISTURBED of its repetitions were disturbed, or when more than TOO_WIDE of its lines are
wide or more than TOO_UNDECIDED of its rows have no clear pick while more than
SOME_DISTURBED of its repetitions were disturbed. Wide lines and undecided rows on a machine
the sentinel found (nearly) quiet are not the machine's doing: such a run is *undecided*
(the layouts are closer than its repetitions can tell, or a line's worlds differ: fresh worlds
of frame and level_load vary between repetitions), and the banner says so instead of blaming
the machine. Else *disturbed* when more than QUIET_WIDE of its lines are wide or any
repetition was disturbed; else *quiet*.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ecsb_stats as stats  # noqa: E402
from ecsb_rundata import RunError, load_run  # noqa: E402

TOO_WIDE = 0.10        # the target: at most 10 % of lines wide after the repeats
TOO_DISTURBED = 0.10
TOO_UNDECIDED = 0.50
QUIET_WIDE = 0.02      # a quiet machine: 0.6 % and 1.1 % in two back-to-back reference runs
SOME_DISTURBED = 0.05  # a quiet AMD VM's make bench: 3.0 % of first timings disturbed (load 0.7)
WHAT_TO_DO = "close other programs; rerun"
UNDECIDED_ADVICE = ("the undecided rows hold layouts closer than the repetitions can tell: "
                    "read them as level, or add repetitions (make bench "
                    "ECSB_BENCH_ARGS=--benchmark_repetitions=9)")


def _duration(seconds):
    seconds = int(round(seconds))
    return f"{seconds // 60} min {seconds % 60} s" if seconds >= 60 else f"{seconds} s"


def _run_seconds(ctx):
    """(checking, timing, stages, repeats) seconds from a run's context; None when it has no
    record of them (a run made before they were recorded)."""
    check, timing = _number(ctx.get("ecsb_check_seconds")), _number(ctx.get("ecsb_timing_seconds"))
    if check is None or timing is None:
        return None
    return (check, timing, _number(ctx.get("ecsb_stage_seconds")) or 0.0,
            _number(ctx.get("ecsb_sentinel_repeat_seconds")) or 0.0)


def what_to_do(ctx):
    """The banner's advice, with what rerunning costs: this run's own seconds when recorded."""
    parts = _run_seconds(ctx)
    if parts is None:
        return f"{WHAT_TO_DO} (make bench)"
    check, timing, stages, repeats = parts
    quiet = check + timing + stages - repeats
    return (f"{WHAT_TO_DO}: this run's checking, timing and stages took "
            f"{_duration(check + timing + stages)}"
            + (f", {_duration(quiet)} without its repeats" if repeats >= 1 else ""))


def time_line(run_dir, took):
    """Where make bench's `took` seconds went, from the run's context: checking, timing (and of
    it the repeats of disturbed repetitions: how many and why), stages, tables and plots."""
    import json
    try:
        with open(os.path.join(run_dir, "raw.json"), encoding="utf-8") as f:
            ctx = json.load(f).get("context", {})
    except (OSError, ValueError, AttributeError):
        return f"time:    {_duration(took)}"
    parts = _run_seconds(ctx)
    if parts is None:
        return f"time:    {_duration(took)}"
    check, timing, stages, repeats = parts
    rest = max(0.0, took - check - timing - stages)
    repeated = int(_number(ctx.get("ecsb_sentinel_repeated")) or 0)
    disturbed = int(_number(ctx.get("ecsb_sentinel_disturbed")) or 0)
    why = (f" (of it {_duration(repeats)} timing again {repeated} of {disturbed} repetitions "
           "the sentinel found disturbed, and waiting for the machine)" if repeats >= 1 else "")
    return (f"time:    {_duration(took)}: checking {_duration(check)}, timing "
            f"{_duration(timing)}{why}, stages {_duration(stages)}, tables and plots "
            f"{_duration(rest)}")


def _number(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _counters(run_dir):
    """(speed indexes, disturbed flags) of every repetition row of raw.json."""
    import json
    try:
        with open(os.path.join(run_dir, "raw.json"), encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return [], []
    speed, disturbed = [], []
    for b in doc.get("benchmarks", []):
        if not isinstance(b, dict) or b.get("run_type", "iteration") != "iteration" \
                or "aggregate_name" in b:
            continue
        s, d = _number(b.get("speed_index")), _number(b.get("disturbed"))
        if s is not None:
            speed.append(s)
        if d is not None:
            disturbed.append(d)
    return speed, disturbed


def quality(run, run_dir=None):
    """The figures of a run (ecsb_rundata.Run): {"sentinel": (low, high) or None,
    "repetitions", "disturbed", "repeated", "wide": (wide, lines), "rows": (undecided, rows),
    "load": float or None, "cpus": int or None, "verdict": "quiet" | "disturbed" |
    "too disturbed"}."""
    speed, flags = _counters(run_dir or run.path)
    ctx = run.context
    sentinel = (min(speed), max(speed)) if speed else None
    best, worst = (_number(ctx.get(f"ecsb_sentinel_{k}_ns")) for k in ("best", "worst"))
    if sentinel is None and best and worst:
        sentinel = (best / worst, 1.0)
    repetitions = sum(len(v) for v in run.samples.values()) + getattr(run, "left_out", 0)
    disturbed = int(sum(f >= 1 for f in flags))
    repeated = int(_number(ctx.get("ecsb_sentinel_repeated")) or 0)
    from choose import workloads  # the rows of choose.md
    rows = [stats.cell(run, case, n) for case, _, _, n in workloads(run)]
    rows = [c for c in rows if c.leader]
    undecided = sum(stats.no_clear_pick(c) for c in rows)
    load = ctx.get("load_avg")
    load = _number(load[0]) if isinstance(load, list) and load else None
    load = _number(ctx.get("ecsb_sentinel_load_start", load))
    load_end = _number(ctx.get("ecsb_sentinel_load_end"))
    cpus = ctx.get("num_cpus") if isinstance(ctx.get("num_cpus"), int) else None
    wide = stats.wide_share(run)
    q = {"sentinel": sentinel, "repetitions": repetitions, "disturbed": disturbed,
         "left_out": getattr(run, "left_out", 0),
         "repeated": repeated, "wide": wide, "rows": (undecided, len(rows)), "load": load,
         "load_end": load_end, "cpus": cpus}
    q["verdict"] = verdict_of(q)
    return q


def verdict_of(q):
    """"quiet", "disturbed", "undecided" or "too disturbed" from the figures of quality()."""
    def share(part, whole):
        return part / whole if whole else 0.0
    disturbed = share(q["disturbed"], q["repetitions"])
    unclear = share(*q["wide"]) > TOO_WIDE or share(*q["rows"]) > TOO_UNDECIDED
    if disturbed > TOO_DISTURBED or (unclear and disturbed > SOME_DISTURBED):
        return "too disturbed"
    if unclear:
        return "undecided"
    if share(*q["wide"]) > QUIET_WIDE or q["disturbed"] or q["repeated"]:
        return "disturbed"
    return "quiet"


def _pct(part, whole):
    share = 100 * part / whole if whole else 0.0
    return f"{share:.0f} %" if share >= 10 or share == 0 else f"{share:.1f} %"


def _facts(q):
    """The figures in few words, in the banner's order (the page shows them on one line)."""
    out = []
    if q["sentinel"]:
        lo, hi = q["sentinel"]
        out.append(f"sentinel {lo:.2f}–{hi:.2f} of best speed")
    else:
        out.append("no sentinel")
    out.append(f"{_pct(q['disturbed'], q['repetitions'])} of repetitions disturbed, "
               f"{_pct(q['repeated'], q['repetitions'])} repeated"
               + (f", {q['left_out']} of them left out of the figures"
                  if q.get("left_out") else ""))
    out.append(f"{_pct(*q['wide'])} of lines wide (over {stats.WIDE}x)")
    out.append(f"no clear pick in {q['rows'][0]} of {q['rows'][1]} rows")
    if q["load"] is not None:
        out.append(f"load {q['load']:.1f}"
                   + (f"–{q['load_end']:.1f}" if q.get("load_end") is not None else "")
                   + (f" on {q['cpus']} CPUs" if q["cpus"] else ""))
    return out


def _head(q):
    return {"quiet": "Run quality: quiet.",
            "disturbed": "Run quality: disturbed.",
            "undecided": "Run quality: a quiet machine, but many rows undecided.",
            "too disturbed": "This run is too disturbed to answer."}[q["verdict"]]


def banner_markdown(run_dir, run=None):
    """The run-quality banner as one Markdown block quote ("" for an unreadable run)."""
    try:
        q = quality(run or load_run(run_dir), run_dir)
    except RunError:
        return ""
    text = f"> **{_head(q)}** " + " · ".join(_facts(q))
    if q["verdict"] == "too disturbed":
        text += f". **What to do: {what_to_do(run_context(run_dir, run))}.**"
    elif q["verdict"] == "undecided":
        text += ". Undecided rows: layouts too close to tell apart."
    return text


def banner_text(run_dir, run=None):
    """The banner as console lines (the last lines of make bench)."""
    try:
        q = quality(run or load_run(run_dir), run_dir)
    except RunError as e:
        return f"run quality: unknown ({e})"
    head = _head(q)
    out = [head.upper() if q["verdict"] == "too disturbed" else head.lower().rstrip(".")]
    out += [f"  {f}" for f in _facts(q)]
    if q["verdict"] == "too disturbed":
        out.append(f"  what to do: {what_to_do(run_context(run_dir, run))}")
    elif q["verdict"] == "undecided":
        out.append(f"  {UNDECIDED_ADVICE}")
    return "\n".join(out)


def run_context(run_dir, run=None):
    """The context of a run's raw.json ({} when unreadable)."""
    if run is not None and isinstance(getattr(run, "context", None), dict):
        return run.context
    import json
    try:
        with open(os.path.join(run_dir, "raw.json"), encoding="utf-8") as f:
            return json.load(f).get("context", {})
    except (OSError, ValueError, AttributeError):
        return {}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--time"]:
        if len(argv) != 3 or _number(argv[2]) is None:
            print("usage: ecsb_quality.py --time RUN_DIR SECONDS", file=sys.stderr)
            return 2
        print(time_line(argv[1], _number(argv[2])))
        return 0
    if len(argv) != 1:
        print("usage: ecsb_quality.py RUN_DIR (prints the run-quality banner)", file=sys.stderr)
        return 2
    try:
        run = load_run(argv[0])
    except RunError as e:
        print(f"ecsb_quality: error: {e}", file=sys.stderr)
        return 2
    print(banner_text(argv[0], run))
    return 0


if __name__ == "__main__":
    sys.exit(main())
