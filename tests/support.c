/* support.c — the shared test machinery declared in tests/support.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support.h"

const ecsb_strategy *tst_strategy;
bool tst_under_cmocka;
const char *tst_context;

const uint32_t tst_sizes[TST_TYPES] = {4, 8, 24};

void tst_fail_at(const char *file, int line, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *name = tst_strategy ? tst_strategy->name : "-";
    const char *in = tst_context ? " (in: " : "", *context = tst_context ? tst_context : "";
    const char *end = tst_context ? ")" : "";
    if (!tst_under_cmocka) {
        fprintf(stderr, "[%s] %s:%d: %s%s%s%s\n", name, file, line, msg, in, context, end);
        abort();
    }
    print_error("[%s] %s:%d: %s%s%s%s\n", name, file, line, msg, in, context, end);
    _fail(file, line);
    abort(); /* _fail does not return inside a test */
}

/* ---- test-side memory -------------------------------------------------------------------- */

/* A header before each block links it into the list of live blocks (16 bytes: alignment). */
typedef struct xblock {
    struct xblock *prev, *next;
} xblock;

static xblock xlist = {&xlist, &xlist};

static void xlink(xblock *b)
{
    b->next = xlist.next;
    b->prev = &xlist;
    xlist.next->prev = b;
    xlist.next = b;
}

static void xunlink(xblock *b)
{
    b->prev->next = b->next;
    b->next->prev = b->prev;
}

void *tst_xrealloc(void *ptr, size_t size)
{
    xblock *old = ptr ? (xblock *)ptr - 1 : NULL;
    if (old)
        xunlink(old); /* realloc may move it */
    xblock *b = realloc(old, sizeof *b + (size ? size : 1));
    if (!b) {
        if (old)
            xlink(old); /* still listed, so the teardown frees it */
        TST_FAIL("test: out of memory (%zu bytes)", size);
    }
    xlink(b);
    return b + 1;
}

void *tst_xcalloc(size_t count, size_t size)
{
    TST_CHECK(!size || count <= SIZE_MAX / size, "test: calloc size overflows");
    void *p = tst_xrealloc(NULL, count * size);
    memset(p, 0, count * size);
    return p;
}

void tst_xfree(void *ptr)
{
    if (!ptr)
        return;
    xblock *b = (xblock *)ptr - 1;
    xunlink(b);
    free(b);
}

void tst_xfree_all(void)
{
    while (xlist.next != &xlist)
        tst_xfree(xlist.next + 1);
}

/* ---- the test allocator ------------------------------------------------------------------ */

static size_t block_find(const tst_alloc *a, const void *ptr)
{
    for (size_t i = 0; i < a->block_count; i++)
        if (a->blocks[i].ptr == ptr)
            return i;
    return SIZE_MAX;
}

static void *tst_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    tst_alloc *a = ctx;
    TST_CHECK(new_size != 0, "allocator: realloc with new_size 0 (the contract says never)");
    a->calls++;
    if (a->fail_at && (a->calls == a->fail_at || (a->persistent && a->calls > a->fail_at))) {
        a->failures++;
        return NULL;
    }
    size_t i = SIZE_MAX, was = 0;
    if (ptr) {
        i = block_find(a, ptr);
        TST_CHECK(i != SIZE_MAX, "allocator: realloc of %p, a block this world does not hold",
                  ptr);
        was = a->blocks[i].size;
    } else if (a->block_count == a->block_capacity) {
        size_t cap = a->block_capacity ? 2 * a->block_capacity : 64;
        tst_block *b = realloc(a->blocks, cap * sizeof *b);
        TST_CHECK(b != NULL, "test allocator: out of memory for its own table");
        a->blocks = b;
        a->block_capacity = cap;
    }
    /*
     * Always a fresh block at ECSB_BLOCK_ALIGN, as the contract promises: keeps exactly
     * min(old_size, new_size) bytes (old_size is a hint, at most the block's size) and poisons
     * the rest, so a strategy relying on bytes past what it said it had sees garbage.
     */
    unsigned char *p = aligned_alloc(ECSB_BLOCK_ALIGN, (new_size + ECSB_BLOCK_ALIGN - 1) &
                                                           ~(size_t)(ECSB_BLOCK_ALIGN - 1));
    if (!p)
        return NULL; /* a real failure: the caller must cope like with an injected one */
    size_t keep = ptr ? (old_size < was ? old_size : was) : 0;
    keep = keep < new_size ? keep : new_size;
    if (keep)
        memcpy(p, ptr, keep);
    memset(p + keep, TST_POISON, new_size - keep);
    free(ptr);
    if (i == SIZE_MAX)
        i = a->block_count++;
    a->blocks[i].ptr = p;
    a->blocks[i].size = new_size;
    a->live_bytes = a->live_bytes - was + new_size;
    a->bytes_requested += new_size;
    return p;
}

static void tst_free(void *ctx, void *ptr, size_t size)
{
    tst_alloc *a = ctx;
    (void)size; /* a hint only */
    if (!ptr)
        return;
    size_t i = block_find(a, ptr);
    TST_CHECK(i != SIZE_MAX, "allocator: free of %p, a block this world does not hold", ptr);
    a->live_bytes -= a->blocks[i].size;
    a->blocks[i] = a->blocks[--a->block_count];
    free(ptr);
}

static void alloc_init(tst_alloc *a)
{
    memset(a, 0, sizeof *a);
    a->allocator.realloc = tst_realloc;
    a->allocator.free = tst_free;
    a->allocator.ctx = a;
}

/* Free every block still held, the table, the world's memory and the allocator itself. */
static void alloc_destroy(tst_alloc *a)
{
    for (size_t i = 0; i < a->block_count; i++)
        free(a->blocks[i].ptr);
    free(a->blocks);
    free(a->world_memory);
    free(a);
}

/* ---- worlds ------------------------------------------------------------------------------ */

/* Allocators of the worlds not yet finished: a failed test leaves some for its teardown. */
#define MAX_OPEN_WORLDS 8
static tst_alloc *open_worlds[MAX_OPEN_WORLDS];

int tst_setup(void **state)
{
    (void)state;
    tst_context = NULL;
    return 0;
}

int tst_teardown(void **state)
{
    (void)state;
    /* Only a failed test leaves worlds open: free what they hold without world_fini. */
    for (int i = 0; i < MAX_OPEN_WORLDS; i++)
        if (open_worlds[i]) {
            alloc_destroy(open_worlds[i]);
            open_worlds[i] = NULL;
        }
    tst_xfree_all();
    return 0;
}

ecsb_world_config tst_config(uint32_t type_count, const uint32_t *sizes)
{
    ecsb_world_config c;
    memset(&c, 0, sizeof c);
    c.type_count = type_count;
    for (uint32_t t = 0; t < type_count && t < ECSB_MAX_TYPES; t++)
        c.type_size[t] = sizes[t];
    return c;
}

ecsb_world_config tst_config3(void) { return tst_config(TST_TYPES, tst_sizes); }

void tw_open(tst_world *tw)
{
    memset(tw, 0, sizeof *tw);
    tw->ops = tst_strategy->ops;
    int slot = 0;
    while (slot < MAX_OPEN_WORLDS && open_worlds[slot])
        slot++;
    TST_CHECK(slot < MAX_OPEN_WORLDS, "test bug: more than %d worlds open", MAX_OPEN_WORLDS);
    tw->alloc = malloc(sizeof *tw->alloc);
    TST_CHECK(tw->alloc != NULL, "test: out of memory");
    alloc_init(tw->alloc);
    open_worlds[slot] = tw->alloc;
    size_t size = (tw->ops->world_size + 63) & ~(size_t)63;
    tw->w = tw->alloc->world_memory = aligned_alloc(64, size ? size : 64);
    TST_CHECK(tw->w != NULL, "out of memory for a world of %zu bytes", tw->ops->world_size);
    tw->check_valid = true;
}

ecsb_status tw_try_init(tst_world *tw, const ecsb_world_config *config)
{
    TST_CHECK(!tw->live, "test bug: world_init on a live world");
    tw->config = *config;
    tw->config.allocator = &tw->alloc->allocator;
    memset(tw->w, TST_POISON, tw->ops->world_size); /* world_init must set every field */
    ecsb_status st = tw->ops->world_init(tw->w, &tw->config);
    tw->live = st == ECSB_OK;
    return st;
}

void tw_init(tst_world *tw, const ecsb_world_config *config)
{
    tw_open(tw);
    TST_STATUS(tw_try_init(tw, config), ECSB_OK, "world_init");
    tw_expect_valid(tw);
}

void tw_fini(tst_world *tw)
{
    if (tw->live) {
        tw->ops->world_fini(tw->w);
        tw->live = false;
    }
    TST_CHECK(tw->alloc->block_count == 0, "leak: %zu blocks (%zu bytes) still allocated after "
              "world_fini (or after a world_init that failed)", tw->alloc->block_count,
              tw->alloc->live_bytes);
    for (int i = 0; i < MAX_OPEN_WORLDS; i++)
        if (open_worlds[i] == tw->alloc)
            open_worlds[i] = NULL;
    alloc_destroy(tw->alloc);
    tw->alloc = NULL;
    tw->w = NULL;
}

void tw_fail_in(tst_world *tw, size_t k, bool persistent)
{
    tw->alloc->fail_at = k ? tw->alloc->calls + k : 0;
    tw->alloc->persistent = persistent;
    tw->alloc->failures = 0;
}

void tw_succeed(tst_world *tw) { tw->alloc->fail_at = 0; }

void tw_expect_valid(tst_world *tw)
{
    TST_CHECK(tw->ops->world_valid(tw->w), "world_valid returned false");
}

static void after_call(tst_world *tw, const char *what)
{
    if (tw->check_valid)
        TST_CHECK(tw->ops->world_valid(tw->w), "world_valid false after %s", what);
}

ecsb_entity tw_create(tst_world *tw)
{
    ecsb_entity e = ECSB_ENTITY_NULL;
    TST_STATUS(tw->ops->entity_create(tw->w, &e), ECSB_OK, "entity_create");
    TST_CHECK(e != ECSB_ENTITY_NULL, "entity_create gave ECSB_ENTITY_NULL");
    after_call(tw, "entity_create");
    return e;
}

ecsb_entity tw_spawn(tst_world *tw, const ecsb_type *types, uint32_t count, const uint64_t *seeds)
{
    ecsb_entity e = ECSB_ENTITY_NULL;
    void *v[ECSB_MAX_TYPES];
    TST_CHECK(count <= ECSB_MAX_TYPES, "test bug: spawn of %u types", count);
    TST_STATUS(tw->ops->entity_spawn(tw->w, types, count, &e, v), ECSB_OK, "entity_spawn");
    TST_CHECK(e != ECSB_ENTITY_NULL, "entity_spawn gave ECSB_ENTITY_NULL");
    for (uint32_t j = 0; j < count; j++) {
        TST_CHECK(v[j] != NULL, "entity_spawn returned ECSB_OK with a NULL value %u", j);
        TST_CHECK(tw->config.type_size[types[j]] || v[j] == ECSB_TAG,
                  "entity_spawn handed out %p for tag type %u, not ECSB_TAG", v[j], types[j]);
        tst_pattern(v[j], tw->config.type_size[types[j]], seeds[j]);
    }
    after_call(tw, "entity_spawn");
    return e;
}

void tw_destroy(tst_world *tw, ecsb_entity e)
{
    TST_STATUS(tw->ops->entity_destroy(tw->w, e), ECSB_OK, "entity_destroy");
    after_call(tw, "entity_destroy");
}

void *tw_add(tst_world *tw, ecsb_entity e, ecsb_type type, uint64_t seed)
{
    void *v = NULL;
    TST_STATUS(tw->ops->component_add(tw->w, e, type, &v), ECSB_OK, "component_add");
    TST_CHECK(v != NULL, "component_add returned ECSB_OK with a NULL value");
    TST_CHECK(tw->config.type_size[type] || v == ECSB_TAG,
              "component_add handed out %p for tag type %u, not ECSB_TAG", v, type);
    tst_pattern(v, tw->config.type_size[type], seed);
    after_call(tw, "component_add");
    return v;
}

void tw_remove(tst_world *tw, ecsb_entity e, ecsb_type type)
{
    TST_STATUS(tw->ops->component_remove(tw->w, e, type), ECSB_OK, "component_remove");
    after_call(tw, "component_remove");
}

void tw_set(tst_world *tw, ecsb_entity e, ecsb_type type, uint64_t seed)
{
    void *v = tw->ops->component_get(tw->w, e, type);
    TST_CHECK(v != NULL, "component_get returned NULL for a held component (type %u)", type);
    tst_pattern(v, tw->config.type_size[type], seed);
}

void tw_expect_value(tst_world *tw, ecsb_entity e, ecsb_type type, uint64_t seed)
{
    TST_CHECK(tw->ops->entity_alive(tw->w, e), "entity 0x%llx should be alive",
              (unsigned long long)e);
    TST_CHECK(tw->ops->component_has(tw->w, e, type), "entity 0x%llx should hold type %u",
              (unsigned long long)e, type);
    const void *v = tw->ops->component_get(tw->w, e, type);
    TST_CHECK(v != NULL, "component_get of entity 0x%llx type %u returned NULL",
              (unsigned long long)e, type);
    TST_CHECK(tw->config.type_size[type] || v == ECSB_TAG,
              "component_get of entity 0x%llx tag type %u returned %p, not ECSB_TAG",
              (unsigned long long)e, type, v);
    TST_CHECK(tst_pattern_is(v, tw->config.type_size[type], seed),
              "entity 0x%llx type %u: get returned a value other than the one written",
              (unsigned long long)e, type);
}

void tw_expect_absent(tst_world *tw, ecsb_entity e, ecsb_type type)
{
    TST_CHECK(tw->ops->entity_alive(tw->w, e), "entity 0x%llx should be alive",
              (unsigned long long)e);
    TST_CHECK(!tw->ops->component_has(tw->w, e, type), "entity 0x%llx should not hold type %u",
              (unsigned long long)e, type);
    TST_CHECK(tw->ops->component_get(tw->w, e, type) == NULL,
              "component_get of entity 0x%llx type %u should be NULL (absent)",
              (unsigned long long)e, type);
}

void tw_expect_stale(tst_world *tw, ecsb_entity e)
{
    const ecsb_vtable *ops = tw->ops;
    unsigned long long h = e;
    TST_CHECK(!ops->entity_alive(tw->w, e), "entity_alive(0x%llx) true for a stale handle", h);
    for (ecsb_type t = 0; t < tw->config.type_count; t++) {
        TST_CHECK(ops->component_get(tw->w, e, t) == NULL,
                  "component_get(0x%llx, %u) not NULL for a stale handle", h, t);
        TST_CHECK(!ops->component_has(tw->w, e, t),
                  "component_has(0x%llx, %u) true for a stale handle", h, t);
        void *v = &v; /* must become NULL */
        ecsb_status st = ops->component_add(tw->w, e, t, &v);
        TST_CHECK(st == ECSB_ERR_STALE, "component_add(0x%llx, %u): got %s, want %s", h, t,
                  ecsb_status_str(st), ecsb_status_str(ECSB_ERR_STALE));
        TST_CHECK(v == NULL, "component_add(0x%llx, %u) failed but left *value_out non-NULL", h,
                  t);
        st = ops->component_remove(tw->w, e, t);
        TST_CHECK(st == ECSB_ERR_STALE, "component_remove(0x%llx, %u): got %s, want %s", h, t,
                  ecsb_status_str(st), ecsb_status_str(ECSB_ERR_STALE));
    }
    ecsb_status st = ops->entity_destroy(tw->w, e);
    TST_CHECK(st == ECSB_ERR_STALE, "entity_destroy(0x%llx): got %s, want %s", h,
              ecsb_status_str(st), ecsb_status_str(ECSB_ERR_STALE));
    after_call(tw, "operations on a stale handle");
}

/* ---- values and randomness --------------------------------------------------------------- */

uint64_t tst_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

void tst_pattern(void *dst, size_t size, uint64_t seed)
{
    unsigned char *p = dst;
    for (size_t i = 0; i < size; i += 8) {
        uint64_t x = tst_mix64(seed * 0x100000001b3ull + i);
        size_t n = size - i < 8 ? size - i : 8;
        memcpy(p + i, &x, n);
    }
}

bool tst_pattern_is(const void *p, size_t size, uint64_t seed)
{
    unsigned char want[ECSB_MAX_TYPE_SIZE];
    if (size > sizeof want)
        return false;
    tst_pattern(want, size, seed);
    return memcmp(p, want, size) == 0;
}

uint64_t tst_rng_next(tst_rng *r)
{
    r->s += 0x9e3779b97f4a7c15ull;
    uint64_t x = r->s;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

uint64_t tst_rng_below(tst_rng *r, uint64_t n) { return tst_rng_next(r) % n; }

/* ---- visits ------------------------------------------------------------------------------ */

static void visits_push(tst_visits *v, ecsb_entity e)
{
    if (v->count == v->capacity) {
        size_t cap = v->capacity ? 2 * v->capacity : 256;
        v->entities = tst_xrealloc(v->entities, cap * sizeof *v->entities);
        v->capacity = cap;
    }
    if ((v->count + 1) * v->width + 1 > v->bytes_capacity) { /* + 1: never NULL (tags) */
        size_t cap = v->bytes_capacity ? 2 * v->bytes_capacity : 4096;
        while (cap < (v->count + 1) * v->width)
            cap *= 2;
        v->bytes = tst_xrealloc(v->bytes, cap);
        v->bytes_capacity = cap;
    }
    v->entities[v->count] = e;
}

/* One run: per entity its handle, its values (a NULL column records zeros: the comparison
 * shows it), and whether each value sits where get(handle) says. */
static void on_visit_run(void *ctx, size_t count, void *const *columns)
{
    tst_visits *v = ctx;
    const ecsb_entity *handles = columns[v->k];
    for (size_t i = 0; i < count; i++) {
        ecsb_entity e = handles ? handles[i] : ECSB_ENTITY_NULL;
        visits_push(v, e);
        unsigned char *dst = v->bytes + v->count * v->width;
        bool placed = handles != NULL;
        for (uint32_t j = 0; j < v->k; j++) {
            const unsigned char *value =
                columns[j] ? (const unsigned char *)columns[j] + i * v->sizes[j] : NULL;
            if (value)
                memcpy(dst, value, v->sizes[j]);
            else
                memset(dst, 0, v->sizes[j]);
            dst += v->sizes[j];
            placed &= value && v->tw->ops->component_get(v->tw->w, e, v->types[j]) == value;
        }
        v->misplaced += !placed;
        v->count++;
    }
}

static uint32_t size_of(const tst_world *tw, ecsb_type t)
{
    return t < tw->config.type_count ? tw->config.type_size[t] : 0;
}

void tst_visits_query(tst_visits *v, tst_world *tw, const ecsb_query *q)
{
    v->count = v->misplaced = v->width = 0;
    v->tw = tw;
    v->k = q->count <= ECSB_MAX_QUERY_TYPES ? q->count : 0;
    for (uint32_t j = 0; j < v->k; j++) {
        v->types[j] = q->types[j];
        v->sizes[j] = size_of(tw, q->types[j]);
        v->width += v->sizes[j];
    }
    ecsb_query with = *q;
    with.entities = true;
    v->status = tw->ops->query(tw->w, &with, on_visit_run, v);
}

const unsigned char *tst_visit_value(const tst_visits *v, size_t i, uint32_t j)
{
    const unsigned char *p = v->bytes + i * v->width;
    for (uint32_t c = 0; c < j; c++)
        p += v->sizes[c];
    return p;
}

size_t tst_visits_find(const tst_visits *v, ecsb_entity e)
{
    size_t found = SIZE_MAX;
    for (size_t i = 0; i < v->count; i++)
        if (v->entities[i] == e) {
            TST_CHECK(found == SIZE_MAX, "entity 0x%llx visited more than once",
                      (unsigned long long)e);
            found = i;
        }
    return found;
}

void tst_visits_free(tst_visits *v)
{
    tst_xfree(v->entities);
    tst_xfree(v->bytes);
    memset(v, 0, sizeof *v);
}

/* ---- query tuples ------------------------------------------------------------------------ */

ecsb_query tst_query(uint32_t n, const ecsb_type *types)
{
    ecsb_query q;
    memset(&q, 0, sizeof q);
    q.count = n;
    for (uint32_t j = 0; j < n && j < ECSB_MAX_QUERY_TYPES; j++)
        q.types[j] = types[j];
    return q;
}

ecsb_query tst_query_without(uint32_t n, const ecsb_type *types, uint32_t x,
                             const ecsb_type *excluded)
{
    ecsb_query q = tst_query(n, types);
    q.exclude_count = x;
    for (uint32_t j = 0; j < x && j < ECSB_MAX_QUERY_EXCLUDES; j++)
        q.exclude[j] = excluded[j];
    return q;
}

void tst_tuples_push(tst_tuples *v, const void *tuple)
{
    if ((v->count + 1) * v->width + 1 > v->capacity) { /* + 1: never NULL (tags) */
        size_t cap = v->capacity ? 2 * v->capacity : 4096;
        while (cap < (v->count + 1) * v->width)
            cap *= 2;
        v->bytes = tst_xrealloc(v->bytes, cap);
        v->capacity = cap;
    }
    if (v->width)
        memcpy(v->bytes + v->count * v->width, tuple, v->width);
    v->count++;
}

static void on_query(void *ctx, size_t count, void *const *columns)
{
    tst_tuples *v = ctx;
    v->runs++;
    bool ok = count >= 1;
    for (uint32_t j = 0; j < v->k; j++) {
        ok &= columns[j] != NULL;
        v->misaligned += columns[j] && (uintptr_t)columns[j] % v->aligns[j] != 0;
        v->bad_tags += v->sizes[j] == 0 && columns[j] != ECSB_TAG;
    }
    if (!ok) {
        v->bad_runs++;
        return;
    }
    unsigned char tuple[ECSB_MAX_QUERY_TYPES * ECSB_MAX_TYPE_SIZE];
    for (size_t i = 0; i < count; i++) {
        size_t at = 0;
        for (uint32_t j = 0; j < v->k; j++) {
            memcpy(tuple + at, (const unsigned char *)columns[j] + i * v->sizes[j], v->sizes[j]);
            at += v->sizes[j];
        }
        tst_tuples_push(v, tuple);
    }
}

static size_t tuple_width; /* of the tuples being sorted */

static int cmp_tuple(const void *x, const void *y) { return memcmp(x, y, tuple_width); }

void tst_tuples_sort(tst_tuples *v)
{
    tuple_width = v->width;
    if (v->count > 1 && v->width)
        qsort(v->bytes, v->count, v->width, cmp_tuple);
}

void tst_tuples_query(tst_tuples *v, tst_world *tw, const ecsb_query *q)
{
    v->count = v->runs = v->width = v->bad_runs = v->misaligned = v->bad_tags = 0;
    v->k = q->count <= ECSB_MAX_QUERY_TYPES ? q->count : 0;
    for (uint32_t j = 0; j < v->k; j++) {
        ecsb_type t = q->types[j];
        bool ok = t < tw->config.type_count;
        v->sizes[j] = ok ? tw->config.type_size[t] : 0;
        v->aligns[j] = ok ? ecsb_type_align(&tw->config, t) : 1;
        v->width += v->sizes[j];
    }
    v->status = tw->ops->query(tw->w, q, on_query, v);
    tst_tuples_sort(v);
}

const char *tst_tuples_diff(const tst_tuples *got, const tst_tuples *want)
{
    static char why[200];
    if (got->bad_runs || got->misaligned || got->bad_tags) {
        snprintf(why, sizeof why, "%zu runs with count 0 or a NULL column, %zu misaligned "
                 "columns, %zu tag columns other than ECSB_TAG", got->bad_runs, got->misaligned,
                 got->bad_tags);
        return why;
    }
    if (got->count != want->count) {
        snprintf(why, sizeof why, "%zu entities visited, want %zu", got->count, want->count);
        return why;
    }
    for (size_t i = 0; i < got->count; i++)
        if (memcmp(got->bytes + i * got->width, want->bytes + i * want->width, got->width)) {
            snprintf(why, sizeof why, "the value tuples differ (sorted tuple #%zu of %zu): a "
                     "wrong, missing or doubled entity, or a run whose columns are not its "
                     "entities' values", i, got->count);
            return why;
        }
    return NULL;
}

void tst_tuples_free(tst_tuples *v)
{
    tst_xfree(v->bytes);
    memset(v, 0, sizeof *v);
}

/* ---- snapshots --------------------------------------------------------------------------- */

typedef struct handle_index {
    ecsb_entity handle;
    uint64_t index;
} handle_index;

static int cmp_handle_index(const void *x, const void *y)
{
    const handle_index *a = x, *b = y;
    return a->handle < b->handle ? -1 : a->handle > b->handle;
}

static size_t record_size; /* of the visit records being sorted */

static int cmp_record(const void *x, const void *y) { return memcmp(x, y, record_size); }

typedef struct buffer {
    unsigned char *data;
    size_t size, capacity;
} buffer;

static unsigned char *buffer_grow(buffer *b, size_t n)
{
    if (b->size + n > b->capacity) {
        size_t cap = b->capacity ? b->capacity : 1024;
        while (cap < b->size + n)
            cap *= 2;
        b->data = tst_xrealloc(b->data, cap);
        b->capacity = cap;
    }
    unsigned char *p = b->data + b->size;
    b->size += n;
    return p;
}

/* Append one visit set as sorted records: tracked index (big-endian, so memcmp sorts), values. */
static void append_visit_set(buffer *out, tst_snapshot *s, const tst_visits *v,
                             const handle_index *map, size_t live)
{
    size_t rec = 8 + v->width;
    uint64_t head[3] = {v->status, v->count, v->misplaced};
    memcpy(buffer_grow(out, sizeof head), head, sizeof head);
    size_t start = out->size;
    for (size_t i = 0; i < v->count; i++) {
        handle_index key = {v->entities[i], 0};
        const handle_index *hit = bsearch(&key, map, live, sizeof *map, cmp_handle_index);
        uint64_t index = hit ? hit->index : UINT64_MAX;
        if (!hit)
            s->untracked_visits++;
        unsigned char *r = buffer_grow(out, rec);
        for (int k = 0; k < 8; k++)
            r[k] = (unsigned char)(index >> (56 - 8 * k));
        memcpy(r + 8, tst_visit_value(v, i, 0), v->width);
    }
    record_size = rec;
    if (v->count > 1)
        qsort(out->data + start, v->count, rec, cmp_record);
}

void tst_snapshot_take(tst_snapshot *s, tst_world *tw, const ecsb_entity *tracked, size_t n)
{
    const ecsb_vtable *ops = tw->ops;
    void *w = tw->w;
    uint32_t types = tw->config.type_count;
    memset(s, 0, sizeof *s);
    s->entity_count = ops->entity_count(w);
    for (ecsb_type t = 0; t < types; t++)
        s->component_count[t] = ops->component_count(w, t);

    s->entity_bytes = 1;
    for (ecsb_type t = 0; t < types; t++)
        s->entity_bytes += 2 + tw->config.type_size[t];
    buffer state = {0};
    handle_index *map = tst_xrealloc(NULL, (n ? n : 1) * sizeof *map);
    size_t live = 0;
    for (size_t i = 0; i < n; i++) {
        bool alive = ops->entity_alive(w, tracked[i]);
        *buffer_grow(&state, 1) = alive;
        if (alive)
            map[live++] = (handle_index){tracked[i], i};
        for (ecsb_type t = 0; t < types; t++) {
            const void *v = ops->component_get(w, tracked[i], t);
            unsigned char *r = buffer_grow(&state, 2 + tw->config.type_size[t]);
            r[0] = ops->component_has(w, tracked[i], t);
            r[1] = v != NULL;
            if (v)
                memcpy(r + 2, v, tw->config.type_size[t]);
            else
                memset(r + 2, 0, tw->config.type_size[t]);
        }
    }
    qsort(map, live, sizeof *map, cmp_handle_index);
    for (size_t i = 1; i < live; i++)
        s->duplicate_handles += map[i].handle == map[i - 1].handle;

    buffer visits = {0};
    tst_visits v = {0};
    for (ecsb_type a = 0; a < types; a++)
        for (ecsb_type b = 0; b < types; b++) {
            ecsb_type pair[2] = {a, b};
            if (a > b)
                continue; /* {a, b} and {b, a}: the same set; {a, a} stands for {a} */
            ecsb_query q = tst_query(a == b ? 1 : 2, pair);
            tst_visits_query(&v, tw, &q);
            append_visit_set(&visits, s, &v, map, live);
            if (a != b) { /* and in the other column order */
                ecsb_type swapped[2] = {b, a};
                q = tst_query(2, swapped);
                tst_visits_query(&v, tw, &q);
                append_visit_set(&visits, s, &v, map, live);
            }
        }
    tst_visits_free(&v);
    tst_xfree(map);
    /* Every subset of the first four types, as a query (each tuple set with its count). */
    uint32_t qtypes = types < 4 ? types : 4;
    buffer queries = {0};
    tst_tuples tu = {0};
    for (uint32_t set = 1; set < (1u << qtypes); set++) {
        ecsb_type list[4];
        uint32_t k = 0;
        for (ecsb_type t = 0; t < qtypes; t++)
            if (set & (1u << t))
                list[k++] = t;
        ecsb_query q = tst_query(k, list);
        tst_tuples_query(&tu, tw, &q);
        uint64_t head[3] = {tu.status, tu.count, tu.bad_runs + tu.misaligned};
        memcpy(buffer_grow(&queries, sizeof head), head, sizeof head);
        if (tu.count != 0 && tu.width != 0)
            memcpy(buffer_grow(&queries, tu.count * tu.width), tu.bytes, tu.count * tu.width);
    }
    tst_tuples_free(&tu);
    s->queries = queries.data;
    s->queries_bytes = queries.size;
    s->handles = tst_xrealloc(NULL, (n ? n : 1) * sizeof *s->handles);
    if (n)
        memcpy(s->handles, tracked, n * sizeof *tracked);
    s->handle_count = n;
    s->state = state.data;
    s->state_bytes = state.size;
    s->visits = visits.data;
    s->visits_bytes = visits.size;
    s->valid = ops->world_valid(w);
}

const char *tst_snapshot_diff(const tst_snapshot *x, const tst_snapshot *y)
{
    static char why[160];
    if (x->valid != y->valid)
        return x->valid ? "world_valid became false" : "world_valid became true";
    if (x->entity_count != y->entity_count) {
        snprintf(why, sizeof why, "entity_count %zu -> %zu", x->entity_count, y->entity_count);
        return why;
    }
    for (int t = 0; t < (int)ECSB_MAX_TYPES; t++)
        if (x->component_count[t] != y->component_count[t]) {
            snprintf(why, sizeof why, "component_count(type %d) %zu -> %zu", t,
                     x->component_count[t], y->component_count[t]);
            return why;
        }
    if (x->state_bytes != y->state_bytes)
        return "the number of tracked entities differs";
    for (size_t i = 0; i < x->state_bytes; i++)
        if (x->state[i] != y->state[i]) {
            snprintf(why, sizeof why, "tracked entity #%zu: alive, has, get or its value differs",
                     i / x->entity_bytes);
            return why;
        }
    if (x->visits_bytes != y->visits_bytes ||
        (x->visits_bytes && memcmp(x->visits, y->visits, x->visits_bytes) != 0))
        return "the visit sets of the queries with handles differ";
    if (x->queries_bytes != y->queries_bytes ||
        (x->queries_bytes && memcmp(x->queries, y->queries, x->queries_bytes) != 0))
        return "the query() visit sets differ";
    for (size_t i = 0; i < x->handle_count && i < y->handle_count; i++)
        if (x->handles[i] != y->handles[i]) {
            snprintf(why, sizeof why, "tracked entity #%zu has handle 0x%llx, was 0x%llx (same "
                     "operations, another handle: an id used up by a failed call?)", i,
                     (unsigned long long)y->handles[i], (unsigned long long)x->handles[i]);
            return why;
        }
    if (x->untracked_visits != y->untracked_visits)
        return "visits of untracked entities differ";
    if (x->duplicate_handles != y->duplicate_handles)
        return "live tracked entities sharing a handle differ";
    return NULL;
}

void tst_snapshot_free(tst_snapshot *s)
{
    tst_xfree(s->state);
    tst_xfree(s->visits);
    tst_xfree(s->handles);
    tst_xfree(s->queries);
    memset(s, 0, sizeof *s);
}
