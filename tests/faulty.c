/*
 * faulty — the template strategy with mistakes injected on demand (tests/faulty.h). Test-only:
 * compiled into the test binary, never registered, never timed.
 *
 * Every operation forwards to the template through its vtable (so faulty has the template's
 * layout, handles and visit order). Beside it, faulty keeps the live entity of each template
 * slot (a template handle's low 32 bits are its slot), so it can walk every live entity:
 * query walks the slots in order and find each entity's values with get, which lets
 * them visit an entity that does not match, visit one twice or skip one. One mistake kind is
 * armed at a time, with the number of the opportunity to spoil.
 */
#include <stdlib.h>

#include "harness/strategy.h"
#include "tests/faulty.h"
#include "tests/support.h"

typedef struct world {
    const ecsb_vtable *ops; /* the template's */
    void *inner;            /* the template's world */
    ecsb_entity *live;      /* per template slot: its live entity, or ECSB_ENTITY_NULL */
    size_t slots, cap;      /* slots seen, entries allocated in live */
    uint32_t type_count;
    uint32_t type_size[ECSB_MAX_TYPES];
} world;

static struct {
    tst_fault fault;
    uint64_t at, seen;
    bool applied;
    bool counting; /* tst_fault_count_all: every kind's opportunities counted, none taken */
    uint64_t seen_of[TST_FAULT_COUNT];
} plan;

static uint64_t peak_entities; /* of the world made last */

/* Zeroed stand-ins for values, one per query type's column. */
static _Alignas(ECSB_MAX_TYPE_ALIGN) unsigned char scratch[ECSB_MAX_QUERY_TYPES]
                                                          [ECSB_MAX_TYPE_SIZE];

void tst_fault_arm(tst_fault fault, uint64_t at)
{
    plan.fault = fault;
    plan.at = at;
    plan.seen = 0;
    plan.applied = false;
    plan.counting = false;
}

void tst_fault_count_all(void)
{
    tst_fault_arm(TST_FAULT_NONE, 0);
    plan.counting = true;
    memset(plan.seen_of, 0, sizeof plan.seen_of);
}

void tst_fault_disarm(void)
{
    plan.fault = TST_FAULT_NONE;
    plan.counting = false;
}
uint64_t tst_fault_opportunities(void) { return plan.seen; }
uint64_t tst_fault_opportunities_of(tst_fault fault)
{
    return (unsigned)fault < TST_FAULT_COUNT ? plan.seen_of[fault] : 0;
}
bool tst_fault_applied(void) { return plan.applied; }
uint64_t tst_fault_peak_entities(void) { return peak_entities; }

const char *tst_fault_name(tst_fault fault)
{
    static const char *const names[TST_FAULT_COUNT] = {
        [TST_FAULT_NONE] = "no mistake",
        [TST_FAULT_VISIT_MISS] = "a missed visit",
        [TST_FAULT_VISIT_DOUBLE] = "a doubled visit",
        [TST_FAULT_VISIT_EXTRA] = "an extra visit of an entity that does not match",
        [TST_FAULT_VISIT_SWAP] = "two visits with swapped values",
        [TST_FAULT_VISIT_LOSE] = "a visit handed a lost (zeroed) value",
        [TST_FAULT_VISIT_HANDLE] = "a visit handed another entity's handle",
        [TST_FAULT_VISIT_EXCLUDED] = "a visit of an entity holding an excluded type",
        [TST_FAULT_GET_MISS] = "a get missing a held component",
        [TST_FAULT_GET_EXTRA] = "a get finding an absent component",
        [TST_FAULT_GET_SWAP] = "a get returning another entity's value",
        [TST_FAULT_GET_LOSE] = "a get returning a lost (zeroed) value",
        [TST_FAULT_ADD_MISS] = "an add attaching nothing",
        [TST_FAULT_ADD_LOSE] = "an add losing another component's value",
        [TST_FAULT_REMOVE_MISS] = "a remove detaching nothing",
        [TST_FAULT_REMOVE_LOSE] = "a remove losing another component's value",
        [TST_FAULT_DESTROY_MISS] = "a destroy leaving the entity alive",
        [TST_FAULT_TAG_LOSE] = "an add or remove dropping another tag",
    };
    return (unsigned)fault < TST_FAULT_COUNT ? names[fault] : "?";
}

/* Whether `fault` is armed, or counted with every other kind: its opportunities are sought. */
static bool armed(tst_fault fault) { return plan.fault == fault || plan.counting; }

/* True when this is the opportunity of `fault` to spoil (counting it when `fault` is armed,
 * or when every kind is counted: then never). */
static bool spoil(tst_fault fault)
{
    if (plan.counting) {
        plan.seen_of[fault]++;
        return false;
    }
    if (plan.fault != fault || plan.seen++ != plan.at)
        return false;
    plan.applied = true;
    return true;
}

static void *zeroed(uint32_t column)
{
    memset(scratch[column], 0, sizeof scratch[column]);
    return scratch[column];
}

static void world_fini(world *w)
{
    if (w->inner) {
        w->ops->world_fini(w->inner);
        free(w->inner);
    }
    free(w->live);
    memset(w, 0, sizeof *w);
}

static ecsb_status world_init(world *w, const ecsb_world_config *config)
{
    memset(w, 0, sizeof *w);
    w->ops = ecsb_strategy_template.ops;
    w->inner = aligned_alloc(64, (w->ops->world_size + 63) & ~(size_t)63);
    if (!w->inner)
        return ECSB_ERR_NOMEM;
    ecsb_status st = w->ops->world_init(w->inner, config);
    if (st != ECSB_OK) {
        free(w->inner);
        w->inner = NULL;
        return st;
    }
    w->type_count = config->type_count;
    memcpy(w->type_size, config->type_size, sizeof w->type_size);
    peak_entities = 0;
    return ECSB_OK;
}

static bool entity_alive(const world *w, ecsb_entity e) { return w->ops->entity_alive(w->inner, e); }
static size_t entity_count(const world *w) { return w->ops->entity_count(w->inner); }

/* Note e, just made by the template, as the live entity of its slot; on NOMEM destroy it. */
static ecsb_status track(world *w, ecsb_entity *e)
{
    size_t slot = ecsb_handle_index(*e);
    if (slot >= w->cap) {
        size_t cap = 2 * slot + 16;
        ecsb_entity *live = realloc(w->live, cap * sizeof *live);
        if (!live) {
            w->ops->entity_destroy(w->inner, *e);
            *e = ECSB_ENTITY_NULL;
            return ECSB_ERR_NOMEM;
        }
        memset(live + w->cap, 0, (cap - w->cap) * sizeof *live);
        w->live = live;
        w->cap = cap;
    }
    w->live[slot] = *e;
    w->slots = slot >= w->slots ? slot + 1 : w->slots;
    const uint64_t alive = w->ops->entity_count(w->inner);
    peak_entities = alive > peak_entities ? alive : peak_entities;
    return ECSB_OK;
}

ECSB_INLINE ecsb_status entity_create(world *w, ecsb_entity *out)
{
    ecsb_status st = w->ops->entity_create(w->inner, out);
    return st == ECSB_OK ? track(w, out) : st;
}

ECSB_INLINE ecsb_status entity_destroy(world *w, ecsb_entity e)
{
    if (entity_alive(w, e) && spoil(TST_FAULT_DESTROY_MISS))
        return ECSB_OK;
    ecsb_status st = w->ops->entity_destroy(w->inner, e);
    if (st == ECSB_OK)
        w->live[ecsb_handle_index(e)] = ECSB_ENTITY_NULL;
    return st;
}

ECSB_INLINE bool component_has(const world *w, ecsb_entity e, ecsb_type t)
{
    return w->ops->component_has(w->inner, e, t);
}

static size_t component_count(const world *w, ecsb_type t)
{
    return w->ops->component_count(w->inner, t);
}

/* `fault` (ADD_LOSE or REMOVE_LOSE): zero the entity's first held value of a type other than
 * t, when it holds one (only then is this an opportunity; a tag has no value to lose). */
static void lose_another(world *w, ecsb_entity e, ecsb_type t, tst_fault fault)
{
    for (ecsb_type u = 0; u < w->type_count; u++)
        if (u != t && w->type_size[u] && component_has(w, e, u)) {
            if (spoil(fault))
                memset(w->ops->component_get(w->inner, e, u), 0, w->type_size[u]);
            return;
        }
}

/* TAG_LOSE: drop the entity's first held tag other than t, when it holds one (only then is
 * this an opportunity). */
static void lose_tag(world *w, ecsb_entity e, ecsb_type t)
{
    for (ecsb_type u = 0; u < w->type_count; u++)
        if (u != t && !w->type_size[u] && component_has(w, e, u)) {
            if (spoil(TST_FAULT_TAG_LOSE))
                w->ops->component_remove(w->inner, e, u);
            return;
        }
}

ECSB_INLINE ecsb_status component_add(world *w, ecsb_entity e, ecsb_type t, void **value_out)
{
    ecsb_status st = w->ops->component_add(w->inner, e, t, value_out);
    if (st != ECSB_OK)
        return st;
    if (spoil(TST_FAULT_ADD_MISS)) {
        w->ops->component_remove(w->inner, e, t);
        *value_out = zeroed(0);
    } else {
        if (armed(TST_FAULT_ADD_LOSE))
            lose_another(w, e, t, TST_FAULT_ADD_LOSE);
        if (armed(TST_FAULT_TAG_LOSE)) {
            lose_tag(w, e, t);
            *value_out = w->ops->component_get(w->inner, e, t); /* (the row may have moved) */
        }
    }
    return ECSB_OK;
}

/*
 * The template's spawn, tracked as create is; each type is an ADD_MISS opportunity (it is
 * not attached, its value goes nowhere). No ADD_LOSE: the values are not written yet.
 */
ECSB_INLINE ecsb_status spawn(world *w, const ecsb_type *types, uint32_t count,
                              ecsb_entity *out, void **values_out)
{
    ecsb_status st = w->ops->entity_spawn(w->inner, types, count, out, values_out);
    if (st == ECSB_OK && (st = track(w, out)) != ECSB_OK)
        for (uint32_t j = 0; j < count; j++)
            values_out[j] = NULL;
    if (st != ECSB_OK)
        return st;
    for (uint32_t j = 0; j < count; j++)
        if (spoil(TST_FAULT_ADD_MISS)) {
            w->ops->component_remove(w->inner, *out, types[j]);
            values_out[j] = zeroed(0);
        }
    return ECSB_OK;
}

ECSB_INLINE ecsb_status component_remove(world *w, ecsb_entity e, ecsb_type t)
{
    if (component_has(w, e, t) && spoil(TST_FAULT_REMOVE_MISS))
        return ECSB_OK;
    ecsb_status st = w->ops->component_remove(w->inner, e, t);
    if (st == ECSB_OK && armed(TST_FAULT_REMOVE_LOSE))
        lose_another(w, e, t, TST_FAULT_REMOVE_LOSE);
    if (st == ECSB_OK && armed(TST_FAULT_TAG_LOSE))
        lose_tag(w, e, t);
    return st;
}

/* The value of type t of the next live holder after e in slot order (wrapping), not e's. */
static void *other_holder_value(world *w, ecsb_entity e, ecsb_type t)
{
    size_t from = ecsb_handle_index(e);
    for (size_t k = 1; k < w->slots; k++) {
        ecsb_entity o = w->live[(from + k) % w->slots];
        void *v = o ? w->ops->component_get(w->inner, o, t) : NULL;
        if (v)
            return v;
    }
    return NULL;
}

ECSB_INLINE void *component_get(world *w, ecsb_entity e, ecsb_type t)
{
    void *p = w->ops->component_get(w->inner, e, t);
    if (!p)
        return t < w->type_count && entity_alive(w, e) && spoil(TST_FAULT_GET_EXTRA) ? zeroed(0)
                                                                                     : NULL;
    if (spoil(TST_FAULT_GET_MISS))
        return NULL;
    if (armed(TST_FAULT_GET_SWAP)) {
        void *other = other_holder_value(w, e, t);
        if (other && spoil(TST_FAULT_GET_SWAP))
            return other;
    }
    return spoil(TST_FAULT_GET_LOSE) ? zeroed(0) : p;
}

/* The live entity after slot i in slot order (wrapping), other than the one at i; NULL handle
 * when there is none. */
static ecsb_entity other_live(const world *w, size_t i)
{
    for (size_t k = 1; k < w->slots; k++) {
        ecsb_entity o = w->live[(i + k) % w->slots];
        if (o)
            return o;
    }
    return ECSB_ENTITY_NULL;
}

/*
 * Slot order, runs of one. A swapped visit waits for the next match to trade with. The handle
 * column (when asked) points to a copy of the visited entity's handle.
 */
ECSB_INLINE ecsb_status query(world *w, const ecsb_query *q, ecsb_query_fn fn, void *ctx)
{
    uint32_t mask;
    ecsb_status st = ecsb_query_check(q, w->type_count, &mask);
    if (st != ECSB_OK)
        return st;
    const uint32_t k = q->count, last = k - 1;
    void *held[ECSB_MAX_QUERY_COLUMNS];
    ecsb_entity held_handle = ECSB_ENTITY_NULL, handle = ECSB_ENTITY_NULL;
    bool holding = false;
    for (size_t i = 0; i < w->slots; i++) {
        ecsb_entity e = w->live[i];
        if (!e)
            continue;
        void *columns[ECSB_MAX_QUERY_COLUMNS];
        columns[k] = &handle;
        handle = e;
        bool match = true, excluded = false;
        for (uint32_t j = 0; j < k; j++)
            match &= (columns[j] = w->ops->component_get(w->inner, e, q->types[j])) != NULL;
        for (uint32_t j = 0; j < q->exclude_count; j++)
            excluded |= component_has(w, e, q->exclude[j]);
        if (match && excluded) {
            if (spoil(TST_FAULT_VISIT_EXCLUDED))
                fn(ctx, 1, columns);
            continue;
        }
        if (!match) {
            if (spoil(TST_FAULT_VISIT_EXTRA)) {
                for (uint32_t j = 0; j < k; j++)
                    columns[j] = columns[j] ? columns[j] : zeroed(j);
                fn(ctx, 1, columns);
            }
            continue;
        }
        if (spoil(TST_FAULT_VISIT_MISS))
            continue;
        if (spoil(TST_FAULT_VISIT_LOSE))
            columns[last] = zeroed(last);
        if (q->entities && other_live(w, i) && spoil(TST_FAULT_VISIT_HANDLE))
            handle = other_live(w, i);
        if (holding) {
            void *t = held[last];
            held[last] = columns[last];
            columns[last] = t;
            fn(ctx, 1, held);
            holding = false;
        } else if (k > 1 && spoil(TST_FAULT_VISIT_SWAP)) {
            memcpy(held, columns, k * sizeof *columns);
            held_handle = handle;
            held[k] = &held_handle;
            holding = true;
            continue;
        }
        fn(ctx, 1, columns);
        if (spoil(TST_FAULT_VISIT_DOUBLE))
            fn(ctx, 1, columns);
    }
    if (holding) { /* no partner came: visited as it was, nothing swapped */
        fn(ctx, 1, held);
        plan.applied = false;
    }
    return ECSB_OK;
}

static bool world_valid(const world *w) { return w->ops->world_valid(w->inner); }
static size_t world_bytes(const world *w) { return sizeof *w + w->ops->world_bytes(w->inner); }
static int world_corrupt(world *w, unsigned which) { return w->ops->world_corrupt(w->inner, which); }

#define ECSB_STRATEGY_NAME faulty
#define ECSB_STRATEGY_SUMMARY "test only: the template with one mistake injected on demand"
#include "harness/strategy_impl.h"
