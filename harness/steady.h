/* steady.h — the `ecsbench steady` subcommand (harness/steady.c). */
#ifndef ECSB_STEADY_H
#define ECSB_STEADY_H

/* Pairs of blocks timed (a young world's, an old world's), each block STEADY_BLOCK passes of
 * one world, the first untimed (it brings the world's data back into cache, so every timed
 * pass runs after a pass of its own world, as in make bench). 33 passes of the young world in
 * all: about as many as make bench times after its warm-up, so it stays young. Odd: an exact
 * median. */
#define STEADY_PAIRS 11u
#define STEADY_BLOCK 3u
#define STEADY_DEFAULT_OLDER 300u
#define STEADY_MAX_OLDER 100000u

/* Compares a scenario's world after its warm-up with the same world `older` passes later;
 * exit status 0, 1 (a step failed) or 2 (bad arguments). */
int ecsb_cmd_steady(int argc, char **argv);

#endif
