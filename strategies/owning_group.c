/*
 * owning_group — paged_sparse_set plus EnTT's owning groups for the world's declared queries:
 * the pools a group owns keep the entities holding all of the group's types packed at their
 * front, in the same order, so the query is one indexed loop over raw columns. The machinery
 * is strategies/paged_sparse_set.h (its header gives the ownership rule).
 *
 * Idea: for a group owning T1..Tk, in each owned pool dense[0..size) are exactly the entities
 * holding all of T1..Tk, entity j of the front at position j in every one of them. An add
 * that completes the set swaps the entity to position size in each owned pool and grows
 * size; removing an owned type from a member (or destroying it) swaps it to size - 1 and
 * shrinks size, then swap-removes as usual. A query for exactly a group's set hands out ONE
 * run: size entities, the owned pools' value arrays. Ownership: in declaration order, a query
 * of two or more types gets a group when no earlier group owns any of its types (the same set
 * again shares it); EnTT forbids overlapping owning groups too, but allows nested ones, which
 * this does without. Every other query (overlapping declared ones, undeclared ones) takes
 * paged_sparse_set's view path, led by the smallest pool or by the front of a group whose
 * types the query includes, when that front is smaller.
 *
 * Costs, in cache lines, on top of paged_sparse_set's (k = owned types of the group):
 *   add     of an owned type (out of line: an add's fast path serves unowned types only, so
 *           they pay nothing for groups): k - 1 sparse entries to test the set; when it
 *           completes, k swaps (per owned pool: 2 dense ids, 2 values, 2 sparse entries; the
 *           swap partner sits at the front's end, so its lines are hot while the front grows
 *           in order).
 *   remove  of an owned type from a member, and destroy of a member: the same k swaps first.
 *           Other adds and removes cost what paged_sparse_set's do.
 *   query   of a group's exact set: the owned pools' front values, sequentially, nothing else
 *           (no ids, no sparse entries): the limit's traffic. dual_iterate: 8 instructions per
 *           pair at N = 4000, the floor's loop 9; at -O3 the loop is vectorized.
 * Memory per entity: as paged_sparse_set (groups reorder the pools, they add no per-entity
 * storage); a group record in the world per declared query.
 * Wins: a declared query runs at the packed-array limit, at every size and after any churn
 * (the front stays packed whatever order entities came and went in).
 * Loses: structural changes to owned types pay up to k swaps; overlapping declared queries
 * (simple_iter's (C,D) and (C,E)) leave all but the first on the view path; a type can be
 * owned by one group only.
 * Tags and exclusion: as paged_sparse_set; a declared query with exclusions gets a group
 * that excludes them (EnTT's group<A, B>(exclude<C>)): members hold none of the excluded
 * types, so an add of an excluded type to a member (out of line: excluded pools leave the fast
 * path) costs the k swaps of leaving, and its remove from an entity that then completes the
 * group the k swaps of entering; its query stays one run. A front leads a query only when the
 * query makes every exclusion the group makes.
 * Tuning: as paged_sparse_set (its views); a group's query is one run by construction.
 */
#define PAGED_OWNING_GROUPS 1
#include "strategies/paged_sparse_set.h"

#define ECSB_STRATEGY_CAPS PAGED_CAPS            /* the 24-bit index: see the .h */
#define ECSB_STRATEGY_VERSIONS_WRAP ID_VERSION_MAX /* lives per slot: see the .h */

#define ECSB_STRATEGY_NAME owning_group
#define ECSB_STRATEGY_SUMMARY "paged_sparse_set + EnTT owning groups for the declared queries: owned pools keep the full matches packed in step at the front; such a query is one run"
#include "harness/strategy_impl.h"
