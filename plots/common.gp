# common.gp — terminal and look shared by every ecsbench plot (PNG first; each plot script
# then replots to SVG). No enhanced text: names like dual_iterate keep their underscores.
set terminal pngcairo size 1000,640 font "DejaVu Sans,11" background "#ffffff" noenhanced
set encoding utf8
set output "/dev/null"

# Plots of one case (a scenario or a variant) read the case's own rows (<case>.csv from
# scripts/plot_data.py: strategy, n, metric, median, min, max, by column name): `@tidy_csv` sets
# the format, row() picks a row, and any row not picked (or a NaN figure) is left out of a line
# without breaking it.
tidy_csv = 'set datafile separator ","; set datafile columnheaders; set datafile missing NaN'
row(strategy, metric) = strcol("strategy") eq strategy && strcol("metric") eq metric
