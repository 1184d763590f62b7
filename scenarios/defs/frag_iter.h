/* defs/frag_iter.h — frag_iter's own definitions, shared by its body (scenarios/frag_iter.h), its
 * floor * (floors/frag_iter.h). */
#ifndef ECSB_SCENARIOS_DEFS_FRAG_ITER_H
#define ECSB_SCENARIOS_DEFS_FRAG_ITER_H

#include "scenarios/common.h"

/*
 * frag_iter: 26 types T0 .. T25, then Data, then up to FRAG_ITER_EXTRA_MAX extra types X0 ..
 * Parameter 1, kinds (default 26): the number of distinct component sets. The entity of rank
 * r is of kind k = r % kinds and holds Data, T(k % 26) and X(j) for every bit j set in k / 26:
 * kinds 26 is noctjs's frag_iter exactly (no X type), fewer kinds use T0 .. T(kinds - 1), and
 * more add X types until every kind is a distinct set (832 at most).
 */
#define FRAG_ITER_KINDS 26u /* the T types */
#define FRAG_ITER_DATA FRAG_ITER_KINDS
#define FRAG_ITER_LAST (FRAG_ITER_KINDS - 1)
#define FRAG_ITER_EXTRA_MAX 5u
#define FRAG_ITER_MAX_KINDS (FRAG_ITER_KINDS << FRAG_ITER_EXTRA_MAX)
#define FRAG_ITER_SALT 0x66726167ull /* its world order: entity of rank r is of kind r % kinds */
enum { FRAG_ITER_KINDS_PARAM = 1 };
static inline uint32_t frag_iter_kinds(const ecsb_params *p) { return (uint32_t)p->v[FRAG_ITER_KINDS_PARAM]; }
/* The X types the kinds need: bits of the largest kind / 26. */
static inline uint32_t frag_iter_extras(uint32_t kinds)
{
    uint32_t b = 0;
    while (((kinds - 1) / FRAG_ITER_KINDS) >> b)
        b++;
    return b;
}
static inline uint32_t frag_iter_type_count(uint32_t kinds) { return FRAG_ITER_KINDS + 1 + frag_iter_extras(kinds); }
/* Whether kind k (of the entity of rank r: k = r % kinds) holds type t. */
static inline bool frag_iter_holds(uint32_t kind, uint32_t t)
{
    if (t < FRAG_ITER_KINDS)
        return kind % FRAG_ITER_KINDS == t;
    if (t == FRAG_ITER_DATA)
        return true;
    return (kind / FRAG_ITER_KINDS) >> (t - FRAG_ITER_DATA - 1) & 1;
}
/* Entities of rank < n holding T25: kinds 25, 51, ... of each full cycle, and of the rest. */
static inline uint64_t frag_iter_lasts(uint64_t n, uint32_t kinds)
{
    return n / kinds * (kinds / FRAG_ITER_KINDS) + n % kinds / FRAG_ITER_KINDS;
}

#endif
