/* defs/frame.h — frame's own definitions, shared by its body (scenarios/frame.h), its floor *
 * (floors/frame.h). */
#ifndef ECSB_SCENARIOS_DEFS_FRAME_H
#define ECSB_SCENARIOS_DEFS_FRAME_H

#include "scenarios/common.h"

/*
 * frame (scenarios/frame.h): one frame of a small game. Parameter 1, churn: the fraction of
 * the N entities born and dying per frame, half bullets (fired, living FRAME_BULLET_LIFE
 * frames), half actors (roots killed in turn, their descendants with them, all replaced).
 * All positions in slots: actors [0, actors), bullets [actors, n) in FRAME_BULLET_LIFE
 * segments of `fired` slots. The actors are a scene graph laid out by depth: roots [0, roots),
 * then the children of depth 1, 2 and 3 (FRAME_DEPTH levels), each a block of slots whose
 * parent is a slot of the block before (so a parent's slot is always below its child's).
 * Parameter 2, types: the component types of the world (the core ones below, then
 * FRAME_COMMONS common extras, then rare ones). Parameter 3, transform: the bytes of the world
 * transform (a 4x4 matrix, then cold bytes). Parameter 4, parented: the share of the actors
 * with a parent.
 */
enum { FRAME_CHURN = 1, FRAME_TYPES_PARAM = 2, FRAME_TRANSFORM_PARAM = 3, FRAME_PARENTED = 4 };
#define FRAME_SALT 0x6672616d65ull /* its world order: the set-up's creation order */
#define FRAME_BULLET_LIFE 8u
#define FRAME_DT (1.0f / 64)     /* seconds per frame */
#define FRAME_STEER (1.0f / 1024) /* velocity change per unit of distance to the target */
#define FRAME_DEPTH 3u           /* levels of children below the roots */
#define FRAME_MATRIX 16u         /* the floats of the world matrix (4x4, row-major) */
#define FRAME_FREEZE_IN 128u     /* ceil(N / 128) actors frozen per frame ... */
#define FRAME_FROZEN_FRAMES 16u  /* ... each for 16 frames: 1/8 of N frozen at a time */
#define FRAME_HIDDEN_IN 16u      /* 1/16 of the slots are hidden */

/* The core types, then the extras: FRAME_COMMONS common ones (each entity holds one of them,
 * drawn by slot: a team, a render layer, a collider, a sound: held, touched by no system of
 * this frame), then the rare ones (each held by 1 / FRAME_RARE_IN of the slots: a boss's AI
 * state, a particle emitter, a quest marker...; the first FRAME_RARE_SYSTEMS of them are
 * updated by a system of their own). The last five core types are tags (size 0): frozen (no
 * movement, no steering), hidden (not rendered) and the depth of a child (1, 2 or 3). */
enum { FRAME_POS, FRAME_VEL, FRAME_HP, FRAME_TARGET, FRAME_STATUS, FRAME_LIFE, FRAME_SLOT,
       FRAME_TRANSFORM, FRAME_LOCAL, FRAME_PARENT, FRAME_FROZEN, FRAME_HIDDEN, FRAME_DEPTH1,
       FRAME_CORE_TYPES = FRAME_DEPTH1 + FRAME_DEPTH };
#define FRAME_COMMONS 4u
#define FRAME_RARE_IN 256u /* 0.39 % of the slots hold a given rare type */
#define FRAME_RARE_SYSTEMS 3u
#define FRAME_MAX_SET (FRAME_CORE_TYPES + 1 + ECSB_MAX_TYPES) /* types one entity holds, at most */

static inline bool frame_is_tag(uint32_t t) { return t >= FRAME_FROZEN && t < FRAME_CORE_TYPES; }

typedef struct frame_vec2 {
    float x, y;
} frame_vec2;

/* A target or a parent: the handle to look up, and the slot and generation that say whether
 * it is current. */
typedef struct frame_target {
    ecsb_entity handle;
    uint32_t slot, gen;
} frame_target;

/* The local transform besides pos (the translation): a rotation (c, s), a scale k and a
 * layer z, set at birth. */
typedef struct frame_local {
    float c, s, k, z;
} frame_local;

typedef struct frame_world_shape {
    uint64_t n, actors;
    uint64_t roots;        /* actors without a parent: slots [0, roots) */
    uint64_t level_start[FRAME_DEPTH + 1], level_count[FRAME_DEPTH + 1]; /* [0]: the roots */
    uint32_t types;        /* component types in all */
    uint32_t commons;      /* common extras: types FRAME_CORE_TYPES .. + commons */
    uint32_t rares;        /* rare extras: the types after the commons */
    uint32_t rare_systems; /* the first of them, each updated by a system */
    uint32_t floats;       /* the transform's floats (its bytes / 4) */
    uint64_t fired;   /* bullets fired (and expiring) per frame */
    uint64_t deaths;  /* roots killed per frame (their descendants die with them) */
    uint64_t flips;   /* actors gaining or losing status per frame */
    uint64_t freezes; /* actors frozen per frame (and thawed FRAME_FROZEN_FRAMES later) */
} frame_world_shape;

static inline frame_world_shape frame_shape(uint64_t n, const ecsb_params *p)
{
    frame_world_shape s = {.n = n};
    uint64_t half = (uint64_t)((double)n * p->v[FRAME_CHURN] / 2);
    s.fired = half;
    s.actors = n - FRAME_BULLET_LIFE * half;
    uint64_t children = (uint64_t)((double)s.actors * p->v[FRAME_PARENTED]);
    if (s.actors && children >= s.actors)
        children = s.actors - 1; /* one root at least */
    s.roots = s.actors - children;
    s.level_count[0] = s.roots;
    s.level_count[1] = children - 2 * (children / 3);
    s.level_count[2] = s.level_count[3] = children / 3;
    for (uint32_t l = 1; l <= FRAME_DEPTH; l++)
        s.level_start[l] = s.level_start[l - 1] + s.level_count[l - 1];
    /* roots die in turn, each with its subtree: half the churn's actors a frame on average */
    s.deaths = half && s.roots ? half * s.roots / s.actors : 0;
    s.deaths = half && s.roots && s.deaths == 0 ? 1 : s.deaths;
    s.flips = n / 64 < s.actors ? n / 64 : s.actors;
    s.freezes = (n + FRAME_FREEZE_IN - 1) / FRAME_FREEZE_IN;
    s.freezes = s.freezes < s.actors ? s.freezes : s.actors;
    s.types = (uint32_t)p->v[FRAME_TYPES_PARAM];
    uint32_t extras = s.types - FRAME_CORE_TYPES;
    s.commons = extras < FRAME_COMMONS ? extras : FRAME_COMMONS;
    s.rares = extras - s.commons;
    s.rare_systems = s.rares < FRAME_RARE_SYSTEMS ? s.rares : FRAME_RARE_SYSTEMS;
    s.floats = (uint32_t)p->v[FRAME_TRANSFORM_PARAM] / 4;
    return s;
}

/* Frames until every slot has turned over once: roots die `deaths` a frame in turn, each
 * with its descendants, bullets live FRAME_BULLET_LIFE frames (plus FRAME_BULLET_LIFE frames
 * of slack); 1 where nothing turns over (churn * n / 2 rounds to 0: the first frame is
 * already the steady one). frame's warm-up (scenarios/scenarios.c) and the frames its aged
 * world lives (scenarios/frame.h). */
static inline uint64_t frame_turnover_frames(const frame_world_shape *s)
{
    return s->deaths ? (s->roots + s->deaths - 1) / s->deaths + FRAME_BULLET_LIFE : 1;
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
/* The j-th root due to die in `frame` (in turn, from the middle of the roots). */
static inline uint64_t frame_death_slot(const frame_world_shape *sh, uint64_t frame, uint64_t j)
{
    return (frame * sh->deaths + j + sh->roots / 2) % sh->roots;
}
/* The j-th actor frozen in `frame` (in turn, from a quarter of the actors); thawed
 * FRAME_FROZEN_FRAMES frames later. */
static inline uint64_t frame_freeze_slot(const frame_world_shape *sh, uint64_t frame, uint64_t j)
{
    return (frame * sh->freezes + j + sh->actors / 4) % sh->actors;
}
/* Whether a slot is hidden (not rendered: a stealthed actor, an invisible trigger). */
static inline bool frame_hidden(uint64_t slot) { return frame_hash(slot + 0x68696465) % FRAME_HIDDEN_IN == 0; }
/* A slot's depth: 0 for roots and bullets, 1 .. FRAME_DEPTH for children. */
static inline uint32_t frame_depth(const frame_world_shape *sh, uint64_t slot)
{
    uint32_t l = 0;
    while (l < FRAME_DEPTH && slot < sh->actors && slot >= sh->level_start[l + 1])
        l++;
    return l;
}
/* The parent of a child (depth >= 1): a slot of the level above, spread by a hash (some
 * parents have several children, some none). */
static inline uint64_t frame_parent_slot(const frame_world_shape *sh, uint64_t slot, uint32_t depth)
{
    return sh->level_start[depth - 1] + frame_hash(slot * 0x3d + 0x70617265) % sh->level_count[depth - 1];
}
static inline uint32_t frame_depth_tag(uint32_t depth) { return FRAME_DEPTH1 + depth - 1; }

/* The children of every actor (a function of slots, built once): the bookkeeping an engine's
 * hierarchy keeps (flecs's ChildOf tables, Bevy's Children), so that a death reaches the
 * subtree. Children of slot p: child[first[p] .. first[p + 1]), ascending. */
typedef struct frame_tree {
    uint32_t *first; /* actors + 1 */
    uint32_t *child; /* actors - roots */
} frame_tree;

static inline void frame_tree_free(frame_tree *t)
{
    ecsb_array_free(t->first);
    ecsb_array_free(t->child);
    t->first = t->child = NULL;
}

static inline bool frame_tree_build(frame_tree *t, const frame_world_shape *sh)
{
    t->first = ecsb_array_zalloc(sh->actors + 1, sizeof *t->first);
    t->child = ecsb_array_alloc(sh->actors - sh->roots, sizeof *t->child);
    if (!t->first || !t->child) {
        frame_tree_free(t);
        return false;
    }
    for (uint64_t c = sh->roots; c < sh->actors; c++)
        t->first[frame_parent_slot(sh, c, frame_depth(sh, c)) + 1]++;
    for (uint64_t p = 0; p < sh->actors; p++)
        t->first[p + 1] += t->first[p];
    for (uint64_t c = sh->roots; c < sh->actors; c++) { /* first[p] counts up, then shifts back */
        uint64_t p = frame_parent_slot(sh, c, frame_depth(sh, c));
        t->child[t->first[p]++] = (uint32_t)c;
    }
    for (uint64_t p = sh->actors; p > 0; p--)
        t->first[p] = t->first[p - 1];
    t->first[0] = 0;
    return true;
}

/*
 * The actors dying in `frame`: the roots due (frame_death_slot) that the last queries found
 * dead (dead[slot] set), then their descendants, breadth first (so parents before children:
 * births go in this order and a child is born after its parent). A due root not found dead
 * counts in *missed and keeps its subtree. Marks every descendant dead; returns the count
 * written to kill (at most actors).
 */
static inline uint64_t frame_kill_list(const frame_world_shape *sh, const frame_tree *t,
                                       uint64_t frame, uint8_t *dead, uint32_t *kill,
                                       uint64_t *missed)
{
    uint64_t kills = 0;
    for (uint64_t j = 0; j < sh->deaths; j++) {
        uint64_t slot = frame_death_slot(sh, frame, j);
        if (!dead[slot])
            ++*missed;
        else
            kill[kills++] = (uint32_t)slot;
    }
    for (uint64_t k = 0; k < kills; k++)
        for (uint32_t c = t->first[kill[k]]; c < t->first[kill[k] + 1]; c++) {
            dead[t->child[c]] = 1;
            kill[kills++] = t->child[c];
        }
    return kills;
}
static inline uint64_t frame_bullet_slot(const frame_world_shape *sh, uint64_t frame, uint64_t j)
{
    return sh->actors + (frame % FRAME_BULLET_LIFE) * sh->fired + j;
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
/* The k-th birth of a frame (k < kills + fired): a bullet or an actor, the j-th of its kind
 * (an actor: the j-th of the kill list). Every death and expiry of the frame is destroyed
 * first, then the newborns alternate actor, bullet, actor... so the ids the dead freed go to
 * whatever is born next: a bullet's id comes back as an actor and an actor's as a bullet in
 * any layout that reuses ids. */
static inline bool frame_birth(const frame_world_shape *sh, uint64_t kills, uint64_t k, uint64_t *j)
{
    uint64_t both = kills < sh->fired ? kills : sh->fired;
    if (k < 2 * both) {
        *j = k / 2;
        return k % 2 == 1;
    }
    *j = k - both;
    return kills < sh->fired;
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
/* A transform's starting floats (1/256 .. 16, hashed from slot, birth and index): the cold
 * ones after the matrix keep them; the matrix is written by the propagation of the frame the
 * entity is born in. */
static inline void frame_transform0(float *m, uint32_t floats, uint64_t slot, uint64_t birth)
{
    for (uint32_t i = 0; i < floats; i++)
        m[i] = (float)(frame_hash(slot * 0x101 + birth * 0x3b + i) % 4096 + 1) / 256;
}
/* A local transform at birth: rotation and scale (k in [0.5, 1.5)), layer z. */
static inline frame_local frame_local0(uint64_t slot, uint64_t birth)
{
    uint32_t h = frame_hash(slot * 0x4c + birth * 0x1f + 0x6c6f63);
    return (frame_local){(float)(h % 4096) / 2048 - 1, (float)(h >> 20) / 2048 - 1,
                         (float)(frame_hash(birth + 0x6b) % 4096) / 4096 + 0.5f,
                         (float)(frame_hash(slot + 0x7a) % 256) / 16};
}
/*
 * The propagation: an entity's world matrix (row-major 4x4, the transform's first
 * FRAME_MATRIX floats) from its local transform and its parent's world matrix (NULL for a
 * root: world = local). The local matrix is affine: rows (ck, -sk, 0, x), (sk, ck, 0, y),
 * (0, 0, k, z), (0, 0, 0, 1) with ck = c * k, sk = s * k and (x, y) = pos, so the product
 * parent x local skips its zeros, as engines' affine products do (Bevy's Affine3A, Unity's
 * float4x4 TRS): 36 multiplications per child. Each row in a fixed order of operations, so
 * every layout gets the same bits.
 */
static inline void frame_world(float *restrict world, const float *parent, const frame_local *l,
                               const frame_vec2 *pos)
{
    const float ck = l->c * l->k, sk = l->s * l->k, nsk = -sk;
    if (!parent) {
        world[0] = ck, world[1] = nsk, world[2] = 0, world[3] = pos->x;
        world[4] = sk, world[5] = ck, world[6] = 0, world[7] = pos->y;
        world[8] = 0, world[9] = 0, world[10] = l->k, world[11] = l->z;
        world[12] = 0, world[13] = 0, world[14] = 0, world[15] = 1;
        return;
    }
    for (uint32_t r = 0; r < 4; r++) {
        const float p0 = parent[4 * r], p1 = parent[4 * r + 1], p2 = parent[4 * r + 2],
                    p3 = parent[4 * r + 3];
        const float a0 = p0 * ck, b0 = p1 * sk, a1 = p0 * nsk, b1 = p1 * ck;
        const float tx = p0 * pos->x, ty = p1 * pos->y, tz = p2 * l->z;
        const float txy = tx + ty, tz3 = tz + p3;
        world[4 * r] = a0 + b0;
        world[4 * r + 1] = a1 + b1;
        world[4 * r + 2] = p2 * l->k;
        world[4 * r + 3] = txy + tz3;
    }
}
/* What rendering an entity adds: its world position (the matrix's translation) times its
 * diagonal and the transform's last float, so a lost or doubled draw, a wrong field or two
 * entities' values mixed up show (the product is not a sum of per-component terms). */
static inline uint64_t frame_render(const float *m, uint32_t floats)
{
    uint64_t a = ecsb_float_bits(m[3]) + 3 * ecsb_float_bits(m[7]);
    uint64_t b = ecsb_float_bits(m[0]) + 5 * ecsb_float_bits(m[5]) + 7 * ecsb_float_bits(m[10]) +
                 11 * ecsb_float_bits(m[floats - 1]);
    return a * (2 * b + 1);
}
/* What a death or an expiry in `slot` adds where it happens: its pos and vel bits (0 for an
 * absent one) and the tags it holds (bit t - FRAME_FROZEN for tag t: a frozen or hidden one
 * leaves another mark), weighted by the slot (so two entities' values mixed up show, and a
 * velocity spoiled or a tag lost in the frame that the entity dies in still shows). */
static inline uint64_t frame_impact(uint64_t slot, const frame_vec2 *pos, const frame_vec2 *vel,
                                    uint32_t tags)
{
    uint64_t bits = pos ? ecsb_float_bits(pos->x) * 3 + ecsb_float_bits(pos->y) : 0;
    if (vel)
        bits += ecsb_float_bits(vel->x) * 5 + ecsb_float_bits(vel->y) * 7;
    bits += (uint64_t)tags << 40;
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
    if (frame_is_tag(t)) /* held: no value to read */
        return ecsb_mix(h, 1);
    switch (t) {
    case FRAME_LOCAL: {
        const frame_local *l = v;
        h = ecsb_mix(ecsb_mix(h, ecsb_float_bits(l->c)), ecsb_float_bits(l->s));
        return ecsb_mix(ecsb_mix(h, ecsb_float_bits(l->k)), ecsb_float_bits(l->z));
    }
    case FRAME_TRANSFORM:
        for (uint32_t i = 0; i < sh->floats; i++)
            h = ecsb_mix(h, ecsb_float_bits(((const float *)v)[i]));
        return h;
    case FRAME_POS:
    case FRAME_VEL:
        return ecsb_mix(ecsb_mix(h, ecsb_float_bits(((const frame_vec2 *)v)->x)),
                        ecsb_float_bits(((const frame_vec2 *)v)->y));
    case FRAME_TARGET: /* its slot and generation, not the handle (handles differ by strategy) */
    case FRAME_PARENT:
        return ecsb_mix(ecsb_mix(h, ((const frame_target *)v)->slot), ((const frame_target *)v)->gen);
    default: /* hp, status (int32), life, slot, the extras (u32) */
        return ecsb_mix(h, *(const uint32_t *)v);
    }
}

#endif
