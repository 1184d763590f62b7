/*
 * pointers.c — what a strategy declaring stable pointers (ECSB_STRATEGY_STABLE_POINTERS:
 * ecsb_strategy.stable_pointers) promises beyond the vtable: the value pointer add hands out,
 * and get returns, stays the same address with the same bytes until that component is removed
 * or its entity destroyed, across every other operation, growth of every structure included.
 * The other strategies skip these tests (their pointers hold only until the next structural
 * change).
 */
#include "tests/support.h"
#include "tests/suites.h"

#define KEPT 5                /* entities whose pointers are held */
#define FIRST_ENTITIES 40     /* created before the random operations, the kept among them */
#define OPS 200000            /* random operations on the other entities */
#define BATCH 1000            /* operations between two checks */
#define READD_EVERY 50000     /* kept entity 0 gives up type 1 here, and takes it back a batch on */

/* The kept entities' places among the first ones: not the first nor in a row. */
static const size_t kept_at[KEPT] = {3, 7, 13, 26, 39};

typedef struct kept {
    ecsb_entity e;
    void *ptr[TST_TYPES]; /* NULL while the entity does not hold the type */
    uint64_t seed[TST_TYPES];
} kept;

/* The other entities, with the types each holds (bit t). */
typedef struct others {
    ecsb_entity *e;
    uint8_t *mask;
    size_t n, cap;
} others;

static void others_push(others *o, ecsb_entity e, uint8_t mask)
{
    if (o->n == o->cap) {
        o->cap = o->cap ? o->cap * 2 : 64;
        o->e = tst_xrealloc(o->e, o->cap * sizeof *o->e);
        o->mask = tst_xrealloc(o->mask, o->cap * sizeof *o->mask);
    }
    o->e[o->n] = e;
    o->mask[o->n++] = mask;
}

/* Add type t to kept entity k: the pointer from add is the one get returns. */
static void kept_add(tst_world *tw, kept *k, ecsb_type t, uint64_t seed)
{
    void *v = tw_add(tw, k->e, t, seed);
    void *got = tw->ops->component_get(tw->w, k->e, t);
    TST_CHECK(got == v, "type %u: add handed out %p, get returns %p", t, v, got);
    k->ptr[t] = v;
    k->seed[t] = seed;
}

/* Every kept value: get returns the pointer held (compared before reading through it), and
 * the bytes there are the pattern written; a type given up is absent. */
static void check_kept(tst_world *tw, const kept *ks, size_t ops_done)
{
    for (size_t k = 0; k < KEPT; k++)
        for (ecsb_type t = 0; t < TST_TYPES; t++) {
            if (!ks[k].ptr[t]) {
                tw_expect_absent(tw, ks[k].e, t);
                continue;
            }
            void *got = tw->ops->component_get(tw->w, ks[k].e, t);
            TST_CHECK(got == ks[k].ptr[t], "after %zu operations: kept entity %zu, type %u: "
                      "get returns %p, add handed out %p", ops_done, k, t, got, ks[k].ptr[t]);
            TST_CHECK(tst_pattern_is(ks[k].ptr[t], tw->config.type_size[t], ks[k].seed[t]),
                      "after %zu operations: kept entity %zu, type %u: the value at %p changed",
                      ops_done, k, t, ks[k].ptr[t]);
        }
    tw_expect_valid(tw);
}

/* One random create, destroy, add or remove on the other entities (mostly growing them). */
static void random_op(tst_world *tw, others *o, tst_rng *rng, uint64_t *seed)
{
    uint64_t r = tst_rng_below(rng, 100);
    if (o->n == 0 || r < 30) {
        others_push(o, tw_create(tw), 0);
        return;
    }
    size_t i = (size_t)tst_rng_below(rng, o->n);
    ecsb_type t = (ecsb_type)tst_rng_below(rng, TST_TYPES);
    if (r < 40) {
        tw_destroy(tw, o->e[i]);
        o->e[i] = o->e[--o->n];
        o->mask[i] = o->mask[o->n];
    } else if (r < 85) {
        for (int tries = 0; tries < TST_TYPES && (o->mask[i] >> t & 1); tries++)
            t = (t + 1) % TST_TYPES;
        if (!(o->mask[i] >> t & 1)) {
            tw_add(tw, o->e[i], t, ++*seed);
            o->mask[i] |= (uint8_t)(1u << t);
        }
    } else {
        for (int tries = 0; tries < TST_TYPES && !(o->mask[i] >> t & 1); tries++)
            t = (t + 1) % TST_TYPES;
        if (o->mask[i] >> t & 1) {
            tw_remove(tw, o->e[i], t);
            o->mask[i] &= (uint8_t)~(1u << t);
        }
    }
}

/*
 * A world that starts with nothing reserved (so every structure grows from its smallest), five
 * kept entities holding all three types among 40, then 200,000 random operations on the other
 * entities (about 40,000 creations and 90,000 adds: every pool and table grows many times).
 * After every 1000 operations: each kept pointer is what get returns, its bytes unchanged, and
 * world_valid holds. Every 50,000 operations kept entity 0 gives up type 1 and, a batch later,
 * takes it back: the new pointer is the kept one from then on.
 */
void pointers_from_add_stay_valid_until_their_component_is_removed(void **state)
{
    (void)state;
    if (!tst_strategy->stable_pointers)
        tst_skip("does not declare stable pointers (ECSB_STRATEGY_STABLE_POINTERS)");
    tst_world tw;
    ecsb_world_config c = tst_config3();
    c.initial_capacity = 0;
    tw_init(&tw, &c);
    tw.check_valid = false;
    kept ks[KEPT] = {{0}};
    others o = {0};
    uint64_t seed = 1;
    ecsb_entity first[FIRST_ENTITIES];
    for (size_t i = 0; i < FIRST_ENTITIES; i++)
        first[i] = tw_create(&tw);
    for (size_t i = 0, k = 0; i < FIRST_ENTITIES; i++) {
        if (k < KEPT && kept_at[k] == i)
            ks[k++].e = first[i];
        else
            others_push(&o, first[i], 0);
    }
    /* Type by type, the kept entities' values between the others' (distinct seeds). */
    for (ecsb_type t = 0; t < TST_TYPES; t++)
        for (size_t i = 0, k = 0, j = 0; i < FIRST_ENTITIES; i++) {
            if (k < KEPT && kept_at[k] == i) {
                kept_add(&tw, &ks[k++], t, ++seed);
                continue;
            }
            if ((i + t) % 3 != 0) {
                tw_add(&tw, o.e[j], t, ++seed);
                o.mask[j] |= (uint8_t)(1u << t);
            }
            j++;
        }
    check_kept(&tw, ks, 0);
    tst_rng rng = {0x5eed};
    bool readd = false;
    for (size_t done = 0; done < OPS;) {
        for (size_t b = 0; b < BATCH; b++)
            random_op(&tw, &o, &rng, &seed);
        done += BATCH;
        if (readd) {
            kept_add(&tw, &ks[0], 1, ++seed);
            readd = false;
        }
        check_kept(&tw, ks, done);
        if (done % READD_EVERY == 0 && done < OPS) {
            tw_remove(&tw, ks[0].e, 1);
            ks[0].ptr[1] = NULL;
            readd = true;
            check_kept(&tw, ks, done);
        }
    }
    TST_CHECK(tw.ops->entity_count(tw.w) == o.n + KEPT, "entity_count %zu, want %zu",
              tw.ops->entity_count(tw.w), o.n + KEPT);
    tst_xfree(o.e);
    tst_xfree(o.mask);
    tw_fini(&tw);
}
