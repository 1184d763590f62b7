/*
 * frame — one frame of a small game, in systems the way an engine runs them.
 *
 * The world: N entities in scenario slots (the scenario's own table: slot -> handle and a
 * generation per slot). Slots [0, A) are actors: pos, vel (float[2]), hp (int32), slot (u32,
 * the entity's own slot number + 1: never 0, so a lost value shows); every 4th actor also has a
 * target (the handle, slot and generation of another actor); status (int32, damage per frame)
 * on the odd ones at birth. Slots [A, N) are bullets: pos, vel, life (u32, frames left), slot.
 * Everyone is drawn: a local transform (frame_local, 16 B: rotation, scale and layer; pos is
 * its translation), a world transform (parameter transform, default 64 B: the 4x4 float
 * matrix of a Unity LocalToWorld or a Bevy GlobalTransform; bytes past the matrix are cold)
 * and one of FRAME_COMMONS common extras (u32: team, layer...). Parameter types (default 24:
 * a game has a few dozen component types) sets how many rare extras there are besides
 * (types - 19), each held by 1/256 of the slots (a boss's AI state, an emitter, a quest
 * marker...): they split the world into many small component sets.
 *
 * The scene graph. Parameter parented (default 0.5, 0 .. 0.9): the share of the actors with a
 * parent: a parent component (the parent's handle, slot and generation) and a depth tag
 * (Depth1, Depth2, Depth3: size-0 types). The actors are laid out by depth: roots in slots
 * [0, R), then the children of depth 1, 2, 3 (a third of them each), each with a parent drawn
 * by a hash among the slots of the level above (frame_parent_slot), so a parent's slot is
 * below its child's and some parents have several children, some none. Bullets are roots.
 * Tags besides: Hidden on 1/16 of the slots (static by slot), Frozen toggled by play (each
 * frame ceil(N / 128) actors in turn are frozen for FRAME_FROZEN_FRAMES = 16 frames: 1/8 of
 * N at a time).
 *
 * Parameter churn (default 0.01, 0 .. 0.1): the fraction of the entities born and dying per
 * frame. Half of it is bullets: b = churn * N / 2 fired per frame, each living 8 frames, so
 * 8b bullets are alive at any time in a ring of 8 segments; the other half is actors: d =
 * b * R / A roots die per frame (the next d roots in turn) and each takes its subtree with it,
 * so b actors die per frame on average. A = N - 8b. Parent death policy: children die with
 * their parent (flecs's default for ChildOf, Bevy's despawn_recursive, Unity destroying a
 * GameObject with its children), not reparented: the hierarchy stays a function of slots
 * (a slot's parent and depth never change, so the floor's depth order holds in every world and
 * no frame has to move a subtree to another level), and every death is replaced in the same
 * frame in its slot, parents before children: as many born as die in every frame, so the
 * population stays N and the world after a frame is in the same steady state as before it
 * (passes repeat; the scenario does not consume its set-up). Steady state: the set-up builds
 * every slot once; frames then replace d roots in turn (with their subtrees) and a bullet
 * segment every frame, so every slot has turned over once after ceil(R / d) frames (about
 * 2 / churn - 8: 193 at the defaults, as without a hierarchy; never at churn 0, where nothing
 * turns over and the first frame is already the steady one) + 8: frame_turnover_frames, the
 * warm-up of every world. order=aged is a world frame itself has lived in: the regular
 * set-up, then as many frames as the turnover takes, run by prepare (so it is aged by play,
 * not by the generic rounds of the other scenarios), then the warm-up.
 *
 * The timed pass is one frame:
 *   1. movement   query (pos, vel) without Frozen: pos += vel * dt.
 *   2. AI         query (target, pos, vel) without Frozen: the target's pos by handle (get; the
 *                 scenario's generation table says first whether the target slot's entity has
 *                 died and been replaced, and retargets to the new one), then
 *                 vel += (tpos - pos) * k.
 *   3. status     the actors frozen 16 frames ago thaw (remove Frozen), ceil(N / 128) freeze
 *                 (add Frozen); N/64 actors in turn gain status 1 or lose it (add / remove);
 *                 the d roots due to die get a lethal status (their hp).
 *   4. damage     query (hp, status, slot): hp -= status; the dead (hp <= 0) are marked by
 *                 slot, to be destroyed after the queries (never inside one).
 *   5. bullets    query (life, slot): life -= 1; the expired (one ring segment) are marked.
 *   6. births     the dead roots, then their descendants (breadth first), then the expired
 *                 bullets leave their impacts where they stand (pos and vel by handle, the
 *                 tags they hold) and are destroyed; then as many are born into their slots
 *                 (one spawn each, with its whole set), actors (parents before children) and
 *                 bullets alternating (frame_birth), so an id freed by a bullet comes back as
 *                 an actor and one freed by an actor as a bullet in any layout that reuses ids.
 *                 A newborn aiming at a slot that died this frame and is born later in it
 *                 keeps the old generation: the next frame's AI retargets it.
 *   7. transforms the world transform of every entity, parents before children: query (local,
 *                 pos, transform) without parent (the roots: world = local), then one query
 *                 per depth, (Depth1, parent, local, pos, transform) ... Depth3: the parent's
 *                 world matrix by handle (get), world = parent's world x local. This system
 *                 writes the 64-byte matrix of every entity, every frame (as Unity's
 *                 transform systems do; Bevy and flecs can skip unchanged ones with change
 *                 detection, which this frame does not model). Engines order it three ways:
 *                 flecs's cascade queries (tables visited by depth of the ChildOf relation),
 *                 EnTT's sorted groups or storage sorted parents-first, Bevy's propagation
 *                 walking down from each root through its Children. Here, the portable one:
 *                 a depth tag and a query per level, which any layout answers; a layout that
 *                 groups entities by component set (archetype, flecs) gets each level's
 *                 entities contiguous, others walk a pool and test membership.
 *   8. render     query (transform) without Hidden, read-only: every entity drawn adds its
 *                 world position times three fields of its matrix and its last float
 *                 (frame_render) to a sum.
 * Between 2 and 3, the rare systems: query (rare, pos), the value stepped where its holder is.
 * Handles: damage and bullets find the dead by their slot component, never by asking their
 * queries for the handle column: every visit would then pay for a handle (8 B more per entity,
 * or a record or slot-word load where handles are computed) to serve the ~churn/2 that die,
 * and the replacement still goes by slot (slot order, respawn into the slot), through the
 * scenario's slot table, which AI retargeting, the status flips and the hierarchy need
 * anyway (the children of each slot: frame_tree, the bookkeeping an engine's ChildOf or
 * Children keeps).
 * Item: entity-frame (N per pass). Everything that decides a value is a function of slots and
 * counters, never of a strategy's visit order: each system's writes touch only the visited
 * entity, AI reads only positions (written by movement before it), a child reads only its
 * parent's matrix (written by the level before), deaths and expiries are found by slot and
 * handled in an order made of slots.
 * The checksum (untimed) reads every slot's generation and every component of its entity (a
 * target or parent as its slot and generation: handles differ between strategies; a tag as
 * held or not), then the visits, the retargets, the lookups that failed, the deaths that did
 * not happen, the render sum and the live entities: a lost or doubled visit, a lost value or
 * tag (a rare one included), an excluded entity visited, a child computed before its parent,
 * a wrong lookup, a wrong draw or a missed destroy changes it.
 * Limit: none (every system reads and writes what it must; the floor is plain arrays by slot,
 * which is depth order).
 */
#include "scenarios/defs/frame.h"

typedef struct frame_state {
    world w;
    frame_world_shape shape;
    frame_tree tree;     /* the children of each actor slot */
    ecsb_entity *handle; /* per slot */
    uint32_t *gen;       /* per slot: lives so far */
    uint32_t *kill;      /* the actors dying this frame (frame_kill_list) */
    uint8_t *dead;       /* per slot: found dead or expired by the last query; [n]: a sink
                          * for slot values out of range (only a faulty strategy hands those) */
    uint64_t frame, births;
    bool running; /* set-up done: spawns happen inside frames */
    uint64_t visits, retargets, lost, missed;
    uint64_t weighted; /* sum of slot * hp and slot * life after damage and aging */
    uint64_t impacts;  /* where the dead and the expired were: sum of their pos bits */
    uint64_t rendered; /* the render system's sum (frame_render) */
    bool world_live;
} frame_state;

/* What the systems count during a frame, in a local of the pass (registers once the queries
 * are inlined: see scenarios/body.h), added to the state once per frame. */
typedef struct frame_tally {
    frame_state *s;
    uint64_t visits, retargets, lost, weighted, rendered;
} frame_tally;

static void frame_release(void *state)
{
    frame_state *s = state;
    if (!s)
        return;
    if (s->world_live)
        world_fini(&s->w);
    frame_tree_free(&s->tree);
    ecsb_array_free(s->handle);
    ecsb_array_free(s->gen);
    ecsb_array_free(s->kill);
    ecsb_array_free(s->dead);
    ecsb_array_free(s);
}

/* The target of the actor in `slot`, added to it: the handle, slot and generation of an
 * earlier actor (which must exist). A shuffled set-up aims once every actor exists. */
static ecsb_status frame_aim(frame_state *s, uint64_t slot)
{
    void *v;
    uint64_t t = frame_target_slot(slot);
    ecsb_status st = component_add(&s->w, s->handle[slot], FRAME_TARGET, &v);
    if (st == ECSB_OK)
        *(frame_target *)v = (frame_target){s->handle[t], (uint32_t)t, s->gen[t]};
    return st;
}

/*
 * A new entity in `slot`, the birth-th, with its components: the set chosen first (a bullet:
 * pos, vel, slot, life; an actor: pos, vel, slot, hp, status when born burning, target when
 * it has one and `aim`, parent and depth tag when a child; everyone: transform, local,
 * Hidden when hidden, its common extra, its rare ones), then one spawn, then each value
 * written. A child's parent is written when `aim` (its parent exists: born before it); a
 * shuffled set-up writes it once every actor exists.
 */
static ecsb_status frame_spawn(frame_state *s, uint64_t slot, uint64_t birth, bool aim)
{
    world *w = &s->w;
    const frame_world_shape *sh = &s->shape;
    const bool bullet = slot >= sh->actors;
    const uint32_t depth = frame_depth(sh, slot);
    ecsb_type types[FRAME_MAX_SET] = {FRAME_POS, FRAME_VEL, FRAME_SLOT, bullet ? FRAME_LIFE : FRAME_HP,
                                      FRAME_TRANSFORM, FRAME_LOCAL};
    uint32_t count = 6;
    if (!bullet && frame_born_burning(slot))
        types[count++] = FRAME_STATUS;
    if (aim && !bullet && frame_has_target(slot))
        types[count++] = FRAME_TARGET;
    if (depth) {
        types[count++] = FRAME_PARENT;
        types[count++] = frame_depth_tag(depth);
    }
    if (frame_hidden(slot))
        types[count++] = FRAME_HIDDEN;
    if (sh->commons)
        types[count++] = frame_common_type(sh, slot);
    for (uint32_t r = 0; r < sh->rares; r++)
        if (frame_holds_rare(slot, r))
            types[count++] = frame_rare_type(sh, r);
    ecsb_entity e;
    void *v[FRAME_MAX_SET];
    ecsb_status st = spawn(w, types, count, &e, v);
    if (st != ECSB_OK)
        return st;
    s->handle[slot] = e;
    s->gen[slot]++;
    *(frame_vec2 *)v[0] = frame_pos0(slot, birth);
    *(frame_vec2 *)v[1] = frame_vel0(slot, birth);
    *(uint32_t *)v[2] = (uint32_t)slot + 1;
    if (bullet)
        *(uint32_t *)v[3] = frame_life0(sh, slot, s->running);
    else
        *(int32_t *)v[3] = frame_hp0(slot);
    frame_transform0(v[4], sh->floats, slot, birth);
    *(frame_local *)v[5] = frame_local0(slot, birth);
    for (uint32_t k = 6; k < count; k++) {
        if (types[k] == FRAME_STATUS) {
            *(int32_t *)v[k] = 1;
        } else if (types[k] == FRAME_TARGET) {
            uint64_t t = frame_target_slot(slot);
            *(frame_target *)v[k] = (frame_target){s->handle[t], (uint32_t)t, s->gen[t]};
        } else if (types[k] == FRAME_PARENT) {
            uint64_t p = frame_parent_slot(sh, slot, depth);
            *(frame_target *)v[k] = (frame_target){aim ? s->handle[p] : ECSB_ENTITY_NULL,
                                                   (uint32_t)p, aim ? s->gen[p] : 0};
        } else if (!frame_is_tag(types[k])) {
            *(uint32_t *)v[k] = frame_extra0(types[k], slot, birth);
        }
    }
    return ECSB_OK;
}

/* A shuffled set-up's child, once every actor exists: its parent's handle and generation. */
static ecsb_status frame_link(frame_state *s, uint64_t slot)
{
    uint64_t p = frame_parent_slot(&s->shape, slot, frame_depth(&s->shape, slot));
    frame_target *parent = component_get(&s->w, s->handle[slot], FRAME_PARENT);
    if (!parent)
        return ECSB_ERR_ABSENT;
    *parent = (frame_target){s->handle[p], (uint32_t)p, s->gen[p]};
    return ECSB_OK;
}

static ecsb_status frame_pass(void *state);

static ecsb_status frame_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    *out = NULL;
    frame_state *s = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    s->shape = frame_shape(n, p);
    const frame_world_shape *sh = &s->shape;
    ecsb_world_config config = {
        .type_count = sh->types,
        .type_size = {sizeof(frame_vec2), sizeof(frame_vec2), sizeof(int32_t), sizeof(frame_target),
                      sizeof(int32_t), sizeof(uint32_t), sizeof(uint32_t), sh->floats * 4,
                      sizeof(frame_local), sizeof(frame_target)}, /* then the tags: 0 */
        .initial_capacity = ecsb_capacity_hint(n),
        .allocator = ecsb_scenario_allocator,
        .query_count = 9 + sh->rare_systems,
        .queries = {{2, {FRAME_POS, FRAME_VEL}, false, 1, {FRAME_FROZEN}},
                    {3, {FRAME_TARGET, FRAME_POS, FRAME_VEL}, false, 1, {FRAME_FROZEN}},
                    {3, {FRAME_HP, FRAME_STATUS, FRAME_SLOT}, false, 0, {0}},
                    {2, {FRAME_LIFE, FRAME_SLOT}, false, 0, {0}},
                    {3, {FRAME_LOCAL, FRAME_POS, FRAME_TRANSFORM}, false, 1, {FRAME_PARENT}},
                    {5, {FRAME_DEPTH1, FRAME_PARENT, FRAME_LOCAL, FRAME_POS, FRAME_TRANSFORM}, false, 0, {0}},
                    {5, {FRAME_DEPTH1 + 1, FRAME_PARENT, FRAME_LOCAL, FRAME_POS, FRAME_TRANSFORM}, false, 0, {0}},
                    {5, {FRAME_DEPTH1 + 2, FRAME_PARENT, FRAME_LOCAL, FRAME_POS, FRAME_TRANSFORM}, false, 0, {0}},
                    {1, {FRAME_TRANSFORM}, false, 1, {FRAME_HIDDEN}}},
    };
    for (uint32_t t = FRAME_CORE_TYPES; t < sh->types; t++)
        config.type_size[t] = sizeof(uint32_t);
    for (uint32_t r = 0; r < sh->rare_systems; r++)
        config.queries[9 + r] = (ecsb_query){.count = 2, .types = {frame_rare_type(sh, r), FRAME_POS}};
    ecsb_status st = scenario_world_open(&s->w, &s->world_live, &config);
    s->handle = ecsb_array_alloc(n, sizeof *s->handle);
    s->gen = ecsb_array_zalloc(n, sizeof *s->gen);
    s->kill = ecsb_array_alloc(sh->actors, sizeof *s->kill);
    s->dead = ecsb_array_zalloc(n + 1, sizeof *s->dead);
    if (st == ECSB_OK && !(s->handle && s->gen && s->kill && s->dead && frame_tree_build(&s->tree, sh)))
        st = ECSB_ERR_NOMEM;
    /* order=regular: in slot order, actors (a target is an earlier actor, a parent too),
     * then the bullets, their lives staggered by segment. order=shuffled: the slots in a
     * drawn order (so entity ids and dense positions follow no slot pattern: membership,
     * deaths and expiries, all by slot, land anywhere), then the targets and the parents'
     * handles in the same order. Either way slot i is the i-th birth, so the values are the
     * same. order=aged: the regular set-up, then lived in by frames (frame_turnover_frames of
     * them). */
    const bool aged = p->v[ECSB_PARAM_ORDER] == ECSB_ORDER_AGED;
    ecsb_params set_up = *p; /* an aged world starts as the regular one */
    if (aged)
        set_up.v[ECSB_PARAM_ORDER] = ECSB_ORDER_REGULAR;
    ecsb_world_order order = {0};
    if (st == ECSB_OK && !ecsb_world_order_make(&order, n, &set_up, FRAME_SALT))
        st = ECSB_ERR_NOMEM;
    const bool aim_later = !ecsb_world_order_serial(&order);
    for (uint64_t k = 0; k < n && st == ECSB_OK; k++) {
        uint64_t slot = ecsb_serial_at(&order, k);
        st = frame_spawn(s, slot, slot, !aim_later);
    }
    for (uint64_t k = 0; aim_later && k < n && st == ECSB_OK; k++) {
        uint64_t slot = ecsb_serial_at(&order, k);
        if (slot < s->shape.actors && frame_has_target(slot))
            st = frame_aim(s, slot);
        if (st == ECSB_OK && frame_depth(sh, slot))
            st = frame_link(s, slot);
    }
    ecsb_world_order_free(&order);
    s->births = n;
    s->running = true;
    for (uint64_t f = 0; aged && f < frame_turnover_frames(sh) && st == ECSB_OK; f++)
        st = frame_pass(s); /* the aged world: lived in by frames */
    if (st != ECSB_OK) {
        frame_release(s);
        return st;
    }
    *out = s;
    return ECSB_OK;
}

ECSB_SCENARIO_MEMORY(frame, frame_state)

/* 1. movement */
ECSB_INLINE void frame_move_run(void *ctx, size_t count, void *const *columns)
{
    frame_vec2 *restrict pos = columns[0];
    const frame_vec2 *restrict vel = columns[1];
    for (size_t i = 0; i < count; i++)
        frame_move(&pos[i], &vel[i]);
    *(uint64_t *)ctx += count;
}

/* 2. AI: the tally's state gives the generation table and the world, for get. */
ECSB_INLINE void frame_ai_run(void *ctx, size_t count, void *const *columns)
{
    frame_tally *tally = ctx;
    frame_state *s = tally->s;
    frame_target *restrict target = columns[0];
    const frame_vec2 *restrict pos = columns[1];
    frame_vec2 *restrict vel = columns[2];
    for (size_t i = 0; i < count; i++) {
        frame_target *t = &target[i];
        if (t->gen != s->gen[t->slot]) { /* died and replaced: aim at its successor */
            t->handle = s->handle[t->slot];
            t->gen = s->gen[t->slot];
            tally->retargets++;
        }
        const frame_vec2 *tp = component_get(&s->w, t->handle, FRAME_POS);
        if (ECSB_UNLIKELY(!tp)) {
            tally->lost++;
            continue;
        }
        frame_steer(&vel[i], &pos[i], tp);
    }
    tally->visits += count;
}

/* 4. damage */
ECSB_INLINE void frame_damage_run(void *ctx, size_t count, void *const *columns)
{
    frame_tally *tally = ctx;
    int32_t *restrict hp = columns[0];
    const int32_t *restrict status = columns[1];
    const uint32_t *restrict slot = columns[2];
    uint64_t weighted = 0;
    for (size_t i = 0; i < count; i++) {
        hp[i] -= status[i];
        weighted += (uint64_t)slot[i] * (uint32_t)hp[i];
        if (hp[i] <= 0)
            tally->s->dead[frame_dead_index(&tally->s->shape, slot[i])] = 1;
    }
    tally->weighted += weighted;
    tally->visits += count;
}

/* 5. bullets */
ECSB_INLINE void frame_life_run(void *ctx, size_t count, void *const *columns)
{
    frame_tally *tally = ctx;
    uint32_t *restrict life = columns[0];
    const uint32_t *restrict slot = columns[1];
    uint64_t weighted = 0;
    for (size_t i = 0; i < count; i++) {
        life[i] -= FRAME_LIFE_UNIT;
        weighted += (uint64_t)slot[i] * life[i];
        if (life[i] < FRAME_LIFE_UNIT)
            tally->s->dead[frame_dead_index(&tally->s->shape, slot[i])] = 1;
    }
    tally->weighted += weighted;
    tally->visits += count;
}

/* rare systems: a rare component's update where its holder stands (ctx: the visit count). */
ECSB_INLINE void frame_rare_run(void *ctx, size_t count, void *const *columns)
{
    uint32_t *restrict v = columns[0];
    const frame_vec2 *restrict pos = columns[1];
    for (size_t i = 0; i < count; i++)
        v[i] = frame_rare_step(v[i], &pos[i]);
    *(uint64_t *)ctx += count;
}

/* 7. transforms, the roots: world = local (ctx: the visit count). */
ECSB_INLINE void frame_root_run(void *ctx, size_t count, void *const *columns)
{
    const frame_local *restrict local = columns[0];
    const frame_vec2 *restrict pos = columns[1];
    float *restrict m = columns[2];
    const uint32_t floats = ((frame_tally *)ctx)->s->shape.floats;
    for (size_t i = 0; i < count; i++)
        frame_world(&m[i * floats], NULL, &local[i], &pos[i]);
    ((frame_tally *)ctx)->visits += count;
}

/* 7. transforms, one depth: world = parent's world (by handle) x local. columns[0] is the
 * depth tag's (nothing to read). */
ECSB_INLINE void frame_child_run(void *ctx, size_t count, void *const *columns)
{
    frame_tally *tally = ctx;
    frame_state *s = tally->s;
    const frame_target *restrict parent = columns[1];
    const frame_local *restrict local = columns[2];
    const frame_vec2 *restrict pos = columns[3];
    float *restrict m = columns[4];
    const uint32_t floats = s->shape.floats;
    for (size_t i = 0; i < count; i++) {
        const float *pm = component_get(&s->w, parent[i].handle, FRAME_TRANSFORM);
        if (ECSB_UNLIKELY(!pm)) {
            tally->lost++;
            continue;
        }
        frame_world(&m[i * floats], pm, &local[i], &pos[i]);
    }
    tally->visits += count;
}

/* 8. render: read-only, every entity drawn (its transform). */
ECSB_INLINE void frame_render_run(void *ctx, size_t count, void *const *columns)
{
    frame_tally *tally = ctx;
    const float *restrict m = columns[0];
    const uint32_t floats = tally->s->shape.floats;
    uint64_t rendered = 0;
    for (size_t i = 0; i < count; i++)
        rendered += frame_render(&m[i * floats], floats);
    tally->rendered += rendered;
    tally->visits += count;
}

static const ecsb_query frame_render_query = {.count = 1, .types = {FRAME_TRANSFORM},
                                              .exclude_count = 1, .exclude = {FRAME_HIDDEN}};
static const ecsb_query frame_move_query = {.count = 2, .types = {FRAME_POS, FRAME_VEL},
                                            .exclude_count = 1, .exclude = {FRAME_FROZEN}};
static const ecsb_query frame_ai_query = {.count = 3, .types = {FRAME_TARGET, FRAME_POS, FRAME_VEL},
                                          .exclude_count = 1, .exclude = {FRAME_FROZEN}};
static const ecsb_query frame_damage_query = {.count = 3, .types = {FRAME_HP, FRAME_STATUS, FRAME_SLOT}};
static const ecsb_query frame_life_query = {.count = 2, .types = {FRAME_LIFE, FRAME_SLOT}};
static const ecsb_query frame_root_query = {.count = 3, .types = {FRAME_LOCAL, FRAME_POS, FRAME_TRANSFORM},
                                            .exclude_count = 1, .exclude = {FRAME_PARENT}};
/* The depth tag first: the columns a faulty strategy spoils (the last) hold values. */
#define FRAME_LEVEL_QUERY(d) \
    {.count = 5, .types = {FRAME_DEPTH1 + (d) - 1, FRAME_PARENT, FRAME_LOCAL, FRAME_POS, FRAME_TRANSFORM}}
static const ecsb_query frame_level_queries[FRAME_DEPTH] = {
    FRAME_LEVEL_QUERY(1), FRAME_LEVEL_QUERY(2), FRAME_LEVEL_QUERY(3)};
_Static_assert(FRAME_DEPTH == 3, "a static query per depth");
/* Rare type r sits at FRAME_CORE_TYPES + FRAME_COMMONS + r whenever it exists (a world has
 * rare types only once its commons are all there: frame_shape), so its query is static. */
#define FRAME_RARE_QUERY(r) {.count = 2, .types = {FRAME_CORE_TYPES + FRAME_COMMONS + (r), FRAME_POS}}
static const ecsb_query frame_rare_queries[FRAME_RARE_SYSTEMS] = {
    FRAME_RARE_QUERY(0), FRAME_RARE_QUERY(1), FRAME_RARE_QUERY(2)};
_Static_assert(FRAME_RARE_SYSTEMS == 3, "a static query per rare system");

/* 3. status: thaws and freezes, flips in turn, then the lethal burns of the roots due to die
 * this frame. */
static ecsb_status frame_status(frame_state *s)
{
    world *w = &s->w;
    const frame_world_shape *sh = &s->shape;
    ecsb_status st = ECSB_OK;
    for (uint64_t j = 0; s->frame >= FRAME_FROZEN_FRAMES && j < sh->freezes && st == ECSB_OK; j++) {
        ecsb_entity e = s->handle[frame_freeze_slot(sh, s->frame - FRAME_FROZEN_FRAMES, j)];
        if (component_has(w, e, FRAME_FROZEN)) /* (not when it died and was born since) */
            st = component_remove(w, e, FRAME_FROZEN);
    }
    for (uint64_t j = 0; j < sh->freezes && st == ECSB_OK; j++) {
        ecsb_entity e = s->handle[frame_freeze_slot(sh, s->frame, j)];
        void *v;
        if (!component_has(w, e, FRAME_FROZEN))
            st = component_add(w, e, FRAME_FROZEN, &v);
    }
    for (uint64_t j = 0; j < sh->flips && st == ECSB_OK; j++) {
        ecsb_entity e = s->handle[frame_flip_slot(sh, s->frame, j)];
        void *v;
        if (component_has(w, e, FRAME_STATUS))
            st = component_remove(w, e, FRAME_STATUS);
        else if ((st = component_add(w, e, FRAME_STATUS, &v)) == ECSB_OK)
            *(int32_t *)v = 1;
    }
    for (uint64_t j = 0; j < sh->deaths && st == ECSB_OK; j++) {
        uint64_t slot = frame_death_slot(sh, s->frame, j);
        ecsb_entity e = s->handle[slot];
        const int32_t *hp = component_get(w, e, FRAME_HP);
        int32_t lethal = frame_lethal(slot, hp ? *hp : 0);
        int32_t *burn = component_get(w, e, FRAME_STATUS);
        void *v;
        if (burn)
            *burn = lethal;
        else if ((st = component_add(w, e, FRAME_STATUS, &v)) == ECSB_OK)
            *(int32_t *)v = lethal;
    }
    return st;
}

/* Where the entity in `slot` dies: its pos, vel and tags (frame_impact); then destroyed. */
static ecsb_status frame_destroy(frame_state *s, uint64_t slot)
{
    ecsb_entity e = s->handle[slot];
    uint32_t tags = 0;
    for (uint32_t t = FRAME_FROZEN; t < FRAME_CORE_TYPES; t++)
        tags |= (uint32_t)component_has(&s->w, e, t) << (t - FRAME_FROZEN);
    s->impacts += frame_impact(slot, component_get(&s->w, e, FRAME_POS),
                               component_get(&s->w, e, FRAME_VEL), tags);
    return entity_destroy(&s->w, e);
}

/* The actors dying this frame (the due roots found dead by the last queries, and their
 * descendants: frame_kill_list) and the bullets expiring, found dead: destroyed where they
 * stand, actors in kill-list order then bullets in slot order; then the newborns into their
 * slots, actors and bullets alternating (frame_birth), so the ids freed go to either kind. A
 * due one not found dead counts as missed. */
static ecsb_status frame_replace(frame_state *s)
{
    const frame_world_shape *sh = &s->shape;
    ecsb_status st = ECSB_OK;
    const uint64_t kills = frame_kill_list(sh, &s->tree, s->frame, s->dead, s->kill, &s->missed);
    for (uint64_t k = 0; k < kills && st == ECSB_OK; k++)
        st = frame_destroy(s, s->kill[k]);
    for (uint64_t j = 0; j < sh->fired && st == ECSB_OK; j++) {
        uint64_t slot = frame_bullet_slot(sh, s->frame, j);
        if (!s->dead[slot])
            s->missed++;
        else
            st = frame_destroy(s, slot);
    }
    for (uint64_t k = 0, j; k < kills + sh->fired && st == ECSB_OK; k++) {
        bool bullet = frame_birth(sh, kills, k, &j);
        uint64_t slot = bullet ? frame_bullet_slot(sh, s->frame, j) : s->kill[j];
        if (!s->dead[slot])
            continue;
        s->dead[slot] = 0;
        st = frame_spawn(s, slot, s->births++, true);
    }
    return st;
}

static ecsb_status frame_pass(void *state)
{
    frame_state *s = state;
    world *w = &s->w;
    uint64_t moved = 0; /* registers: see scenarios/body.h */
    frame_tally tally = {s, 0, 0, 0, 0, 0};
    ecsb_status st = query(w, &frame_move_query, frame_move_run, &moved);
    if (st == ECSB_OK)
        st = query(w, &frame_ai_query, frame_ai_run, &tally);
    /* The rare systems, each with its static query: a query built at run time loses its
     * constant count under gcc 12, and query() takes the variable-lead walk with a call per
     * run (tests/scripts/test_no_indirect_calls.sh fails). */
    /* (one call per system: a query picked from the array by a loop index is not constant) */
    if (st == ECSB_OK && s->shape.rare_systems > 0)
        st = query(w, &frame_rare_queries[0], frame_rare_run, &moved);
    if (st == ECSB_OK && s->shape.rare_systems > 1)
        st = query(w, &frame_rare_queries[1], frame_rare_run, &moved);
    if (st == ECSB_OK && s->shape.rare_systems > 2)
        st = query(w, &frame_rare_queries[2], frame_rare_run, &moved);
    if (st == ECSB_OK)
        st = frame_status(s);
    if (st == ECSB_OK)
        st = query(w, &frame_damage_query, frame_damage_run, &tally);
    if (st == ECSB_OK)
        st = query(w, &frame_life_query, frame_life_run, &tally);
    if (st == ECSB_OK)
        st = frame_replace(s);
    /* transforms: roots, then depth 1, 2, 3 (each level reads the one before) */
    if (st == ECSB_OK)
        st = query(w, &frame_root_query, frame_root_run, &tally);
    if (st == ECSB_OK)
        st = query(w, &frame_level_queries[0], frame_child_run, &tally);
    if (st == ECSB_OK)
        st = query(w, &frame_level_queries[1], frame_child_run, &tally);
    if (st == ECSB_OK)
        st = query(w, &frame_level_queries[2], frame_child_run, &tally);
    if (st == ECSB_OK)
        st = query(w, &frame_render_query, frame_render_run, &tally);
    s->visits += moved + tally.visits;
    s->rendered += tally.rendered;
    s->retargets += tally.retargets;
    s->lost += tally.lost;
    s->weighted += tally.weighted;
    s->frame++;
    return st;
}

static uint64_t frame_checksum(void *state)
{
    frame_state *s = state;
    uint64_t h = ECSB_CHECKSUM_SEED;
    for (uint64_t slot = 0; slot < s->shape.n; slot++) {
        h = ecsb_mix(h, s->gen[slot]);
        for (uint32_t t = 0; t < s->shape.types; t++)
            h = frame_mix_value(&s->shape, h, t, component_get(&s->w, s->handle[slot], t));
    }
    h = ecsb_mix(ecsb_mix(h, s->visits), s->retargets);
    h = ecsb_mix(ecsb_mix(h, s->lost), s->missed);
    h = ecsb_mix(ecsb_mix(h, s->weighted), s->impacts);
    h = ecsb_mix(h, s->rendered);
    return ecsb_mix(h, entity_count(&s->w));
}
