/* defs/frame.h — frame's own definitions, shared by its body (scenarios/frame.h), its floor *
 * (floors/frame.h). */
#ifndef ECSB_SCENARIOS_DEFS_FRAME_H
#define ECSB_SCENARIOS_DEFS_FRAME_H

#include "scenarios/common.h"

/*
 * frame (scenarios/frame.h): one frame of a small game. Parameter 1, churn: the fraction of
 * the N entities born and dying per frame, half bullets (fired, living FRAME_BULLET_LIFE
 * frames), half actors (killed and replaced). All positions in slots: actors [0, actors),
 * bullets [actors, n) in FRAME_BULLET_LIFE segments of `fired` slots.
 */
enum { FRAME_CHURN = 1 };
#define FRAME_SALT 0x6672616d65ull /* its world order: the set-up's creation order */
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

#endif
