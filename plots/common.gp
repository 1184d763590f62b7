# common.gp — terminal and look shared by every ecsbench plot (PNG first; each plot script
# then replots to SVG). No enhanced text: names like dual_iterate keep their underscores.
set terminal pngcairo size 1000,640 font "DejaVu Sans,11" background "#ffffff" noenhanced
set encoding utf8
set output "/dev/null"

# Plots of one scenario read the run's tidy CSV (results.csv: scenario, strategy, n, metric,
# median, min, max, ... by column name) directly: `@tidy_csv` sets the format, row() picks a
# row of the vars file's `scenario`, and any row not picked (or a NaN figure) is left out of
# a line without breaking it.
tidy_csv = 'set datafile separator ","; set datafile columnheaders; set datafile missing NaN'
row(strategy, metric) = strcol("scenario") eq scenario && strcol("strategy") eq strategy \
    && strcol("metric") eq metric
