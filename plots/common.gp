# common.gp — terminal and look shared by every ecsbench plot (PNG first; each plot script
# then replots to SVG). No enhanced text: names like dual_iterate keep their underscores.
set terminal pngcairo size 1000,640 font "DejaVu Sans,11" background "#ffffff" noenhanced
set encoding utf8
set output "/dev/null"
