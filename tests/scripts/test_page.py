"""A run's page (scripts/page.py, written by scripts/plots.sh as plots/<id>/index.html), opened
from disk in a real browser (Debian's chromium, headless: scripts/headless.sh).

Two fixture runs laid out as make bench leaves them (results/<id>, plots/<id>): the cases run of
test_plot_cases.py (four cases, two world orders, a sweep) with a choose.md, and the overview run
of fixture_runs.py, made "before choose.md" (a hand-written summary.md as such runs have).
Checked: every link and picture the page names exists on disk; every chart drawn is on the page;
in the browser every picture loads, no console message appears and the answer table is there;
a page with a missing picture is caught; the screenshot script writes the picture the README shows.
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

CHOOSE = """# Which storage to choose

| workload | pick | level with it | margin (95 % CI) | bytes per entity |
| --- | --- | --- | --- | ---: |
| dual_iterate, regular, small | **a** | b | 1.01x (0.99-1.03) | 8.0 |

The rule: the fastest, and every layout the run cannot tell from it.
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


class RunPage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        results = os.path.join(cls.tmp, "results")
        cases = cases_run(results)
        with open(os.path.join(cases, "choose.md"), "w") as f:
            f.write(CHOOSE)
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

    def test_the_answer_table_is_on_the_page(self):
        answer = re.search(r'<div class="doc" id="choose">(.*?)</div>', self.dom.stdout, re.S)
        self.assertIsNotNone(answer, "no answer (choose.md) on the page")
        self.assertIn("<table>", answer.group(1))
        self.assertIn("<strong>a</strong>", answer.group(1))

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

    def test_a_missing_picture_is_caught_by_the_browser_check(self):
        copy = os.path.join(self.tmp, "broken")
        shutil.copytree(os.path.dirname(self.page), copy)
        os.remove(os.path.join(copy, "dual_iterate_vs_n.svg"))
        dom = headless("dom", os.path.join(copy, "index.html"))
        self.assertTrue('data-broken-images="1"' in dom.stdout, broken(dom.stdout))
        self.assertTrue("1 picture(s) did not load: dual_iterate_vs_n.svg" in dom.stdout,
                        broken(dom.stdout))

    def test_the_screenshot_is_a_png_of_the_page_top(self):
        shot = os.path.join(self.tmp, "page.png")
        done = headless("screenshot", self.page, shot, "1000,800")
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(shot, "rb") as f:
            head = f.read(24)
        self.assertEqual((head[:8], int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")),
                         (b"\x89PNG\r\n\x1a\n", 1000, 800))

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
