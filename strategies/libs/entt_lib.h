/*
 * entt_lib.h — the EnTT registry behind the strategy strategies/entt.c, as C functions: the
 * library is C++ (strategies/libs/entt/entt.hpp), the strategy and the scenarios C. Defined
 * in entt_lib.cc, each a few calls of EnTT's public API on one registry (that file says which).
 * The release build compiles both sides with link-time optimization, so these calls are
 * inlined into the scenario code as an EnTT user's would be (strategies/entt.c shows it).
 *
 * Handles: EnTT's 64-bit identifier (index low 32 bits, version high 32 bits, versions from
 * 0) plus 2^32, so that no handle is 0 (ECSB_ENTITY_NULL): version v is handed out as v + 1.
 * A handle below 2^32 names no entity.
 */
#ifndef ECSB_ENTT_LIB_H
#define ECSB_ENTT_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "harness/ecsb.h"

typedef struct ecsb_entt ecsb_entt; /* a registry and the storage of each type */

/* A registry for config's types (sizes, tags); NULL when memory runs out. */
ecsb_entt *ecsb_entt_open(const ecsb_world_config *config);
void ecsb_entt_close(ecsb_entt *r);
/* Bytes the registry holds (through its counting allocator), the struct included. */
size_t ecsb_entt_bytes(const ecsb_entt *r);

ecsb_entity ecsb_entt_create(ecsb_entt *r);
bool ecsb_entt_alive(const ecsb_entt *r, ecsb_entity e);
void ecsb_entt_destroy(ecsb_entt *r, ecsb_entity e);         /* e alive */
bool ecsb_entt_has(const ecsb_entt *r, ecsb_entity e, ecsb_type t); /* e alive */
void *ecsb_entt_emplace(ecsb_entt *r, ecsb_entity e, ecsb_type t);  /* e alive, t absent */
void ecsb_entt_erase(ecsb_entt *r, ecsb_entity e, ecsb_type t);     /* e alive, t present */
void *ecsb_entt_get(ecsb_entt *r, ecsb_entity e, ecsb_type t);      /* e alive; NULL if absent */
size_t ecsb_entt_count(const ecsb_entt *r, ecsb_type t);
/* Every entity holding q's types and none of its exclusions, one run of one each. */
void ecsb_entt_query(ecsb_entt *r, const ecsb_query *q, ecsb_query_fn fn, void *ctx);
/* The registry's own view of its state agrees with `live` entities and each type's count. */
bool ecsb_entt_valid(const ecsb_entt *r, size_t live);
/* Testing aid (world_corrupt): 0  type 0's storage swapped with type 1's;  1  type 0's
 * element type. Returns 1 when applied, 0 when it needs more types, -1 past the last. */
int ecsb_entt_corrupt(ecsb_entt *r, unsigned which);

#ifdef __cplusplus
}
#endif

#endif
