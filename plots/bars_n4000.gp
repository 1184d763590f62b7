# bars_n4000.gp — one scenario's time per item at N = 4000 (the articles' size): a bar per
# strategy, the floor first in black, min–max error bars, each bar labelled upright above it
# with its median and its ratio to the floor (upright: a label never reaches the next bar's). Called by scripts/plots.sh as
#   gnuplot -e 'vars="<dir>/<scenario>.vars.gp"' plots/common.gp plots/bars_n4000.gp
# The figures: the case's time_per_item rows at N = bar_n (<case>.csv, scripts/plot_data.py).
load vars
@tidy_csv

set title title_bars font ",15" offset 0,0.5
set ylabel ylabel_text
set xrange [-0.6:nbars-0.4]
set yrange [0:bar_ymax]
set format y "%g"
set ytics autofreq
set ytics nomirror out
set grid ytics lc rgb "#e6e6e6" lw 1 dt 1
set border 3 lw 1.2
set key off
set style fill solid 0.9 border lc rgb "#333333"
set boxwidth 0.62
set tmargin 4
set bmargin 5
set lmargin 11
set rmargin 4
set label 90 corner at screen 0.99, screen 0.025 right tc rgb "#555555" font ",9"
set label 92 bar_fail_note at screen 0.5, screen 0.895 center tc rgb "#b00000" font ",10"

# Category labels from the vars file; slanted when there are many bars.
set xtics () scale 0 nomirror font ",11"
do for [i=1:nbars] { set xtics add (bar_names[i] i-1) }
if (bar_rotate > 0) { set xtics rotate by bar_rotate right; set bmargin 11 }

# Bar i (at i-1): the median of bar_series[i] at N = bar_n, its min–max, and labels with the
# median and the ratio to the floor's median.
b(i, stat) = row(bar_series[i], "time_per_item") && column("n") == bar_n ? column(stat) : NaN
text(i) = sprintf("%.3g ns", column("median")) . \
    (floor_median > 0 && bar_series[i] ne "floor" ? sprintf(" · %.2f× floor", column("median") / floor_median) : "")
# PNG first, then the same plot as SVG (one drawing each, no draft to /dev/null).
set output out_bars.".png"
plot for [i=1:nbars] csvfile using (i-1):(b(i, "median")) with boxes lc rgb bar_colours[i], \
     for [i=1:nbars] csvfile using (i-1):(b(i, "min")):(0):(column("max") - column("min")) \
        with vectors heads size screen 0.008,90 lc rgb "#222222" lw 1.5, \
     for [i=1:nbars] csvfile using (i-1):(b(i, "max")):(text(i)) \
        with labels rotate by 90 left offset 0,0.6 font ",10" tc rgb "#222222"

set terminal svg size 1000,640 dynamic font "DejaVu Sans,11" background "#ffffff" noenhanced
set output out_bars.".svg"
replot
unset output
