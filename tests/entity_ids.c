/*
 * entity_ids.c — the shared entity-id unit (harness/entity_ids.h) on its own: slots,
 * generations, the LIFO free list, retirement, capacity, failed allocations and the checks.
 * Run once (group "entity_ids"); the strategies built on it get the conformance suites too.
 */
#include <stdlib.h>

#include "harness/entity_ids.h"
#include "tests/suites.h"
#include "tests/support.h"

/* An allocator over libc that fails while `failing` is set. */
static struct {
    ecsb_allocator allocator;
    bool failing;
    size_t live_blocks;
} mem;

static void *mem_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    (void)ctx, (void)old_size;
    if (mem.failing)
        return NULL;
    void *p = realloc(ptr, new_size);
    mem.live_blocks += p && !ptr;
    return p;
}

static void mem_free(void *ctx, void *ptr, size_t size)
{
    (void)ctx, (void)size;
    mem.live_blocks--;
    free(ptr);
}

/* Ids with records of `stride` words; first_generation and max_entities as given (0: default). */
static void ids_open(ecsb_ids *ids, uint32_t stride, uint32_t first_generation,
                     uint32_t max_entities)
{
    mem.allocator = (ecsb_allocator){mem_realloc, mem_free, NULL};
    mem.failing = false;
    mem.live_blocks = 0;
    ecsb_world_config c = tst_config3();
    c.allocator = &mem.allocator;
    c.first_generation = first_generation;
    c.max_entities = max_entities;
    TST_STATUS(ecsb_ids_init(ids, &c, stride), ECSB_OK, "ecsb_ids_init");
    TST_CHECK(ecsb_ids_valid(ids) && ecsb_ids_count(ids) == 0, "new ids not empty and valid");
}

static void ids_close(ecsb_ids *ids)
{
    ecsb_ids_fini(ids);
    TST_CHECK(mem.live_blocks == 0, "ids leaked %zu blocks", mem.live_blocks);
}

/* Every field equal (the block may have moved: compare its contents apart). */
static bool same_ids(const ecsb_ids *a, const ecsb_ids *b)
{
    return a->alloc == b->alloc && a->stride == b->stride && a->slots == b->slots &&
           a->cap == b->cap && a->live == b->live && a->free_head == b->free_head &&
           a->max_entities == b->max_entities && a->first_generation == b->first_generation;
}

static ecsb_entity create(ecsb_ids *ids)
{
    ecsb_entity e;
    TST_STATUS(ecsb_ids_create(ids, ids->stride, NULL, NULL, &e), ECSB_OK, "ecsb_ids_create");
    TST_CHECK(e != ECSB_ENTITY_NULL && ecsb_ids_alive(ids, ids->stride, e),
              "created 0x%llx not alive", (unsigned long long)e);
    TST_CHECK(ecsb_ids_valid(ids), "invalid after create");
    return e;
}

static void destroy(ecsb_ids *ids, ecsb_entity e)
{
    TST_CHECK(ecsb_ids_alive(ids, ids->stride, e), "destroy of a dead handle");
    ecsb_ids_free(ids, ids->stride, e);
    TST_CHECK(!ecsb_ids_alive(ids, ids->stride, e), "destroyed 0x%llx still alive",
              (unsigned long long)e);
    TST_CHECK(ecsb_ids_valid(ids), "invalid after destroy");
}

void entity_ids_create_destroy_and_lifo_reuse(void **state)
{
    (void)state;
    ecsb_ids ids;
    ids_open(&ids, 1, 0, 0);
    ecsb_entity e[4];
    for (uint32_t i = 0; i < 4; i++) {
        e[i] = create(&ids);
        TST_CHECK(ecsb_handle_index(e[i]) == i && ecsb_handle_generation(e[i]) == 1,
                  "fresh entity %u: got 0x%llx", i, (unsigned long long)e[i]);
        TST_CHECK(ecsb_ids_handle(&ids, 1, i) == e[i], "handle of slot %u", i);
    }
    destroy(&ids, e[1]);
    destroy(&ids, e[3]);
    TST_CHECK(ecsb_ids_count(&ids) == 2, "count %zu, want 2", ecsb_ids_count(&ids));
    /* LIFO: slot 3 (freed last) first, then slot 1, each one generation on; then a fresh one. */
    ecsb_entity a = create(&ids), b = create(&ids), c = create(&ids);
    TST_CHECK(a == ecsb_handle_make(3, 2) && b == ecsb_handle_make(1, 2) &&
                  c == ecsb_handle_make(4, 1),
              "reuse order: 0x%llx 0x%llx 0x%llx", (unsigned long long)a,
              (unsigned long long)b, (unsigned long long)c);
    TST_CHECK(ecsb_ids_count(&ids) == 5 && ids.slots == 5, "count %zu slots %u",
              ecsb_ids_count(&ids), ids.slots);
    TST_CHECK(!ecsb_ids_alive(&ids, 1, ECSB_ENTITY_NULL) &&
                  !ecsb_ids_alive(&ids, 1, ecsb_handle_make(5, 1)) &&
                  !ecsb_ids_alive(&ids, 1, ecsb_handle_make(0, 2)),
              "the null handle, a never-used slot or a future generation is alive");
    ids_close(&ids);
}

void entity_ids_handles_of_earlier_lives_stay_stale(void **state)
{
    (void)state;
    ecsb_ids ids;
    ids_open(&ids, 1, 0, 0);
    ecsb_entity bystander = create(&ids), history[64];
    for (int life = 0; life < 64; life++) {
        history[life] = create(&ids);
        TST_CHECK(ecsb_handle_index(history[life]) == 1, "life %d not in slot 1", life);
        for (int k = 0; k < life; k++)
            TST_CHECK(history[k] != history[life] && !ecsb_ids_alive(&ids, 1, history[k]),
                      "life %d's handle alive or reissued in life %d", k, life);
        destroy(&ids, history[life]);
    }
    TST_CHECK(ecsb_ids_alive(&ids, 1, bystander), "the bystander died");
    ids_close(&ids);
}

/* Spawn's rollback: undoing a create that reused the last slot puts the slot back on the free
 * list at its new generation; the slot is not fresh (treating it as fresh would drop it from
 * the slots, and the next create would issue the slot's first generation: b's old handle). */
void entity_ids_uncreate_of_a_reused_last_slot_keeps_old_handles_stale(void **state)
{
    (void)state;
    ecsb_ids ids;
    ids_open(&ids, 1, 0, 0);
    ecsb_entity a = create(&ids), b = create(&ids);
    destroy(&ids, b);
    ecsb_entity c = create(&ids);
    TST_CHECK(ecsb_handle_index(c) == ecsb_handle_index(b) && ids.slots == 2,
              "c 0x%llx did not reuse b's last slot", (unsigned long long)c);
    ecsb_ids_uncreate(&ids, 1, c);
    TST_CHECK(ecsb_ids_valid(&ids) && ecsb_ids_count(&ids) == 1 && !ecsb_ids_alive(&ids, 1, c),
              "uncreate left c alive or the ids invalid");
    ecsb_entity d = create(&ids);
    TST_CHECK(d != b && !ecsb_ids_alive(&ids, 1, b),
              "create after an undone reuse gave destroyed b's handle 0x%llx again",
              (unsigned long long)b);
    TST_CHECK(d == c, "the undone create's handle 0x%llx not issued again: got 0x%llx",
              (unsigned long long)c, (unsigned long long)d);
    TST_CHECK(ecsb_ids_alive(&ids, 1, a), "a died");
    ids_close(&ids);
}

/* Undoing a create of a fresh slot gives the slot back: the next create issues it again. */
void entity_ids_uncreate_of_a_fresh_slot_gives_the_slot_back(void **state)
{
    (void)state;
    ecsb_ids ids;
    ids_open(&ids, 1, 0, 0);
    ecsb_entity a = create(&ids), b = create(&ids);
    ecsb_ids_uncreate(&ids, 1, b);
    TST_CHECK(ecsb_ids_valid(&ids) && ids.slots == 1 && ids.free_head == ECSB_IDS_NONE &&
                  ecsb_ids_count(&ids) == 1,
              "fresh slot not given back: slots %u", ids.slots);
    TST_CHECK(create(&ids) == b && ecsb_ids_alive(&ids, 1, a), "b not issued again");
    ids_close(&ids);
}

void entity_ids_exhausted_generation_retires_the_slot(void **state)
{
    (void)state;
    ecsb_ids ids;
    ids_open(&ids, 1, UINT32_MAX - 1, 0);
    ecsb_entity a = create(&ids);
    destroy(&ids, a);
    ecsb_entity b = create(&ids); /* slot 0's last generation */
    TST_CHECK(b == ecsb_handle_make(0, UINT32_MAX), "last life: got 0x%llx",
              (unsigned long long)b);
    destroy(&ids, b);
    TST_CHECK(ids.free_head == ECSB_IDS_NONE, "a slot with no generation left was freed");
    ecsb_entity c = create(&ids);
    TST_CHECK(ecsb_handle_index(c) == 1, "retired slot 0 reused: got 0x%llx",
              (unsigned long long)c);
    for (uint64_t g = 0; g <= 2; g++) /* generation 0 would make slot 0's handle null */
        TST_CHECK(!ecsb_ids_alive(&ids, 1, ecsb_handle_make(0, (uint32_t)(UINT32_MAX + g))),
                  "a handle of retired slot 0 is alive");
    TST_CHECK(ecsb_ids_count(&ids) == 1, "count %zu", ecsb_ids_count(&ids));
    ids_close(&ids);
}

void entity_ids_capacity_counts_live_and_retired_slots(void **state)
{
    (void)state;
    ecsb_ids ids;
    ids_open(&ids, 1, 0, 3);
    ecsb_entity e[3], out = 1;
    for (int i = 0; i < 3; i++)
        e[i] = create(&ids);
    ecsb_ids before = ids;
    TST_STATUS(ecsb_ids_create(&ids, 1, NULL, NULL, &out), ECSB_ERR_CAPACITY, "4th of 3");
    TST_CHECK(out == ECSB_ENTITY_NULL && same_ids(&before, &ids) && before.word == ids.word,
              "a refused create changed *out or the ids");
    destroy(&ids, e[0]);
    create(&ids);
    ids_close(&ids);

    /* One generation per slot: every create retires a slot; the fourth finds no id left. */
    ids_open(&ids, 1, UINT32_MAX, 3);
    for (int i = 0; i < 3; i++)
        destroy(&ids, create(&ids));
    before = ids;
    TST_STATUS(ecsb_ids_create(&ids, 1, NULL, NULL, &out), ECSB_ERR_CAPACITY,
               "create with every slot retired");
    TST_CHECK(out == ECSB_ENTITY_NULL && same_ids(&before, &ids) && before.word == ids.word &&
                  ecsb_ids_count(&ids) == 0,
              "a refused create changed *out or the ids");
    ids_close(&ids);
}

/* A grow hook for stride-2 records: fills the new records' second word, or fails. */
static size_t hook_calls;
static bool hook_fails;
static ecsb_status hook(void *owner, size_t old_cap, size_t cap)
{
    ecsb_ids *ids = owner;
    hook_calls++;
    TST_CHECK(old_cap == ids->cap && cap > old_cap, "hook: %zu -> %zu, ids at %u", old_cap,
              cap, ids->cap);
    if (hook_fails)
        return ECSB_ERR_NOMEM;
    for (size_t i = old_cap; i < cap; i++)
        ecsb_ids_record(ids, 2, (uint32_t)i)[1] = 1000 + i;
    return ECSB_OK;
}

void entity_ids_growth_keeps_records_and_calls_the_owners_hook(void **state)
{
    (void)state;
    ecsb_ids ids;
    ids_open(&ids, 2, 0, 0);
    hook_calls = 0;
    hook_fails = false;
    for (uint32_t i = 0; i < 100; i++) {
        ecsb_entity e;
        TST_STATUS(ecsb_ids_create(&ids, 2, hook, &ids, &e), ECSB_OK, "create");
        TST_CHECK(ecsb_ids_alive(&ids, 2, e) && ecsb_handle_index(e) == i, "entity %u", i);
    }
    TST_CHECK(hook_calls >= 2 && hook_calls <= 4, "%zu grows for 100 slots", hook_calls);
    for (uint32_t i = 0; i < 100; i++)
        TST_CHECK(ecsb_ids_record(&ids, 2, i)[1] == 1000 + i &&
                      ecsb_ids_handle(&ids, 2, i) == ecsb_handle_make(i, 1),
                  "record %u lost in growth", i);
    TST_CHECK(ecsb_ids_bytes(&ids) == (size_t)ids.cap * 16, "bytes %zu for cap %u",
              ecsb_ids_bytes(&ids), ids.cap);
    TST_CHECK(ecsb_ids_valid(&ids), "invalid after growth");
    ids_close(&ids);
}

/* Fill the ids to their capacity, then make the next create's growth fail. */
static void expect_failed_growth(ecsb_ids *ids, bool in_hook)
{
    while (ids->slots < ids->cap || ids->slots == 0) {
        ecsb_entity e;
        TST_STATUS(ecsb_ids_create(ids, 2, hook, ids, &e), ECSB_OK, "create");
    }
    ecsb_ids before = ids[0];
    uint64_t words[64];
    TST_CHECK(ids->slots <= 32, "test too big");
    memcpy(words, ids->word, (size_t)ids->slots * 16);
    mem.failing = !in_hook;
    hook_fails = in_hook;
    ecsb_entity out = 1;
    TST_STATUS(ecsb_ids_create(ids, 2, hook, ids, &out), ECSB_ERR_NOMEM,
               in_hook ? "create whose owner's growth fails" : "create whose growth fails");
    mem.failing = hook_fails = false;
    TST_CHECK(out == ECSB_ENTITY_NULL && same_ids(&before, ids) &&
                  memcmp(words, ids->word, (size_t)ids->slots * 16) == 0,
              "a failed create changed *out or the ids");
    TST_CHECK(ecsb_ids_valid(ids), "invalid after a failed create");
    TST_STATUS(ecsb_ids_create(ids, 2, hook, ids, &out), ECSB_OK, "create after failures");
}

void entity_ids_failed_growth_returns_nomem_and_changes_nothing(void **state)
{
    (void)state;
    ecsb_ids ids;
    ids_open(&ids, 2, 0, 0);
    expect_failed_growth(&ids, false);
    expect_failed_growth(&ids, true);
    ids_close(&ids);
    ecsb_world_config c = tst_config3();
    c.allocator = &mem.allocator;
    c.initial_capacity = 10;
    TST_STATUS(ecsb_ids_init(&ids, &c, 1), ECSB_OK, "init");
    mem.failing = true;
    TST_STATUS(ecsb_ids_reserve(&ids, &c, NULL, NULL), ECSB_ERR_NOMEM, "failed reserve");
    mem.failing = false;
    TST_CHECK(ids.cap == 0 && ecsb_ids_valid(&ids), "a failed reserve changed the ids");
    TST_STATUS(ecsb_ids_reserve(&ids, &c, NULL, NULL), ECSB_OK, "reserve");
    TST_CHECK(ids.cap == 10, "reserved %u, want 10", ids.cap);
    ids_close(&ids);
}

/* Ids with live, free (two listed) and retired slots. */
static void build_mixed(ecsb_ids *ids)
{
    ids_open(ids, 1, UINT32_MAX - 1, 0);
    ecsb_entity e[6];
    for (int i = 0; i < 6; i++)
        e[i] = create(ids);
    destroy(ids, e[0]);
    destroy(ids, create(ids)); /* slot 0 again, its last generation: retired */
    destroy(ids, e[2]);
    destroy(ids, e[4]);
}

void entity_ids_valid_catches_every_corrupt_damage(void **state)
{
    (void)state;
    ecsb_ids ids;
    build_mixed(&ids);
    TST_CHECK(ids.word[0] == ECSB_IDS_RETIRED && ids.free_head == 4, "set-up");
    unsigned which = 0;
    for (int r; (r = ecsb_ids_corrupt(&ids, which)) != -1; which++) {
        TST_CHECK(r == 1, "damage %u not applied to mixed ids", which);
        TST_CHECK(!ecsb_ids_valid(&ids), "damage %u not caught", which);
        ecsb_ids_corrupt(&ids, which);
        TST_CHECK(ecsb_ids_valid(&ids), "damage %u applied twice did not restore", which);
    }
    TST_CHECK(which == ECSB_IDS_CORRUPT_COUNT, "%u damages, ECSB_IDS_CORRUPT_COUNT %u", which,
              ECSB_IDS_CORRUPT_COUNT);

    /* Hand-made damage beyond world_corrupt's: each caught. */
    struct {
        const char *what;
        uint32_t slot;
        uint64_t word;
    } bad[] = {
        {"a free-list cycle", 2, (uint64_t)UINT32_MAX << 32 | 4},
        {"a free slot off the list", 4, (uint64_t)UINT32_MAX << 32 | ECSB_IDS_NONE},
        {"a live slot on the list", 4, ecsb_handle_make(4, UINT32_MAX - 1)},
        {"a live generation below the first", 1, ecsb_handle_make(1, 7)},
        {"a free generation not past the first", 2,
         (uint64_t)(UINT32_MAX - 1) << 32 | ECSB_IDS_NONE},
        {"a link past the slots", 2, (uint64_t)UINT32_MAX << 32 | 6},
        {"generation 0 that is not retired", 0, 0},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        uint64_t keep = ids.word[bad[k].slot];
        ids.word[bad[k].slot] = bad[k].word;
        TST_CHECK(!ecsb_ids_valid(&ids), "not caught: %s", bad[k].what);
        ids.word[bad[k].slot] = keep;
        TST_CHECK(ecsb_ids_valid(&ids), "restored %s still invalid", bad[k].what);
    }
    uint32_t slots = ids.slots;
    ids.slots = ids.cap + 1;
    TST_CHECK(!ecsb_ids_valid(&ids), "not caught: slots past the capacity");
    ids.slots = slots;
    ids_close(&ids);

    ids_open(&ids, 1, 0, 0); /* empty: only the live count to damage */
    TST_CHECK(ecsb_ids_corrupt(&ids, 0) == 1 && !ecsb_ids_valid(&ids), "empty, damage 0");
    ecsb_ids_corrupt(&ids, 0);
    TST_CHECK(ecsb_ids_corrupt(&ids, 1) == 0 && ecsb_ids_corrupt(&ids, 2) == 0 &&
                  ecsb_ids_valid(&ids),
              "empty ids: damage 1 or 2 applied");
    ids_close(&ids);
}
