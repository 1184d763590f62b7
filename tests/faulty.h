/*
 * faulty.h — a test-only strategy that makes mistakes on demand, to show that every
 * scenario's checksum catches them (tests/scenarios.c).
 *
 * `faulty` is the template strategy (its layout and handles, reached through its vtable) with
 * one kind of error injected at one chosen moment. Armed with (kind, at), it counts the
 * opportunities for that kind as the scenario runs and makes the mistake at opportunity
 * number `at` (0 = the first). Disarmed, it is a correct strategy. It is compiled into the
 * test binary only and is never registered.
 */
#ifndef ECSB_TESTS_FAULTY_H
#define ECSB_TESTS_FAULTY_H

#include <stdbool.h>
#include <stdint.h>

#include "harness/ecsb.h"

typedef enum tst_fault {
    TST_FAULT_NONE,
    /* query, per visited entity */
    TST_FAULT_VISIT_MISS,   /* a matched entity is not visited */
    TST_FAULT_VISIT_DOUBLE, /* a matched entity is visited twice */
    TST_FAULT_VISIT_EXTRA,  /* a live entity that does not match is visited (zeros for the
                             * values it lacks) */
    TST_FAULT_VISIT_SWAP,   /* two matched entities of a query of 2+ types get each other's
                             * value of its last type */
    TST_FAULT_VISIT_LOSE,   /* a matched entity's value of the query's last type is handed
                             * out as a zeroed copy: reads see 0, writes vanish */
    TST_FAULT_VISIT_HANDLE, /* a query asking for handles hands a matched entity's visit the
                             * handle of another live entity (the next in slot order) */
    TST_FAULT_VISIT_EXCLUDED, /* an entity holding the query's types and one it excludes is
                               * visited (the exclusion missed) */
    /* get */
    TST_FAULT_GET_MISS,  /* a held component is reported absent */
    TST_FAULT_GET_EXTRA, /* an absent component of a live entity is reported present (zeros) */
    TST_FAULT_GET_SWAP,  /* another holder's value is returned */
    TST_FAULT_GET_LOSE,  /* a zeroed copy is returned */
    /* structural operations: each reports success */
    TST_FAULT_ADD_MISS,     /* the component is not attached (its value goes nowhere) */
    TST_FAULT_ADD_LOSE,     /* another component of the entity loses its value (zeroed) */
    TST_FAULT_REMOVE_MISS,  /* the component stays */
    TST_FAULT_REMOVE_LOSE,  /* another component of the entity loses its value (zeroed) */
    TST_FAULT_DESTROY_MISS, /* the entity stays */
    TST_FAULT_TAG_LOSE,     /* an add or remove of another type drops a tag the entity holds
                             * (a row moved to a table without it) */
    TST_FAULT_COUNT
} tst_fault;

extern const ecsb_strategy ecsb_strategy_faulty;

/* Make the mistake `fault` at its opportunity number `at` (UINT64_MAX: only count them). */
void tst_fault_arm(tst_fault fault, uint64_t at);
/* Make no mistake, but count the opportunities of every kind at once (the counts a run armed
 * with each kind at UINT64_MAX would give, in one run). */
void tst_fault_count_all(void);
/* Stop injecting (and counting). */
void tst_fault_disarm(void);
/* Opportunities of the armed kind seen since it was armed. */
uint64_t tst_fault_opportunities(void);
/* Opportunities of `fault` seen since tst_fault_count_all. */
uint64_t tst_fault_opportunities_of(tst_fault fault);
/* The most entities alive at once in the world faulty made last (its peak population). */
uint64_t tst_fault_peak_entities(void);
/* Whether the armed mistake was made. */
bool tst_fault_applied(void);
/* "a missed visit", ... */
const char *tst_fault_name(tst_fault fault);

#endif /* ECSB_TESTS_FAULTY_H */
