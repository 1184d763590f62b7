"""ecsb_cases — a run (ecsb_rundata.Run) seen as cases, for report.py and the findings check.

A case is a scenario run with one parameter set: its defaults, or a variant
(scenario~name=value,..., shown as "scenario (name=value,...)"). A cell is a case at one N; its
verdicts come from scripts/ecsb_stats.py.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ecsb_rundata import REFERENCES  # noqa: E402
import ecsb_stats as stats  # noqa: E402


def cases(run):
    """{(scenario, params): [N, ...]} in the run's scenario order, params in order of appearance."""
    out = {}
    for sc in run.scenarios:
        for n in run.sizes(sc):
            for st in run.strategies:
                key = (sc, st, n)
                if key in run.rows or key in run.errors:
                    sizes = out.setdefault((sc, run.params_of(key)), [])
                    if n not in sizes:
                        sizes.append(n)
    return out


def case_name(case):
    """A variant (scenario~name=value,...) as "scenario (name=value,...)"; the defaults plain."""
    sc, params = case
    if "~" in sc:
        base, changed = sc.split("~", 1)
        return f"{base} ({changed})"
    return sc


def param_set(params):
    return {p.strip() for p in params.split(";") if p.strip()}


def cell_of(run, case, n, *extra):
    """The ecsb_stats cell of (case, n); with extra reference lines (floor, limit) added to
    its layouts when a claim compares against them."""
    lines = run.contenders() + [x for x in extra if x in REFERENCES]
    return stats.cell(run, case[0], n, lines if extra else None)


def median(run, case, strategy, n):
    key = (case[0], strategy, n)
    t = run.time_per_item(key)
    return t["median"] if t and run.params_of(key) == case[1] else None
