/* platformer's floor: a stack of hp values, the two spawns on top of the originals, and the
 * originals laid out in the order they die (the newest on top in a regular world, the drawn
 * kill order in a shuffled one): each round's victim is on top in every world, so the work
 * is the same in every world, as a layout that kept them in kill order would make it. */
#include "scenarios/defs/platformer.h"
typedef struct floor_platformer {
    int32_t *hp; /* hp[k]: the original that dies in round count - 1 - k, then the spawns */
    uint64_t n, count, sum, kills;
} floor_platformer;

static void floor_platformer_release(void *state)
{
    floor_platformer *s = state;
    if (s) {
        ecsb_array_free(s->hp);
    }
    ecsb_array_free(s);
}

static ecsb_status floor_platformer_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    floor_platformer *s = *out = ecsb_state_alloc(sizeof *s);
    if (!s)
        return ECSB_ERR_NOMEM;
    s->hp = ecsb_array_alloc(n + 2, sizeof *s->hp);
    ecsb_world_order order = {0};
    bool ok = s->hp && ecsb_world_order_make(&order, n, p, PLATFORMER_SALT);
    if (!ok) {
        ecsb_world_order_free(&order);
        floor_platformer_release(s);
        *out = NULL;
        return ECSB_ERR_NOMEM;
    }
    const uint32_t *kill_at = order.rank; /* the body's kill order: round -> serial */
    for (uint64_t k = 0; k < n; k++)
        s->hp[k] = platformer_original_hp(kill_at ? kill_at[n - 1 - k] : k);
    ecsb_world_order_free(&order);
    s->n = s->count = n;
    return ECSB_OK;
}

static void floor_platformer_memory(void *state, uint64_t *bytes, uint64_t *entities)
{
    floor_platformer *s = state;
    *bytes = sizeof *s + (s->n + 2) * sizeof *s->hp;
    *entities = s->count;
}

static ecsb_status floor_platformer_pass(void *state)
{
    floor_platformer *s = state;
    int32_t *restrict hp = s->hp;
    uint64_t sum = s->sum, top = s->count;
    for (uint64_t round = 0; round < s->n; round++) {
        hp[top] = platformer_spawn_hp(round, 0);     /* e1 at top, e2 at top + 1 */
        hp[top + 1] = platformer_spawn_hp(round, 1);
        /* the round's original (on top) dies, then e1, then e2 (each weighted by its kill) */
        sum += (uint32_t)hp[top - 1] * ecsb_weight(3 * round);
        hp[top - 1] = hp[top];                       /* close the gap: e1, e2 shift down */
        hp[top] = hp[top + 1];
        sum += (uint32_t)hp[top - 1] * ecsb_weight(3 * round + 1);
        hp[top - 1] = hp[top];
        sum += (uint32_t)hp[top - 1] * ecsb_weight(3 * round + 2);
        top -= 1;
    }
    s->kills += 3 * (s->count - top);
    s->count = top;
    s->sum = sum;
    return ECSB_OK;
}

static uint64_t floor_platformer_checksum(void *state)
{
    floor_platformer *s = state;
    uint64_t h = ecsb_mix(ecsb_mix(ECSB_CHECKSUM_SEED, s->sum), s->kills);
    /* Same fold as the strategies: live entities * 1000003 + hp holders, both equal here. */
    return ecsb_mix(h, s->count * 1000003u + s->count);
}
