# memory_vs_n.gp — one scenario's bytes per live entity after set-up against N, log-log: a
# line per strategy, the floor dashed black (and the limit, where the scenario has one).
# Called by scripts/plots.sh as
#   gnuplot -e 'vars="<dir>/<scenario>.memory.vars.gp"' plots/common.gp plots/memory_vs_n.gp
# The figures: the case's bytes_per_entity rows (<case>.csv, scripts/plot_data.py); in the SVG
# each point names its value on hover.
load vars
@tidy_csv

# The title centred on the image (a title over the plot, beside the key, was cut at the left).
set label 95 title_text at screen 0.5, screen 0.965 center font ",14"
set xlabel "N (entities)"
set ylabel "bytes per live entity (storage, indexes, free slots)"
set logscale xy
set xrange [xmin:xmax]
set yrange [ymin:ymax]
set grid xtics ytics lc rgb "#e6e6e6" lw 1 dt 1
set key outside right top Left reverse samplen 3 spacing 1.3 width 1 font ",11"
set border 3 lw 1.2
set tics nomirror out
set tmargin 4
set bmargin 7
set lmargin 11
set label 91 limit_note at screen 0.01, screen 0.055 left tc rgb "#555555" font ",9"
set label 90 corner at screen 0.99, screen 0.02 right tc rgb "#555555" font ",9"

# N = skip_n (the articles' 4000 beside 4096) left out: one series of sizes
bytes(i) = row(series[i], "bytes_per_entity") && column("median") > 0 && column("n") != skip_n \
    ? column("median") : NaN
tip(i) = sprintf("%s, N = %d: %.4g bytes per entity", titles[i], int(column("n")), column("median"))
# PNG first, then the same plot as SVG (one drawing each, no draft to /dev/null).
set output outfile.".png"
plot for [i=1:nseries] csvfile using "n":(bytes(i)) with linespoints \
        lc rgb colours[i] lw widths[i] dt dashes[i] pt points[i] ps 1.1 title titles[i], \
     for [i=1:nseries] csvfile using "n":(bytes(i)):(tip(i)) with labels hypertext \
        point pt points[i] ps 1.1 lc rgb colours[i] notitle

set terminal svg size 1000,640 dynamic font "DejaVu Sans,11" background "#ffffff" noenhanced
set output outfile.".svg"
replot
unset output
