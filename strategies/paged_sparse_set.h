/*
 * paged_sparse_set.h — the machinery strategies/paged_sparse_set.c and strategies/owning_group.c
 * share: EnTT's sparse sets (32-bit versioned ids, sparse arrays in pages allocated on demand,
 * the version in the sparse entry) and, switched on by PAGED_OWNING_GROUPS 1 before the
 * include, EnTT's owning groups. Each including file's header comment gives its costs.
 *
 * Ids. An entity is a 32-bit id: index in the low ID_INDEX_BITS (24) bits, version in the high
 * 8; the handle is the id itself (high 32 bits of ecsb_entity zero). EnTT splits 20 + 12; the
 * suite's sizes need more than 2^20 live entities (its sweep reaches 4,194,304 + 2, its growth
 * test 4,194,307). So 24 + 8: 16,777,215 live entities, and versions 1..255 that wrap, as
 * EnTT's do: after version 255 a slot lives again at version 1. Memory stays bounded however
 * many entities a world spawns and destroys (a slot is never retired, so churn reuses the
 * same slots), at EnTT's stated risk: a handle held across 255 lives of its slot aliases the
 * entity then living there (with 32-bit generations, harness/entity_ids.h, it would take 2^32
 * lives; this layout keeps its own ids because its point is the 32-bit id with the version in
 * every sparse entry). Versions start at config->first_generation when it is 1..255; a larger
 * one keeps its distance to the top of the 32-bit range when that is shorter than 255 lives
 * (UINT32_MAX - 3 gives four lives before the wrap), else starts at 1. Version 0 never lives:
 * it marks an absent sparse entry.
 * ids[index] is the live id (low bits = its own index), or for a free slot the next version
 * and the next free index (a LIFO free list).
 *
 * Pools. Per type: dense[0..count) the ids holding it and values[0..count) in one block
 * (values start on a 64-byte boundary, so every value is aligned to its type's alignment), and
 * a sparse array: per index, the entry version << 24 | dense position, or SPARSE_ABSENT (0).
 * The sparse array is a page table of PAGE_SIZE (4096) entries per page; pages are allocated on
 * the first add of the type to an index in them, and kept. A page never written points to one
 * shared read-only page of zeros, so a lookup never tests for a missing page. "Does id hold t"
 * is one entry load and one compare: (entry ^ id) < 2^24, i.e. same version (an absent entry
 * has version 0, which no id has). The entry alone proves liveness: destroy clears the entries
 * of what the entity held. Swap-remove: the last dense entry fills the hole. The type indexes
 * from type_count up to ECSB_MAX_TYPES have empty pools whose page table is one shared table
 * of zero pages, so add/remove/get/has test a type only against ECSB_MAX_TYPES (free for the
 * constant types of scenario code) and reject a type past type_count on their failure paths.
 *
 * Groups (owning_group). For each declared query of two or more types whose types no earlier
 * group owns (EnTT likewise refuses to let two owning groups share a type unless nested: we do
 * without nesting), a group owns those types: in every owned pool, dense[0..size) are the
 * entities holding all of them, in the same order. An add that completes the set swaps the
 * entity to position size in every owned pool and grows size; removing an owned type from a
 * member (or destroying it) first swaps it to size - 1 and shrinks size. A query for exactly a
 * group's set (any order) is then one run over the front. Declared queries naming an owned
 * type without being that set (overlapping ones), and undeclared queries, take the view path:
 * lead with the smallest pool (or a group front inside the query's set, if smaller), look the
 * rest up.
 *
 * Memory: the ids array, every pool's page table and the empty table live in one block grown by
 * one realloc;
 * each pool's dense ids and values in one block; pages one block each. Every grow is made
 * before anything is mutated, so a failed allocation leaves the world unchanged.
 */
#ifndef PAGED_SPARSE_SET_H
#define PAGED_SPARSE_SET_H

#include "harness/strategy.h"

#ifndef PAGED_OWNING_GROUPS
#error "define PAGED_OWNING_GROUPS (0 or 1) before including strategies/paged_sparse_set.h"
#endif

#include "strategies/paged/storage.h"
#include "strategies/paged/views.h"
#include "strategies/paged/checks.h"

#endif /* PAGED_SPARSE_SET_H */
