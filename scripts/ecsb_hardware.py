"""ecsb_hardware — the hardware line and efficiency of a run (docs/machine.md).

An iteration scenario declares, in C (scenarios/scenarios.c, raw.json's context key
ecsb_traffic_<scenario> = "read=R,write=W,kernel=K"), the bytes a pass must read and write per
item in the limit's layout and the `ecsbench machine` kernel K that does the same operation over
the same widths. The run's machine.json gives K's bandwidth at each working set. At size N:

  working set      = items per pass x R bytes (W when R is 0); items per pass = a pass's time
                     / the time per item of the cell's floor (the same count for every line)
  bandwidth        = K's GB/s at that working set: the fastest repetition at each measured set
                     (a disturbed repetition only reads slower), interpolated log-log between
                     the two measured sets around it (the end value outside them)
  hardware line    = (R + W) / bandwidth, in ns per item (GB/s = bytes per ns). K is the
                     operation itself, so where its arithmetic costs more than its bytes (in the
                     first cache levels), its own throughput is what prices the line.
  efficiency       = hardware line / a line's median time per item (1 = as fast as the machine
                     moves those bytes; above 1: the line moved fewer bytes than the limit's
                     layout needs, or beat the kernel's code)
"""
import math

from ecsb_rundata import FLOOR, LIMIT, base_scenario, load_machine


def traffic(run, scenario):
    """(read bytes, write bytes, kernel) per item of a scenario (or a variant's base), or None
    when the run does not declare one (not an iteration scenario, or a run before the key)."""
    text = run.context.get(f"ecsb_traffic_{base_scenario(scenario)}")
    if not isinstance(text, str):
        return None
    fields = dict(part.split("=", 1) for part in text.split(",") if "=" in part)
    try:
        read, write = float(fields["read"]), float(fields["write"])
    except (KeyError, ValueError):
        return None
    kernel = fields.get("kernel", "")
    return (read, write, kernel) if kernel and read + write > 0 else None


def bandwidth_curve(machine, kernel):
    """[(working set bytes, GB/s)] ascending, the fastest repetition at each set; [] when
    machine.json has no such kernel."""
    rows = (machine or {}).get("bandwidth_gbps", {}).get(kernel)
    out = []
    for r in rows or []:
        try:
            size, gbps = float(r["bytes"]), float(r.get("max", r["median"]))
        except (KeyError, TypeError, ValueError):
            continue
        if size > 0 and gbps > 0:
            out.append((size, gbps))
    return sorted(out)


def interpolate(curve, size):
    """GB/s at `size` bytes: log-log between the measured sets around it; the end values
    outside them; None for an empty curve."""
    if not curve:
        return None
    if size <= curve[0][0]:
        return curve[0][1]
    if size >= curve[-1][0]:
        return curve[-1][1]
    for (s0, b0), (s1, b1) in zip(curve, curve[1:]):
        if s0 <= size <= s1:
            f = math.log(size / s0) / math.log(s1 / s0)
            return math.exp(math.log(b0) + f * (math.log(b1) - math.log(b0)))
    return None


def items_per_pass(run, scenario, n):
    """Items a pass of (scenario, N) processes: the floor's seconds per pass / its time per item
    (the limit's when the floor has none)."""
    for line in (FLOOR, LIMIT):
        t = run.time_per_item((scenario, line, n))
        p = run.stats((scenario, line, n), "seconds_per_pass")
        if t and p and t["median"] > 0:
            return p["median"] * 1e9 / t["median"]
    return None


class HardwareLine:
    """The hardware line of one run: .of(scenario, n) in ns per item, .efficiency(key)."""

    def __init__(self, run, machine=None):
        self.run = run
        self.machine = machine if machine is not None else load_machine(run.path)

    def available(self):
        return bool(self.machine and self.machine.get("bandwidth_gbps"))

    def of(self, scenario, n):
        """ns per item, or None (no machine.json, not an iteration scenario, no items)."""
        t = traffic(self.run, scenario)
        if not t or not self.available():
            return None
        read, write, kernel = t
        items = items_per_pass(self.run, scenario, n)
        bw = interpolate(bandwidth_curve(self.machine, kernel), (items or 0) * (read or write))
        if not items or not bw:
            return None
        return (read + write) / bw

    def efficiency(self, key):
        """hardware line / the line's median time per item for (scenario, strategy, N)."""
        line = self.of(key[0], key[2])
        t = self.run.time_per_item(key)
        return line / t["median"] if line and t and t["median"] > 0 else None


def efficiency_section(run):
    """summary.md's "Efficiency" section: per iteration case, a row per line and a column per N,
    the line's efficiency (hardware line / its median time per item) under a row of the
    hardware line itself; [] when the run has no machine.json or no iteration scenario."""
    hw = HardwareLine(run)
    if not hw.available():
        return []
    out = []
    for sc in run.scenarios:
        sizes = run.sizes(sc)
        lines = {n: hw.of(sc, n) for n in sizes}
        if not any(lines.values()):
            continue
        read, write, kernel = traffic(run, sc)
        out += [f"### {sc}", "",
                f"{read:g} B read and {write:g} B written per {run.item(sc)}, priced by the "
                f"`{kernel}` kernel.", "",
                "| | " + " | ".join(f"N = {n:,}" for n in sizes) + " |",
                "| --- |" + " ---: |" * len(sizes),
                "| hardware line (ns) | " + " | ".join(
                    f"{lines[n]:.3g}" if lines[n] else "–" for n in sizes) + " |"]
        for st in run.strategies:
            cells = []
            for n in sizes:
                e = hw.efficiency((sc, st, n))
                cells.append(f"{e:.2f}" if e else "–")
            if any(c != "–" for c in cells):
                out.append(f"| {st} | " + " | ".join(cells) + " |")
        out.append("")
    if not out:
        return []
    return ["## Efficiency", "",
            "The hardware line is the time a pass's bytes take at the bandwidth this machine "
            "measured at the pass's working set (machine.json; docs/machine.md); a line's "
            "efficiency is the hardware line ÷ its median time per item (1.00: as fast as the "
            "machine moves those bytes).", ""] + out
