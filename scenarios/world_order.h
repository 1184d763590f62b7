/*
 * world_order.h — the pseudo-random sequences every scenario draws from (the same for every
 * strategy, floor and limit) and the three worlds of the `order` parameter: regular, shuffled
 * and aged (ecsb_world_order, ecsb_aging). Plain C, no strategy functions: the floors and
 * limits use it too; scenarios/body.h lives an aged world through a strategy's functions.
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
 *   aged      the regular world, then lived in (ecsb_aging): rounds in which a batch of
 *             entities drawn at random dies and is born again with the same components and
 *             values. Membership and values are the regular world's; what changed is where
 *             each entity sits: the slots free lists reissue, the dense positions swap-remove
 *             leaves, the ids that layouts which never reuse one hand out. born_at lists the
 *             live entities in the order of their last birth: the floor lays its arrays out
 *             in it, as creation order in the other worlds.
 */
typedef struct ecsb_world_order {
    uint32_t *serial_at; /* k -> the serial created k-th in the build; NULL: k */
    uint32_t *rank;      /* serial -> rank; NULL: the serial */
    uint32_t *born_at;   /* aged: k -> the serial born k-th among the living; NULL: serial_at */
    uint64_t aged_salt;  /* aged: the seed of its deaths (0 in the other worlds) */
} ecsb_world_order;

#define ECSB_WORLD_ORDER_SEED 0x776f726c642d6f72ull

static inline void ecsb_world_order_free(ecsb_world_order *o)
{
    ecsb_array_free(o->serial_at);
    ecsb_array_free(o->rank);
    ecsb_array_free(o->born_at);
    o->serial_at = o->rank = o->born_at = NULL;
}

/*
 * How an aged world lives: ECSB_AGED_ROUNDS rounds, each killing a batch of ceil(n /
 * ECSB_AGED_BATCH_DIV) distinct entities drawn at random and then bearing them again: 2n
 * deaths in all, after which an entity has died with probability 1 - (3/4)^8 = 90 % (with
 * n deaths, a third of the entities never died) and every swap-remove layout has moved
 * survivors into the holes. Deaths come in batches because one death followed by its own
 * birth puts the entity back into the slot it left in every free list that reissues the last
 * freed slot first: batches make free lists hand slots to other entities, as a game's waves
 * of deaths and spawns do. A batch dies in the order drawn (so the holes swap-remove leaves
 * and the order free lists get their slots back in follow no pattern: a batch dying in serial
 * order would hand every layout a structured permutation) and is born again in that order.
 */
#define ECSB_AGED_ROUNDS 8u
#define ECSB_AGED_BATCH_DIV 4u

typedef struct ecsb_aging {
    uint32_t *pool;  /* serials; the first `batch` are the round's victims, in drawn order */
    uint64_t n, batch, round;
    ecsb_rng rng;
} ecsb_aging;

static inline void ecsb_aging_end(ecsb_aging *a)
{
    ecsb_array_free(a->pool);
    a->pool = NULL;
}

/* Start the aging of a world of n entities (the world order's aged_salt); false: no memory. */
static inline bool ecsb_aging_start(ecsb_aging *a, uint64_t n, uint64_t salt)
{
    *a = (ecsb_aging){.n = n, .batch = (n + ECSB_AGED_BATCH_DIV - 1) / ECSB_AGED_BATCH_DIV,
                      .rng = {ECSB_WORLD_ORDER_SEED ^ salt ^ 0x61676564ull}};
    a->pool = ecsb_array_alloc(n, sizeof *a->pool);
    if (!a->pool) {
        ecsb_aging_end(a);
        return false;
    }
    for (uint64_t i = 0; i < n; i++)
        a->pool[i] = (uint32_t)i;
    return true;
}

/* The next round's victims: *count of them, *dying in the order they die, the result in the
 * order they are born again (the same: the order drawn); NULL when the world has lived all
 * its rounds. */
static inline const uint32_t *ecsb_aging_next(ecsb_aging *a, uint64_t *count,
                                              const uint32_t **dying)
{
    if (a->round == ECSB_AGED_ROUNDS || a->n == 0)
        return NULL;
    a->round++;
    for (uint64_t j = 0; j < a->batch; j++) { /* a partial Fisher-Yates: distinct victims */
        uint64_t k = j + ecsb_rng_below(&a->rng, a->n - j);
        uint32_t t = a->pool[j];
        a->pool[j] = a->pool[k];
        a->pool[k] = t;
    }
    *count = a->batch;
    *dying = a->pool;
    return a->pool;
}

/* born_at of an aged world: the survivors in serial order, then the reborn in the order of
 * their last birth. */
static inline bool ecsb_world_order_age(ecsb_world_order *o, uint64_t n)
{
    ecsb_aging a;
    uint64_t *last = ecsb_array_alloc(n, sizeof *last), count, t = n;
    o->born_at = ecsb_array_alloc(n, sizeof *o->born_at);
    bool ok = last && o->born_at && ecsb_aging_start(&a, n, o->aged_salt);
    if (ok) {
        for (uint64_t i = 0; i < n; i++)
            last[i] = i;
        const uint32_t *dying;
        for (const uint32_t *v; (v = ecsb_aging_next(&a, &count, &dying));)
            for (uint64_t j = 0; j < count; j++)
                last[v[j]] = t++;
        ecsb_aging_end(&a);
        /* births are distinct times in [0, t): sort the serials by them (t - n + n slots) */
        uint32_t *by_time = ecsb_array_alloc(t, sizeof *by_time);
        ok = by_time != NULL;
        for (uint64_t i = 0; ok && i < t; i++)
            by_time[i] = UINT32_MAX;
        for (uint64_t i = 0; ok && i < n; i++)
            by_time[last[i]] = (uint32_t)i;
        for (uint64_t i = 0, k = 0; ok && i < t; i++)
            if (by_time[i] != UINT32_MAX)
                o->born_at[k++] = by_time[i];
        ecsb_array_free(by_time);
    }
    ecsb_array_free(last);
    return ok;
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
        if (!ecsb_world_order_age(o, n)) {
            ecsb_world_order_free(o);
            return false;
        }
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
/* The serial of the k-th live entity in birth order: where a floor puts it. */
static inline uint64_t ecsb_born_at(const ecsb_world_order *o, uint64_t k)
{
    return o->born_at ? o->born_at[k] : ecsb_serial_at(o, k);
}
/* Whether the living were born in serial order (regular worlds). */
static inline bool ecsb_world_order_serial(const ecsb_world_order *o)
{
    return !o->serial_at && !o->born_at;
}

#endif
