/*
 * aging.h — the life an aged world has lived before its timed pass (order=aged), as a stream
 * of events: deaths, births, components gained and lost. Plain C, no strategy functions:
 * scenarios/body.h plays the events on a strategy's world (scenario_age), tests/worlds.c
 * checks the stream itself. Everything is drawn from the world order's aged_salt, so every
 * strategy lives the same life, and it ends in the world the scenario built: its n entities
 * (serials 0 .. n-1) alive, each with its own components and starting values, so the floor's
 * checksum holds; what the life changed is where each entity sits in every layout.
 *
 * ECSB_AGED_ROUNDS rounds, each of three phases:
 *   deaths   a batch of ceil(n / ECSB_AGED_BATCH_DIV) living entities drawn at random dies,
 *            in the order drawn (a batch dying in serial order would hand every swap-remove
 *            layout and free list a structured permutation);
 *   changes  half a batch of living entities drawn at random change: one as its scenario made
 *            it gains or loses one type drawn at random from the world's (it loses the type
 *            if it holds it, gains it otherwise); one already changed changes back;
 *   births   the dead are born again, longest dead first, with their own components and
 *            starting values; when none is left, newcomers (entities beyond the n, each a copy
 *            of a serial drawn at random) are born, until the population is the round's wave:
 *            n - w after an odd round, n + w after an even one (w = half a batch, about n/8,
 *            at most what keeps the peak within ECSB_AGED_PEAK).
 * Then the ending: the newcomers still alive die, the changed change back, the dead are born
 * again: n alive. With about 2n deaths an entity has died with probability about 90 % (with n
 * deaths a third never died); deaths come in batches because one death followed by its own
 * birth puts the entity back into the slot it left in every free list that reissues the last
 * freed slot first, and the waves make free lists, capacities and id ranges grow past n and
 * hand out slots in no order, as a game's waves of deaths and spawns do.
 */
#ifndef ECSB_SCENARIOS_AGING_H
#define ECSB_SCENARIOS_AGING_H

#include <stdbool.h>
#include <stdint.h>

#include "scenarios/alloc.h"
#include "scenarios/world_order.h"

#define ECSB_AGED_ROUNDS 8u
#define ECSB_AGED_BATCH_DIV 4u
/* The most entities an aged world holds at its peak: the fewest any strategy can hold
 * (paged_sparse_set's 24-bit ids), so the waves never fill a world at the largest N. */
#define ECSB_AGED_PEAK 16777215u

typedef enum ecsb_aging_kind {
    ECSB_AGING_DIE,    /* entity `id` dies */
    ECSB_AGING_BORN,   /* entity `id` is born with the components and starting values of `of` */
    ECSB_AGING_ADD,    /* entity `id` gains `type` (the starting value `of` would have) */
    ECSB_AGING_REMOVE, /* entity `id` loses `type` */
} ecsb_aging_kind;

/* One event of an aged world's life. id: a serial (< n), or n + k for newcomer k (k < the
 * wave w: at most w newcomers live at once, and a dead newcomer's k is reused). */
typedef struct ecsb_aging_event {
    ecsb_aging_kind kind;
    uint32_t id;
    uint32_t of;   /* the serial whose components and values it has: id itself, or the
                    * serial a newcomer copies */
    uint32_t type; /* ADD, REMOVE */
} ecsb_aging_event;

/* Which types serial `serial` holds as its scenario made it (bit t: type t). */
typedef uint32_t (*ecsb_aging_types_fn)(const void *ctx, uint64_t serial);

enum { ECSB_AGING_DEATHS, ECSB_AGING_CHANGES, ECSB_AGING_BIRTHS, ECSB_AGING_END_NEWCOMERS,
       ECSB_AGING_END_CHANGES, ECSB_AGING_END_BIRTHS, ECSB_AGING_DONE };

typedef struct ecsb_aging {
    uint64_t n, batch, wave, round, left, scan;
    uint32_t type_count, phase;
    uint32_t *alive;     /* the living ids, in no order; `living` of them */
    uint64_t living;
    uint32_t *dead;      /* the dead serials, a ring in order of death: dead_count from head */
    uint64_t dead_head, dead_count;
    uint32_t *free_new;  /* the newcomer numbers not in use, a stack of free_count */
    uint64_t free_count;
    uint32_t *copy_of;   /* newcomer k -> the serial it copies */
    uint8_t *changed;    /* id -> 1 + the type it gained or lost, 0: as its scenario made it */
    ecsb_aging_types_fn types_of;
    const void *ctx;
    ecsb_rng rng;
} ecsb_aging;

static inline void ecsb_aging_end(ecsb_aging *a)
{
    ecsb_array_free(a->alive);
    ecsb_array_free(a->dead);
    ecsb_array_free(a->free_new);
    ecsb_array_free(a->copy_of);
    ecsb_array_free(a->changed);
    a->alive = a->dead = a->free_new = a->copy_of = NULL;
    a->changed = NULL;
}

/*
 * Start the life of a world of n entities (serials 0 .. n-1, all alive) of type_count types
 * (at most 32), who holds what given by types_of(ctx, serial), from `salt` (the world order's
 * aged_salt); false: no memory.
 */
static inline bool ecsb_aging_start(ecsb_aging *a, uint64_t n, uint64_t salt, uint32_t type_count,
                                    ecsb_aging_types_fn types_of, const void *ctx)
{
    const uint64_t batch = (n + ECSB_AGED_BATCH_DIV - 1) / ECSB_AGED_BATCH_DIV;
    const uint64_t room = n < ECSB_AGED_PEAK ? ECSB_AGED_PEAK - n : 0;
    *a = (ecsb_aging){.n = n, .batch = batch, .wave = batch / 2 < room ? batch / 2 : room,
                      .type_count = type_count,
                      .types_of = types_of, .ctx = ctx,
                      .rng = {ECSB_WORLD_ORDER_SEED ^ salt ^ 0x61676564ull}};
    a->alive = ecsb_array_alloc(n + a->wave, sizeof *a->alive);
    a->dead = ecsb_array_alloc(n, sizeof *a->dead);
    a->free_new = ecsb_array_alloc(a->wave, sizeof *a->free_new);
    a->copy_of = ecsb_array_alloc(a->wave, sizeof *a->copy_of);
    a->changed = ecsb_array_zalloc(n + a->wave, sizeof *a->changed);
    if (!a->alive || !a->dead || !a->free_new || !a->copy_of || !a->changed) {
        ecsb_aging_end(a);
        return false;
    }
    for (uint64_t i = 0; i < n; i++)
        a->alive[i] = (uint32_t)i;
    a->living = n;
    for (uint64_t k = 0; k < a->wave; k++)
        a->free_new[k] = (uint32_t)(a->wave - 1 - k); /* newcomer 0 first */
    a->free_count = a->wave;
    a->left = n ? batch : 0;
    a->round = 1;
    return true;
}

/* The serial whose components entity id has. */
static inline uint32_t ecsb_aging_of(const ecsb_aging *a, uint32_t id)
{
    return id < a->n ? id : a->copy_of[id - a->n];
}

/* Entity alive[at] dies: out of the living, into the dead (a serial) or the free newcomers. */
static inline void ecsb_aging_kill(ecsb_aging *a, uint64_t at, ecsb_aging_event *e)
{
    const uint32_t id = a->alive[at];
    a->alive[at] = a->alive[--a->living];
    *e = (ecsb_aging_event){ECSB_AGING_DIE, id, ecsb_aging_of(a, id), 0};
    a->changed[id] = 0;
    if (id < a->n)
        a->dead[(a->dead_head + a->dead_count++) % a->n] = id;
    else
        a->free_new[a->free_count++] = id - (uint32_t)a->n;
}

/* Entity id changes: back when changed, otherwise gains or loses a type drawn at random. */
static inline void ecsb_aging_change(ecsb_aging *a, uint32_t id, ecsb_aging_event *e)
{
    const uint32_t of = ecsb_aging_of(a, id);
    const uint32_t type = a->changed[id] ? a->changed[id] - 1u
                                         : (uint32_t)ecsb_rng_below(&a->rng, a->type_count);
    const bool holds = a->types_of(a->ctx, of) >> type & 1;
    /* changing back: gain what it lost or lose what it gained; changing: the opposite */
    const bool gain = a->changed[id] ? holds : !holds;
    a->changed[id] = a->changed[id] ? 0 : (uint8_t)(type + 1);
    *e = (ecsb_aging_event){gain ? ECSB_AGING_ADD : ECSB_AGING_REMOVE, id, of, type};
}

/* A birth: the longest dead serial, else a newcomer; false when neither is left. */
static inline bool ecsb_aging_birth(ecsb_aging *a, ecsb_aging_event *e)
{
    uint32_t id;
    if (a->dead_count) {
        id = a->dead[a->dead_head];
        a->dead_head = (a->dead_head + 1) % a->n;
        a->dead_count--;
    } else if (a->free_count) {
        const uint32_t k = a->free_new[--a->free_count];
        a->copy_of[k] = (uint32_t)ecsb_rng_below(&a->rng, a->n);
        id = (uint32_t)a->n + k;
    } else {
        return false;
    }
    a->alive[a->living++] = id;
    *e = (ecsb_aging_event){ECSB_AGING_BORN, id, ecsb_aging_of(a, id), 0};
    return true;
}

/* The next phase and how many events it has (a wave's births: what reaches it). */
static inline void ecsb_aging_next_phase(ecsb_aging *a)
{
    a->phase++;
    if (a->phase == ECSB_AGING_CHANGES) {
        a->left = a->batch / 2;
    } else if (a->phase == ECSB_AGING_BIRTHS) {
        const uint64_t target = a->round % 2 ? a->n - a->wave : a->n + a->wave;
        a->left = target > a->living ? target - a->living : 0;
    } else if (a->phase == ECSB_AGING_END_NEWCOMERS && a->round < ECSB_AGED_ROUNDS) {
        a->round++;
        a->phase = ECSB_AGING_DEATHS;
        a->left = a->batch;
    } else if (a->phase == ECSB_AGING_END_NEWCOMERS || a->phase == ECSB_AGING_END_CHANGES) {
        a->scan = a->living; /* the living, scanned from the last */
    }
}

/* The next event of the life into *e; false when it has ended (n alive, as built). */
static inline bool ecsb_aging_next(ecsb_aging *a, ecsb_aging_event *e)
{
    for (;;) {
        switch (a->phase) {
        case ECSB_AGING_DEATHS:
            if (a->left && a->living) {
                a->left--;
                ecsb_aging_kill(a, ecsb_rng_below(&a->rng, a->living), e);
                return true;
            }
            break;
        case ECSB_AGING_CHANGES:
            if (a->left && a->living && a->type_count) {
                a->left--;
                ecsb_aging_change(a, a->alive[ecsb_rng_below(&a->rng, a->living)], e);
                return true;
            }
            break;
        case ECSB_AGING_BIRTHS:
            if (a->left && ecsb_aging_birth(a, e)) {
                a->left--;
                return true;
            }
            break;
        case ECSB_AGING_END_NEWCOMERS: /* a kill moves the last living into the hole: scanned */
            while (a->scan > 0)
                if (a->alive[--a->scan] >= a->n) {
                    ecsb_aging_kill(a, a->scan, e);
                    return true;
                }
            break;
        case ECSB_AGING_END_CHANGES:
            while (a->scan > 0) {
                const uint32_t id = a->alive[--a->scan];
                if (a->changed[id]) {
                    ecsb_aging_change(a, id, e);
                    return true;
                }
            }
            break;
        case ECSB_AGING_END_BIRTHS:
            if (a->dead_count && ecsb_aging_birth(a, e))
                return true;
            break;
        default:
            return false;
        }
        ecsb_aging_next_phase(a);
    }
}

#endif
