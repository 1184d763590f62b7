#!/usr/bin/env python3
"""page.py RUN IMAGES [-o FILE] — a run's page: index.html beside its images, opened from disk.

RUN is the run's results folder (results/<id>, or bench.sh's staging folder for it); IMAGES the
folder of its drawn images (plots/<id>, or plots.sh's staging folder). The page goes into
IMAGES/index.html (or FILE) and holds, in order:
  the answer     choose.md of the run, rendered (a run made before choose.md: its summary's
                 "Which to choose" table, and a note saying so)
  heat maps      overview_heatmap*.png, one per world order, and the memory chart
  charts         every chart of every case (a scenario or a variant), as SVG; a click opens the
                 SVG alone, where each point names its figures on hover
  tables         summary.md, rendered
  provenance     the run's context from raw.json: machine, compiler and flags, commit, command
Links are relative: to the images by name, to the run's files through the path from the
published plots folder to the published results folder (plots/<id> -> ../../results/<id>),
so the page opens with file:// and no server. Rendered with Jinja2 (scripts/templates/
page.html.j2) and Python-Markdown (the tables extension). Exit 2 when RUN or IMAGES is unusable.
"""
import argparse
import os
import re
import sys

import jinja2
import markdown

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ecsb_rundata import RunError, human_bytes, load_run  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CHART_KINDS = (("_vs_n", "time per item against N"), ("_n4000", "bars at N = 4000"),
               ("_memory_vs_n", "bytes per entity against N"))
# The context shown first, in this order (every key is in the full list below it).
PROVENANCE = (("date", "date"), ("host_name", "host"), ("ecsb_cpu_model", "CPU"),
              ("num_cpus", "CPUs"), ("mhz_per_cpu", "MHz per CPU"),
              ("ecsb_compiler", "C compiler"), ("ecsb_cflags", "C flags"),
              ("ecsb_cxx_compiler", "C++ compiler"), ("ecsb_gbench_version", "Google Benchmark"),
              ("ecsb_git_commit", "git commit"), ("ecsb_git_dirty", "working tree"),
              ("ecsb_make_command", "make command"), ("ecsb_command", "ecsbench command"),
              ("ecsb_repetitions", "repetitions"), ("ecsb_min_time", "min time (s)"),
              ("ecsb_sizes", "sizes"), ("ecsb_quick", "quick"), ("load_avg", "load average"))


def final_folder(path, run_id):
    """Where a folder is published: a staging folder (.incomplete-<id>-<pid>) becomes its
    sibling <run id>; a published one stays where it is."""
    path = os.path.abspath(path)
    if os.path.basename(path).startswith("."):
        return os.path.join(os.path.dirname(path), run_id)
    return path


def rewrite_links(html, to_results):
    """Relative href/src of a document of the results folder, made relative to the page: an
    image of this run's plots folder by its name, anything else through to_results."""
    def fix(m):
        attr, url = m.group(1), m.group(2)
        if re.match(r"^([a-z][a-z0-9+.-]*:|#|/)", url, re.I):
            return m.group(0)
        image = re.match(r"^(?:\.\./)+plots/[^/]+/([^/]+)$", url)
        return f'{attr}="{image.group(1) if image else to_results + "/" + url}"'
    return re.sub(r'\b(href|src)="([^"]*)"', fix, html)


def render_md(path, to_results):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return rewrite_links(markdown.markdown(text, extensions=["tables"]), to_results)


def which_to_choose(path, to_results):
    """The "Which to choose" section of summary.md, rendered: the answer of a run made before
    choose.md; None when the summary has none."""
    with open(path, encoding="utf-8") as f:
        m = re.search(r"^## Which to choose\n(.*?)(?=^## |\Z)", f.read(), re.M | re.S)
    return rewrite_links(markdown.markdown(m.group(1), extensions=["tables"]), to_results) \
        if m else None


def context_value(value):
    if isinstance(value, list) and value and isinstance(value[0], dict):  # caches
        return ", ".join(f"L{c.get('level')} {c.get('type', '')} {human_bytes(int(c.get('size', 0)))}"
                         for c in value)
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return str(value)


def charts_of(run, images):
    """[(case, [(file, what)])] in the run's case order, and the images left over."""
    svgs = sorted(f for f in os.listdir(images) if f.endswith(".svg"))
    left = set(svgs)
    out = []
    for case in run.scenarios:
        files = [(case + suffix + ".svg", what) for suffix, what in CHART_KINDS
                 if case + suffix + ".svg" in left]
        files += [(f, "sweep: " + f[len(case) + len("_sweep_"):-len(".svg")].replace("_n", " at N = "))
                  for f in svgs if f.startswith(case + "_sweep_") and f in left]
        left -= {f for f, _ in files}
        if files:
            out.append((case, files))
    return out, left


def page(run, images, to_results):
    pngs = sorted(f for f in os.listdir(images) if f.endswith(".png"))
    heatmaps = sorted((f for f in pngs if f.startswith("overview_heatmap")),
                      key=lambda f: (f != "overview_heatmap.png", f))
    charts, left = charts_of(run, images)
    overview = set(f[:-4] + ".svg" for f in heatmaps) | {"memory_n65536.svg"}
    docs = {name: os.path.join(run.path, name) for name in ("choose.md", "summary.md")}
    files = [f for f in ("choose.md", "summary.md", "report.md", "results.csv", "errors.csv",
                         "raw.json", "list.json") if os.path.exists(os.path.join(run.path, f))]
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(os.path.join(HERE, "templates")),
                             autoescape=True, trim_blocks=True, lstrip_blocks=True)
    return env.get_template("page.html.j2").render(
        run_id=run.run_id, host=run.host(), cpu=run.cpu(), date=run.date(),
        answer=render_md(docs["choose.md"], to_results) if os.path.exists(docs["choose.md"]) else None,
        fallback=which_to_choose(docs["summary.md"], to_results)
        if os.path.exists(docs["summary.md"]) else None,
        summary=render_md(docs["summary.md"], to_results) if os.path.exists(docs["summary.md"]) else None,
        heatmaps=heatmaps, memory="memory_n65536.png" if "memory_n65536.png" in pngs else None,
        charts=charts, other=sorted(left - overview), to_results=to_results, files=files,
        provenance=[(label, context_value(run.context[key])) for key, label in PROVENANCE
                    if key in run.context],
        context=sorted((k, context_value(v)) for k, v in run.context.items()))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run")
    ap.add_argument("images")
    ap.add_argument("-o", "--output")
    args = ap.parse_args(argv[1:])
    try:
        run = load_run(args.run)
    except RunError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if not os.path.isdir(args.images):
        print(f"error: {args.images}: no such folder of images", file=sys.stderr)
        return 2
    to_results = os.path.relpath(final_folder(run.path, run.run_id),
                                 final_folder(args.images, run.run_id))
    out = args.output or os.path.join(args.images, "index.html")
    with open(out + ".tmp", "w", encoding="utf-8") as f:
        f.write(page(run, args.images, to_results))
    os.replace(out + ".tmp", out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
