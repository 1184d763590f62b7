/* steady.h — the `ecsbench steady` subcommand (harness/steady.c). */
#ifndef ECSB_STEADY_H
#define ECSB_STEADY_H

/* Pairs of passes timed (a young world's, an old world's): about as many passes as make bench
 * times of a frame world after its warm-up, so the young world stays young. Odd: an exact
 * median. */
#define STEADY_PAIRS 21u
#define STEADY_DEFAULT_OLDER 300u
#define STEADY_MAX_OLDER 100000u

/* Compares a scenario's world after its warm-up with the same world `older` passes later;
 * exit status 0, 1 (a step failed) or 2 (bad arguments). */
int ecsb_cmd_steady(int argc, char **argv);

#endif
