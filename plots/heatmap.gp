# heatmap.gp — the overview: strategies (rows) x scenarios (columns), each cell the strategy's
# median time per item divided by the fastest strategy's in that scenario, on a log colour
# scale with the number printed ("=" before it: level with the fastest); a cell the run cannot
# tell from the fastest is grey with a "?" and no number; a cell that failed or was not run
# says so. One file per world order; two panels: at N = 4000 and at
# each scenario's largest N; column names slanted so they never overlap. Called by plots.sh as
#   gnuplot -e 'vars="<dir>/heatmap.vars.gp"' plots/common.gp plots/heatmap.gp
# Data (scripts/plot_data.py): per panel four blocks (ok, untold, failed, not run): x y ratio
# text colour.
load vars

# Green at the fastest, light green to 1.2x, yellow 2x, orange 5x, red 10x, dark 50x and beyond.
set logscale cb
set cbrange [1:50]
set palette defined (0 "#1a9850", 0.047 "#91cf60", 0.177 "#fee08b", 0.411 "#fc8d59", \
                     0.589 "#d73027", 1 "#67001f")
set cbtics ("1" 1, "1.2" 1.2, "1.5" 1.5, "2" 2, "3" 3, "5" 5, "10" 10, "20" 20, "50+" 50) \
    font ",10" scale 0.5
set cblabel "× fastest" font ",11" offset -0.5,0

set xrange [-0.5:ncols-0.5]
set yrange [nrows-0.5:-0.5]
set border 0
set tics scale 0
set ytics () font ",12"
do for [i=1:nrows] { set ytics add (row_names[i] i-1) }
set key off
set style fill solid 1.0 border lc rgb "#ffffff"
# Panel titles at the left edge, not centred over the panel: over a narrow map (two columns) a
# centred one ran into the colour bar.
unset title

do for [format=1:2] {
    if (format == 1) {
        set terminal pngcairo size width,height font "DejaVu Sans,11" background "#ffffff" noenhanced
        set output outfile.".png"
    } else {
        set terminal svg size width,height dynamic font "DejaVu Sans,11" background "#ffffff" noenhanced
        set output outfile.".svg"
    }
    set multiplot title title_text font ",14"
    set colorbox user origin screen colorbox_x, screen bottom2 size screen 0.014, screen top1 - bottom2
    unset label 90
    do for [p=0:1] {
        set lmargin at screen left
        set rmargin at screen right
        if (p == 0) {
            set tmargin at screen top1
            set bmargin at screen bottom1
            set label 96 panel_small at screen 0.015, screen top1 + 12.0 / height left font ",13"
            set label 94 note_text at screen 0.5, screen 1 - 52.0 / height center tc rgb "#333333" font ",10"
            set xtics () font ",11" rotate by 45 right
            do for [i=1:ncols] { set xtics add (col_small[i] i-1) }
        } else {
            set tmargin at screen top2
            set bmargin at screen bottom2
            set label 96 panel_large at screen 0.015, screen top2 + 12.0 / height left font ",13"
            unset label 94
            set xtics () font ",11" rotate by 45 right
            do for [i=1:ncols] { set xtics add (col_large[i] i-1) }
            set label 90 corner at screen 0.99, screen 0.012 right tc rgb "#555555" font ",9"
        }
        plot datafile index 4*p using 1:2:(0.5):(0.5):3 with boxxyerror fc palette, \
             datafile index 4*p+1 using 1:2:(0.5):(0.5) with boxxyerror fc rgb "#c8c8c8", \
             datafile index 4*p+2 using 1:2:(0.5):(0.5) with boxxyerror fc rgb "#fde0dd", \
             datafile index 4*p+3 using 1:2:(0.5):(0.5) with boxxyerror fc rgb "#e5e5e5", \
             datafile index 4*p using 1:2:4:5 with labels tc rgb variable font ",11", \
             datafile index 4*p+1 using 1:2:4 with labels tc rgb "#333333" font ",12:Bold", \
             datafile index 4*p+2 using 1:2:4 with labels tc rgb "#b00000" font ",11:Bold", \
             datafile index 4*p+3 using 1:2:4 with labels tc rgb "#666666" font ",10"
        unset colorbox
    }
    unset multiplot
}
unset output
