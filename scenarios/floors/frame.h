/*
 * frame's floor: the same frame on plain arrays, each entity's values at its slot, in every
 * world: the order a perfect layout would keep (each system's entities contiguous and in
 * the order it visits them), whatever order the world's set-up created the entities in or
 * play reordered them to. So the floor's time is the frame's work, the same in the regular,
 * shuffled and aged worlds, and "x floor" means the same in each (docs/measuring.md says why
 * this is the reference). pos, vel, local, slot and the world transform (`floats` per slot)
 * for every entity; hp, target, status (with a flag) and a frozen flag for actors; the parent
 * for children; life for bullets; a hidden flag and the common extra's value for everyone;
 * each rare type as its holders' slots (ascending) and values. Systems walk the slots that
 * can match in order (the rare systems their holder lists), skipping frozen and hidden ones
 * by their flags; the transforms walk the roots, then each depth's block of slots: slot order
 * is depth order (scenarios/defs/frame.h), so a parent's matrix is always written before its
 * child reads it. Deaths and expiries replace in place, in the body's order (frame_kill_list,
 * frame_birth). The values are functions of slots and births, the same in every world, so the
 * floor needs no world order at all.
 */
#include "scenarios/defs/frame.h"
typedef struct floor_frame {
    frame_world_shape shape;
    frame_tree tree;
    frame_vec2 *pos, *vel;
    frame_local *local;
    int32_t *hp, *status;
    uint8_t *has_status, *dead, *frozen, *hidden;
    frame_target *target, *parent;
    uint32_t *life, *gen;   /* gen: per slot */
    uint32_t *kill;         /* the actors dying this frame */
    float *transform;       /* floats per position */
    uint32_t *common;       /* the common extra's value per position */
    uint32_t *rare_slot[ECSB_MAX_TYPES], *rare_value[ECSB_MAX_TYPES]; /* per rare type */
    uint64_t rare_count[ECSB_MAX_TYPES];
    uint64_t frame, births;
    uint64_t visits, retargets, missed, weighted, impacts, rendered;
} floor_frame;

static void floor_frame_release(void *state)
{
    floor_frame *s = state;
    if (s) {
        frame_tree_free(&s->tree);
        ecsb_array_free(s->pos);
        ecsb_array_free(s->vel);
        ecsb_array_free(s->local);
        ecsb_array_free(s->hp);
        ecsb_array_free(s->status);
        ecsb_array_free(s->has_status);
        ecsb_array_free(s->dead);
        ecsb_array_free(s->frozen);
        ecsb_array_free(s->hidden);
        ecsb_array_free(s->target);
        ecsb_array_free(s->parent);
        ecsb_array_free(s->life);
        ecsb_array_free(s->gen);
        ecsb_array_free(s->kill);
        ecsb_array_free(s->transform);
        ecsb_array_free(s->common);
        for (uint32_t r = 0; r < ECSB_MAX_TYPES; r++) {
            ecsb_array_free(s->rare_slot[r]);
            ecsb_array_free(s->rare_value[r]);
        }
    }
    ecsb_array_free(s);
}

/* The index of `slot` among rare type r's holders (which it must be one of). */
static uint64_t floor_frame_rare_index(const floor_frame *s, uint32_t r, uint64_t slot)
{
    uint64_t lo = 0, hi = s->rare_count[r];
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (s->rare_slot[r][mid] <= slot)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static void floor_frame_spawn(floor_frame *s, uint64_t slot, bool in_frame)
{
    const frame_world_shape *sh = &s->shape;
    const uint64_t birth = s->births++, p = slot;
    s->gen[slot]++;
    s->pos[p] = frame_pos0(slot, birth);
    s->vel[p] = frame_vel0(slot, birth);
    s->local[p] = frame_local0(slot, birth);
    frame_transform0(&s->transform[p * sh->floats], sh->floats, slot, birth);
    if (sh->commons)
        s->common[p] = frame_extra0(frame_common_type(sh, slot), slot, birth);
    for (uint32_t r = 0; r < sh->rares; r++)
        if (frame_holds_rare(slot, r))
            s->rare_value[r][floor_frame_rare_index(s, r, slot)] =
                frame_extra0(frame_rare_type(sh, r), slot, birth);
    if (slot >= sh->actors) {
        s->life[p] = frame_life0(sh, slot, in_frame);
        return;
    }
    s->hp[p] = frame_hp0(slot);
    s->has_status[p] = frame_born_burning(slot);
    s->status[p] = 1;
    s->frozen[p] = 0;
    if (frame_has_target(slot)) {
        uint64_t t = frame_target_slot(slot);
        s->target[p] = (frame_target){0, (uint32_t)t, s->gen[t]};
    }
    uint32_t depth = frame_depth(sh, slot);
    if (depth) {
        uint64_t q = frame_parent_slot(sh, slot, depth);
        s->parent[p] = (frame_target){0, (uint32_t)q, s->gen[q]};
    }
}

static ecsb_status floor_frame_pass(void *state);

static ecsb_status floor_frame_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    floor_frame *s = *out = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    s->shape = frame_shape(n, p);
    const uint64_t actors = s->shape.actors;
    s->pos = ecsb_array_alloc(n, sizeof *s->pos);
    s->vel = ecsb_array_alloc(n, sizeof *s->vel);
    s->local = ecsb_array_alloc(n, sizeof *s->local);
    s->hp = ecsb_array_alloc(actors, sizeof *s->hp);
    s->status = ecsb_array_alloc(actors, sizeof *s->status);
    s->has_status = ecsb_array_zalloc(actors, 1);
    s->dead = ecsb_array_zalloc(n, 1);
    s->frozen = ecsb_array_zalloc(actors, 1);
    s->hidden = ecsb_array_alloc(n, 1);
    s->target = ecsb_array_alloc(actors, sizeof *s->target);
    s->parent = ecsb_array_alloc(actors, sizeof *s->parent);
    s->life = ecsb_array_alloc(n, sizeof *s->life);
    s->gen = ecsb_array_zalloc(n, sizeof *s->gen);
    s->kill = ecsb_array_alloc(actors, sizeof *s->kill);
    s->transform = ecsb_array_alloc(n * s->shape.floats, sizeof *s->transform);
    s->common = ecsb_array_alloc(n, sizeof *s->common);
    bool rares_ok = true;
    for (uint32_t r = 0; r < s->shape.rares; r++) { /* the holders, counted, then listed */
        for (uint64_t slot = 0; slot < n; slot++)
            s->rare_count[r] += frame_holds_rare(slot, r);
        s->rare_slot[r] = ecsb_array_alloc(s->rare_count[r], sizeof *s->rare_slot[r]);
        s->rare_value[r] = ecsb_array_alloc(s->rare_count[r], sizeof *s->rare_value[r]);
        rares_ok = rares_ok && s->rare_slot[r] && s->rare_value[r];
        for (uint64_t slot = 0, k = 0; rares_ok && slot < n; slot++)
            if (frame_holds_rare(slot, r))
                s->rare_slot[r][k++] = (uint32_t)slot;
    }
    if (!s->pos || !s->vel || !s->local || !s->hp || !s->status || !s->has_status || !s->dead ||
        !s->frozen || !s->hidden || !s->target || !s->parent || !s->life || !s->gen || !s->kill ||
        !s->transform || !s->common || !rares_ok || !frame_tree_build(&s->tree, &s->shape)) {
        floor_frame_release(s);
        *out = NULL;
        return ECSB_ERR_NOMEM;
    }
    for (uint64_t slot = 0; slot < n; slot++) {
        s->hidden[slot] = frame_hidden(slot);
        floor_frame_spawn(s, slot, false);
    }
    if (p->v[ECSB_PARAM_ORDER] == ECSB_ORDER_AGED) /* lived in by frames, as the body's */
        for (uint64_t f = 0; f < frame_turnover_frames(&s->shape); f++)
            floor_frame_pass(s);
    return ECSB_OK;
}

static void floor_frame_memory(void *state, uint64_t *bytes, uint64_t *entities)
{
    floor_frame *s = state;
    uint64_t n = s->shape.n, actors = s->shape.actors, children = actors - s->shape.roots;
    *bytes = sizeof *s + n * (2 * sizeof(frame_vec2) + sizeof(uint32_t)) /* pos, vel, slot */
             + n * (sizeof(frame_local) + 1)                            /* local, hidden */
             + actors * (2 * sizeof(int32_t) + 2 + sizeof(frame_target) / 4) /* hp, status, frozen */
             + children * sizeof(frame_target)                          /* parent */
             + (n - actors) * sizeof(uint32_t)                          /* life */
             + n * (s->shape.floats * sizeof(float) + sizeof(uint32_t)); /* transform, common */
    for (uint32_t r = 0; r < s->shape.rares; r++)
        *bytes += s->rare_count[r] * 2 * sizeof(uint32_t);
    *entities = n;
}

/* The tags of the entity in slot i, as frame_impact takes them. */
static uint32_t floor_frame_tags(const floor_frame *s, uint64_t i)
{
    uint32_t depth = frame_depth(&s->shape, i);
    uint32_t tags = (uint32_t)(i < s->shape.actors && s->frozen[i]) << (FRAME_FROZEN - FRAME_FROZEN);
    tags |= (uint32_t)s->hidden[i] << (FRAME_HIDDEN - FRAME_FROZEN);
    return depth ? tags | 1u << (frame_depth_tag(depth) - FRAME_FROZEN) : tags;
}

/* The dying actors (frame_kill_list) and expiring bullets of this frame, found dead: their
 * impacts, then the newborns in the body's order (frame_birth), in place. */
static void floor_frame_replace(floor_frame *s)
{
    const frame_world_shape *sh = &s->shape;
    const uint64_t kills = frame_kill_list(sh, &s->tree, s->frame, s->dead, s->kill, &s->missed);
    for (uint64_t k = 0; k < kills; k++) {
        uint64_t i = s->kill[k];
        s->impacts += frame_impact(i, &s->pos[i], &s->vel[i], floor_frame_tags(s, i));
    }
    for (uint64_t j = 0; j < sh->fired; j++) {
        uint64_t i = frame_bullet_slot(sh, s->frame, j);
        if (!s->dead[i])
            s->missed++;
        else
            s->impacts += frame_impact(i, &s->pos[i], &s->vel[i], floor_frame_tags(s, i));
    }
    for (uint64_t k = 0, j; k < kills + sh->fired; k++) {
        bool bullet = frame_birth(sh, kills, k, &j);
        uint64_t i = bullet ? frame_bullet_slot(sh, s->frame, j) : s->kill[j];
        if (!s->dead[i])
            continue;
        s->dead[i] = 0;
        floor_frame_spawn(s, i, true);
    }
}

static ecsb_status floor_frame_pass(void *state)
{
    floor_frame *s = state;
    const frame_world_shape *sh = &s->shape;
    const uint64_t n = sh->n, actors = sh->actors, f = s->frame;
    uint64_t visits = 0;
    for (uint64_t i = 0; i < actors; i++) { /* movement: actors not frozen ... */
        frame_vec2 moved = s->pos[i];
        frame_move(&moved, &s->vel[i]);
        s->pos[i] = s->frozen[i] ? s->pos[i] : moved;
        visits += !s->frozen[i];
    }
    for (uint64_t i = actors; i < n; i++) /* ... and every bullet */
        frame_move(&s->pos[i], &s->vel[i]);
    visits += n - actors;
    for (uint64_t i = 4; i < actors; i += 4) { /* AI: the actors with a target, not frozen */
        frame_target *t = &s->target[i];
        if (s->frozen[i])
            continue;
        if (t->gen != s->gen[t->slot]) {
            t->gen = s->gen[t->slot];
            s->retargets++;
        }
        frame_steer(&s->vel[i], &s->pos[i], &s->pos[t->slot]);
        visits++;
    }
    for (uint32_t r = 0; r < sh->rare_systems; r++) /* the rare systems */
        for (uint64_t k = 0; k < s->rare_count[r]; k++, visits++)
            s->rare_value[r][k] = frame_rare_step(s->rare_value[r][k], &s->pos[s->rare_slot[r][k]]);
    for (uint64_t j = 0; f >= FRAME_FROZEN_FRAMES && j < sh->freezes; j++) /* status */
        s->frozen[frame_freeze_slot(sh, f - FRAME_FROZEN_FRAMES, j)] = 0;
    for (uint64_t j = 0; j < sh->freezes; j++)
        s->frozen[frame_freeze_slot(sh, f, j)] = 1;
    for (uint64_t j = 0; j < sh->flips; j++) {
        uint64_t p = frame_flip_slot(sh, f, j);
        s->has_status[p] ^= 1;
        s->status[p] = 1;
    }
    for (uint64_t j = 0; j < sh->deaths; j++) {
        uint64_t i = frame_death_slot(sh, f, j);
        s->status[i] = frame_lethal(i, s->hp[i]);
        s->has_status[i] = 1;
    }
    for (uint64_t i = 0; i < actors; i++) /* damage */
        if (s->has_status[i]) {
            s->hp[i] -= s->status[i];
            s->weighted += (i + 1) * (uint32_t)s->hp[i];
            s->dead[i] |= s->hp[i] <= 0;
            visits++;
        }
    for (uint64_t i = actors; i < n; i++) { /* bullets */
        s->life[i] -= FRAME_LIFE_UNIT;
        s->weighted += (i + 1) * s->life[i];
        s->dead[i] |= s->life[i] < FRAME_LIFE_UNIT;
    }
    visits += n - actors;
    floor_frame_replace(s);
    const uint32_t floats = sh->floats; /* transforms: roots, then each depth in slot order */
    for (uint64_t i = 0; i < sh->roots; i++)
        frame_world(&s->transform[i * floats], NULL, &s->local[i], &s->pos[i]);
    for (uint64_t i = sh->roots; i < actors; i++)
        frame_world(&s->transform[i * floats], &s->transform[s->parent[i].slot * floats],
                    &s->local[i], &s->pos[i]);
    for (uint64_t i = actors; i < n; i++)
        frame_world(&s->transform[i * floats], NULL, &s->local[i], &s->pos[i]);
    visits += n;
    uint64_t rendered = 0, drawn = 0; /* render: every entity not hidden */
    for (uint64_t p = 0; p < n; p++) {
        uint64_t r = frame_render(&s->transform[p * floats], floats);
        rendered += s->hidden[p] ? 0 : r;
        drawn += !s->hidden[p];
    }
    s->rendered += rendered;
    visits += drawn;
    s->visits += visits;
    s->frame++;
    return ECSB_OK;
}

static uint64_t floor_frame_checksum(void *state)
{
    floor_frame *s = state;
    const frame_world_shape *sh = &s->shape;
    static const uint8_t held = 1;                 /* a tag's "value": present */
    uint64_t h = ECSB_CHECKSUM_SEED, next[ECSB_MAX_TYPES] = {0}; /* per rare type: its next holder */
    for (uint64_t i = 0; i < sh->n; i++) {
        bool actor = i < sh->actors;
        uint32_t slot = (uint32_t)i + 1, depth = frame_depth(sh, i);
        const uint64_t p = i;
        h = ecsb_mix(h, s->gen[i]);
        h = frame_mix_value(sh, h, FRAME_POS, &s->pos[p]);
        h = frame_mix_value(sh, h, FRAME_VEL, &s->vel[p]);
        h = frame_mix_value(sh, h, FRAME_HP, actor ? &s->hp[p] : NULL);
        h = frame_mix_value(sh, h, FRAME_TARGET, actor && frame_has_target(i) ? &s->target[p] : NULL);
        h = frame_mix_value(sh, h, FRAME_STATUS, actor && s->has_status[p] ? &s->status[p] : NULL);
        h = frame_mix_value(sh, h, FRAME_LIFE, actor ? NULL : &s->life[p]);
        h = frame_mix_value(sh, h, FRAME_SLOT, &slot);
        h = frame_mix_value(sh, h, FRAME_TRANSFORM, &s->transform[p * sh->floats]);
        h = frame_mix_value(sh, h, FRAME_LOCAL, &s->local[p]);
        h = frame_mix_value(sh, h, FRAME_PARENT, depth ? &s->parent[p] : NULL);
        h = frame_mix_value(sh, h, FRAME_FROZEN, actor && s->frozen[p] ? &held : NULL);
        h = frame_mix_value(sh, h, FRAME_HIDDEN, s->hidden[p] ? &held : NULL);
        for (uint32_t d = 1; d <= FRAME_DEPTH; d++)
            h = frame_mix_value(sh, h, frame_depth_tag(d), depth == d ? &held : NULL);
        for (uint32_t t = FRAME_CORE_TYPES; t < FRAME_CORE_TYPES + sh->commons; t++)
            h = frame_mix_value(sh, h, t, t == frame_common_type(sh, i) ? &s->common[p] : NULL);
        for (uint32_t r = 0; r < sh->rares; r++) {
            bool held_r = next[r] < s->rare_count[r] && s->rare_slot[r][next[r]] == i;
            h = frame_mix_value(sh, h, frame_rare_type(sh, r), held_r ? &s->rare_value[r][next[r]++] : NULL);
        }
    }
    h = ecsb_mix(ecsb_mix(h, s->visits), s->retargets);
    h = ecsb_mix(ecsb_mix(h, 0), s->missed); /* lost lookups: none, the slot is the id */
    h = ecsb_mix(ecsb_mix(h, s->weighted), s->impacts);
    h = ecsb_mix(h, s->rendered);
    return ecsb_mix(h, sh->n);
}
