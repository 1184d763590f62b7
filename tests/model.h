/*
 * model.h — the expected state of a conformance test: every entity a test created, what it
 * should hold, and a check that the world shows exactly that. A test changes the world and the
 * model side by side (model_create, model_add, ...) and then calls model_check.
 */
#ifndef ECSB_TESTS_MODEL_H
#define ECSB_TESTS_MODEL_H

#include "tests/support.h"

/*
 * Every entity a test created, in creation order, with what it should hold: seed[i][t] is the
 * tst_pattern seed of its value of type t, 0 when absent.
 */
typedef struct model {
    uint32_t types;
    size_t n, capacity;
    ecsb_entity *handle;
    bool *alive;
    uint64_t *seed; /* n * types */
} model;

static inline uint64_t *seed_at(const model *m, size_t i, ecsb_type t)
{
    return &m->seed[i * m->types + t];
}

void model_init(model *m, const tst_world *tw);
/* A world of tst_config3() (tw_init) with an empty model beside it; model_close frees both. */
void model_open(model *m, tst_world *tw);
void model_close(model *m, tst_world *tw);
/* n entities created in the world and the model, each given every type (version 1). */
void model_create_full(model *m, tst_world *tw, size_t n);
void model_free(model *m);
/* A seed nobody else uses: entity index, type and a version. */
uint64_t seed_for(size_t i, ecsb_type t, uint64_t version);
/* Create an entity in the world and the model; returns its model index. */
size_t model_create(model *m, tst_world *tw);
/* Spawn an entity holding types[0 .. count) (tw_spawn), the value of type t
 * tst_pattern(seed_for(i, t, version)); returns its model index i. */
size_t model_spawn(model *m, tst_world *tw, const ecsb_type *types, uint32_t count,
                   uint64_t version);
/* Add type t to entity i with the value tst_pattern(seed_for(i, t, version)). */
void model_add(model *m, tst_world *tw, size_t i, ecsb_type t, uint64_t version);
void model_remove(model *m, tst_world *tw, size_t i, ecsb_type t);
void model_destroy(model *m, tst_world *tw, size_t i);

/* The tuples query q must hand out (sorted): each live holder of all its types, in q's order. */
void model_expected_tuples(const model *m, const tst_world *tw, const ecsb_query *q,
                           tst_tuples *want);
/*
 * One query against the model: exactly the holders of all its types, once, with values; and
 * asked for handles, each handle with its own values, every value where get(handle) points.
 */
void model_check_query(const model *m, tst_world *tw, const ecsb_query *q);
/* Queries over every subset of the first four types (both orders) and a few wider ones. */
void model_check_queries(const model *m, tst_world *tw);
/*
 * Everything the world shows equals the model: entity and component counts, alive/has/get of
 * every entity (destroyed ones rejected by every operation), the query with handles of every
 * type and of every ordered pair of types, model_check_queries, world_valid.
 */
void model_check(const model *m, tst_world *tw);

#endif /* ECSB_TESTS_MODEL_H */
