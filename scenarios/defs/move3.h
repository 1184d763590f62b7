/* defs/move3.h — move3's own definitions, shared by its body (scenarios/move3.h), its floor *
 * (floors/move3.h) and its limit (limits/move3.h). */
#ifndef ECSB_SCENARIOS_DEFS_MOVE3_H
#define ECSB_SCENARIOS_DEFS_MOVE3_H

#include "scenarios/common.h"

/* move3: pos, vel (float[3]) on every entity, mass (float) on every 4th (i % 4 == 0). */
typedef struct move3_vec {
    float v[3];
} move3_vec;
static inline move3_vec move3_pos0(uint64_t i)
{
    move3_vec p;
    for (int c = 0; c < 3; c++)
        p.v[c] = (float)((i * 3 + (uint64_t)c) % 1024) * 0.5f + 1.0f;
    return p;
}
static inline move3_vec move3_vel0(uint64_t i)
{
    move3_vec v;
    for (int c = 0; c < 3; c++)
        v.v[c] = (float)((i * 7 + (uint64_t)c) % 512) * 0.25f - 63.875f; /* never 0 */
    return v;
}
/* Distinct for 509 entities in a row (whichever of them hold mass, a swap of two shows). */
static inline float move3_mass0(uint64_t i) { return 0.5f + (float)(i % 509) / 512; }
static inline uint64_t move3_matched(uint64_t n) { return (n + 3) / 4; }
/* `size` (parameter 1): bytes per pos and vel value, of which the pass uses the first 12 (a
 * move3_vec); the rest are cold bytes in hot components (zero). Default 12. */
enum { MOVE3_SIZE = 1 };
static inline size_t move3_size(const ecsb_params *p) { return (size_t)p->v[MOVE3_SIZE]; }
/* The move3_vec at the start of value i of an array of `size`-byte values. */
static inline move3_vec *move3_at(void *values, uint64_t i, size_t size)
{
    return (move3_vec *)((unsigned char *)values + i * size);
}
#define MOVE3_SALT 0x6d6f766533ull /* its world order: the entity of rank r holds mass when 4 | r */
/* pos += vel * mass, in two statements so that no compiler fuses them into an FMA. */
static inline void move3_step(move3_vec *restrict pos, const move3_vec *restrict vel, float mass)
{
    for (int c = 0; c < 3; c++) {
        float dv = vel->v[c] * mass;
        pos->v[c] += dv;
    }
}

#endif
