# gnuplot settings for a comparison heat map (scripts/compare_heatmap.py)
datafile = "/work/main/plots/compare/20261127T131229Z-vm_vs_20261127T134650Z-vm/compare_heatmap.dat"
outfile = "/work/main/plots/compare/20261127T131229Z-vm_vs_20261127T134650Z-vm/compare_heatmap"
title_text = "Time per item, B ÷ A (geometric mean over the sizes)\nB = 20261127T134650Z-vm   A = 20261127T131229Z-vm"
corner = "grey: within noise at every size; black: a change at one size or more"
ncols = 39
nrows = 13
array row_names[13] = ["index_is_id", "handle_table", "flat_map", "sparse_set", "paged_sparse_set", "owning_group", "archetype", "object_pool", "signature_lists", "hash_map", "sparse_set_prefetch", "floor", "limit"]
array col_names[39] = ["platformer", "platformer~order=aged", "platformer~order=shuffled", "dual_iterate", "dual_iterate~order=aged", "dual_iterate~order=shuffled", "packed_1", "packed_1~order=aged", "packed_1~order=shuffled", "packed_5", "packed_5~order=aged", "packed_5~order=shuffled", "simple_iter", "simple_iter~order=aged", "simple_iter~order=shuffled", "frag_iter", "frag_iter~order=aged", "frag_iter~order=shuffled", "entity_cycle", "entity_cycle~order=aged", "entity_cycle~order=shuffled", "add_remove", "add_remove~order=aged", "add_remove~order=shuffled", "random_get", "random_get~order=aged", "random_get~order=shuffled", "move3", "move3~order=aged", "move3~order=shuffled", "churn_iterate", "churn_iterate~order=aged", "churn_iterate~order=shuffled", "frame", "frame~order=aged", "frame~order=shuffled", "level_load", "level_load~order=aged", "level_load~order=shuffled"]
width = 4917
height = 642
left = 0.03559080740288794
right = 0.9715273540776896
top = 0.8753894080996885
bottom = 0.1869158878504673
colorbox_x = 0.9776286353467561
