/*
 * frame's floor: the same frame on plain arrays, each entity's values at its slot, in every
 * world: the order a perfect layout would keep (each system's entities contiguous and in
 * the order it visits them), whatever order the world's set-up created the entities in or
 * play reordered them to. So the floor's time is the frame's work, the same in the regular,
 * shuffled and aged worlds, and "x floor" means the same in each (docs/measuring.md says why
 * this is the reference). pos, vel and slot for every entity; hp, target and status (with a
 * flag) for actors; life for bullets; the transform (`floats` per slot) and the common
 * extra's value for everyone; each rare type as its holders' slots (ascending) and values.
 * Systems walk the slots that can match in order (the rare systems their holder lists);
 * deaths and expiries replace in place, born in the body's order (frame_birth). The values
 * are functions of slots and births, the same in every world, so the floor needs no world
 * order at all.
 */
#include "scenarios/defs/frame.h"
typedef struct floor_frame {
    frame_world_shape shape;
    frame_vec2 *pos, *vel;
    int32_t *hp, *status;
    uint8_t *has_status, *dead;
    frame_target *target;
    uint32_t *life, *gen;   /* gen: per slot */
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
        ecsb_array_free(s->pos);
        ecsb_array_free(s->vel);
        ecsb_array_free(s->hp);
        ecsb_array_free(s->status);
        ecsb_array_free(s->has_status);
        ecsb_array_free(s->dead);
        ecsb_array_free(s->target);
        ecsb_array_free(s->life);
        ecsb_array_free(s->gen);
        ecsb_array_free(s->transform);
        ecsb_array_free(s->common);
        for (uint32_t r = 0; r < ECSB_MAX_TYPES; r++) {
            ecsb_array_free(s->rare_slot[r]);
            ecsb_array_free(s->rare_value[r]);
        }
    }
    ecsb_array_free(s);
}

/* The position of a slot's values: the slot, in every world. */
static inline uint64_t floor_frame_at(const floor_frame *s, uint64_t slot)
{
    (void)s;
    return slot;
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
    const uint64_t birth = s->births++, p = floor_frame_at(s, slot);
    s->gen[slot]++;
    s->pos[p] = frame_pos0(slot, birth);
    s->vel[p] = frame_vel0(slot, birth);
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
    if (frame_has_target(slot)) {
        uint64_t t = frame_target_slot(slot);
        s->target[p] = (frame_target){0, (uint32_t)t, s->gen[t]};
    }
}

static ecsb_status floor_frame_pass(void *state);

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
    s->has_status = ecsb_array_zalloc(n, 1);
    s->dead = ecsb_array_zalloc(n, 1);
    s->target = ecsb_array_alloc(n, sizeof *s->target);
    s->life = ecsb_array_alloc(n, sizeof *s->life);
    s->gen = ecsb_array_zalloc(n, sizeof *s->gen);
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
    if (!s->pos || !s->vel || !s->hp || !s->status || !s->has_status || !s->dead || !s->target ||
        !s->life || !s->gen || !s->transform || !s->common || !rares_ok) {
        floor_frame_release(s);
        *out = NULL;
        return ECSB_ERR_NOMEM;
    }
    for (uint64_t slot = 0; slot < n; slot++)
        floor_frame_spawn(s, slot, false);
    if (p->v[ECSB_PARAM_ORDER] == ECSB_ORDER_AGED) /* lived in by frames, as the body's */
        for (uint64_t f = 0; f < frame_turnover_frames(&s->shape); f++)
            floor_frame_pass(s);
    return ECSB_OK;
}

static void floor_frame_memory(void *state, uint64_t *bytes, uint64_t *entities)
{
    floor_frame *s = state;
    uint64_t n = s->shape.n, actors = s->shape.actors;
    *bytes = sizeof *s + n * (2 * sizeof(frame_vec2) + sizeof(uint32_t)) /* pos, vel, slot */
             + actors * (2 * sizeof(int32_t) + 1 + sizeof(frame_target) / 4) /* hp, status */
             + (n - actors) * sizeof(uint32_t)                               /* life */
             + n * (s->shape.floats * sizeof(float) + sizeof(uint32_t)); /* transform, common */
    for (uint32_t r = 0; r < s->shape.rares; r++)
        *bytes += s->rare_count[r] * 2 * sizeof(uint32_t);
    *entities = n;
}

/* The dying actors and expiring bullets of this frame, found dead: their impacts, then the
 * newborns in the body's order (frame_birth), in place. */
static void floor_frame_replace(floor_frame *s)
{
    const frame_world_shape *sh = &s->shape;
    for (int bullets = 0; bullets < 2; bullets++)
        for (uint64_t j = 0; j < frame_replaced(sh, bullets); j++) {
            uint64_t i = frame_replaced_slot(sh, bullets, s->frame, j);
            if (!s->dead[i]) {
                s->missed++;
                continue;
            }
            const uint64_t p = floor_frame_at(s, i);
            s->impacts += frame_impact(i, &s->pos[p], &s->vel[p]);
        }
    for (uint64_t k = 0, j; k < sh->deaths + sh->fired; k++) {
        bool bullet = frame_birth(sh, k, &j);
        uint64_t i = frame_replaced_slot(sh, bullet, s->frame, j);
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
    uint64_t visits = n; /* movement visits every entity */
    for (uint64_t i = 0; i < n; i++)
        frame_move(&s->pos[i], &s->vel[i]);
    for (uint64_t i = 4; i < actors; i += 4) { /* AI: the actors with a target */
        frame_target *t = &s->target[i];
        if (t->gen != s->gen[t->slot]) {
            t->gen = s->gen[t->slot];
            s->retargets++;
        }
        frame_steer(&s->vel[i], &s->pos[i], &s->pos[t->slot]);
        visits++;
    }
    for (uint32_t r = 0; r < sh->rare_systems; r++) /* the rare systems */
        for (uint64_t k = 0; k < s->rare_count[r]; k++, visits++)
            s->rare_value[r][k] =
                frame_rare_step(s->rare_value[r][k], &s->pos[floor_frame_at(s, s->rare_slot[r][k])]);
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
    uint64_t rendered = 0; /* render: every entity drawn */
    for (uint64_t p = 0; p < n; p++)
        rendered += frame_render(&s->pos[p], &s->transform[p * sh->floats], sh->floats);
    s->rendered += rendered;
    visits += n;
    s->visits += visits;
    s->frame++;
    return ECSB_OK;
}

static uint64_t floor_frame_checksum(void *state)
{
    floor_frame *s = state;
    const frame_world_shape *sh = &s->shape;
    uint64_t h = ECSB_CHECKSUM_SEED, next[ECSB_MAX_TYPES] = {0}; /* per rare type: its next holder */
    for (uint64_t i = 0; i < sh->n; i++) {
        bool actor = i < sh->actors;
        uint32_t slot = (uint32_t)i + 1;
        const uint64_t p = floor_frame_at(s, i);
        h = ecsb_mix(h, s->gen[i]);
        h = frame_mix_value(sh, h, FRAME_POS, &s->pos[p]);
        h = frame_mix_value(sh, h, FRAME_VEL, &s->vel[p]);
        h = frame_mix_value(sh, h, FRAME_HP, actor ? &s->hp[p] : NULL);
        h = frame_mix_value(sh, h, FRAME_TARGET, actor && frame_has_target(i) ? &s->target[p] : NULL);
        h = frame_mix_value(sh, h, FRAME_STATUS, actor && s->has_status[p] ? &s->status[p] : NULL);
        h = frame_mix_value(sh, h, FRAME_LIFE, actor ? NULL : &s->life[p]);
        h = frame_mix_value(sh, h, FRAME_SLOT, &slot);
        h = frame_mix_value(sh, h, FRAME_TRANSFORM, &s->transform[p * sh->floats]);
        for (uint32_t t = FRAME_CORE_TYPES; t < FRAME_CORE_TYPES + sh->commons; t++)
            h = frame_mix_value(sh, h, t, t == frame_common_type(sh, i) ? &s->common[p] : NULL);
        for (uint32_t r = 0; r < sh->rares; r++) {
            bool held = next[r] < s->rare_count[r] && s->rare_slot[r][next[r]] == i;
            h = frame_mix_value(sh, h, frame_rare_type(sh, r), held ? &s->rare_value[r][next[r]++] : NULL);
        }
    }
    h = ecsb_mix(ecsb_mix(h, s->visits), s->retargets);
    h = ecsb_mix(ecsb_mix(h, 0), s->missed); /* lost lookups: none, the slot is the id */
    h = ecsb_mix(ecsb_mix(h, s->weighted), s->impacts);
    h = ecsb_mix(h, s->rendered);
    return ecsb_mix(h, sh->n);
}
