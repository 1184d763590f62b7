/* core.c — statuses, configuration checking and the default allocator, shared by all. */
#include <stdlib.h>

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
    return ECSB_OK;
}

static void *libc_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    (void)ctx;
    (void)old_size;
    return realloc(ptr, new_size);
}

static void libc_free(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    (void)size;
    free(ptr);
}

const ecsb_allocator ecsb_libc_allocator = {libc_realloc, libc_free, NULL};
