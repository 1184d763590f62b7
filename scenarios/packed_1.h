/*
 * packed_1 — noctjs/ecs-benchmark's packed_1, scaled by N.
 *
 * Untimed set-up: N entities, each with the u32 types A, B, C, D, E (scenarios/packed.h); the
 * world declares the query (A). Timed pass: every A updated (v = 3v + 1) through a one-type
 * query. Item: entity visited (N per pass). The checksum reads all five values of every
 * entity and the visit count.
 * Limit: none. The floor's A array holds exactly the values the pass touches.
 */
static ecsb_status packed_1_prepare(void **out, uint64_t n, const ecsb_params *p)
{
    return packed_prepare(out, n, 1, p);
}

static const ecsb_query packed_1_query = {.count = 1, .types = {0}};

static ecsb_status packed_1_pass(void *state)
{
    packed_state *s = state;
    uint64_t visits = 0; /* a register: see scenarios/body.h */
    ecsb_status st = query(&s->w, &packed_1_query, u32_step_run, &visits);
    s->visits += visits;
    return st;
}

static uint64_t packed_1_checksum(void *state) { return packed_checksum(state); }
static void packed_1_release(void *state) { packed_release(state); }
ECSB_SCENARIO_MEMORY(packed_1, packed_state)
