/*
 * suites.h — the list of every test, suite by suite. tests/main.c runs the strategy tests
 * once per strategy (one cmocka group each) and the floor tests once.
 *
 * Add a test: write `void <name>(void **state)` in its suite's file and add X(<name>) to the
 * suite's list below. Tests get the strategy from tst_strategy (tests/support.h).
 */
#ifndef ECSB_TESTS_SUITES_H
#define ECSB_TESTS_SUITES_H

#include "harness/ecsb.h"

/* tests/conformance.c: what every operation does on good input; tests/tags.c: tags and
 * excluding queries. */
#define ECSB_CONFORMANCE_TESTS(X)                                                              \
    X(conformance_descriptor_is_complete_and_registered_by_its_name)                           \
    X(scenario_passes_that_change_no_structure_allocate_nothing)                               \
    X(conformance_new_world_is_empty_and_valid)                                                \
    X(conformance_created_entities_are_alive_distinct_and_hold_nothing)                        \
    X(conformance_get_returns_the_value_written_through_add)                                   \
    X(conformance_has_and_counts_follow_add_remove_and_destroy)                                \
    X(conformance_values_survive_growth)                                                       \
    X(conformance_remove_keeps_every_other_value)                                              \
    X(conformance_add_after_remove_stores_the_new_value)                                       \
    X(conformance_query_with_handles_visits_every_holder_once_with_its_value)                  \
    X(conformance_query_writes_keyed_by_handle_reach_the_stored_values)                        \
    X(conformance_two_type_query_visits_exactly_the_common_holders_with_their_handles)         \
    X(conformance_query_writes_keyed_by_handle_reach_every_column)                             \
    X(conformance_query_handle_column_stays_in_step_over_long_runs)                            \
    X(conformance_destroy_removes_every_component)                                             \
    X(conformance_reused_slot_gives_a_fresh_entity)                                            \
    X(conformance_destroyed_handles_are_rejected_by_every_operation)                           \
    X(conformance_never_issued_handles_are_rejected_by_every_operation)                        \
    X(conformance_bad_type_is_rejected_by_every_operation)                                     \
    X(conformance_statuses_follow_the_documented_checking_order)                               \
    X(conformance_every_type_index_and_size_round_trips)                                       \
    X(conformance_worlds_are_independent)                                                      \
    X(conformance_initial_capacity_is_a_hint_not_a_limit)                                      \
    X(conformance_world_stays_valid_after_every_operation)                                     \
    X(conformance_world_bytes_counts_the_world_and_its_allocations)                            \
    X(conformance_grows_to_4194304_entities)                                                   \
    X(conformance_generations_run_out_without_reissuing_a_handle)                              \
    X(conformance_long_churn_of_one_entity_stays_bounded_and_rejects_the_last_life)            \
    X(conformance_world_valid_catches_every_world_corrupt_damage)                              \
    X(conformance_growth_asks_for_amortised_constant_bytes_per_entity)                         \
    X(conformance_two_type_queries_over_more_than_65536_shuffled_holders_visit_each_once)      \
    X(conformance_query_of_a_common_and_a_rare_type_finds_every_match)                         \
    X(conformance_spawn_holds_exactly_its_types_with_the_values_written)                       \
    X(conformance_spawned_entities_change_and_die_like_created_ones)                           \
    X(conformance_spawn_into_declared_queries_visits_each_entity_once)                         \
    X(conformance_tags_hold_membership_only_and_hand_out_the_tag_pointer)                      \
    X(conformance_a_world_of_tags_only_works)                                                  \
    X(conformance_tags_cost_no_value_storage)                                                  \
    X(conformance_excluding_queries_skip_the_holders_of_excluded_types)                        \
    X(conformance_declared_queries_with_exclusions_follow_every_change)

/* tests/query.c: queries over 1..8 types, declared and not, bad queries, alignment. */
#define ECSB_QUERY_TESTS(X)                                                                    \
    X(query_visits_exactly_the_holders_of_all_k_types_once_with_their_values)                  \
    X(query_over_a_packed_world_hands_out_every_value_in_runs)                                 \
    X(query_two_type_blocks_in_step_at_a_negative_distance_visit_each_match_once)              \
    X(query_two_type_blocks_in_step_but_for_one_lacking_entity_visit_each_match_once)          \
    X(query_declared_and_undeclared_queries_visit_the_same_entities)                           \
    X(query_declared_queries_with_exclusions_and_tags_visit_what_undeclared_ones_do)           \
    X(query_callback_writes_reach_the_stored_values)                                           \
    X(query_over_32_types_uses_every_type_index)                                               \
    X(query_bad_queries_return_their_status_visit_nothing_and_change_nothing)                  \
    X(query_every_value_pointer_is_aligned_as_configured)

/* tests/pointers.c: what strategies declaring stable pointers promise (the others skip). */
#define ECSB_POINTER_TESTS(X) X(pointers_from_add_stay_valid_until_their_component_is_removed)

/* tests/differential.c: long seeded random runs against a simple reference model. */
#define ECSB_DIFFERENTIAL_TESTS(X) X(differential_matches_the_reference_model)

/* tests/bad_input.c: every kind of bad input returns its status and changes nothing. */
#define ECSB_BAD_INPUT_TESTS(X)                                                                \
    X(bad_input_remove_of_an_absent_component_returns_absent_and_changes_nothing)              \
    X(bad_input_add_of_a_present_component_returns_present_and_changes_nothing)                \
    X(bad_input_operations_on_a_stale_entity_return_stale_and_change_nothing)                  \
    X(bad_input_bad_type_returns_type_and_changes_nothing)                                     \
    X(bad_input_spawn_of_a_bad_or_repeated_type_returns_its_status_and_changes_nothing)         \
    X(bad_input_create_beyond_max_entities_returns_capacity_and_changes_nothing)               \
    X(bad_input_world_init_rejects_out_of_range_configs)                                       \
    X(bad_input_world_init_accepts_the_config_boundaries)                                      \
    X(bad_input_failed_world_init_leaves_nothing_to_release)                                   \
    X(bad_input_each_failed_allocation_returns_nomem_and_changes_nothing)                      \
    X(bad_input_allocations_failing_from_then_on_return_nomem_and_change_nothing)              \
    X(bad_input_id_space_wrap_keeps_handles_unique_and_stale_ones_rejected)                    \
    X(bad_input_structural_change_inside_a_query_returns_iterating_and_changes_nothing)

/* tests/worlds.c: each world order builds its own world (per strategy). */
#define ECSB_WORLDS_TESTS(X) X(worlds_each_order_builds_its_own_world_in_every_scenario)

/* tests/entity_ids.c, run once: the shared entity-id unit (harness/entity_ids.h) on its own. */
#define ECSB_ENTITY_IDS_TESTS(X)                                                               \
    X(entity_ids_create_destroy_and_lifo_reuse)                                                \
    X(entity_ids_handles_of_earlier_lives_stay_stale)                                          \
    X(entity_ids_uncreate_of_a_reused_last_slot_keeps_old_handles_stale)                       \
    X(entity_ids_uncreate_of_a_fresh_slot_gives_the_slot_back)                                 \
    X(entity_ids_exhausted_generation_retires_the_slot)                                        \
    X(entity_ids_capacity_counts_live_and_retired_slots)                                       \
    X(entity_ids_growth_keeps_records_and_calls_the_owners_hook)                               \
    X(entity_ids_failed_growth_returns_nomem_and_changes_nothing)                              \
    X(entity_ids_valid_catches_every_corrupt_damage)

/* tests/scenarios.c: every scenario's checksum equals the floor's (one test per scenario). */
void scenario_checksum_equals_the_floor(void **state);
extern const ecsb_scenario_id tst_scenario_ids[ECSB_SCENARIO_COUNT];

/*
 * tests/scenarios.c, run once: each scenario's floor (and limit) against a direct computation,
 * the limit table, and each scenario's checksum against every mistake the test-only strategy
 * `faulty` (tests/faulty.h) can inject into its pass; tests/timing.c, the timing engine;
 * tests/machine_cpuid.c, the CPUID decoding of `ecsbench machine`.
 */
#define ECSB_FLOOR_TESTS(X)                                                                    \
    X(floor_platformer_checksum_matches_a_direct_computation)                                  \
    X(floor_dual_iterate_checksum_matches_a_direct_computation)                                \
    X(floor_packed_1_checksum_matches_a_direct_computation)                                    \
    X(floor_packed_5_checksum_matches_a_direct_computation)                                    \
    X(floor_simple_iter_checksum_matches_a_direct_computation)                                 \
    X(floor_frag_iter_checksum_matches_a_direct_computation)                                   \
    X(floor_entity_cycle_checksum_matches_a_direct_computation)                                \
    X(floor_add_remove_checksum_matches_a_direct_computation)                                  \
    X(floor_random_get_checksum_matches_a_direct_computation)                                  \
    X(floor_move3_checksum_matches_a_direct_computation)                                       \
    X(floor_churn_iterate_checksum_matches_a_direct_computation)                               \
    X(floor_level_load_checksum_matches_a_direct_computation)                                  \
    X(limit_exists_where_a_layout_can_move_less_than_the_floor)                                \
    X(scenario_starting_values_are_never_zero)                                                 \
    X(scenario_frame_world_has_rare_types_a_scene_graph_and_births_that_mix_kinds)            \
    X(injected_mistakes_change_the_platformer_checksum)                                        \
    X(injected_mistakes_change_the_dual_iterate_checksum)                                      \
    X(injected_mistakes_change_the_packed_1_checksum)                                          \
    X(injected_mistakes_change_the_packed_5_checksum)                                          \
    X(injected_mistakes_change_the_simple_iter_checksum)                                       \
    X(injected_mistakes_change_the_frag_iter_checksum)                                         \
    X(injected_mistakes_change_the_entity_cycle_checksum)                                      \
    X(injected_mistakes_change_the_add_remove_checksum)                                        \
    X(injected_mistakes_change_the_random_get_checksum)                                        \
    X(injected_mistakes_change_the_move3_checksum)                                             \
    X(injected_mistakes_change_the_churn_iterate_checksum)                                     \
    X(injected_mistakes_change_the_level_load_checksum)                                        \
    X(injected_mistakes_change_the_frame_checksum)                                             \
    X(timing_runs_the_warmup_untimed_on_every_world_and_times_exactly_the_plan)                \
    X(timing_gives_every_fresh_pass_a_world_of_its_own_after_warmup_worlds)                    \
    X(timing_records_the_time_per_pass_of_each_span_in_order)                                  \
    X(timing_flags_drift_in_a_world_that_slows_and_not_in_a_steady_one)                        \
    X(timing_adaptive_groups_stop_after_the_asked_time)                                        \
    X(timing_calibration_outlasts_one_preempted_span)                                          \
    X(timing_takes_only_the_checksums_the_plan_asks_for)                                       \
    X(timing_drift_compares_the_timed_passes_with_the_warm_ups_last_third)                     \
    X(timing_warmup_turns_frame_over_and_stays_one_elsewhere)                                  \
    X(sentinel_stays_quiet_on_a_steady_machine)                                                \
    X(sentinel_repeats_what_a_slowed_span_disturbed_and_keeps_the_repeat)                      \
    X(sentinel_marks_not_repeats_when_the_budget_is_0)                                         \
    X(sentinel_spends_at_most_its_budget_on_a_machine_that_stays_slow)                         \
    X(sentinel_short_repetitions_share_a_probe)                                                \
    X(sentinel_kernel_takes_time_and_sets_the_first_best)                                      \
    X(sentinel_stays_quiet_on_a_steady_machine_with_broad_probes)                              \
    X(sentinel_reference_ignores_one_freak_fast_probe)                                         \
    X(sentinel_flags_a_repetition_that_lost_its_core)                                          \
    X(placement_pads_vary_between_blocks_stay_aligned_and_within_4_kib)                        \
    X(placement_reaches_the_floor_and_the_limit_arrays)                                        \
    X(move3_size_reaches_the_bytes_of_every_line)                                    \
    X(worlds_aged_diagnostic_tells_aged_storage_from_id_order)                                 \
    X(worlds_aged_deaths_are_drawn_in_random_order_and_few_never_die)                          \
    X(worlds_aged_life_gains_and_loses_components_and_ends_as_built)                           \
    X(worlds_aged_population_rises_and_falls_around_n_and_ends_at_n)                           \
    X(worlds_aged_prepare_lives_the_life_on_the_world)                                         \
    X(machine_cpuid_decodes_an_intel_leaf_4)                                                   \
    X(machine_cpuid_decodes_an_amd_leaf_8000001d)                                              \
    X(machine_cpuid_brand_and_short_name)

#define ECSB_DECLARE_TEST(name) void name(void **state);
ECSB_CONFORMANCE_TESTS(ECSB_DECLARE_TEST)
ECSB_QUERY_TESTS(ECSB_DECLARE_TEST)
ECSB_POINTER_TESTS(ECSB_DECLARE_TEST)
ECSB_DIFFERENTIAL_TESTS(ECSB_DECLARE_TEST)
ECSB_BAD_INPUT_TESTS(ECSB_DECLARE_TEST)
ECSB_WORLDS_TESTS(ECSB_DECLARE_TEST)
ECSB_FLOOR_TESTS(ECSB_DECLARE_TEST)
ECSB_ENTITY_IDS_TESTS(ECSB_DECLARE_TEST)
#undef ECSB_DECLARE_TEST

/* The differential suite's replay settings, from ECSB_SEED and ECSB_OPS (0 = unset), and its
 * soak time per strategy, from ECSB_SOAK_SECONDS (0 = the default seeds). */
extern uint64_t tst_replay_seed;
extern uint64_t tst_replay_ops;
extern uint64_t tst_soak_seconds;

#endif /* ECSB_TESTS_SUITES_H */
