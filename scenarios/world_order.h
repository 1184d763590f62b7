/*
 * world_order.h — the pseudo-random sequences every scenario draws from (the same for every
 * strategy, floor and limit) and the three worlds of the `order` parameter: regular, shuffled
 * and aged (ecsb_world_order; an aged world's life in scenarios/aging.h). Plain C, no strategy
 * functions: the floors and limits use it too.
 */
#ifndef ECSB_SCENARIOS_WORLD_ORDER_H
#define ECSB_SCENARIOS_WORLD_ORDER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness/ecsb.h"
#include "scenarios/alloc.h"

/* ---- pseudo-random sequences, the same for every strategy, floor and limit --------------- */

typedef struct ecsb_rng {
    uint64_t s;
} ecsb_rng;

/* splitmix64 */
static inline uint64_t ecsb_rng_next(ecsb_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* In [0, n), n > 0. */
static inline uint64_t ecsb_rng_below(ecsb_rng *r, uint64_t n) { return ecsb_rng_next(r) % n; }

/* perm[0 .. n) = a pseudo-random permutation of 0 .. n-1 (Fisher-Yates from `seed`). */
static inline void ecsb_permutation(uint32_t *perm, uint64_t n, uint64_t seed)
{
    ecsb_rng r = {seed};
    for (uint64_t i = 0; i < n; i++)
        perm[i] = (uint32_t)i;
    for (uint64_t i = n; i > 1; i--) {
        uint64_t j = ecsb_rng_below(&r, i);
        uint32_t t = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = t;
    }
}

/*
 * The order of a world of n entities (serials 0 .. n-1), for every scenario's `order`
 * parameter: which serial is created k-th, and each serial's rank, the position that decides
 * what it holds (simple_iter's kind, frag_iter's T, move3's mass...).
 *   regular   serial k is created k-th and has rank k (i mod k membership);
 *   shuffled  both are permutations drawn from fixed seeds (the scenario's salt mixed in), the
 *             same for every strategy, the floor and the limit, so the counts are the same
 *             and no layout sees a pattern it could exploit;
 *   aged      the regular world, then lived in (scenarios/aging.h): rounds of deaths drawn
 *             at random, components gained and lost, births in waves around n, ending with
 *             the n entities alive as built. Membership and values are the regular world's;
 *             what changed is where each entity sits: the slots free lists reissue, the
 *             dense positions swap-remove leaves, the tables rows moved through, the ids that
 *             layouts which never reuse one hand out.
 * Floors and limits lay their arrays out by rank (ecsb_serials_by_rank): the order a perfect
 * layout keeps, the same in every world, so their work does not depend on the world.
 */
typedef struct ecsb_world_order {
    uint32_t *serial_at; /* k -> the serial created k-th in the build; NULL: k */
    uint32_t *rank;      /* serial -> rank; NULL: the serial */
    uint64_t aged_salt;  /* aged: the seed of its life (0 in the other worlds) */
} ecsb_world_order;

#define ECSB_WORLD_ORDER_SEED 0x776f726c642d6f72ull

static inline void ecsb_world_order_free(ecsb_world_order *o)
{
    ecsb_array_free(o->serial_at);
    ecsb_array_free(o->rank);
    o->serial_at = o->rank = NULL;
}

/* The order for n entities and parameters p, its two permutations drawn from the seeds given
 * (an aged world's deaths from their xor); false when out of memory. */
static inline bool ecsb_world_order_make_seeded(ecsb_world_order *o, uint64_t n,
                                                const ecsb_params *p, uint64_t serial_seed,
                                                uint64_t rank_seed)
{
    *o = (ecsb_world_order){0};
    if (p->v[ECSB_PARAM_ORDER] == ECSB_ORDER_AGED) {
        o->aged_salt = (serial_seed ^ rank_seed) | 1;
        return true;
    }
    if (p->v[ECSB_PARAM_ORDER] != ECSB_ORDER_SHUFFLED)
        return true;
    o->serial_at = ecsb_array_alloc(n, sizeof *o->serial_at);
    o->rank = ecsb_array_alloc(n, sizeof *o->rank);
    if (!o->serial_at || !o->rank) {
        ecsb_world_order_free(o);
        return false;
    }
    ecsb_permutation(o->serial_at, n, serial_seed);
    ecsb_permutation(o->rank, n, rank_seed);
    return true;
}

/* The order for n entities, parameters p and scenario salt; false when out of memory. */
static inline bool ecsb_world_order_make(ecsb_world_order *o, uint64_t n, const ecsb_params *p,
                                         uint64_t salt)
{
    return ecsb_world_order_make_seeded(o, n, p, ECSB_WORLD_ORDER_SEED ^ salt,
                                        ECSB_WORLD_ORDER_SEED ^ (salt * 0x9e3779b97f4a7c15ull + 1));
}

static inline uint64_t ecsb_serial_at(const ecsb_world_order *o, uint64_t k)
{
    return o->serial_at ? o->serial_at[k] : k;
}
static inline uint64_t ecsb_rank_of(const ecsb_world_order *o, uint64_t serial)
{
    return o->rank ? o->rank[serial] : serial;
}
/* by_rank[r] = the serial of rank r (an array of n from the shared allocator, the caller
 * frees it), the order floors and limits lay their arrays out in; NULL when out of memory. */
static inline uint32_t *ecsb_serials_by_rank(const ecsb_world_order *o, uint64_t n)
{
    uint32_t *by_rank = ecsb_array_alloc(n, sizeof *by_rank);
    for (uint64_t i = 0; by_rank && i < n; i++)
        by_rank[ecsb_rank_of(o, i)] = (uint32_t)i;
    return by_rank;
}
/* Whether the living were born in serial order (regular worlds). */
static inline bool ecsb_world_order_serial(const ecsb_world_order *o)
{
    return !o->serial_at && !o->aged_salt;
}

#endif
