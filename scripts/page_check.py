#!/usr/bin/env python3
"""page_check.py PAGE [--screenshot OUT.png] — a run's page (plots/<id>/index.html) checked as a
person sees it, in headless chromium (scripts/headless.sh), on a desktop screen (1280x800) and a
phone's (390 px wide: headless chromium's window is at least 500 px wide, so the page is laid
out 390 px wide inside it):
  - no piece of text overlaps another (the boxes of every line of text, clipped by scrolling
    boxes; text in a closed fold left out), and none runs past the screen's right edge;
  - every picture loads (the page is opened as index.html?check: every lazy picture at once);
  - every link of the index lands on its section (its heading at the top of the window, or
    in the window when the page cannot scroll further);
  - the answer list is on the first screen: all of it on the desktop, its first line on a phone.
The page measures itself (its script, under ?check) and leaves the result in the DOM. Prints
one line per problem. --screenshot writes the desktop's first screen (1280x800) to OUT.png
(docs/page.png is the reference run's). Exit 0 when none, 1 on a problem or a browser failure,
2 on bad arguments.
"""
import argparse
import html
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
# (name, query, chromium window): the page laid out at each screen width
SCREENS = (("desktop 1280x800", "check", "1280,800"),
           ("phone 390 px", "check&width=390", "500,844"))


def headless(*args):
    return subprocess.run([os.path.join(HERE, "headless.sh"), *args], capture_output=True,
                          text=True)


def measure(page, query, window):
    """The page's own measure (a dict) laid out as asked; RuntimeError when the browser fails
    or the page leaves none."""
    done = headless("dom", f"{page}?{query}", window)
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip()[-400:])
    return parse(done.stdout, page)


def parse(dom, page="the page"):
    """The measure a page left in its DOM (opened with ?check)."""
    m = re.search(r'data-check="([^"]*)"', dom)
    if not m:
        raise RuntimeError(f"{page} left no measure (is it a page of scripts/page.py?)")
    return json.loads(html.unescape(m.group(1)))


def problems(name, got, whole_answer):
    out = [f"{name}: text overlaps: {a!r} and {b!r}" for a, b in got["overlaps"]]
    out += [f"{name}: runs past the screen's edge: {t}" for t in got["too_wide"]]
    out += [f"{name}: picture did not load: {src}" for src in got["unloaded"]]
    out += [f"{name}: index link {link}" for link in got["links"]]
    if got.get("answer_first_visible") is None:
        out.append(f"{name}: no answer list on the page")
    elif not got["answer_first_visible"]:
        out.append(f"{name}: the answer list does not start on the first screen")
    elif whole_answer and not got["answer_all_visible"]:
        out.append(f"{name}: the answer list does not fit on the first screen "
                   f"({got['width']}x{got['height']})")
    return out


def check(page):
    """Every problem of the page, at every screen width (both measured at once)."""
    with ThreadPoolExecutor(len(SCREENS)) as pool:
        got = list(pool.map(lambda s: measure(page, s[1], s[2]), SCREENS))
    out = []
    for (name, _, _), g in zip(SCREENS, got):
        out += problems(name, g, whole_answer=name.startswith("desktop"))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("page")
    ap.add_argument("--screenshot", metavar="OUT.png")
    args = ap.parse_args(argv)
    if not os.path.isfile(args.page):
        print(f"page_check: error: {args.page}: no such page; draw it with make plots "
              "RUN=results/<id>", file=sys.stderr)
        return 2
    try:
        found = check(args.page)
    except RuntimeError as e:
        print(f"page_check: error: {e}", file=sys.stderr)
        return 1
    for line in found:
        print(line)
    if args.screenshot:
        done = headless("screenshot", args.page, args.screenshot, "1280,800")
        if done.returncode != 0:
            print(done.stderr, file=sys.stderr)
            return 1
    print(f"page_check: {args.page}: {len(found)} problem(s)", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
