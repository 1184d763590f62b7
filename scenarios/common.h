/*
 * common.h — what every scenario body and its floor and limit share: the checksum's parts,
 * state allocation, the pseudo-random sequences, and the value each entity starts with. Plain
 * C, no strategy functions: the floors and limits use it too.
 *
 * Checksums. A timed pass never runs a chain of mixes (each waits ~7 cycles on the previous
 * one, which would time the checksum, not the storage): a pass that reads values adds each one
 * times an odd weight that depends on its position into a 64-bit sum (one add per value, no
 * serial latency beyond it), and counts its visits. checksum() mixes once, untimed: the sums,
 * the visit count, and every value left in the world read in creation order. A lost, doubled,
 * extra or swapped visit, or a lost or misplaced value, changes the result: every starting
 * value is non-zero, a weight times a non-zero difference is non-zero modulo 2^64, and the
 * visit count catches visits whose values are zero.
 */
#ifndef ECSB_SCENARIOS_COMMON_H
#define ECSB_SCENARIOS_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness/ecsb.h"

#define ECSB_CHECKSUM_SEED 0x243f6a8885a308d3ull

/* Order-sensitive 64-bit mix: a lost, duplicated, swapped or wrong value changes the result. */
static inline uint64_t ecsb_mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdull;
    return h ^ (h >> 33);
}

/* The weight of the value read at `position` of a pass: odd, so no error cancels out. */
static inline uint64_t ecsb_weight(uint64_t position) { return 2 * position + 1; }

/* What checksum() mixes for a component an entity does not hold (no u32 value is this). */
#define ECSB_ABSENT ((uint64_t)1 << 32)

static inline uint64_t ecsb_double_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static inline uint64_t ecsb_float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/*
 * Zeroed, 64-byte aligned scenario state (worlds want cache-line alignment) from the shared
 * allocator; NULL on failure. Release with ecsb_array_free().
 */
static inline void *ecsb_state_alloc(size_t size)
{
    void *p = ecsb_block_alloc(size);
    if (p)
        memset(p, 0, size);
    return p;
}

/*
 * An array of n elements (at least one, so n = 0 is not a failure) from the shared allocator
 * every world uses (harness/core.c): 64-byte aligned and at a sampled placement, so the floor
 * and the limit sit in memory as the layouts they are compared with do; NULL on failure.
 * Release with ecsb_array_free().
 */
static inline void *ecsb_array_alloc(uint64_t n, size_t size)
{
    return ecsb_block_alloc((size_t)(n ? n : 1) * size);
}

static inline void ecsb_array_free(void *p) { ecsb_block_free(p); }

/*
 * The capacity hint a scenario's world gets (ecsb_world_config.initial_capacity) for `n`
 * entities: n, or 0 while ecsb_scenario_grow_from_empty is set (the suite measures memory
 * both ways: reserved up front, and grown from empty as a program that gives no hint).
 */
static inline uint32_t ecsb_capacity_hint(uint64_t n)
{
    return ecsb_scenario_grow_from_empty ? 0 : (uint32_t)n;
}

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
 * what it holds (simple_iter's kind, frag_iter's T, move3's mass...). Regular worlds: serial k
 * is created k-th and has rank k (i mod k membership). Shuffled: both are permutations drawn
 * from fixed seeds (the scenario's salt mixed in), the same for every strategy, the floor and
 * the limit, so the counts are the same and no layout sees a pattern it could exploit.
 */
typedef struct ecsb_world_order {
    uint32_t *serial_at; /* k -> serial; NULL: k */
    uint32_t *rank;      /* serial -> rank; NULL: the serial */
} ecsb_world_order;

#define ECSB_WORLD_ORDER_SEED 0x776f726c642d6f72ull

static inline void ecsb_world_order_free(ecsb_world_order *o)
{
    ecsb_array_free(o->serial_at);
    ecsb_array_free(o->rank);
    o->serial_at = o->rank = NULL;
}

/* The order for n entities, parameters p and scenario salt; false when out of memory. */
static inline bool ecsb_world_order_make(ecsb_world_order *o, uint64_t n, const ecsb_params *p,
                                         uint64_t salt)
{
    o->serial_at = o->rank = NULL;
    if (p->v[ECSB_PARAM_ORDER] != ECSB_ORDER_SHUFFLED)
        return true;
    o->serial_at = ecsb_array_alloc(n, sizeof *o->serial_at);
    o->rank = ecsb_array_alloc(n, sizeof *o->rank);
    if (!o->serial_at || !o->rank) {
        ecsb_world_order_free(o);
        return false;
    }
    ecsb_permutation(o->serial_at, n, ECSB_WORLD_ORDER_SEED ^ salt);
    ecsb_permutation(o->rank, n, ECSB_WORLD_ORDER_SEED ^ (salt * 0x9e3779b97f4a7c15ull + 1));
    return true;
}

static inline uint64_t ecsb_serial_at(const ecsb_world_order *o, uint64_t k)
{
    return o->serial_at ? o->serial_at[k] : k;
}
static inline uint64_t ecsb_rank_of(const ecsb_world_order *o, uint64_t serial)
{
    return o->rank ? o->rank[serial] : serial;
}

/*
 * `queries`, parameter 1 of the scenarios whose pass changes structure (platformer,
 * entity_cycle, add_remove, level_load): `declared` (the default) declares the queries the
 * systems of a program running it would have, so the upkeep of structures kept for them (a
 * roster, a group, a table cache) is paid in the timed pass, where a real program pays it;
 * `none` declares nothing, the world of a program that never iterates.
 */
enum { ECSB_PARAM_QUERIES = 1 };
enum { ECSB_QUERIES_DECLARED = 0, ECSB_QUERIES_NONE = 1 };
static inline uint32_t ecsb_declared_queries(const ecsb_params *p, uint32_t count)
{
    return p->v[ECSB_PARAM_QUERIES] == ECSB_QUERIES_DECLARED ? count : 0;
}

/* ---- u32 values ---------------------------------------------------------------------------- */

/* The update of a u32 value: a bijection (no pass loses information), never a fixed point. */
static inline uint32_t ecsb_u32_step(uint32_t v) { return 3 * v + 1; }

/* The starting u32 value of type `type` on the i-th entity: non-zero, distinct per i. */
static inline uint32_t ecsb_u32_start(uint32_t type, uint64_t i)
{
    uint32_t v = (uint32_t)(i + 1) * 0x9e3779b1u; /* odd factor: a bijection, 0 only at i + 1 = 2^32 */
    return type % 32 ? v << (type % 32) | v >> (32 - type % 32) : v;
}

/* ---- per scenario ------------------------------------------------------------------------- */

#define PLATFORMER_SALT 0x706c6174ull /* its world order: creation, then the kills by rank */

/* platformer: hp of original entity i, and of the two spawns of round r. */
static inline int32_t platformer_original_hp(uint64_t i) { return (int32_t)(i * 7 + 3); }
static inline int32_t platformer_spawn_hp(uint64_t round, int which)
{
    return -(int32_t)(round * 2 + (uint64_t)which + 1);
}

/*
 * dual_iterate, churn_iterate, random_get: `a` and `b` of the entity with serial number s (the
 * i-th created has serial i; churn_iterate's round r creates serial N + r). Both non-zero; b in
 * -1000 .. -1 and 1 .. 1000.
 */
static inline double dual_iterate_a0(uint64_t s) { return (double)s * 0.25 + 1.0; }
static inline int32_t dual_iterate_b0(uint64_t s)
{
    int32_t magnitude = (int32_t)((s * 37) % 1000) + 1;
    return s & 2 ? -magnitude : magnitude;
}

/*
 * dual_iterate's parameters (and churn_iterate's, which reuses its world): `order`, then
 * `match`, the fraction of entities holding b. The entity of rank r (in membership order)
 * holds b when floor((r + 1) * match) > floor(r * match): with match = 1/2, the odd ranks, as
 * article 002's test; floor(N * match) holders in all, spread evenly over the ranks.
 * Regular worlds: serial i is created i-th and has rank i. Shuffled worlds: creation order
 * and ranks are two permutations of the serials from fixed seeds (the same for every
 * strategy, the floor and the limit), so which entities hold b and the order they were
 * created in have no pattern a layout could exploit; the counts are the same.
 */
enum { DUAL_ITERATE_MATCH = 1 };
#define DUAL_ITERATE_ORDER_SEED 0x6f726465722d6f72ull
#define DUAL_ITERATE_RANK_SEED 0x72616e6b2d6f6e65ull

static inline bool dual_iterate_holds_b(uint64_t rank, double match)
{
    return (uint64_t)((double)(rank + 1) * match) > (uint64_t)((double)rank * match);
}
static inline uint64_t dual_iterate_holders(uint64_t n, double match)
{
    return (uint64_t)((double)n * match);
}

/* The order of a dual_iterate world: which serial is created k-th, and each serial's rank. */
typedef struct dual_iterate_order {
    uint32_t *serial_at; /* k -> serial; NULL: k */
    uint32_t *rank;      /* serial -> rank; NULL: the serial */
    double match;
} dual_iterate_order;

static inline void dual_iterate_order_free(dual_iterate_order *o)
{
    ecsb_array_free(o->serial_at);
    ecsb_array_free(o->rank);
    o->serial_at = o->rank = NULL;
}

/* The order for n entities and parameters p; false when out of memory. */
static inline bool dual_iterate_order_make(dual_iterate_order *o, uint64_t n, const ecsb_params *p)
{
    o->serial_at = o->rank = NULL;
    o->match = p->v[DUAL_ITERATE_MATCH];
    if (p->v[ECSB_PARAM_ORDER] != ECSB_ORDER_SHUFFLED)
        return true;
    o->serial_at = ecsb_array_alloc(n, sizeof *o->serial_at);
    o->rank = ecsb_array_alloc(n, sizeof *o->rank);
    if (!o->serial_at || !o->rank) {
        dual_iterate_order_free(o);
        return false;
    }
    ecsb_permutation(o->serial_at, n, DUAL_ITERATE_ORDER_SEED);
    ecsb_permutation(o->rank, n, DUAL_ITERATE_RANK_SEED);
    return true;
}

static inline uint64_t dual_iterate_serial_at(const dual_iterate_order *o, uint64_t k)
{
    return o->serial_at ? o->serial_at[k] : k;
}
/* Whether serial s (or the position s of churn_iterate's handle list) holds b. */
static inline bool dual_iterate_order_holds_b(const dual_iterate_order *o, uint64_t s)
{
    return dual_iterate_holds_b(o->rank ? o->rank[s] : s, o->match);
}

/* churn_iterate: `rounds` (parameter 2), the rounds of churn as a multiple of N (default 1). */
enum { CHURN_ITERATE_ROUNDS = 2 };
static inline uint64_t churn_iterate_rounds(uint64_t n, const ecsb_params *p)
{
    return (uint64_t)((double)n * p->v[CHURN_ITERATE_ROUNDS]);
}

/* churn_iterate: the position of the handle list round r of the churn replaces. */
#define CHURN_ITERATE_SEED 0x636875726e2d3031ull
static inline uint64_t churn_iterate_position(ecsb_rng *r, uint64_t n) { return ecsb_rng_below(r, n); }

/* random_get: the order of the lookups. */
#define RANDOM_GET_SEED 0x72616e646f6d2d67ull
#define RANDOM_GET_SALT 0x726765ull /* its world order: the entity of odd rank holds b */

/* simple_iter: the i-th entity's kind (0 {A,B}, 1 {A,B,C}, 2 {A,B,C,D}, 3 {A,B,C,E}). */
enum { SIMPLE_ITER_A, SIMPLE_ITER_B, SIMPLE_ITER_C, SIMPLE_ITER_D, SIMPLE_ITER_E };
static inline unsigned simple_iter_kind(uint64_t i) { return (unsigned)(i % 4); }
static inline uint64_t simple_iter_of_kind(uint64_t n, unsigned kind) { return (n + 3 - kind) / 4; }
#define SIMPLE_ITER_SALT 0x73696d706c65ull /* its world order (ecsb_world_order_make) */

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

/* add_remove: `held` (parameter 2), the other u32 components C1..Ch (types 2 .. h + 1) every
 * entity carries beside A: a table layout moves each of them on every add and remove of B. */
enum { ADD_REMOVE_HELD = 2 };
#define ADD_REMOVE_MAX_HELD 16u
static inline uint32_t add_remove_held(const ecsb_params *p) { return (uint32_t)p->v[ADD_REMOVE_HELD]; }

/* entity_cycle: the B values of the two entities spawned for an A value. */
static inline uint32_t entity_cycle_b(uint32_t a, unsigned which) { return 3 * a + 1 + which; }

/* move3: pos, vel (float[3]) on every entity, mass (float) on every 4th (i % 4 == 0). */
typedef struct move3_vec {
    float v[3];
} move3_vec;
static inline move3_vec move3_pos0(uint64_t i)
{
    move3_vec p;
    for (int c = 0; c < 3; c++)
        p.v[c] = (float)((i * 3 + (uint64_t)c) % 1024) * 0.5f + 1.0f;
    return p;
}
static inline move3_vec move3_vel0(uint64_t i)
{
    move3_vec v;
    for (int c = 0; c < 3; c++)
        v.v[c] = (float)((i * 7 + (uint64_t)c) % 512) * 0.25f - 63.875f; /* never 0 */
    return v;
}
/* Distinct for 509 entities in a row (whichever of them hold mass, a swap of two shows). */
static inline float move3_mass0(uint64_t i) { return 0.5f + (float)(i % 509) / 512; }
static inline uint64_t move3_matched(uint64_t n) { return (n + 3) / 4; }
/* `size` (parameter 1): bytes per pos and vel value, of which the pass uses the first 12 (a
 * move3_vec); the rest are cold bytes in hot components (zero). Default 12. */
enum { MOVE3_SIZE = 1 };
static inline size_t move3_size(const ecsb_params *p) { return (size_t)p->v[MOVE3_SIZE]; }
/* The move3_vec at the start of value i of an array of `size`-byte values. */
static inline move3_vec *move3_at(void *values, uint64_t i, size_t size)
{
    return (move3_vec *)((unsigned char *)values + i * size);
}
#define MOVE3_SALT 0x6d6f766533ull /* its world order: the entity of rank r holds mass when 4 | r */
/* pos += vel * mass, in two statements so that no compiler fuses them into an FMA. */
static inline void move3_step(move3_vec *restrict pos, const move3_vec *restrict vel, float mass)
{
    for (int c = 0; c < 3; c++) {
        float dv = vel->v[c] * mass;
        pos->v[c] += dv;
    }
}

/*
 * frame (scenarios/frame.h): one frame of a small game. Parameter 1, churn: the fraction of
 * the N entities born and dying per frame, half bullets (fired, living FRAME_BULLET_LIFE
 * frames), half actors (killed and replaced). All positions in slots: actors [0, actors),
 * bullets [actors, n) in FRAME_BULLET_LIFE segments of `fired` slots.
 */
enum { FRAME_CHURN = 1 };
#define FRAME_BULLET_LIFE 8u
#define FRAME_DT (1.0f / 64)     /* seconds per frame */
#define FRAME_STEER (1.0f / 1024) /* velocity change per unit of distance to the target */

typedef struct frame_vec2 {
    float x, y;
} frame_vec2;

/* A target: the handle to look up, and the slot and generation that say whether it is current. */
typedef struct frame_target {
    ecsb_entity handle;
    uint32_t slot, gen;
} frame_target;

typedef struct frame_world_shape {
    uint64_t n, actors;
    uint64_t fired;  /* bullets fired (and expiring) per frame */
    uint64_t deaths; /* actors killed (and replaced) per frame */
    uint64_t flips;  /* actors gaining or losing status per frame */
} frame_world_shape;

static inline frame_world_shape frame_shape(uint64_t n, const ecsb_params *p)
{
    frame_world_shape s = {.n = n};
    uint64_t half = (uint64_t)((double)n * p->v[FRAME_CHURN] / 2);
    s.fired = half;
    s.actors = n - FRAME_BULLET_LIFE * half;
    s.deaths = half < s.actors ? half : s.actors;
    s.flips = n / 64 < s.actors ? n / 64 : s.actors;
    return s;
}

/* A 32-bit mix of x: targets and starting values without a linear pattern. */
static inline uint32_t frame_hash(uint64_t x)
{
    uint32_t h = (uint32_t)x * 0x9e3779b1u;
    h ^= h >> 15;
    h *= 0x85ebca77u;
    return h ^ (h >> 13);
}
/* Every 4th actor but the first aims at an earlier actor (alive whenever it is born), spread
 * by a hash. */
/* Odd actors are born with status 1 (so that the flips of any frame both add and remove). */
static inline bool frame_born_burning(uint64_t slot) { return slot % 2 == 1; }
static inline bool frame_has_target(uint64_t slot) { return slot % 4 == 0 && slot > 0; }
static inline uint64_t frame_target_slot(uint64_t slot) { return frame_hash(slot) % slot; }
static inline uint64_t frame_flip_slot(const frame_world_shape *sh, uint64_t frame, uint64_t j)
{
    return (frame * sh->flips + j) % sh->actors;
}
static inline uint64_t frame_death_slot(const frame_world_shape *sh, uint64_t frame, uint64_t j)
{
    return (frame * sh->deaths + j + sh->actors / 2) % sh->actors;
}
static inline uint64_t frame_bullet_slot(const frame_world_shape *sh, uint64_t frame, uint64_t j)
{
    return sh->actors + (frame % FRAME_BULLET_LIFE) * sh->fired + j;
}
/* How many die (actors) or expire (bullets) in a frame, and the j-th of them. */
static inline uint64_t frame_replaced(const frame_world_shape *sh, bool bullets)
{
    return bullets ? sh->fired : sh->deaths;
}
static inline uint64_t frame_replaced_slot(const frame_world_shape *sh, bool bullets, uint64_t frame,
                                           uint64_t j)
{
    return bullets ? frame_bullet_slot(sh, frame, j) : frame_death_slot(sh, frame, j);
}
/* A bullet's life: frames left times FRAME_LIFE_UNIT, plus the slot's low bits (so no two
 * bullets' lives are equal: a mix-up of two of them shows). When spawned: during set-up,
 * staggered so that segment k expires in frame k; in a frame, a full life. */
#define FRAME_LIFE_UNIT (1u << 16)
static inline uint32_t frame_life0(const frame_world_shape *sh, uint64_t slot, bool in_frame)
{
    uint32_t frames = in_frame ? FRAME_BULLET_LIFE : (uint32_t)((slot - sh->actors) / sh->fired + 1);
    return frames * FRAME_LIFE_UNIT + (uint32_t)(slot % FRAME_LIFE_UNIT);
}
/* What a death or an expiry in `slot` adds where it happens: its pos and vel bits (0 for an
 * absent one), weighted by the slot (so two entities' values mixed up show, and a velocity
 * spoiled in the frame that the entity dies in still shows). */
static inline uint64_t frame_impact(uint64_t slot, const frame_vec2 *pos, const frame_vec2 *vel)
{
    uint64_t bits = pos ? ecsb_float_bits(pos->x) * 3 + ecsb_float_bits(pos->y) : 0;
    if (vel)
        bits += ecsb_float_bits(vel->x) * 5 + ecsb_float_bits(vel->y) * 7;
    return bits * ecsb_weight(slot);
}
/* The dead[] index of a slot component's value (slot + 1); n, the sink, when out of range. */
static inline uint64_t frame_dead_index(const frame_world_shape *sh, uint32_t slot_value)
{
    uint64_t k = (uint64_t)slot_value - 1;
    return k < sh->n ? k : sh->n;
}
/* The status that kills an actor of `hp` this frame, leaving hp at -(1 + slot % 7). */
static inline int32_t frame_lethal(uint64_t slot, int32_t hp) { return hp + 1 + (int32_t)(slot % 7); }
/* Starting hp: 1000 apart between neighbouring slots, so that a few frames of status damage
 * never make two actors' hp equal (a get of the wrong actor's hp shows). */
static inline int32_t frame_hp0(uint64_t slot) { return 1000000 + 1000 * (int32_t)(slot % 1000); }
/* Starting values hashed from slot and birth: no linear pattern, so no two entities' steering
 * coincides (a swapped visit always shows); vel never 0. */
static inline frame_vec2 frame_pos0(uint64_t slot, uint64_t birth)
{
    return (frame_vec2){(float)(frame_hash(slot) % 65521) / 64 + 0.5f,
                        (float)(frame_hash(birth + 0x51ed) % 65519) / 64 + 0.25f};
}
static inline frame_vec2 frame_vel0(uint64_t slot, uint64_t birth)
{
    return (frame_vec2){((float)(frame_hash(birth + 0x2545) % 4093) + 0.5f) / 512 - 4.0f,
                        ((float)(frame_hash(slot + 0x7f4a) % 4091) + 0.5f) / 512 - 4.0f};
}
/* movement and steering, one statement per operation so that no compiler fuses them. */
static inline void frame_move(frame_vec2 *restrict pos, const frame_vec2 *restrict vel)
{
    float dx = vel->x * FRAME_DT, dy = vel->y * FRAME_DT;
    pos->x += dx;
    pos->y += dy;
}
static inline void frame_steer(frame_vec2 *restrict vel, const frame_vec2 *pos,
                               const frame_vec2 *target)
{
    float dx = target->x - pos->x, dy = target->y - pos->y;
    float ax = dx * FRAME_STEER, ay = dy * FRAME_STEER;
    vel->x += ax;
    vel->y += ay;
}
/* A component value of type t (frame.h's order) into h; NULL: absent. */
static inline uint64_t frame_mix_value(uint64_t h, uint32_t t, const void *v)
{
    if (!v)
        return ecsb_mix(h, ECSB_ABSENT);
    switch (t) {
    case 0: /* pos */
    case 1: /* vel */
        return ecsb_mix(ecsb_mix(h, ecsb_float_bits(((const frame_vec2 *)v)->x)),
                        ecsb_float_bits(((const frame_vec2 *)v)->y));
    case 3: /* target: its slot and generation, not the handle (handles differ by strategy) */
        return ecsb_mix(ecsb_mix(h, ((const frame_target *)v)->slot), ((const frame_target *)v)->gen);
    default: /* hp, status (int32), life, slot (u32) */
        return ecsb_mix(h, *(const uint32_t *)v);
    }
}

/* level_load: A, B on every entity, C on odd ones, D on those with i % 4 == 3. */
#define LEVEL_LOAD_TYPES 4u
static inline bool level_load_holds(uint64_t i, uint32_t type)
{
    return type < 2 || (type == 2 && (i & 1)) || (type == 3 && i % 4 == 3);
}

#endif
