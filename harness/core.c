/* core.c — statuses, configuration checking and the shared allocator, used by all. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness/ecsb.h"

const char *ecsb_status_str(ecsb_status status)
{
    static const char *const text[ECSB_STATUS_COUNT] = {
        [ECSB_OK] = "ok",
        [ECSB_ERR_STALE] = "stale entity (null, destroyed, or never issued)",
        [ECSB_ERR_ABSENT] = "component absent",
        [ECSB_ERR_PRESENT] = "component already present",
        [ECSB_ERR_TYPE] = "component type out of range",
        [ECSB_ERR_CAPACITY] = "capacity exhausted",
        [ECSB_ERR_NOMEM] = "out of memory",
        [ECSB_ERR_CONFIG] = "world configuration out of range",
        [ECSB_ERR_QUERY] = ("query names no type, too many, or one twice (excluding an "
                            "included type too)"),
        [ECSB_ERR_ITERATING] = "structural change inside a query callback on the same world",
    };
    return (unsigned)status < ECSB_STATUS_COUNT ? text[status] : "unknown status";
}

ecsb_status ecsb_config_check(const ecsb_world_config *config)
{
    if (!config || config->type_count == 0 || config->type_count > ECSB_MAX_TYPES)
        return ECSB_ERR_CONFIG;
    for (uint32_t t = 0; t < config->type_count; t++)
        if (config->type_size[t] > ECSB_MAX_TYPE_SIZE)
            return ECSB_ERR_CONFIG;
    if (config->max_entities > ECSB_MAX_ENTITIES)
        return ECSB_ERR_CONFIG;
    if (config->max_entities && config->initial_capacity > config->max_entities)
        return ECSB_ERR_CONFIG;
    for (uint32_t t = 0; t < config->type_count; t++) {
        uint32_t align = config->type_align[t];
        if (align && ((align & (align - 1)) || align > ECSB_MAX_TYPE_ALIGN ||
                      config->type_size[t] == 0 || config->type_size[t] % align))
            return ECSB_ERR_CONFIG;
    }
    if (config->query_count > ECSB_MAX_QUERIES)
        return ECSB_ERR_CONFIG;
    for (uint32_t q = 0; q < config->query_count; q++) {
        uint32_t mask;
        if (ecsb_query_check(&config->queries[q], config->type_count, &mask) != ECSB_OK)
            return ECSB_ERR_CONFIG;
    }
    return ECSB_OK;
}

uint32_t ecsb_type_align(const ecsb_world_config *config, ecsb_type t)
{
    if (config->type_align[t])
        return config->type_align[t];
    uint32_t size = config->type_size[t];
    if (size == 0)
        return 1; /* a tag: its pointer is ECSB_TAG, aligned for anything */
    uint32_t natural = size & -size; /* the lowest set bit: the largest power of two dividing */
    return natural < 16 ? natural : 16;
}

uint32_t ecsb_config_tags(const ecsb_world_config *config)
{
    uint32_t tags = 0;
    for (uint32_t t = 0; t < config->type_count && t < ECSB_MAX_TYPES; t++)
        tags |= (uint32_t)(config->type_size[t] == 0) << t;
    return tags;
}

/* Where every pointer to a tag's "value" points: zero bytes, aligned for any type. */
_Alignas(ECSB_BLOCK_ALIGN) unsigned char ecsb_tag_storage[ECSB_BLOCK_ALIGN];

ecsb_status ecsb_query_check(const ecsb_query *q, uint32_t type_count, uint32_t *mask)
{
    *mask = 0;
    if (q->count == 0 || q->count > ECSB_MAX_QUERY_TYPES ||
        q->exclude_count > ECSB_MAX_QUERY_EXCLUDES)
        return ECSB_ERR_QUERY;
    /* Every named type, included then excluded: none twice (whatever its range), then range. */
    ecsb_type named[ECSB_MAX_QUERY_TYPES + ECSB_MAX_QUERY_EXCLUDES];
    uint32_t n = 0;
    for (uint32_t j = 0; j < q->count; j++)
        named[n++] = q->types[j];
    for (uint32_t j = 0; j < q->exclude_count; j++)
        named[n++] = q->exclude[j];
    bool out_of_range = false;
    for (uint32_t j = 0; j < n; j++) {
        out_of_range |= named[j] >= type_count;
        for (uint32_t i = 0; i < j; i++)
            if (named[i] == named[j])
                return ECSB_ERR_QUERY;
    }
    if (out_of_range)
        return ECSB_ERR_TYPE;
    for (uint32_t j = 0; j < q->count; j++)
        *mask |= 1u << q->types[j];
    return ECSB_OK;
}

/* ---- the shared allocator: 64-byte aligned blocks at sampled placements ----------------- */

/*
 * Where a block lands decides how fast identical loops over it run: two arrays whose
 * addresses differ by a multiple of 4 KiB alias in the store-to-load forwarding check and
 * share L1 sets, and glibc places large blocks (mmap) at the same page offset every time. So
 * a measured layout could win or lose by the heap's luck, once per world (Mytkowicz et al.,
 * "Producing wrong data without doing anything obviously wrong!", ASPLOS 2009). When a seed
 * is set (the suite sets the run's), every block gets a pad of 0..63 whole cache lines (0 to
 * 4032 bytes: every line offset within a 4 KiB page) drawn afresh, so each freshly built world
 * sits at a freshly drawn placement, and a time averaged over several worlds is the average
 * over placements (docs/measuring.md). Without a seed the pad is 0 (tests, for exact
 * sanitizer reports).
 *
 * A block: [base, 64-byte aligned] [pad] [one header line: its base] [the block ...]. The
 * header and pad are poisoned under AddressSanitizer, so an underflow is still reported.
 */
#if defined(__SANITIZE_ADDRESS__)
#define ECSB_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ECSB_ASAN 1
#endif
#endif
#ifdef ECSB_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define HEADER ECSB_BLOCK_ALIGN
#define BLOCK_MAGIC 0xec5bb10c4a11c0deull

static uint64_t placement_state; /* 0: no pad */

void ecsb_placement_seed(uint64_t seed)
{
    /* splitmix64 of the seed: any seed but 0 gives a well-mixed, non-zero state */
    uint64_t z = seed + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    placement_state = seed ? (z ^ (z >> 31)) | 1 : 0;
}

size_t ecsb_placement_pad(void)
{
    if (!placement_state)
        return 0;
    placement_state ^= placement_state << 13; /* xorshift64 */
    placement_state ^= placement_state >> 7;
    placement_state ^= placement_state << 17;
    return (size_t)(placement_state >> 58) * ECSB_BLOCK_ALIGN; /* 0 .. 63 lines */
}

void *ecsb_block_alloc(size_t size)
{
    size_t pad = ecsb_placement_pad();
    size_t rounded = (size + ECSB_BLOCK_ALIGN - 1) & ~(size_t)(ECSB_BLOCK_ALIGN - 1);
    if (size > SIZE_MAX - HEADER - ECSB_PLACEMENT_MAX_PAD - ECSB_BLOCK_ALIGN)
        return NULL;
    unsigned char *base = aligned_alloc(ECSB_BLOCK_ALIGN, HEADER + pad + (rounded ? rounded : ECSB_BLOCK_ALIGN));
    if (!base)
        return NULL;
    unsigned char *block = base + HEADER + pad;
    uint64_t header[2] = {BLOCK_MAGIC, (uint64_t)(uintptr_t)base};
    memcpy(block - sizeof header, header, sizeof header);
    POISON(base, HEADER + pad);
    return block;
}

void ecsb_block_free(void *ptr)
{
    if (!ptr)
        return;
    unsigned char *block = ptr;
    uint64_t header[2];
    UNPOISON(block - sizeof header, sizeof header);
    memcpy(header, block - sizeof header, sizeof header);
    if (header[0] != BLOCK_MAGIC)
        abort(); /* not a block of ours, or its header was overwritten */
    unsigned char *base = (unsigned char *)(uintptr_t)header[1];
    UNPOISON(base, (size_t)(block - base));
    free(base);
}

/* A resize copies (growth is geometric, so each byte is copied O(1) times amortised). */
static void *libc_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    (void)ctx;
    void *p = ecsb_block_alloc(new_size);
    if (!p)
        return NULL;
    if (ptr) {
        memcpy(p, ptr, old_size < new_size ? old_size : new_size);
        ecsb_block_free(ptr);
    }
    return p;
}

static void libc_free(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    (void)size;
    ecsb_block_free(ptr);
}

const ecsb_allocator ecsb_libc_allocator = {libc_realloc, libc_free, NULL};
