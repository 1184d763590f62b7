/*
 * packed_5 — noctjs/ecs-benchmark's packed_5, scaled by N.
 *
 * Untimed set-up: packed_1's (scenarios/packed.h); the world declares the queries (A), (B),
 * (C), (D), (E). Timed pass: every A updated (v = 3v + 1), then every B, C, D and E, each
 * through a one-type query. Item: entity visited (5N per pass: each entity once per type). The
 * checksum reads all five values of every entity and the visit count.
 * Limit: none. The floor's five arrays hold exactly the values the pass touches.
 */
static ecsb_status packed_5_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    return packed_prepare(out, n, PACKED_TYPES, p);
}

static const ecsb_query packed_5_queries[PACKED_TYPES] = {
    {.count = 1, .types = {0}}, {.count = 1, .types = {1}}, {.count = 1, .types = {2}},
    {.count = 1, .types = {3}}, {.count = 1, .types = {4}},
};

/* One system: type t's query, unless an earlier one failed. Each call names a constant query,
 * so the strategy's query is specialised for it, as a system written by hand would be. */
ECSB_INLINE ecsb_status packed_5_update(packed_state *s, ecsb_status st, uint32_t t,
                                        uint64_t *visits)
{
    return st == ECSB_OK ? query(&s->w, &packed_5_queries[t], u32_step_run, visits) : st;
}

static ecsb_status packed_5_pass(void *state)
{
    packed_state *s = state;
    uint64_t visits = 0; /* a register: see scenarios/body.h */
    ecsb_status st = packed_5_update(s, ECSB_OK, 0, &visits);
    st = packed_5_update(s, st, 1, &visits);
    st = packed_5_update(s, st, 2, &visits);
    st = packed_5_update(s, st, 3, &visits);
    st = packed_5_update(s, st, 4, &visits);
    s->visits += visits;
    return st;
}

static uint64_t packed_5_checksum(void *state) { return packed_checksum(state); }
static void packed_5_release(void *state) { packed_release(state); }
ECSB_SCENARIO_MEMORY(packed_5, packed_state)
