# memory_bars.gp — bytes per entity after set-up at N = 65536: per scenario a group of bars,
# one per strategy (registry order and colours), the floor's plain arrays as a black mark
# across the group; log scale. Called by scripts/plots.sh as
#   gnuplot -e 'vars="<dir>/memory_bars.vars.gp"' plots/common.gp plots/memory_bars.gp
# Data (scripts/plot_data.py): one block per strategy (x, bytes), the floor's segments, then the
# bars that failed or were not run (x, text), written where the bar would stand.
load vars

set title title_text font ",15" offset 0,0.5
set ylabel "bytes per live entity" font ",12"
set logscale y
set yrange [ymin:ymax]
set xrange [-0.6:ngroups-0.4]
set grid ytics lc rgb "#e6e6e6" lw 1 dt 1
set border 3 lw 1.2
set tics nomirror out
set xtics () scale 0 font ",11"
do for [i=1:ngroups] { set xtics add (group_names[i] i-1) }
set key at screen 0.5, screen 0.085 center center horizontal maxrows 2 Left reverse samplen 1.5 width 1 font ",11"
set style fill solid 0.9 border lc rgb "#333333"
set boxwidth barwidth absolute
set tmargin 6
set bmargin 9
set lmargin 10
set rmargin 3
set label 90 corner at screen 0.99, screen 0.975 right tc rgb "#555555" font ",9"

do for [format=1:2] {
    if (format == 1) {
        set terminal pngcairo size width,640 font "DejaVu Sans,11" background "#ffffff" noenhanced
        set output outfile.".png"
    } else {
        set terminal svg size width,640 dynamic font "DejaVu Sans,11" background "#ffffff" noenhanced
        set output outfile.".svg"
    }
    plot for [j=1:nbars] datafile index (j-1) using 1:2 with boxes lc rgb colours[j] title titles[j], \
         datafile index nbars using 1:2 with lines lc rgb "#000000" lw 3 title "floor (plain arrays)", \
         datafile index nbars+1 using 1:(ymin*1.08):2 with labels rotate by 90 left \
            tc rgb "#b00000" font ",9" notitle
}
unset output
