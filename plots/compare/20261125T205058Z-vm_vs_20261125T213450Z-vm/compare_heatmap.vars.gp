# gnuplot settings for a comparison heat map (scripts/compare_heatmap.py)
datafile = "/work/main/plots/compare/20261125T205058Z-vm_vs_20261125T213450Z-vm/compare_heatmap.dat"
outfile = "/work/main/plots/compare/20261125T205058Z-vm_vs_20261125T213450Z-vm/compare_heatmap"
title_text = "Time per item, B ÷ A (geometric mean over the sizes)\nB = 20261125T213450Z-vm   A = 20261125T205058Z-vm"
corner = "grey: within noise at every size; black: a change at one size or more"
ncols = 13
nrows = 13
array row_names[13] = ["index_is_id", "handle_table", "flat_map", "sparse_set", "paged_sparse_set", "owning_group", "archetype", "object_pool", "signature_lists", "hash_map", "sparse_set_prefetch", "floor", "limit"]
array col_names[13] = ["platformer", "dual_iterate", "packed_1", "packed_5", "simple_iter", "frag_iter", "entity_cycle", "add_remove", "random_get", "move3", "churn_iterate", "frame", "level_load"]
width = 1849
height = 642
left = 0.09464575446187128
right = 0.924283396430503
top = 0.8753894080996885
bottom = 0.1869158878504673
colorbox_x = 0.9405083829096809
