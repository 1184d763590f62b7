/*
 * paged_sparse_set — EnTT's storage: per component type a sparse set whose sparse array is
 * split into 4096-entry pages allocated on demand, with 32-bit versioned ids (24-bit index,
 * 8-bit version) and the version stored in each sparse entry. The machinery, shared with
 * owning_group, is strategies/paged_sparse_set.h (its header says how ids, pools and pages
 * work); this strategy uses it without groups.
 *
 * Idea: as sparse_set, with three changes EnTT makes. (1) The sparse entry holds the
 * entity's version beside the dense position, so "does e hold t" is one entry load and one
 * compare, and a stale handle fails the same compare: has, get and remove never read the
 * entity's own slot. (2) Sparse arrays are paged, and a page exists only once an index in it
 * gained the type, so a rare type costs memory only where its holders are (sparse_set pays
 * 4 B per entity slot per type). (3) Ids are 32 bits: the ids array is 4 B per slot.
 *
 * Costs, in cache lines touched (steady state, K = type count; "page table" = 8 B per 4096
 * ids, so a few hot lines):
 *   create  1: the free-list head's ids word (pop) or the next fresh one (append).
 *   destroy the ids word + per type one page-table line and one sparse entry, plus a remove
 *           for each type held.
 *   add     the ids word (liveness), page table, sparse entry, the dense tails (hot). The
 *           first add into a page allocates and zeroes it (16 KB).
 *   remove  sparse entry (it alone proves liveness), dense id and value at the hole, the moved
 *           entity's sparse entry: 4 random lines + the hot tails (sparse_set: 5).
 *   get     2 dependent: sparse entry -> value (sparse_set: 3).  has: 1, the sparse entry.
 *   query   one type: its whole pool in one run. k types: the smallest pool leads,
 *           walked sequentially; per lead entity one sparse entry and one value of each other
 *           type, sequential while the dense orders follow id order, random after churn. A
 *           two-type query works in blocks of 64 lead entries: it gathers their sparse entries
 *           (straight from one page when the block's ids share it), then a block whose matches
 *           sit at one distance in the other pool is one run (the caller's loop vectorizes);
 *           otherwise each match is a run of one, with no branch around the callback when the
 *           whole block matches (dual_iterate: 18.9 instructions per pair at N = 4000, the
 *           floor 9). Handles, when asked: the lead's dense ids (sequential), widened.
 * The floor's loop runs 9 instructions per pair and this view 18.9: a sparse entry read and a
 * version check per pair, which the floor's index-is-id arrays do not need.
 * Memory per entity slot: 4 B (ids word); per type, 4 B per slot inside allocated pages only
 * (16 KB per page of 4096 ids that holds the type at least once; pages stay once allocated)
 * + 8 B per 4096 slots of page table (and one more table per world, the empty one); per held
 * component: size + 4 B (value + dense id);
 * geometric growth adds up to 2x slack on the dense arrays and the ids.
 * Wins: has/get/remove touch one line fewer than sparse_set and reject stale handles without
 * reading the ids; rare types cost only their pages; ids are half sparse_set's handles.
 * Loses: every lookup goes through the page table (about 3 instructions more than a flat
 * sparse map); a page with one holder costs 16 KB; at most 16,777,215 live entities, and
 * versions wrap after 255 lives of a slot (EnTT's risk: a handle kept that long aliases the
 * slot's new entity; memory stays bounded under churn); views walk entity by entity
 * with a lookup per other type, so a query over several types never beats a packed loop (see
 * owning_group).
 * Tags (size 0): a pool of dense ids and its sparse pages, as any type (EnTT stores empty
 * types so), no values: 4 B per holder + the pages; the values pointer is ECSB_TAG, stride 0.
 * Exclusion (EnTT's exclude<>): one more sparse entry per visited lead entity per excluded
 * type; a view with exclusions takes the k-type walk (a block in step holds no excluded
 * entity), and a one-type view excluding something goes entity by entity, not as one run.
 * Tuning: no software prefetch. Views judge blocks of VIEW_BLOCK lead entries: a block whose
 * matches sit at one distance in every other pool ("in step") goes out as one run, the run
 * gathering every layout that finds matches one by one does (ecsb_runs, harness/strategy.h);
 * other blocks are visited entity by entity.
 */
#define PAGED_OWNING_GROUPS 0
#include "strategies/paged_sparse_set.h"

#define ECSB_STRATEGY_CAPS PAGED_CAPS            /* the 24-bit index: see the .h */
#define ECSB_STRATEGY_VERSIONS_WRAP ID_VERSION_MAX /* lives per slot: see the .h */

#define ECSB_STRATEGY_NAME paged_sparse_set
#define ECSB_STRATEGY_SUMMARY "EnTT sparse sets: 24+8-bit versioned ids, sparse arrays in 4096-entry pages on demand with the version in each entry; views lead with the smallest pool"
#include "harness/strategy_impl.h"
