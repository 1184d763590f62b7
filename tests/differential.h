/*
 * differential.h — the differential engine (tests/differential.c) driven by bytes instead of a
 * seed: what the fuzzer (tests/fuzz/fuzz_world.c) calls.
 */
#ifndef ECSB_TESTS_DIFFERENTIAL_H
#define ECSB_TESTS_DIFFERENTIAL_H

#include <stddef.h>
#include <stdint.h>

/*
 * One run on tst_strategy whose every choice (world configuration, operation, entity, type,
 * query, allocation failure) comes from the next bytes of data; it ends when they are spent,
 * with a full-state comparison. A mismatch fails through tst_fail_at (outside cmocka: prints
 * and aborts).
 */
void tst_differential_bytes(const uint8_t *data, size_t size);

#endif /* ECSB_TESTS_DIFFERENTIAL_H */
