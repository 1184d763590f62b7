# crossover.gp — one sweep: time per item against the swept parameter (log x where the sweep is
# geometric; log x with 0 set apart where 0 sits beside values 10x apart; ecsb_crossover.x_axis),
# a line per strategy, the floor and the limit dashed, min–max error bars, and a
# dashed vertical line between each pair of neighbouring values whose fastest strategy differs
# (a crossover). Called by scripts/plots.sh as
#   gnuplot -e 'vars="<dir>/<name>.vars.gp"' plots/common.gp plots/crossover.gp
# with the vars file and the data (x position, then median, min and max per series, then the
# value) from scripts/ecsb_crossover.py. The title is centred on the image, not over the plot
# beside its key, so a long one is not cut at the left edge. Stamped in the corner with the
# machine's short name, the date and the run id, as every chart.
load vars

set label 95 chart_title at screen 0.5, screen 0.955 center font ",14"
set tmargin 4
if (strlen(axis_note) > 0) {
    set label 93 axis_note at screen 0.99, screen 0.045 right tc rgb "#555555" font ",9"
}
set label 90 corner at screen 0.99, screen 0.012 right tc rgb "#555555" font ",9"
set xlabel xlabel_text
set ylabel "ns per item (median, min–max)"
if (logx) { set logscale x }
set logscale y
set grid xtics ytics lc rgb "#e6e6e6" lw 1 dt 1
set key outside right top Left reverse samplen 3 spacing 1.3 width 1 font ",11"
set border 3 lw 1.2
set tics nomirror out
set bmargin 6
set lmargin 11
do for [i=1:nflips] {
    set arrow 200+i from flips[i], graph 0 to flips[i], graph 1 nohead lc rgb "#b00000" lw 1.5 dt 2 back
}
if (nflips > 0) {
    set label 91 "dashed red: the fastest strategy changes between the two values either side" \
        at screen 0.01, screen 0.045 left tc rgb "#b00000" font ",9"
}
tip(i) = sprintf("%s, %s = %g: %.4g ns (min %.4g, max %.4g)", titles[i], xlabel_text, \
    column(3*nseries+2), column(3*i-1), column(3*i), column(3*i+1))
# PNG first, then the same plot as SVG (one drawing each, no draft to /dev/null).
set output out_name.".png"
plot for [i=1:nseries] datafile using 1:(column(3*i-1)):(column(3*i)):(column(3*i+1)) \
        with yerrorbars lc rgb colours[i] lw 1.2 pt 7 ps 0.8 notitle, \
     for [i=1:nseries] datafile using 1:(column(3*i-1)) with linespoints \
        lc rgb colours[i] lw 2 dt dashes[i] pt 7 ps 0.8 title titles[i], \
     for [i=1:nseries] datafile using 1:(column(3*i-1)):(tip(i)) with labels hypertext \
        point pt 7 ps 0.8 lc rgb colours[i] notitle

set terminal svg size 1000,640 dynamic font "DejaVu Sans,11" background "#ffffff" noenhanced
set output out_name.".svg"
replot
unset output
