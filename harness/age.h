/* age.h — the `ecsbench age` subcommand (harness/age.c). */
#ifndef ECSB_AGE_H
#define ECSB_AGE_H

/* Prints how aged a scenario's world is on one strategy; exit status 0, 1 (failed) or 2. */
int ecsb_cmd_age(int argc, char **argv);

#endif
