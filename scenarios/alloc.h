/*
 * alloc.h — where scenario state, floors and limits get their memory: the shared allocator
 * every world uses (harness/core.c, ecsb_block_alloc), so each block sits at a sampled
 * placement (a drawn pad of whole cache lines before it) exactly as the layouts' blocks do.
 * Every array a scenario, floor or limit allocates comes from here and goes back through
 * ecsb_array_free (a block from malloc would abort there): no malloc, calloc, realloc or free
 * anywhere else in scenarios/ (tests/scripts/test_scenario_alloc.sh fails on one).
 */
#ifndef ECSB_SCENARIOS_ALLOC_H
#define ECSB_SCENARIOS_ALLOC_H

#include <stdint.h>
#include <string.h>

#include "harness/ecsb.h"

/*
 * Zeroed, 64-byte aligned scenario state (worlds want cache-line alignment) from the shared
 * allocator; NULL on failure. Release with ecsb_array_free().
 */
static inline void *ecsb_state_alloc(size_t size)
{
    void *p = ecsb_block_alloc(size);
    if (p)
        memset(p, 0, size);
    return p;
}

/*
 * An array of n elements (at least one, so n = 0 is not a failure) from the shared allocator
 * every world uses (harness/core.c): 64-byte aligned and at a sampled placement, so the floor
 * and the limit sit in memory as the layouts they are compared with do; NULL on failure.
 * Release with ecsb_array_free().
 */
static inline void *ecsb_array_alloc(uint64_t n, size_t size)
{
    return ecsb_block_alloc((size_t)(n ? n : 1) * size);
}

/* As ecsb_array_alloc, zeroed. */
static inline void *ecsb_array_zalloc(uint64_t n, size_t size)
{
    void *p = ecsb_array_alloc(n, size);
    if (p)
        memset(p, 0, (size_t)(n ? n : 1) * size);
    return p;
}

static inline void ecsb_array_free(void *p) { ecsb_block_free(p); }

#endif
