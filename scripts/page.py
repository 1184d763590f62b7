#!/usr/bin/env python3
"""page.py RUN IMAGES [-o FILE] — a run's page: index.html beside its images, opened from disk.

RUN is the run's results folder (results/<id>, or bench.sh's staging folder for it); IMAGES the
folder of its drawn images (plots/<id>, or plots.sh's staging folder). The page goes into
IMAGES/index.html (or FILE) and holds, in order (one h1; every heading has an id and a link to
itself; a side index, a top line on a phone, links each section and scenario):
  header         the run id, the machine's short name, the run-quality banner (scripts/
                 ecsb_quality.py, when it exists)
  the answer     choose.md's answer list (a run made before choose.md: its summary's "Which to
                 choose" table, and a note saying so)
  heat maps      overview_heatmap*.png (time, one per world order), memory*.png, efficiency*.png
  scenarios      one section per scenario: what it does (list.json), then per case (a world
                 order or a variant) its charts (SVG; a click opens it alone, where each point
                 names its figures on hover) and report.md's table of the case
  every workload choose.md's full table and its rule
  report         report.md's findings and per-layout text, rendered (its per-case tables sit in
                 the scenario sections)
  files, tables  the run's files; summary.md rendered, folded
  provenance     the run's context from raw.json
Pictures load lazily. Links are relative: to the images by name, to the run's files through the
path from the published plots folder to the published results folder (plots/<id> ->
../../results/<id>), so the page opens with file:// and no server. Rendered with Jinja2
(scripts/templates/page.html.j2) and Python-Markdown (the tables extension). Exit 2 when RUN or
IMAGES is unusable.
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


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def render_md(path, to_results):
    return md_html(read(path), to_results)


def slug(text):
    return re.sub(r"[^a-z0-9_~=.]+", "-", text.lower()).strip("-") or "section"


def md_html(text, to_results, shift=0, prefix=""):
    """Markdown rendered, its links made relative to the page, each heading moved `shift`
    levels down (h6 at most) with an id (prefix + its words) and a link to itself."""
    html = rewrite_links(markdown.markdown(text, extensions=["tables"]), to_results)
    seen = {}

    def heading(m):
        level = min(6, int(m.group(1)) + shift)
        words = re.sub(r"<[^>]+>", "", m.group(2))
        key = prefix + slug(words)
        seen[key] = seen.get(key, 0) + 1
        key += f"-{seen[key]}" if seen[key] > 1 else ""
        return (f'<h{level} id="{key}">{m.group(2)} <a class="anchor" href="#{key}" '
                f'aria-label="link to this section">#</a></h{level}>')
    html = re.sub(r"<h([1-6])>(.*?)</h\1>", heading, html, flags=re.S)
    # a wide table scrolls inside its own box instead of running under the next element
    return html.replace("<table>", '<div class="wide"><table>').replace("</table>",
                                                                        "</table></div>")


def md_sections(text, level):
    """[(title, body)] of a Markdown text split at its headings of `level` (the text before
    the first one has the title None)."""
    parts = re.split(rf"^{'#' * level} (.+)$", text, flags=re.M)
    return [(None, parts[0])] + [(parts[i], parts[i + 1]) for i in range(1, len(parts), 2)]


def report_parts(path):
    """report.md as ({case heading: its table's Markdown}, [(title, body)] of its other
    sections): the per-case tables go to the scenario sections, the rest to the report."""
    if not os.path.exists(path):
        return {}, []
    cases, rest = {}, []
    for title, body in md_sections(read(path), 2)[1:]:
        if title.startswith("Per case"):
            intro, *tables = md_sections(body, 3)
            cases.update({t: b for t, b in tables})
            rest.append(("How to read the per-case tables", intro[1]))
        else:
            rest.append((title, body))
    return cases, rest


def case_title(case):
    """A case as report.md heads it: dual_iterate~order=aged -> dual_iterate (order=aged)."""
    base, _, changed = case.partition("~")
    return f"{base} ({changed})" if changed else base


def case_words(case):
    """A case as the page heads it under its scenario: its world, or its parameters."""
    _, _, changed = case.partition("~")
    if not changed:
        return "regular world (the defaults)"
    if re.fullmatch(r"order=\w+", changed):
        return changed.split("=")[1] + " world"
    return changed.replace(",", ", ")


def choose_parts(path):
    """choose.md's (answer, the rest from "## Every workload" on), Markdown; None when the
    file is missing or has no answer list."""
    if not os.path.exists(path):
        return None, None
    text = read(path)
    answer = re.search(r"^## The answer\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    table = re.search(r"^## Every workload\n(.*)", text, re.M | re.S)
    return (answer.group(1) if answer else None,
            re.sub(r"^## ", "### ", table.group(1), flags=re.M) if table else None)


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


def answer_first(html):
    """The answer's list first: a paragraph before it (what the list says) moves after it, so
    the list starts on the first screen."""
    m = re.match(r"\s*(<p>.*?</p>)\s*(<ul>.*?</ul>)", html, re.S)
    return html if not m else m.group(2) + "\n" + m.group(1) + html[m.end():]


def banner_parts(html):
    """The banner with all but its first bold words in a span a phone folds away."""
    m = re.search(r"(<strong>.*?</strong>)(.*?)(</p>)", html, re.S)
    if not m or not m.group(2).strip():
        return html
    return (html[:m.start()] + m.group(1) + f'<span class="more">{m.group(2)}</span>'
            + m.group(3) + html[m.end():])


def banner_and_machine(run):
    """(the run-quality banner's Markdown or "", the machine's short name): choose.py's hooks
    to scripts/ecsb_quality.py (method-stats) and ecsb_rundata.machine_short_name (machine)."""
    import choose
    return choose.quality_banner(run.path), choose.machine_line(run)


def page(run, images, to_results):
    pngs = sorted(f for f in os.listdir(images) if f.endswith(".png"))
    heatmaps = sorted((f for f in pngs if f.startswith("overview_heatmap")),
                      key=lambda f: (f != "overview_heatmap.png", f))
    memory = [f for f in pngs if f.startswith("memory")]
    efficiency = [f for f in pngs if f.startswith("efficiency")]
    charts, left = charts_of(run, images)
    overview = set(f[:-4] + ".svg" for f in heatmaps + memory + efficiency)
    files = [f for f in ("choose.md", "summary.md", "report.md", "results.csv", "errors.csv",
                         "raw.json", "list.json") if os.path.exists(os.path.join(run.path, f))]
    answer, workloads = choose_parts(os.path.join(run.path, "choose.md"))
    summary = os.path.join(run.path, "summary.md")
    tables, report = report_parts(os.path.join(run.path, "report.md"))
    facts = run.meta.scenarios if run.meta else {}
    scenarios = []  # (scenario, id, what it does, [(case, id, words, charts, table html)])
    for case, files_of in charts:
        base = case.split("~", 1)[0]
        if not scenarios or scenarios[-1][0] != base:
            scenarios.append((base, "scenario-" + slug(base),
                              (facts.get(base) or {}).get("summary", ""), []))
        table = tables.get(case_title(case))
        scenarios[-1][3].append((case, "case-" + slug(case), case_words(case), files_of,
                                 md_html(table, to_results, 2, f"{slug(case)}-")
                                 if table else None))
    banner, machine = banner_and_machine(run)
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(os.path.join(HERE, "templates")),
                             autoescape=True, trim_blocks=True, lstrip_blocks=True)
    return env.get_template("page.html.j2").render(
        run_id=run.run_id, machine=machine, date=run.date(),
        banner=banner_parts(md_html(banner, to_results)) if banner else None,
        answer=answer_first(md_html(answer, to_results, 1, "answer-")) if answer else None,
        fallback=which_to_choose(summary, to_results) if os.path.exists(summary) else None,
        workloads=md_html(workloads, to_results, 0, "workloads-") if workloads else None,
        report=[(title, "report-" + slug(title), md_html(body, to_results, 1, "report-"))
                for title, body in report],
        summary=md_html(read(summary), to_results, 2, "summary-")
        if os.path.exists(summary) else None,
        heatmaps=heatmaps, memory=memory, efficiency=efficiency, scenarios=scenarios,
        other=sorted(left - overview), to_results=to_results, files=files,
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
