/*
 * machine.h — `ecsbench machine`: what the machine is (a fingerprint from CPUID and the
 * system) and what it does (the clock, bandwidth and load latency as measured), written as
 * machine.json (docs/machine.md describes every key).
 *   machine_cpuid.c    CPUID decoding (pure functions of register values, unit-tested on
 *                      fixtures) and reading this CPU's leaves (x86 only; guarded)
 *   machine_measure.c  the measurements: clock, STREAM-style kernels, pointer chase
 *   machine.c          the command: flags, the fingerprint, the short name, JSON and text
 */
#ifndef ECSB_MACHINE_H
#define ECSB_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- CPUID (machine_cpuid.c) --------------------------------------------------------------- */

enum { ECSB_MACHINE_MAX_CACHES = 8 };

/* One cache, from a leaf-4 (Intel) or 0x8000001D (AMD) subleaf or from the system. */
typedef struct ecsb_cache_info {
    unsigned level;     /* 1, 2, 3 */
    char type[12];      /* "data", "instruction", "unified" */
    uint64_t size;      /* bytes */
    unsigned line;      /* bytes */
    unsigned ways;      /* 0 when unknown */
    unsigned shared_by; /* logical CPUs sharing it (CPUID's count); 0 when unknown */
} ecsb_cache_info;

typedef struct ecsb_cpu_info {
    char arch[65];           /* "x86_64", "aarch64", ... (uname) */
    char vendor[48];         /* "GenuineIntel", "AuthenticAMD", or the system's word */
    unsigned family, model, stepping; /* display family/model (base + extended) */
    bool has_signature;      /* family/model/stepping known */
    char brand[64];          /* the brand string (leaves 0x80000002..4) or /proc/cpuinfo's */
    char uarch[40];          /* "Zen 4", "Emerald Rapids"; "" when not in the table */
    char hypervisor[16];     /* "KVMKVMKVM" ... ("" on bare metal or unknown) */
    char source[64];         /* where vendor/family/model came from */
    ecsb_cache_info caches[ECSB_MACHINE_MAX_CACHES];
    unsigned cache_count;
    char cache_source[96];   /* "cpuid leaf 4", "cpuid leaf 0x8000001d", "sysconf (...)" */
} ecsb_cpu_info;

/* Family, model and stepping from CPUID leaf 1 EAX (extended family/model applied as the
 * vendors document: extended family when the base family is 15, extended model when it is 6
 * or 15). */
void ecsb_cpuid_signature(uint32_t eax, unsigned *family, unsigned *model, unsigned *stepping);

/* One cache from a subleaf of leaf 4 or 0x8000001D (the same layout); false at the end of the
 * list (type 0). */
bool ecsb_cpuid_cache(uint32_t eax, uint32_t ebx, uint32_t ecx, ecsb_cache_info *out);

/* The 48-byte brand string from the 12 registers of leaves 0x80000002..4 (EAX EBX ECX EDX
 * each), trimmed of spaces. */
void ecsb_cpuid_brand(const uint32_t regs[12], char *out, size_t size);

/* The microarchitecture of a vendor/family/model, or NULL when the table does not know it. */
const char *ecsb_cpu_uarch(const char *vendor, unsigned family, unsigned model);

/* Fill *cpu from this CPU (CPUID on x86, the system elsewhere or as a fallback). */
void ecsb_cpu_read(ecsb_cpu_info *cpu);

/* "48K", "2M", "300M", "36608K" (not a whole MiB): a cache size in the short name. */
void ecsb_cache_size_text(uint64_t bytes, char *out, size_t size);

/* The short name: "<uarch or vendor family model>, <GHz> GHz, <L1d>/<L2>/<L3>". */
void ecsb_machine_short_name(const ecsb_cpu_info *cpu, double mhz, char *out, size_t size);

/* ---- measurements (machine_measure.c) ------------------------------------------------------ */

/* The kernels: each a plain C loop over arrays that fill the working set. */
typedef enum ecsb_kernel {
    ECSB_K_READ_U32,   /* sum of u32 */
    ECSB_K_READ_U64,   /* sum of u64 */
    ECSB_K_READ_PAIR,  /* sum of a double and an int32 (dual_iterate's 8 + 4 bytes) */
    ECSB_K_WRITE_U32,  /* store u32 */
    ECSB_K_WRITE_U64,  /* store u64 */
    ECSB_K_RMW_U32,    /* v = 3v + 1 on u32 (packed_1's operation) */
    ECSB_K_SWAP_U32,   /* swap two u32 arrays (simple_iter's operation) */
    ECSB_K_RMW_PAIR,   /* a += 1.5 * b, double a, int32 b (dual_iterate's operation) */
    ECSB_KERNEL_COUNT
} ecsb_kernel;

typedef struct ecsb_kernel_desc {
    const char *name;         /* the JSON key */
    const char *what;         /* one line */
    unsigned read_bytes;      /* per element */
    unsigned write_bytes;     /* per element */
} ecsb_kernel_desc;
extern const ecsb_kernel_desc ecsb_kernels[ECSB_KERNEL_COUNT];

typedef struct ecsb_spread {
    double median, min, max;
} ecsb_spread;
/* The median, least and greatest of v[0 .. count) (count >= 1); sorts v. */
ecsb_spread ecsb_spread_of(double *v, unsigned count);

enum { ECSB_MACHINE_MAX_SETS = 24 };

typedef struct ecsb_machine_settings {
    bool quick;        /* fewer repetitions and a shorter minimum time */
    unsigned repetitions;
    double min_seconds;       /* each repetition times passes for at least this long */
    uint64_t max_bytes;       /* the largest working set */
} ecsb_machine_settings;

typedef struct ecsb_machine_measures {
    double clock_mhz;          /* dependent adds per second / 1e6: the core's clock */
    ecsb_spread clock;         /* over the repetitions, MHz */
    double tsc_mhz;            /* rdtsc ticks per second / 1e6 (x86; 0 elsewhere) */
    int pinned_cpu;            /* the CPU the measurements ran on; -1 when not pinned */
    uint64_t sets[ECSB_MACHINE_MAX_SETS]; /* working sets, bytes, ascending */
    unsigned set_count;
    ecsb_spread bandwidth[ECSB_KERNEL_COUNT][ECSB_MACHINE_MAX_SETS]; /* GB/s (1e9 B/s) */
    ecsb_spread latency[ECSB_MACHINE_MAX_SETS];                      /* ns per load */
    double seconds;            /* the measurements' wall time */
} ecsb_machine_measures;

/* The working sets from 8 KiB by factors of 2 up to max_bytes. */
unsigned ecsb_machine_working_sets(uint64_t max_bytes, uint64_t *out, unsigned cap);

/* Run every measurement; false (a message on stderr) when memory cannot be had. */
bool ecsb_machine_measure(const ecsb_machine_settings *s, ecsb_machine_measures *m);

/* ---- the command (machine.c) ----------------------------------------------------------- */

int ecsb_cmd_machine(int argc, char **argv);

#endif
