# efficiency_heatmap.gp — efficiency per line (rows: floor, limit, strategies) and iteration
# case (columns) at each case's largest N: the hardware line ÷ the line's median time per item
# (scripts/ecsb_hardware.py; 1.00 = as fast as the machine moves the pass's bytes), red at 0,
# yellow at 0.5, green at 1 and above, the figure printed. A cell without a time is blank.
# Called by plots.sh with vars = the settings scripts/plot_data.py writes (datafile: x y
# efficiency text).
load vars

set cbrange [0:1]
set palette defined (0 "#d73027", 0.25 "#fc8d59", 0.5 "#fee08b", 0.75 "#91cf60", 1 "#1a9850")
set cbtics 0.25 font ",10" scale 0.5
set cblabel "efficiency" font ",11"
set colorbox user origin screen colorbox_x, screen bottom size screen 0.02, screen top - bottom
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
set label 95 title_text at screen 0.5, screen 1 - 30.0 / height center font ",14"
set lmargin at screen left
set rmargin at screen right
set tmargin at screen top
set bmargin at screen bottom
set label 90 corner at screen 0.99, screen 0.012 right tc rgb "#555555" font ",9"

do for [format=1:2] {
    if (format == 1) {
        set terminal pngcairo size width,height font "DejaVu Sans,11" background "#ffffff" noenhanced
        set output outfile.".png"
    } else {
        set terminal svg size width,height dynamic font "DejaVu Sans,11" background "#ffffff" noenhanced
        set output outfile.".svg"
    }
    plot datafile using 1:2:(0.5):(0.5):($3 > 1 ? 1 : $3) with boxxyerror fc palette, \
         datafile using 1:2:4 with labels tc rgb "#111111" font ",10"
    unset output
}
