/*
 * packed_5 — noctjs/ecs-benchmark's packed_5, scaled by N.
 *
 * Untimed set-up: packed_1's (scenarios/packed.h); the world declares the queries (A), (B),
 * (C), (D), (E). Timed pass: every A updated (v = 3v + 1), then every B, C, D and E, each
 * through a one-type query. Item: entity visited (5N per pass: each entity once per type). The
 * checksum reads all five values of every entity and the visit count.
 * Limit: none. The floor's five arrays hold exactly the values the pass touches.
 */
static ecsb_status packed_5_prepare(void **out, uint64_t n)
{
    return packed_prepare(out, n, PACKED_TYPES);
}

static const ecsb_query packed_5_queries[PACKED_TYPES] = {
    {1, {0}}, {1, {1}}, {1, {2}}, {1, {3}}, {1, {4}},
};

static ecsb_status packed_5_pass(void *state)
{
    packed_state *s = state;
    ecsb_status st = ECSB_OK;
    for (uint32_t t = 0; t < PACKED_TYPES && st == ECSB_OK; t++)
        st = query(&s->w, &packed_5_queries[t], u32_step_run, &s->visits);
    return st;
}

static uint64_t packed_5_checksum(void *state) { return packed_checksum(state); }
static void packed_5_release(void *state) { packed_release(state); }
ECSB_SCENARIO_MEMORY(packed_5, packed_state)
