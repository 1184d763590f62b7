# memory_heatmap.gp — bytes per entity after set-up at N = 65536, one heat map per world order:
# strategies and the floor (rows) x cases (columns), each cell its bytes printed, coloured by
# its ratio to the case's leanest strategy on a log scale; a cell that failed or has no figure
# says so. Fixed-size cells, column names slanted 45 degrees: no label overlaps another.
# Called by scripts/plots.sh as
#   gnuplot -e 'vars="<dir>/memory_n65536.vars.gp"' plots/common.gp plots/memory_heatmap.gp
# Data (scripts/plot_data.py): three blocks (ok, failed, no figure): x y ratio text colour.
load vars

set logscale cb
set cbrange [1:20]
set palette defined (0 "#1a9850", 0.06 "#91cf60", 0.23 "#fee08b", 0.54 "#fc8d59", \
                     0.77 "#d73027", 1 "#67001f")
set cbtics ("1" 1, "1.2" 1.2, "1.5" 1.5, "2" 2, "3" 3, "5" 5, "10" 10, "20+" 20) \
    font ",10" scale 0.5
set cblabel "× the leanest" font ",11" offset -0.5,0
set xrange [-0.5:ncols-0.5]
set yrange [nrows-0.5:-0.5]
set border 0
set tics scale 0
set ytics () font ",12"
do for [i=1:nrows] { set ytics add (row_names[i] i-1) }
set xtics () font ",11" rotate by 45 right
do for [i=1:ncols] { set xtics add (col_names[i] i-1) }
set key off
set style fill solid 1.0 border lc rgb "#ffffff"
set title title_text font ",14"
set lmargin at screen left
set rmargin at screen right
set tmargin at screen top
set bmargin at screen bottom
set colorbox user origin screen colorbox_x, screen bottom size screen 0.014, screen top - bottom
set label 90 corner at screen 0.99, screen 0.012 right tc rgb "#555555" font ",9"

do for [format=1:2] {
    if (format == 1) {
        set terminal pngcairo size width,height font "DejaVu Sans,11" background "#ffffff" noenhanced
        set output outfile.".png"
    } else {
        set terminal svg size width,height dynamic font "DejaVu Sans,11" background "#ffffff" noenhanced
        set output outfile.".svg"
    }
    plot datafile index 0 using 1:2:(0.5):(0.5):3 with boxxyerror fc palette, \
         datafile index 1 using 1:2:(0.5):(0.5) with boxxyerror fc rgb "#fde0dd", \
         datafile index 2 using 1:2:(0.5):(0.5) with boxxyerror fc rgb "#e5e5e5", \
         datafile index 0 using 1:2:4:5 with labels tc rgb variable font ",10", \
         datafile index 1 using 1:2:4 with labels tc rgb "#b00000" font ",10:Bold", \
         datafile index 2 using 1:2:4 with labels tc rgb "#666666" font ",10"
}
unset output
