/* core.c — statuses, configuration checking and the default allocator, shared by all. */
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
        [ECSB_ERR_QUERY] = "query names no type, too many, or one twice",
        [ECSB_ERR_ITERATING] = "structural change inside a query callback on the same world",
    };
    return (unsigned)status < ECSB_STATUS_COUNT ? text[status] : "unknown status";
}

ecsb_status ecsb_config_check(const ecsb_world_config *config)
{
    if (!config || config->type_count == 0 || config->type_count > ECSB_MAX_TYPES)
        return ECSB_ERR_CONFIG;
    for (uint32_t t = 0; t < config->type_count; t++)
        if (config->type_size[t] == 0 || config->type_size[t] > ECSB_MAX_TYPE_SIZE)
            return ECSB_ERR_CONFIG;
    if (config->max_entities > ECSB_MAX_ENTITIES)
        return ECSB_ERR_CONFIG;
    if (config->max_entities && config->initial_capacity > config->max_entities)
        return ECSB_ERR_CONFIG;
    for (uint32_t t = 0; t < config->type_count; t++) {
        uint32_t align = config->type_align[t];
        if (align && ((align & (align - 1)) || align > ECSB_MAX_TYPE_ALIGN ||
                      config->type_size[t] % align))
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
    uint32_t natural = size & -size; /* the lowest set bit: the largest power of two dividing */
    return natural < 16 ? natural : 16;
}

ecsb_status ecsb_query_check(const ecsb_query *q, uint32_t type_count, uint32_t *mask)
{
    *mask = 0;
    if (q->count == 0 || q->count > ECSB_MAX_QUERY_TYPES)
        return ECSB_ERR_QUERY;
    uint64_t seen = 0; /* 64 bits: types up to 63 checked for repeats before range */
    bool out_of_range = false;
    for (uint32_t j = 0; j < q->count; j++) {
        ecsb_type t = q->types[j];
        if (t >= type_count) {
            out_of_range = true;
            for (uint32_t i = 0; i < j; i++)
                if (q->types[i] == t)
                    return ECSB_ERR_QUERY;
            continue;
        }
        if (seen & ((uint64_t)1 << t))
            return ECSB_ERR_QUERY;
        seen |= (uint64_t)1 << t;
    }
    if (out_of_range)
        return ECSB_ERR_TYPE;
    *mask = (uint32_t)seen;
    return ECSB_OK;
}

/*
 * C's realloc promises only 16-byte alignment, so blocks come from aligned_alloc and a resize
 * copies (growth is geometric, so each byte is copied O(1) times amortised).
 */
static void *libc_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    (void)ctx;
    if (new_size > SIZE_MAX - (ECSB_BLOCK_ALIGN - 1))
        return NULL;
    void *p = aligned_alloc(ECSB_BLOCK_ALIGN, (new_size + ECSB_BLOCK_ALIGN - 1) &
                                                  ~(size_t)(ECSB_BLOCK_ALIGN - 1));
    if (!p)
        return NULL;
    if (ptr) {
        memcpy(p, ptr, old_size < new_size ? old_size : new_size);
        free(ptr);
    }
    return p;
}

static void libc_free(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    (void)size;
    free(ptr);
}

const ecsb_allocator ecsb_libc_allocator = {libc_realloc, libc_free, NULL};
