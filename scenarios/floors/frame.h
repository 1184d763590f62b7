/*
 * frame's floor: the same frame on plain arrays, each entity's values at its position in the
 * order the set-up created the entities (as a layout that appends keeps them): slot order in
 * a regular world, the drawn order in a shuffled one, the order of last birth in an aged one,
 * so "x floor" compares storage with storage in every world. at[slot] is a slot's position
 * (a target's position is two indexed loads, with no handle to resolve), slot_of[] the
 * reverse; both NULL in a regular world, where position = slot. pos, vel and slot for every
 * entity; hp, target and status (with a flag) for actors; life for bullets. Systems walk the
 * positions in order (in a regular world only the slots that can match); deaths and expiries
 * replace in place.
 */
#include "scenarios/defs/frame.h"
typedef struct floor_frame {
    frame_world_shape shape;
    frame_vec2 *pos, *vel;
    int32_t *hp, *status;
    uint8_t *has_status, *dead;
    frame_target *target;
    uint32_t *life, *gen;   /* gen: per slot */
    uint32_t *at, *slot_of; /* slot -> position, position -> slot; NULL: the same */
    uint64_t frame, births;
    uint64_t visits, retargets, missed, weighted, impacts;
} floor_frame;

static void floor_frame_release(void *state)
{
    floor_frame *s = state;
    if (s) {
        ecsb_array_free(s->pos);
        ecsb_array_free(s->vel);
        ecsb_array_free(s->hp);
        ecsb_array_free(s->status);
        free(s->has_status);
        free(s->dead);
        ecsb_array_free(s->target);
        ecsb_array_free(s->life);
        free(s->gen);
        ecsb_array_free(s->at);
        ecsb_array_free(s->slot_of);
    }
    ecsb_array_free(s);
}

/* The position of a slot's values. */
static inline uint64_t floor_frame_at(const floor_frame *s, uint64_t slot)
{
    return s->at ? s->at[slot] : slot;
}

static void floor_frame_spawn(floor_frame *s, uint64_t slot, bool in_frame)
{
    const frame_world_shape *sh = &s->shape;
    const uint64_t birth = s->births++, p = floor_frame_at(s, slot);
    s->gen[slot]++;
    s->pos[p] = frame_pos0(slot, birth);
    s->vel[p] = frame_vel0(slot, birth);
    if (slot >= sh->actors) {
        s->life[p] = frame_life0(sh, slot, in_frame);
        return;
    }
    s->hp[p] = frame_hp0(slot);
    s->has_status[p] = frame_born_burning(slot);
    s->status[p] = 1;
    if (frame_has_target(slot)) {
        uint64_t t = frame_target_slot(slot);
        s->target[p] = (frame_target){0, (uint32_t)t, s->gen[t]};
    }
}

static ecsb_status floor_frame_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    floor_frame *s = *out = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    s->shape = frame_shape(n, p);
    s->pos = ecsb_array_alloc(n, sizeof *s->pos);
    s->vel = ecsb_array_alloc(n, sizeof *s->vel);
    s->hp = ecsb_array_alloc(n, sizeof *s->hp);
    s->status = ecsb_array_alloc(n, sizeof *s->status);
    s->has_status = calloc(n ? n : 1, 1);
    s->dead = calloc(n ? n : 1, 1);
    s->target = ecsb_array_alloc(n, sizeof *s->target);
    s->life = ecsb_array_alloc(n, sizeof *s->life);
    s->gen = calloc(n ? n : 1, sizeof *s->gen);
    if (!s->pos || !s->vel || !s->hp || !s->status || !s->has_status || !s->dead || !s->target ||
        !s->life || !s->gen) {
        floor_frame_release(s);
        *out = NULL;
        return ECSB_ERR_NOMEM;
    }
    ecsb_world_order order;
    bool ok = ecsb_world_order_make(&order, n, p, FRAME_SALT);
    if (ok && !ecsb_world_order_serial(&order)) {
        s->at = ecsb_array_alloc(n, sizeof *s->at);
        s->slot_of = ecsb_array_alloc(n, sizeof *s->slot_of);
        ok = s->at && s->slot_of;
        for (uint64_t k = 0; ok && k < n; k++) {
            s->slot_of[k] = (uint32_t)ecsb_born_at(&order, k);
            s->at[s->slot_of[k]] = (uint32_t)k;
        }
    }
    ecsb_world_order_free(&order);
    if (!ok) {
        floor_frame_release(s);
        *out = NULL;
        return ECSB_ERR_NOMEM;
    }
    for (uint64_t slot = 0; slot < n; slot++)
        floor_frame_spawn(s, slot, false);
    return ECSB_OK;
}

static void floor_frame_memory(void *state, uint64_t *bytes, uint64_t *entities)
{
    floor_frame *s = state;
    uint64_t n = s->shape.n, actors = s->shape.actors;
    *bytes = sizeof *s + n * (2 * sizeof(frame_vec2) + sizeof(uint32_t)) /* pos, vel, slot */
             + actors * (2 * sizeof(int32_t) + 1 + sizeof(frame_target) / 4) /* hp, status */
             + (n - actors) * sizeof(uint32_t);                              /* life */
    *entities = n;
}

/* The dying actors (or expiring bullets) of this frame, found dead: respawned in place. */
static void floor_frame_replace(floor_frame *s, bool bullets)
{
    const frame_world_shape *sh = &s->shape;
    for (uint64_t j = 0; j < frame_replaced(sh, bullets); j++) {
        uint64_t i = frame_replaced_slot(sh, bullets, s->frame, j);
        if (!s->dead[i]) {
            s->missed++;
            continue;
        }
        s->dead[i] = 0;
        const uint64_t p = floor_frame_at(s, i);
        s->impacts += frame_impact(i, &s->pos[p], &s->vel[p]);
        floor_frame_spawn(s, i, true);
    }
}

/* The systems that walk the world (AI, damage, bullets) in a world whose positions are not the
 * slots: every position in order, each entity's kind read from its slot. */
static uint64_t floor_frame_walk_permuted(floor_frame *s, int system)
{
    const frame_world_shape *sh = &s->shape;
    const uint32_t *restrict slot_of = s->slot_of, *restrict at = s->at;
    uint64_t visits = 0;
    for (uint64_t p = 0; p < sh->n; p++) {
        const uint64_t i = slot_of[p];
        if (system == 0 && i < sh->actors && frame_has_target(i)) { /* AI */
            frame_target *t = &s->target[p];
            if (t->gen != s->gen[t->slot]) {
                t->gen = s->gen[t->slot];
                s->retargets++;
            }
            frame_steer(&s->vel[p], &s->pos[p], &s->pos[at[t->slot]]);
            visits++;
        } else if (system == 1 && i < sh->actors && s->has_status[p]) { /* damage */
            s->hp[p] -= s->status[p];
            s->weighted += (i + 1) * (uint32_t)s->hp[p];
            s->dead[i] |= s->hp[p] <= 0;
            visits++;
        } else if (system == 2 && i >= sh->actors) { /* bullets */
            s->life[p] -= FRAME_LIFE_UNIT;
            s->weighted += (i + 1) * s->life[p];
            s->dead[i] |= s->life[p] < FRAME_LIFE_UNIT;
            visits++;
        }
    }
    return visits;
}

static ecsb_status floor_frame_pass(void *state)
{
    floor_frame *s = state;
    const frame_world_shape *sh = &s->shape;
    const uint64_t n = sh->n, actors = sh->actors, f = s->frame;
    const bool permuted = s->at != NULL;
    uint64_t visits = n; /* movement visits every entity */
    for (uint64_t i = 0; i < n; i++)
        frame_move(&s->pos[i], &s->vel[i]);
    if (permuted)
        visits += floor_frame_walk_permuted(s, 0);
    for (uint64_t i = 4; !permuted && i < actors; i += 4) { /* AI: the actors with a target */
        frame_target *t = &s->target[i];
        if (t->gen != s->gen[t->slot]) {
            t->gen = s->gen[t->slot];
            s->retargets++;
        }
        frame_steer(&s->vel[i], &s->pos[i], &s->pos[t->slot]);
        visits++;
    }
    for (uint64_t j = 0; j < sh->flips; j++) { /* status */
        uint64_t p = floor_frame_at(s, frame_flip_slot(sh, f, j));
        s->has_status[p] ^= 1;
        s->status[p] = 1;
    }
    for (uint64_t j = 0; j < sh->deaths; j++) {
        uint64_t i = frame_death_slot(sh, f, j), p = floor_frame_at(s, i);
        s->status[p] = frame_lethal(i, s->hp[p]);
        s->has_status[p] = 1;
    }
    if (permuted)
        visits += floor_frame_walk_permuted(s, 1);
    for (uint64_t i = 0; !permuted && i < actors; i++) /* damage */
        if (s->has_status[i]) {
            s->hp[i] -= s->status[i];
            s->weighted += (i + 1) * (uint32_t)s->hp[i];
            s->dead[i] |= s->hp[i] <= 0;
            visits++;
        }
    floor_frame_replace(s, false);
    if (permuted)
        visits += floor_frame_walk_permuted(s, 2);
    for (uint64_t i = actors; !permuted && i < n; i++) { /* bullets */
        s->life[i] -= FRAME_LIFE_UNIT;
        s->weighted += (i + 1) * s->life[i];
        s->dead[i] |= s->life[i] < FRAME_LIFE_UNIT;
    }
    visits += permuted ? 0 : n - actors;
    floor_frame_replace(s, true);
    s->visits += visits;
    s->frame++;
    return ECSB_OK;
}

static uint64_t floor_frame_checksum(void *state)
{
    floor_frame *s = state;
    const frame_world_shape *sh = &s->shape;
    uint64_t h = ECSB_CHECKSUM_SEED;
    for (uint64_t i = 0; i < sh->n; i++) {
        bool actor = i < sh->actors;
        uint32_t slot = (uint32_t)i + 1;
        const uint64_t p = floor_frame_at(s, i);
        h = ecsb_mix(h, s->gen[i]);
        h = frame_mix_value(h, 0, &s->pos[p]);
        h = frame_mix_value(h, 1, &s->vel[p]);
        h = frame_mix_value(h, 2, actor ? &s->hp[p] : NULL);
        h = frame_mix_value(h, 3, actor && frame_has_target(i) ? &s->target[p] : NULL);
        h = frame_mix_value(h, 4, actor && s->has_status[p] ? &s->status[p] : NULL);
        h = frame_mix_value(h, 5, actor ? NULL : &s->life[p]);
        h = frame_mix_value(h, 6, &slot);
    }
    h = ecsb_mix(ecsb_mix(h, s->visits), s->retargets);
    h = ecsb_mix(ecsb_mix(h, 0), s->missed); /* lost lookups: none, the slot is the id */
    h = ecsb_mix(ecsb_mix(h, s->weighted), s->impacts);
    return ecsb_mix(h, sh->n);
}
