# compare_heatmap.gp — two runs side by side: strategies (rows) x scenarios (columns), each cell
# B's median time per item ÷ A's (geometric mean over the sizes both ran), on a log colour
# scale centred on 1: blue where B is faster, red where B is slower. Called by
# scripts/compare_heatmap.py as
#   gnuplot -e 'vars="<dir>/compare_heatmap.vars.gp"' plots/common.gp plots/compare_heatmap.gp
# Data: x y ratio text text_colour.
load vars

set logscale cb
set cbrange [0.5:2]
set palette defined (0 "#2166ac", 0.25 "#92c5de", 0.5 "#f7f7f7", 0.75 "#f4a582", 1 "#b2182b")
set cbtics ("0.5" 0.5, "0.67" 0.667, "0.8" 0.8, "1" 1, "1.25" 1.25, "1.5" 1.5, "2" 2) \
    font ",10" scale 0.5
set cblabel "B ÷ A" font ",11" offset -0.5,0

set xrange [-0.5:ncols-0.5]
set yrange [nrows-0.5:-0.5]
set border 0
set tics scale 0
set ytics () font ",12"
do for [i=1:nrows] { set ytics add (row_names[i] i-1) }
set xtics () font ",11" rotate by 30 right
do for [i=1:ncols] { set xtics add (col_names[i] i-1) }
set key off
set style fill solid 1.0 border lc rgb "#ffffff"
set lmargin at screen left
set rmargin at screen right
set tmargin at screen top
set bmargin at screen bottom
set colorbox user origin screen colorbox_x, screen bottom size screen 0.014, screen top - bottom
set label 90 corner at screen 0.99, screen 0.012 right tc rgb "#555555" font ",9"
set title title_text font ",14"

do for [format=1:2] {
    if (format == 1) {
        set terminal pngcairo size width,height font "DejaVu Sans,11" background "#ffffff" noenhanced
        set output outfile.".png"
    } else {
        set terminal svg size width,height dynamic font "DejaVu Sans,11" background "#ffffff" noenhanced
        set output outfile.".svg"
    }
    plot datafile using 1:2:(0.5):(0.5):(($3 < 0.5) ? 0.5 : ($3 > 2) ? 2 : $3) \
             with boxxyerror fc palette, \
         datafile using 1:2:4:5 with labels tc rgb variable font ",11"
}
unset output
