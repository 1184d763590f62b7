# vs_n.gp — one scenario's time per item against N, log-log: a line per strategy, the floor
# dashed black, the limit (where the scenario has one) dash-dot grey, min–max error bars, dotted
# cache markers, and the hardware line where the run has one (hw_plot: a plot clause, or "").
# Called by scripts/plots.sh as
#   gnuplot -e 'vars="<dir>/<scenario>.vars.gp"' plots/common.gp plots/vs_n.gp
# where the vars file (scripts/plot_data.py) sets the run's results.csv, the scenario, the
# series (names, titles, colours) and the markers; the figures are the time_per_item rows of
# the case's own CSV. In the SVG each point names its figures on hover (scripts/svg_tooltips.py).
load vars
@tidy_csv

# The title centred on the image (a title over the plot, beside the key, was cut at the left).
set label 95 title_vs_n at screen 0.5, screen 0.965 center font ",14"
set xlabel "N (entities)"
set ylabel ylabel_text
set logscale xy
set xrange [xmin:xmax]
set yrange [ymin:ymax]
set mxtics default
set grid xtics ytics lc rgb "#e6e6e6" lw 1 dt 1
set key outside right top Left reverse samplen 3 spacing 1.3 width 1 font ",11"
set border 3 lw 1.2
set tics nomirror out
set tmargin 5
set bmargin 9
set lmargin 11

# Cache markers: a dotted line at each cache's N, named above the plot.
do for [i=1:ncaches] {
    set arrow i from cache_n[i], graph 0 to cache_n[i], graph 1 nohead lc rgb "#777777" lw 1.5 dt 3 back
    set label 100+i cache_label[i] at cache_n[i], graph 1.035 center tc rgb "#555555" font ",10"
}
# Notes under the x label, one a line: failures, cache markers, the limit; the corner last.
set label 92 fail_note at screen 0.01, screen 0.115 left tc rgb "#b00000" font ",9"
set label 91 cache_note at screen 0.01, screen 0.085 left tc rgb "#555555" font ",9"
set label 93 limit_note at screen 0.01, screen 0.055 left tc rgb "#555555" font ",9"
set label 90 corner at screen 0.99, screen 0.02 right tc rgb "#555555" font ",9"

# Each series nudged sideways a few per cent (dodge(n), less near a cache-size line, never across
# it) so error bars at the same N do not hide each other (the tics stay at the true N). N = skip_n
# (the articles' 4000 beside 4096) is left out: one series of sizes.
x(i) = column("n") * dodge(column("n")) ** (i - 1 - (nseries - 1) / 2.0)
t(i, stat) = row(series[i], "time_per_item") && column("n") != skip_n ? column(stat) : NaN
tip(i) = sprintf("%s, N = %d: %.4g ns (min %.4g, max %.4g)", titles[i], int(column("n")), \
    column("median"), column("min"), column("max"))
# PNG first, then the same plot as SVG (one drawing each, no draft to /dev/null).
set output out_vs_n.".png"
# Error bars solid (a dashed bar would look broken), then the lines, dashed for the references.
plot for [i=1:nseries] csvfile using (x(i)):(t(i, "median")):"min":"max" with yerrorbars \
        lc rgb colours[i] lw 1.2 pt points[i] ps 1.1 notitle, \
     for [i=1:nseries] csvfile using (x(i)):(t(i, "median")) with linespoints \
        lc rgb colours[i] lw widths[i] dt dashes[i] pt points[i] ps 1.1 title titles[i], \
     for [i=1:nseries] csvfile using (x(i)):(t(i, "median")):(tip(i)) with labels hypertext \
        point pt points[i] ps 1.1 lc rgb colours[i] notitle @hw_plot

set terminal svg size 1000,640 dynamic font "DejaVu Sans,11" background "#ffffff" noenhanced
set output out_vs_n.".svg"
replot
unset output
