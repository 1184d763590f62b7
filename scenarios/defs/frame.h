/* defs/frame.h — frame's own definitions, shared by its body (scenarios/frame.h), its floor *
 * (floors/frame.h). */
#ifndef ECSB_SCENARIOS_DEFS_FRAME_H
#define ECSB_SCENARIOS_DEFS_FRAME_H

#include "scenarios/common.h"

/*
 * frame (scenarios/frame.h): one frame of a small game. Parameter 1, churn: the fraction of
 * the N entities born and dying per frame, half bullets (fired, living FRAME_BULLET_LIFE
 * frames), half actors (killed and replaced). All positions in slots: actors [0, actors),
 * bullets [actors, n) in FRAME_BULLET_LIFE segments of `fired` slots. Parameter 2, types: the
 * component types of the world (the core ones below, then FRAME_COMMONS common extras, then
 * rare ones). Parameter 3, transform: the bytes of the render component.
 */
enum { FRAME_CHURN = 1, FRAME_TYPES_PARAM = 2, FRAME_TRANSFORM_PARAM = 3 };
#define FRAME_SALT 0x6672616d65ull /* its world order: the set-up's creation order */
#define FRAME_BULLET_LIFE 8u
#define FRAME_DT (1.0f / 64)     /* seconds per frame */
#define FRAME_STEER (1.0f / 1024) /* velocity change per unit of distance to the target */

/* The core types, then the extras: FRAME_COMMONS common ones (each entity holds one of them,
 * drawn by slot: a team, a render layer, a collider, a sound: held, touched by no system of
 * this frame), then the rare ones (each held by 1 / FRAME_RARE_IN of the slots: a boss's AI
 * state, a particle emitter, a quest marker...; the first FRAME_RARE_SYSTEMS of them are
 * updated by a system of their own). */
enum { FRAME_POS, FRAME_VEL, FRAME_HP, FRAME_TARGET, FRAME_STATUS, FRAME_LIFE, FRAME_SLOT,
       FRAME_TRANSFORM, FRAME_CORE_TYPES };
#define FRAME_COMMONS 4u
#define FRAME_RARE_IN 256u /* 0.39 % of the slots hold a given rare type */
#define FRAME_RARE_SYSTEMS 3u
#define FRAME_MAX_SET (FRAME_CORE_TYPES + 1 + ECSB_MAX_TYPES) /* types one entity holds, at most */

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
    uint32_t types;        /* component types in all */
    uint32_t commons;      /* common extras: types FRAME_CORE_TYPES .. + commons */
    uint32_t rares;        /* rare extras: the types after the commons */
    uint32_t rare_systems; /* the first of them, each updated by a system */
    uint32_t floats;       /* the transform's floats (its bytes / 4) */
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
    s.types = (uint32_t)p->v[FRAME_TYPES_PARAM];
    uint32_t extras = s.types - FRAME_CORE_TYPES;
    s.commons = extras < FRAME_COMMONS ? extras : FRAME_COMMONS;
    s.rares = extras - s.commons;
    s.rare_systems = s.rares < FRAME_RARE_SYSTEMS ? s.rares : FRAME_RARE_SYSTEMS;
    s.floats = (uint32_t)p->v[FRAME_TRANSFORM_PARAM] / 4;
    return s;
}

/* Frames until every slot has turned over once: actors die `deaths` a frame in turn, bullets
 * live FRAME_BULLET_LIFE frames (plus FRAME_BULLET_LIFE frames of slack); 1 where nothing
 * turns over (churn * n / 2 rounds to 0: the first frame is already the steady one). frame's
 * warm-up (scenarios/scenarios.c) and the frames its aged world lives (scenarios/frame.h). */
static inline uint64_t frame_turnover_frames(const frame_world_shape *s)
{
    return s->deaths ? (s->actors + s->deaths - 1) / s->deaths + FRAME_BULLET_LIFE : 1;
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
/* The k-th birth of a frame (k < deaths + fired): a bullet or an actor, the j-th of its kind.
 * Every death and expiry of the frame is destroyed first, then the newborns alternate actor,
 * bullet, actor... so the ids the dead freed go to whatever is born next: a bullet's id comes
 * back as an actor and an actor's as a bullet in any layout that reuses ids. */
static inline bool frame_birth(const frame_world_shape *sh, uint64_t k, uint64_t *j)
{
    uint64_t both = sh->deaths < sh->fired ? sh->deaths : sh->fired;
    if (k < 2 * both) {
        *j = k / 2;
        return k % 2 == 1;
    }
    *j = k - both;
    return sh->deaths < sh->fired;
}
/* The common extra a slot holds (none when the world has no extras). */
static inline uint32_t frame_common_type(const frame_world_shape *sh, uint64_t slot)
{
    return FRAME_CORE_TYPES + frame_hash(slot + 0x636f6d6d) % sh->commons;
}
/* Whether a slot holds rare extra r (0 .. rares - 1, type FRAME_CORE_TYPES + commons + r). */
static inline bool frame_holds_rare(uint64_t slot, uint32_t r)
{
    return frame_hash(slot * 0x2f + (uint64_t)r * 0x9e3779b9u + 0x72617265) % FRAME_RARE_IN == 0;
}
static inline uint32_t frame_rare_type(const frame_world_shape *sh, uint32_t r)
{
    return FRAME_CORE_TYPES + sh->commons + r;
}
/* An extra's starting value (u32), and a rare system's update of one where the entity stands. */
static inline uint32_t frame_extra0(uint32_t type, uint64_t slot, uint64_t birth)
{
    return frame_hash(slot * 0x35 + type) + (uint32_t)birth * 0x10001u;
}
static inline uint32_t frame_rare_step(uint32_t v, const frame_vec2 *pos)
{
    return 3 * v + 1 + (uint32_t)(ecsb_float_bits(pos->x) >> 9);
}
/* A transform's starting floats (1/256 .. 16, hashed from slot, birth and index). */
static inline void frame_transform0(float *m, uint32_t floats, uint64_t slot, uint64_t birth)
{
    for (uint32_t i = 0; i < floats; i++)
        m[i] = (float)(frame_hash(slot * 0x101 + birth * 0x3b + i) % 4096 + 1) / 256;
}
/* What rendering an entity adds: its position times three fields of its transform (first,
 * middle, last), so a lost or doubled draw, a wrong field or two entities' values mixed up show
 * (the product is not a sum of per-component terms). */
static inline uint64_t frame_render(const frame_vec2 *pos, const float *m, uint32_t floats)
{
    uint64_t a = ecsb_float_bits(pos->x) + 3 * ecsb_float_bits(pos->y);
    uint64_t b = ecsb_float_bits(m[0]) + 5 * ecsb_float_bits(m[floats / 2]) +
                 7 * ecsb_float_bits(m[floats - 1]);
    return a * (2 * b + 1);
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
/* A component value of type t into h; NULL: absent. */
static inline uint64_t frame_mix_value(const frame_world_shape *sh, uint64_t h, uint32_t t,
                                       const void *v)
{
    if (!v)
        return ecsb_mix(h, ECSB_ABSENT);
    switch (t) {
    case FRAME_TRANSFORM:
        for (uint32_t i = 0; i < sh->floats; i++)
            h = ecsb_mix(h, ecsb_float_bits(((const float *)v)[i]));
        return h;
    case 0: /* pos */
    case 1: /* vel */
        return ecsb_mix(ecsb_mix(h, ecsb_float_bits(((const frame_vec2 *)v)->x)),
                        ecsb_float_bits(((const frame_vec2 *)v)->y));
    case 3: /* target: its slot and generation, not the handle (handles differ by strategy) */
        return ecsb_mix(ecsb_mix(h, ((const frame_target *)v)->slot), ((const frame_target *)v)->gen);
    default: /* hp, status (int32), life, slot, the extras (u32) */
        return ecsb_mix(h, *(const uint32_t *)v);
    }
}

#endif
