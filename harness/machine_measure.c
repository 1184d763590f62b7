/*
 * machine_measure.c — what the machine does, measured on one CPU (the process is pinned to the
 * CPU it started on):
 *   the clock      a chain of dependent register-to-register integer adds (one cycle each on
 *                  every x86 and Arm core this project has met), 8 per loop turn, timed with
 *                  CLOCK_MONOTONIC in chunks of about 50 us: adds per second in the fastest
 *                  chunk = cycles per second. Beside it the TSC's rate (x86), which under a
 *                  hypervisor is the nominal rate, not the clock the core runs at.
 *   bandwidth      STREAM-style plain C loops (ecsb_kernels: reads, writes, and the
 *                  read-modify-writes of packed_1, simple_iter and dual_iterate) over arrays
 *                  that together fill each working set, from 8 KiB by factors of 2 to past the
 *                  last-level cache; bytes read + bytes written per second (a write's
 *                  read-for-ownership not counted), median and spread over the repetitions.
 *   latency        a dependent load: one cycle through a word of every 64-byte line of the
 *                  working set in a scrambled order, ns per load.
 * The Makefile compiles this file with fixed flags (-O3, not the build's OPT), so the machine's
 * figures are the same whichever OPT the strategies are built with.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness/machine.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define ECSB_HAVE_TSC 1
#endif

const ecsb_kernel_desc ecsb_kernels[ECSB_KERNEL_COUNT] = {
    [ECSB_K_READ_U32] = {"read_u32", "sum of a u32 array", 4, 0},
    [ECSB_K_READ_U64] = {"read_u64", "sum of a u64 array", 8, 0},
    [ECSB_K_READ_PAIR] = {"read_pair", "sum of a double array and an int32 array (8 + 4 B)", 12, 0},
    [ECSB_K_WRITE_U32] = {"write_u32", "store to a u32 array", 0, 4},
    [ECSB_K_WRITE_U64] = {"write_u64", "store to a u64 array", 0, 8},
    [ECSB_K_RMW_U32] = {"rmw_u32", "v = 3v + 1 over a u32 array (packed_1's operation)", 4, 4},
    [ECSB_K_SWAP_U32] = {"swap_u32", "swap two u32 arrays (simple_iter's operation)", 8, 8},
    [ECSB_K_RMW_PAIR] = {"rmw_pair", "a += 1.5 * b, double a, int32 b (dual_iterate's operation)",
                         12, 8},
};

static volatile uint64_t sink; /* every kernel's result ends here, so none is optimised away */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Elements of a kernel in a working set of `bytes` (each array holds `elements` entries). */
static size_t kernel_elements(ecsb_kernel k, size_t bytes)
{
    switch (k) {
    case ECSB_K_READ_U32: case ECSB_K_WRITE_U32: case ECSB_K_RMW_U32: return bytes / 4;
    case ECSB_K_READ_U64: case ECSB_K_WRITE_U64: return bytes / 8;
    case ECSB_K_SWAP_U32: return bytes / 8;  /* two u32 arrays */
    default: return bytes / 12;              /* a double and an int32 array */
    }
}

/* One call: elements [from, from + count) of kernel k's arrays (each of n elements) in buf. */
__attribute__((noinline)) static void kernel_pass(ecsb_kernel k, void *buf, size_t n,
                                                  size_t from, size_t count, uint64_t pass)
{
    size_t end = from + count;
    switch (k) {
    case ECSB_K_READ_U32: {
        const uint32_t *a = buf;
        uint32_t s = 0;
        for (size_t i = from; i < end; i++)
            s += a[i];
        sink += s;
        break;
    }
    case ECSB_K_READ_U64: {
        const uint64_t *a = buf;
        uint64_t s = 0;
        for (size_t i = from; i < end; i++)
            s += a[i];
        sink += s;
        break;
    }
    case ECSB_K_READ_PAIR: {
        /* a's 8 bytes summed as integers: a double sum is one chain of 4-cycle adds (no
         * reassociation without -ffast-math) and would time the adder, not the loads */
        const uint64_t *a = buf;
        const int32_t *b = (const int32_t *)(a + n);
        uint64_t s = 0;
        int64_t t = 0;
        for (size_t i = from; i < end; i++) {
            s += a[i];
            t += b[i];
        }
        sink += s + (uint64_t)t;
        break;
    }
    case ECSB_K_WRITE_U32: {
        uint32_t *a = buf, v = (uint32_t)pass;
        for (size_t i = from; i < end; i++)
            a[i] = v;
        break;
    }
    case ECSB_K_WRITE_U64: {
        uint64_t *a = buf;
        for (size_t i = from; i < end; i++)
            a[i] = pass;
        break;
    }
    case ECSB_K_RMW_U32: {
        uint32_t *a = buf;
        for (size_t i = from; i < end; i++)
            a[i] = 3 * a[i] + 1;
        break;
    }
    case ECSB_K_SWAP_U32: {
        uint32_t *a = buf, *b = a + n;
        for (size_t i = from; i < end; i++) {
            uint32_t t = a[i];
            a[i] = b[i];
            b[i] = t;
        }
        break;
    }
    default: {
        double *a = buf;
        const int32_t *b = (const int32_t *)(a + n);
        for (size_t i = from; i < end; i++)
            a[i] += 1.5 * b[i];
        break;
    }
    }
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

ecsb_spread ecsb_spread_of(double *v, unsigned count)
{
    qsort(v, count, sizeof *v, cmp_double);
    ecsb_spread s = {count % 2 ? v[count / 2] : 0.5 * (v[count / 2 - 1] + v[count / 2]), v[0],
                     v[count - 1]};
    return s;
}

enum { MAX_REPS = 15 };

/* Sets larger than this are timed a window at a time (WINDOW bytes of the kernel's arrays,
 * the windows taken in turn through the whole set), so that a repetition lasts min_seconds
 * however large the set: a window comes back only after the rest of the set has passed, so
 * past the last-level cache it is read from memory all the same. */
#define WHOLE_PASS_BYTES (16u << 20)
#define WINDOW_BYTES (4u << 20)

/* GB/s of kernel k over `bytes` of buf: a warm-up call, then `reps` timed runs of enough
 * calls to last min_seconds (the count set by the warm-up call's time). */
static ecsb_spread measure_kernel(ecsb_kernel k, void *buf, size_t bytes, unsigned reps,
                                  double min_seconds)
{
    size_t n = kernel_elements(k, bytes);
    size_t window = bytes > WHOLE_PASS_BYTES ? kernel_elements(k, WINDOW_BYTES) : n;
    double per_element = ecsb_kernels[k].read_bytes + ecsb_kernels[k].write_bytes;
    size_t from = 0;
    double t0 = now();
    kernel_pass(k, buf, n, from, window, 1);
    double once = now() - t0;
    uint64_t calls = once > 0 ? (uint64_t)(min_seconds / once) + 1 : 1000;
    double v[MAX_REPS];
    for (unsigned r = 0; r < reps; r++) {
        double start = now();
        for (uint64_t c = 0; c < calls; c++) {
            from = from + 2 * window > n ? 0 : from + window;
            kernel_pass(k, buf, n, from, window, c + 2);
        }
        double t = now() - start;
        v[r] = per_element * (double)window * (double)calls / t / 1e9;
    }
    return ecsb_spread_of(v, reps);
}

/* ns per dependent load through one cycle over every 64-byte line of `bytes` (a power of 2):
 * line i links to line (A i + C) mod lines, a full-period congruential step (A = 1 mod 4, C
 * odd), so the chase visits every line once a turn in an order no prefetcher follows, and
 * the links are written in one sequential sweep. */
static ecsb_spread measure_latency(void *buf, size_t bytes, unsigned reps, double min_seconds)
{
    enum { STRIDE = 64 / sizeof(uint32_t) };
    const uint64_t A = 0x5851f42d4c957f2dull, C = 0x14057b7ef767814full;
    uint32_t *w = buf;
    uint64_t lines = bytes / 64, mask = lines - 1;
    for (uint64_t i = 0; i < lines; i++)
        w[i * STRIDE] = (uint32_t)((A * i + C) & mask);
    uint32_t at = 0;
    uint64_t steps = 4096;
    double t0 = now();
    for (uint64_t s = 0; s < steps; s++)
        at = w[(size_t)at * STRIDE];
    double once = now() - t0;
    uint64_t count = once > 0 ? (uint64_t)((double)steps * min_seconds / once) + 1 : steps;
    double v[MAX_REPS];
    for (unsigned r = 0; r < reps; r++) {
        double start = now();
        for (uint64_t s = 0; s < count; s++)
            at = w[(size_t)at * STRIDE];
        v[r] = (now() - start) * 1e9 / (double)count;
    }
    sink += at;
    return ecsb_spread_of(v, reps);
}

/* MHz of a run of dependent adds lasting about `seconds`, timed in chunks of 2^14 loop turns
 * (about 50 us): the fastest chunk's rate, since a chunk the scheduler preempted only reads
 * slower; the TSC's MHz over that chunk in *tsc. */
static double clock_once(double seconds, double *tsc)
{
    uint64_t x = 0, one = 1, turns = 1u << 14;
    __asm__ volatile("" : "+r"(one)); /* a register the compiler cannot see is 1 */
    double best = 0, t0 = now(), t = 0;
    *tsc = 0;
    do {
        double c0 = now();
#ifdef ECSB_HAVE_TSC
        uint64_t r0 = __rdtsc();
#endif
        for (uint64_t i = 0; i < turns; i++) {
/* x += one, register to register: an add of an immediate can be folded at rename (Intel
 * since Golden Cove), which makes a chain of them run faster than one a cycle. */
#define ADD1 x += one; __asm__ volatile("" : "+r"(x));
            ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1
#undef ADD1
        }
        double c1 = now();
        double mhz = 8.0 * (double)turns / (c1 - c0) / 1e6;
        if (c1 > c0 && mhz > best) {
            best = mhz;
#ifdef ECSB_HAVE_TSC
            *tsc = (double)(__rdtsc() - r0) / (c1 - c0) / 1e6;
#endif
        }
        t = c1 - t0;
    } while (t < seconds);
    sink += x;
    return best;
}

unsigned ecsb_machine_working_sets(uint64_t max_bytes, uint64_t *out, unsigned cap)
{
    unsigned count = 0;
    for (uint64_t b = 8192; b <= max_bytes && count < cap; b *= 2)
        out[count++] = b;
    return count;
}

bool ecsb_machine_measure(const ecsb_machine_settings *s, ecsb_machine_measures *m)
{
    memset(m, 0, sizeof *m);
    double start = now();
    m->pinned_cpu = -1;
    int cpu = sched_getcpu();
    if (cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        if (sched_setaffinity(0, sizeof set, &set) == 0)
            m->pinned_cpu = cpu;
    }
    unsigned reps = s->repetitions < 1 ? 1 : s->repetitions > MAX_REPS ? MAX_REPS : s->repetitions;
    double mhz[MAX_REPS], tsc = 0;
    for (unsigned r = 0; r < reps; r++)
        mhz[r] = clock_once(s->min_seconds * 5, &tsc);
    m->tsc_mhz = tsc;
    m->clock = ecsb_spread_of(mhz, reps);
    m->clock_mhz = m->clock.max;

    m->set_count = ecsb_machine_working_sets(s->max_bytes, m->sets, ECSB_MACHINE_MAX_SETS);
    size_t top = m->set_count ? m->sets[m->set_count - 1] : 0;
    void *buf = NULL;
    if (!top || posix_memalign(&buf, 4096, top) != 0) {
        fprintf(stderr, "ecsbench: machine: cannot allocate %zu bytes for the working sets\n",
                top);
        return false;
    }
    memset(buf, 1, top); /* every page faulted in before anything is timed */
    for (unsigned i = 0; i < m->set_count; i++) {
        size_t bytes = m->sets[i];
        unsigned r = reps;
        for (int k = 0; k < ECSB_KERNEL_COUNT; k++)
            m->bandwidth[k][i] = measure_kernel((ecsb_kernel)k, buf, bytes, r, s->min_seconds);
        m->latency[i] = measure_latency(buf, bytes, r, s->min_seconds);
    }
    free(buf);
    m->seconds = now() - start;
    return true;
}
