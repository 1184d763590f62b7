#!/usr/bin/env python3
"""svg_tooltips.py FILE.svg ... — give gnuplot's hover labels a tooltip that needs no script.

gnuplot's svg terminal writes a `with labels hypertext` point as
  <g onmousemove="gnuplot_svg.showHypertext(evt,'TEXT')" onmouseout="gnuplot_svg.hideHypertext()"><title> </title>
which shows TEXT only through gnuplot_svg.js (an absolute path on the machine that drew it, or
40 KB inlined into every chart with `mouse standalone`); elsewhere the handler is undefined and
each mouse move is a script error. Rewritten as <g><title>TEXT</title>, the browser's own
tooltip shows it wherever the SVG is opened.

gnuplot also gives each plot's group a <title>, the browser's tooltip over that plot's lines
and bars: the plot command's text ("csvfile using (i-1):(b(i, ...))"), or, when one process
draws several charts in turn (plots.sh), a key title left over from an earlier chart (a
strategy's line labelled "limit" on a chart that has no limit). Those titles are dropped; the
key and the hover labels name what is drawn. Files are rewritten in place; exit 2 on a file
that cannot be read.
"""
import html
import re
import sys

HOVER = re.compile(r"""<g onmousemove="gnuplot_svg\.showHypertext\(evt,'(.*?)'\)" """
                   r"""onmouseout="gnuplot_svg\.hideHypertext\(\)"><title> </title>""")


PLOT_TITLE = re.compile(r'(<g id="gnuplot_plot_\d+" >)<title>[^<]*</title>')


def rewrite(text):
    text = PLOT_TITLE.sub(r"\1", text)
    return HOVER.sub(lambda m: f"<g><title>{html.escape(html.unescape(m.group(1)), quote=False)}"
                               "</title>", text)


def main(paths):
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as e:
            print(f"error: {path}: {e}", file=sys.stderr)
            return 2
        new = rewrite(text)
        if new != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
