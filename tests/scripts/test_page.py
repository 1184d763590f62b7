"""A run's page (scripts/page.py, written by scripts/plots.sh as plots/<id>/index.html), opened
from disk in a real browser (Debian's chromium, headless: scripts/headless.sh).

Two fixture runs laid out as make bench leaves them (results/<id>, plots/<id>): the cases run of
test_plot_cases.py (four cases, two world orders, a sweep) with a choose.md and a report.md, and
the overview run of fixture_runs.py, made "before choose.md" (a hand-written summary.md as such
runs have). Checked: every link and picture the page names exists on disk; every chart drawn is
on the page; one h1, every heading with an id and a link to itself, the index linking every
scenario, pictures lazy, report.md rendered; in the browser every picture loads, no console
message appears and the answer is there; a page with a missing picture is caught. As a person
sees it (scripts/page_check.py, at 1280x800 and 390 px wide): the reference run's page, drawn
again by today's page.py, has no overlapping text, every picture loads, every index link lands
and the answer is on the first screen; a page spoilt in each of those ways is caught.
"""
import html.parser
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
PYTHON = os.environ.get("PYTHON", "/usr/bin/python3")
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(TOP, "scripts"))
from fixture_runs import RUN_OVERVIEW, overview_run  # noqa: E402
from test_plot_cases import RUN as RUN_CASES, cases_run  # noqa: E402
import page_check  # noqa: E402

REFERENCE = "20261127T120006Z-vm"
CHOOSE = """# Which layout to choose

## The answer

- **Systems over the entities that hold two or three components** → **a**, about 10 % faster
  than the next (b); 8.0 B per entity.

## Every workload

| workload | worlds | sizes (N) | pick (ns per item) | as fast |
| --- | --- | --- | --- | --- |
| dual_iterate | regular | small (4,000) | **a** (1 ns/matched pair) | b |

## The rule

The fastest, and every layout the run cannot tell from it.
"""
REPORT = """# ecsbench report: run x

## Findings (hand-written, checked against this run)

### Iteration

Queries walk dense columns.

## Per case

A row per line.

### dual_iterate

| ns per matched pair, × leader | 4,000 |
| --- | ---: |
| a | **1.00** |

## Per strategy

- **a**: the leader.
"""

# summary.md as a run made before choose.md has it (today's summary.py links choose.md and has
# no table of its own): the page answers from its "Which to choose" table.
OLD_SUMMARY = """# ecsbench run {run}

## Which to choose

| scenario | N | fastest | runner-up | margin |
| --- | ---: | --- | --- | ---: |
| iterate | 4000 | a | c | 1.10x |
| churn | 4000 | b | a | 2.00x |

## Overview

![Heat map](../../plots/{run}/overview_heatmap.png)
"""


class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        self.links += [v for k, v in attrs if k in ("href", "src") and v]


def broken(dom):
    """What the page's own check says about its pictures (a short failure message)."""
    m = re.search(r'data-broken-images="(\d+)"', dom)
    note = re.search(r'<p id="broken"[^>]*>([^<]*)</p>', dom)
    return f"broken pictures: {m.group(1) if m else 'no count'}; {note.group(1) if note else ''}"[:600]


def headless(*args):
    return subprocess.run([os.path.join(TOP, "scripts", "headless.sh"), *args],
                          capture_output=True, text=True)


class LinkRewriting(unittest.TestCase):
    def test_links_of_the_results_folder_are_made_relative_to_the_page(self):
        from page import rewrite_links
        got = rewrite_links('<img src="../../plots/X/a.png"><a href="report.md"></a>'
                            '<a href="../../docs/findings.md"></a><a href="#errors"></a>'
                            '<a href="https://example.org/"></a>', "../../../r/X")
        self.assertEqual(got, '<img src="a.png"><a href="../../../r/X/report.md"></a>'
                              '<a href="../../../r/X/../../docs/findings.md"></a>'
                              '<a href="#errors"></a><a href="https://example.org/"></a>')


class FirstScreen(unittest.TestCase):
    def test_the_answer_list_comes_before_its_intro(self):
        from page import answer_first
        self.assertEqual(answer_first("<p>Per kind:</p>\n<ul>\n<li>x</li>\n</ul>\n<p>more</p>"),
                         "<ul>\n<li>x</li>\n</ul>\n<p>Per kind:</p>\n<p>more</p>")

    def test_a_phone_folds_the_banner_figures_not_its_verdict(self):
        from page import banner_parts
        got = banner_parts("<blockquote><p><strong>Run quality: quiet.</strong> 0.0 % of 5 "
                           "disturbed.</p></blockquote>")
        self.assertEqual(got, '<blockquote><p><strong>Run quality: quiet.</strong><span '
                              'class="more"> 0.0 % of 5 disturbed.</span></p></blockquote>')


class RunPage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        results = os.path.join(cls.tmp, "results")
        cases = cases_run(results)
        with open(os.path.join(cases, "choose.md"), "w") as f:
            f.write(CHOOSE)
        with open(os.path.join(cases, "report.md"), "w") as f:
            f.write(REPORT)
        old = overview_run(results)
        with open(os.path.join(old, "summary.md"), "w") as f:
            f.write(OLD_SUMMARY.format(run=RUN_OVERVIEW))
        env = dict(os.environ, PLOTS_DIR=os.path.join(cls.tmp, "plots"), RESULTS_DIR=results,
                   PYTHON=PYTHON)
        for run in (cases, old):
            done = subprocess.run([os.path.join(TOP, "scripts", "plots.sh"), run], env=env,
                                  capture_output=True, text=True)
            assert done.returncode == 0, done.stderr
        cls.page = os.path.join(cls.tmp, "plots", RUN_CASES, "index.html")
        cls.old_page = os.path.join(cls.tmp, "plots", RUN_OVERVIEW, "index.html")
        cls.dom = headless("dom", cls.page)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def links(self, page):
        parser = Links()
        with open(page, encoding="utf-8") as f:
            parser.feed(f.read())
        return parser.links

    def test_every_link_and_picture_the_page_names_exists(self):
        for page in (self.page, self.old_page):
            local = [u.split("#")[0] for u in self.links(page)
                     if not re.match(r"^([a-z]+:|#)", u)]
            self.assertTrue(local, page)
            for url in local:
                self.assertTrue(os.path.exists(os.path.join(os.path.dirname(page), url)),
                                f"{page} names {url}, which does not exist")

    def test_the_run_files_are_linked_through_the_results_folder(self):
        self.assertIn(f"../../results/{RUN_CASES}/results.csv", self.links(self.page))
        self.assertIn(f"../../results/{RUN_CASES}/choose.md", self.links(self.page))

    def test_every_chart_drawn_is_on_the_page(self):
        folder = os.path.dirname(self.page)
        links = set(self.links(self.page))
        for f in os.listdir(folder):
            if f.endswith(".svg"):
                self.assertIn(f, links, f"{f} is not on the page")
        for f in ("overview_heatmap.png", "overview_heatmap~order=shuffled.png",
                  "dual_iterate~order=shuffled_vs_n.svg", "dual_iterate_sweep_match_n4000.svg"):
            self.assertIn(f, links)

    def test_in_the_browser_every_picture_loads_and_nothing_is_logged(self):
        self.assertEqual(self.dom.returncode, 0, self.dom.stderr)
        self.assertTrue('data-broken-images="0"' in self.dom.stdout, broken(self.dom.stdout))
        self.assertNotIn("console:", self.dom.stderr)

    def test_the_answer_list_is_on_the_page(self):
        answer = re.search(r'<div class="doc" id="choose">(.*?)</div>', self.dom.stdout, re.S)
        self.assertIsNotNone(answer, "no answer (choose.md) on the page")
        self.assertIn("<li><strong>Systems over the entities", answer.group(1))
        self.assertNotIn("<table>", answer.group(1))  # the full table comes later
        self.assertIn('id="workloads"', self.dom.stdout)

    def test_headings_index_lazy_pictures_and_the_report(self):
        with open(self.page, encoding="utf-8") as f:
            text = f.read()
        self.assertEqual(text.count("<h1"), 1)
        headings = re.findall(r"<h([2-6])( id=\"([^\"]+)\")?>(.*?)</h\1>", text, re.S)
        self.assertGreater(len(headings), 10)
        for _, _, hid, inner in headings:
            self.assertTrue(hid, f"a heading without an id: {inner[:60]}")
            self.assertIn(f'href="#{hid}"', inner, f"heading {hid} has no link to itself")
        ids = re.findall(r'\bid="([^"]+)"', text)
        self.assertEqual(len(ids), len(set(ids)), "an id is used twice")
        index = re.search(r'<nav id="index".*?</nav>', text, re.S).group(0)
        for target in ("answer", "heatmaps", "scenario-dual_iterate", "report"):
            self.assertIn(f'href="#{target}"', index)
        for img in re.findall(r"<img [^>]*>", text):
            self.assertIn('loading="lazy"', img)
        # report.md rendered, not linked raw: its findings in the report, its case table in
        # the scenario's section
        self.assertIn("<p>Queries walk dense columns.</p>", text)
        section = text.split('id="scenario-dual_iterate"')[1].split('id="scenario-')[0]
        self.assertIn("<strong>1.00</strong></td>", section)

    def test_a_run_without_choose_md_answers_from_its_summary(self):
        dom = headless("dom", self.old_page)
        self.assertTrue('data-broken-images="0"' in dom.stdout, broken(dom.stdout))
        self.assertNotIn("console:", dom.stderr)
        self.assertTrue('id="no-choose"' in dom.stdout, "no note that choose.md is missing")
        which = re.search(r'<div class="doc" id="which">(.*?)</div>', dom.stdout, re.S)
        self.assertIsNotNone(which)
        self.assertIn("<td>iterate</td>", which.group(1))

    def test_provenance_from_the_context(self):
        with open(self.page, encoding="utf-8") as f:
            text = f.read()
        self.assertRegex(text, r"<th>git commit</th><td>f00d</td>")
        self.assertRegex(text, r"<th>C compiler</th><td>gcc 12.2.0</td>")

    def test_the_screenshot_is_a_png_of_the_page_top(self):
        shot = os.path.join(self.tmp, "page.png")
        done = headless("screenshot", self.page, shot, "1000,800")
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(shot, "rb") as f:
            head = f.read(24)
        self.assertEqual((head[:8], int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")),
                         (b"\x89PNG\r\n\x1a\n", 1000, 800))

    def test_the_reference_page_as_a_person_sees_it(self):
        """The reference run's page drawn by today's page.py beside its committed charts."""
        images = os.path.join(TOP, "plots", REFERENCE)
        out = os.path.join(images, f".page-check-{os.getpid()}.html")
        self.addCleanup(lambda: os.path.exists(out) and os.remove(out))
        done = subprocess.run([PYTHON, os.path.join(TOP, "scripts", "page.py"),
                               os.path.join(TOP, "results", REFERENCE), images, "-o", out],
                              capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(page_check.check(out), [])

    def test_a_spoilt_page_is_caught(self):
        """Text moved onto the title, an index link to nowhere, the answer pushed down, a
        picture missing: each is named."""
        copy = os.path.join(self.tmp, "spoilt")
        shutil.copytree(os.path.dirname(self.page), copy)
        page = os.path.join(copy, "index.html")
        with open(page, encoding="utf-8") as f:
            text = f.read()
        text = text.replace("</style>", "#machine { margin-top: -2.2em; }\n"
                            "#answer-section { margin-top: 1500px; }\n</style>")
        text = text.replace('<li><a href="#answer">', '<li><a href="#nowhere">x</a></li>'
                            '<li><a href="#answer">')
        with open(page, "w", encoding="utf-8") as f:
            f.write(text)
        os.remove(os.path.join(copy, "dual_iterate_vs_n.svg"))
        dom = headless("dom", page + "?check")
        self.assertTrue("1 picture(s) did not load: dual_iterate_vs_n.svg" in dom.stdout,
                        broken(dom.stdout))
        got = page_check.problems("desktop", page_check.parse(dom.stdout), True)
        said = "\n".join(got)
        self.assertIn("desktop: text overlaps: 'ecsbench run", said)
        self.assertIn("desktop: index link nowhere: no such section", said)
        self.assertIn("desktop: the answer list does not start on the first screen", said)
        self.assertIn("desktop: picture did not load: dual_iterate_vs_n.svg", said)

    def test_bad_input_exits_2(self):
        for args in ([os.path.join(self.tmp, "nothing"), self.tmp],
                     [os.path.join(self.tmp, "results", RUN_CASES), os.path.join(self.tmp, "nothing")]):
            done = subprocess.run([PYTHON, os.path.join(TOP, "scripts", "page.py"), *args],
                                  capture_output=True, text=True)
            self.assertEqual(done.returncode, 2, done.stderr)
            self.assertIn("error:", done.stderr)
        self.assertEqual(headless("dom", os.path.join(self.tmp, "nothing.html")).returncode, 2)


if __name__ == "__main__":
    unittest.main()
