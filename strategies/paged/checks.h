/*
 * paged/checks.h — world_valid (every invariant of ids, pages, pools and groups), world_bytes and world_corrupt (the testing aid).
 * One part of strategies/paged_sparse_set.h, which includes the parts in order (storage.h,
 * views.h, checks.h) after setting PAGED_OWNING_GROUPS; include that header, not this one.
 */

/* ---- checks ------------------------------------------------------------------------------ */

/* Slots: each live (its own index) or free (on the free list); versions 1..255 (wrapping). */
static bool slots_valid(const world *w)
{
    uint32_t live = 0, free_count = 0;
    for (uint32_t i = 0; i < w->slots; i++) {
        uint32_t word = w->ids[i], version = id_version(word), low = id_index(word);
        if (version == 0)
            return false;
        if (low == i) {
            live++;
        } else {
            if (low != INDEX_NONE && low >= w->slots)
                return false;
            free_count++;
        }
    }
    if (live != w->live)
        return false;
    /* The free list reaches every free slot exactly once (a cycle would exceed free_count). */
    uint32_t reached = 0;
    for (uint32_t i = w->free_head; i != INDEX_NONE; i = id_index(w->ids[i])) {
        if (i >= w->slots || reached == free_count || id_index(w->ids[i]) == i)
            return false;
        reached++;
    }
    return reached == free_count;
}

/*
 * A pool: dense -> sparse and sparse -> dense agree, holders are live with the same version;
 * the page table covers [0, cap), with pages allocated only below the slots in use.
 */
static bool pool_valid(const world *w, const pool *p, size_t *pages)
{
    if ((p->size == 0 && p->values != ECSB_TAG) || p->size > ECSB_MAX_TYPE_SIZE ||
        p->count > p->cap || p->room != (p->group == NO_GROUP && !p->excluded_by ? p->cap : 0) ||
        p->count > w->live ||
        (p->cap && (!p->dense || p->bytes != ecsb_pool_block_bytes(p->cap, p->size))))
        return false;
    for (uint32_t k = 0; k < p->count; k++) {
        uint32_t id = p->dense[k], i = id_index(id);
        if (i >= w->slots || w->ids[i] != id || *sparse_entry(p, i) != ((id & ~ID_INDEX_MASK) | k))
            return false;
    }
    for (uint32_t page = 0; page < w->page_count; page++) {
        const uint32_t *entries = p->pages[page];
        if (entries == ZERO_PAGE)
            continue;
        if (!entries || ((size_t)page << PAGE_BITS) >= w->slots)
            return false;
        ++*pages;
        for (uint32_t e = 0; e < PAGE_SIZE; e++) {
            uint32_t entry = entries[e], i = page << PAGE_BITS | e, pos = id_index(entry);
            if (entry != SPARSE_ABSENT &&
                (pos >= p->count || p->dense[pos] != ((entry & ~ID_INDEX_MASK) | i)))
                return false;
        }
    }
    return true;
}

/*
 * A group: it owns its types and no other group does, and the pools of the types it excludes
 * know it; the first size entries of each owned pool are the same entities in the same order,
 * each holding none of the excluded types, and no entity past them belongs in the group.
 */
static bool group_valid(const world *w, const group *g, uint32_t index, uint32_t *owned)
{
    uint32_t mask = 0;
    if (g->count < 2 || g->count > ECSB_MAX_QUERY_TYPES)
        return false;
    for (uint32_t j = 0; j < g->count; j++) {
        ecsb_type t = g->types[j];
        if (t >= w->type_count || w->pools[t].group != index || g->size > w->pools[t].count)
            return false;
        mask |= 1u << t;
    }
    if (mask != g->mask || (mask & *owned) || (g->without & mask) ||
        ((uint64_t)g->without >> w->type_count))
        return false;
    for (uint32_t t = 0; t < w->type_count; t++)
        if (((w->pools[t].excluded_by >> index) & 1u) != ((g->without >> t) & 1u))
            return false;
    *owned |= mask;
    const pool *first = &w->pools[g->types[0]];
    for (uint32_t d = 0; d < g->size; d++)
        if (!group_complete(w, g, first->dense[d]))
            return false;
    for (uint32_t j = 1; g->size && j < g->count; j++)
        if (memcmp(first->dense, w->pools[g->types[j]].dense, g->size * sizeof(uint32_t)))
            return false;
    for (uint32_t d = g->size; d < first->count; d++)
        if (group_complete(w, g, first->dense[d]))
            return false;
    return true;
}

static bool world_valid(const world *w)
{
    if (w->type_count == 0 || w->type_count > ECSB_MAX_TYPES || w->slots > w->cap ||
        w->cap > INDEX_NONE || w->live > w->slots || w->live > w->max_entities ||
        (w->cap && !w->tables) ||
        w->page_count != pages_for(w->cap) || w->first_version == 0 ||
        w->first_version > ID_VERSION_MAX || w->group_count > ECSB_MAX_QUERIES ||
        (!PAGED_OWNING_GROUPS && w->group_count) || !slots_valid(w))
        return false;
    size_t pages = 0;
    uint32_t owned = 0, grouped = 0;
    for (uint32_t t = 0; t < w->type_count; t++) {
        const pool *p = &w->pools[t];
        if ((w->cap && p->pages != w->tables + (size_t)t * w->page_count) ||
            !pool_valid(w, p, &pages))
            return false;
        if (p->group != NO_GROUP)
            grouped |= 1u << t;
    }
    /* The type indexes past type_count: empty pools on the empty table, all zero pages. */
    uint32_t *const *empty = w->cap ? w->tables + (size_t)w->type_count * w->page_count : NULL;
    for (uint32_t t = w->type_count; t < ECSB_MAX_TYPES; t++)
        if (w->pools[t].count || w->pools[t].room || (w->cap && w->pools[t].pages != empty))
            return false;
    for (uint32_t k = 0; w->cap && k < w->page_count; k++)
        if (empty[k] != ZERO_PAGE)
            return false;
    for (uint32_t g = 0; g < w->group_count; g++)
        if (!group_valid(w, &w->groups[g], g, &owned))
            return false;
    return pages == w->pages_allocated && owned == grouped;
}

static size_t world_bytes(const world *w)
{
    size_t bytes = sizeof *w + entity_block_bytes(w, w->cap) +
                   w->pages_allocated * PAGE_SIZE * sizeof(uint32_t);
    for (uint32_t t = 0; t < w->type_count; t++)
        bytes += w->pools[t].bytes;
    return bytes;
}

/* ---- testing aid: reversible damage, one number per invariant world_valid checks --------- */

/* The first holder of any type: its pool into *p, or false when nothing is held. */
static bool some_holder(world *w, pool **p)
{
    for (uint32_t t = 0; t < w->type_count; t++)
        if (w->pools[t].count) {
            *p = &w->pools[t];
            return true;
        }
    return false;
}

/*
 * At the first page index where two types have pages, swap the first two types' pages (the
 * same choice after the swap: it is undone by doing it again); 0 when their entries are equal.
 */
static int swap_pages(world *w)
{
    for (uint32_t page = 0; page < w->page_count; page++) {
        uint32_t **first = NULL;
        for (uint32_t t = 0; t < w->type_count; t++) {
            uint32_t **at = &w->pools[t].pages[page];
            if (*at == ZERO_PAGE)
                continue;
            if (!first) {
                first = at;
                continue;
            }
            if (!memcmp(*first, *at, PAGE_SIZE * sizeof(uint32_t)))
                return 0;
            uint32_t *tmp = *first;
            *first = *at;
            *at = tmp;
            return 1;
        }
    }
    return 0;
}

/* The first group with at least `size` members and `more` entries past them in its first pool. */
static group *some_group(world *w, uint32_t size, uint32_t more)
{
    for (uint32_t g = 0; g < w->group_count; g++)
        if (w->groups[g].size >= size &&
            w->pools[w->groups[g].types[0]].count >= w->groups[g].size + more)
            return &w->groups[g];
    return NULL;
}

enum {
    DAMAGE_LIVE_SLOT,     /* a live slot's word stops naming its index: live count, free list */
    DAMAGE_FREE_HEAD,     /* the free list starts elsewhere */
    DAMAGE_SLOT_VERSION,  /* a holder's slot word changes version: dense id vs live id */
    DAMAGE_ENTRY_VERSION, /* a holder's sparse entry changes version */
    DAMAGE_ENTRY_POS,     /* a holder's sparse entry points elsewhere */
    DAMAGE_DENSE_ORDER,   /* two dense ids swap without their sparse entries */
    DAMAGE_PAGE_COUNT,    /* the allocated-page count world_bytes reports */
    DAMAGE_PAGE_TABLE,    /* two types' pages at one page index swap */
    DAMAGE_GROUP_ORDER,   /* a group's front differs in order between owned pools */
    DAMAGE_GROUP_MEMBER,  /* a non-member enters one owned pool's front */
    DAMAGE_GROUP_SIZE,    /* the front is one too long or too short */
    DAMAGE_GROUP_OWNER,   /* an owned pool forgets its group */
    DAMAGE_COUNT
};

static int world_corrupt(world *w, unsigned which)
{
    pool *p;
    group *g;
    if (which >= (PAGED_OWNING_GROUPS ? (unsigned)DAMAGE_COUNT : (unsigned)DAMAGE_GROUP_ORDER))
        return -1;
    switch (which) {
    case DAMAGE_LIVE_SLOT:
        /* The first live slot, or one that was live before this damage (undoing it). */
        for (uint32_t i = 0; i < w->slots; i++)
            if (id_index(w->ids[i]) == i || id_index(w->ids[i]) == (i ^ 1)) {
                w->ids[i] ^= 1;
                return 1;
            }
        return 0;
    case DAMAGE_FREE_HEAD:
        if (w->free_head == INDEX_NONE || w->free_head == (INDEX_NONE ^ 1))
            return 0;
        w->free_head ^= 1;
        return 1;
    case DAMAGE_SLOT_VERSION:
        if (!some_holder(w, &p))
            return 0;
        w->ids[id_index(p->dense[0])] ^= 1u << ID_INDEX_BITS;
        return 1;
    case DAMAGE_ENTRY_VERSION:
    case DAMAGE_ENTRY_POS:
        if (!some_holder(w, &p))
            return 0;
        *sparse_entry(p, id_index(p->dense[0])) ^= which == DAMAGE_ENTRY_POS ? 1 : 1u << ID_INDEX_BITS;
        return 1;
    case DAMAGE_DENSE_ORDER:
        for (uint32_t t = 0; t < w->type_count; t++) {
            p = &w->pools[t];
            if (p->count >= 2) {
                uint32_t tmp = p->dense[0];
                p->dense[0] = p->dense[1];
                p->dense[1] = tmp;
                return 1;
            }
        }
        return 0;
    case DAMAGE_PAGE_COUNT:
        w->pages_allocated ^= 1;
        return 1;
    case DAMAGE_PAGE_TABLE:
        return swap_pages(w);
    case DAMAGE_GROUP_ORDER:
        if (!(g = some_group(w, 2, 0)))
            return 0;
        pool_swap(&w->pools[g->types[0]], 0, 1);
        return 1;
    case DAMAGE_GROUP_MEMBER:
        if (!(g = some_group(w, 1, 1)))
            return 0;
        pool_swap(&w->pools[g->types[0]], g->size - 1, g->size);
        return 1;
    case DAMAGE_GROUP_SIZE:
        if (!w->group_count)
            return 0;
        w->groups[0].size ^= 1;
        return 1;
    default: /* DAMAGE_GROUP_OWNER */
        if (!w->group_count)
            return 0;
        w->pools[w->groups[0].types[0]].group ^= NO_GROUP; /* group 0 <-> NO_GROUP */
        return 1;
    }
}
