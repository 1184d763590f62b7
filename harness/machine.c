/*
 * machine.c — `ecsbench machine`: the machine a run was made on, as machine.json.
 *
 *   ecsbench machine [--out=FILE] [--quick] [--max-set=BYTES]
 *   ecsbench machine --fingerprint
 *
 * Without --out the JSON goes to stdout; with --out=FILE it goes to FILE and a short text
 * report (the short name, the caches, the clock, bandwidth and latency by working set) to
 * stdout. --fingerprint prints the fingerprint's key alone (16 hex digits, nothing measured):
 * scripts/bench.sh keys its per-boot cache of machine.json on it. docs/machine.md describes
 * every key. Exit 0, 1 when it cannot measure (no memory, the file not writable), 2 on a bad
 * flag.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "harness/machine.h"

#ifndef ECSB_BUILD_CFLAGS
#define ECSB_BUILD_CFLAGS "unknown"
#endif
#ifndef ECSB_BUILD_CC
#define ECSB_BUILD_CC "unknown"
#endif
#ifndef ECSB_MACHINE_KERNEL_FLAGS
#define ECSB_MACHINE_KERNEL_FLAGS "unknown (the Makefile did not pass them)"
#endif
#if defined(__clang__)
#define MACHINE_COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define MACHINE_COMPILER "gcc " __VERSION__
#else
#define MACHINE_COMPILER "unknown C compiler"
#endif

/* The system's side of the fingerprint. */
typedef struct system_info {
    char kernel[128];
    long cores_online, cores_configured;
    uint64_t memory_bytes;
} system_info;

static void system_read(system_info *s)
{
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(s->kernel, sizeof s->kernel, "%.40s %.80s", u.sysname, u.release);
    else
        snprintf(s->kernel, sizeof s->kernel, "unknown");
    s->cores_online = sysconf(_SC_NPROCESSORS_ONLN);
    s->cores_configured = sysconf(_SC_NPROCESSORS_CONF);
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    s->memory_bytes = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
}

/* FNV-1a over the fingerprint's fields: what makes two machines the same for a cache. */
static uint64_t fingerprint_key(const ecsb_cpu_info *c, const system_info *s)
{
    char text[2048];
    int len = snprintf(text, sizeof text, "%s|%s|%u|%u|%u|%s|%s|%ld|%" PRIu64 "|%s", c->arch,
                       c->vendor, c->family, c->model, c->stepping, c->brand, c->hypervisor,
                       s->cores_online, s->memory_bytes >> 20, s->kernel);
    for (unsigned i = 0; i < c->cache_count && len > 0 && (size_t)len < sizeof text; i++)
        len += snprintf(text + len, sizeof text - (size_t)len, "|L%u%s:%" PRIu64,
                        c->caches[i].level, c->caches[i].type, c->caches[i].size);
    uint64_t h = 0xcbf29ce484222325ull;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        h = (h ^ *p) * 0x100000001b3ull;
    return h;
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

static void json_spread(FILE *f, ecsb_spread s)
{
    fprintf(f, "\"median\": %.6g, \"min\": %.6g, \"max\": %.6g", s.median, s.min, s.max);
}

static void write_json(FILE *f, const ecsb_cpu_info *c, const system_info *s,
                       const ecsb_machine_settings *set, const ecsb_machine_measures *m,
                       const char *short_name, uint64_t key)
{
    fprintf(f, "{\n  \"schema\": 1,\n  \"short_name\": ");
    json_str(f, short_name);
    fprintf(f, ",\n  \"fingerprint_key\": \"%016" PRIx64 "\",\n  \"cpu\": {\"arch\": ", key);
    json_str(f, c->arch);
    fprintf(f, ", \"vendor\": ");
    json_str(f, c->vendor);
    if (c->has_signature)
        fprintf(f, ", \"family\": %u, \"model\": %u, \"stepping\": %u", c->family, c->model,
                c->stepping);
    else
        fprintf(f, ", \"family\": null, \"model\": %u, \"stepping\": null", c->model);
    fprintf(f, ", \"brand\": ");
    json_str(f, c->brand);
    fprintf(f, ", \"microarchitecture\": ");
    json_str(f, c->uarch);
    fprintf(f, ", \"hypervisor\": ");
    json_str(f, c->hypervisor);
    fprintf(f, ", \"source\": ");
    json_str(f, c->source);
    fprintf(f, "},\n  \"caches\": [");
    for (unsigned i = 0; i < c->cache_count; i++) {
        const ecsb_cache_info *ci = &c->caches[i];
        fprintf(f, "%s\n    {\"level\": %u, \"type\": \"%s\", \"size\": %" PRIu64
                   ", \"line\": %u, \"ways\": %u, \"shared_by\": %u}",
                i ? "," : "", ci->level, ci->type, ci->size, ci->line, ci->ways, ci->shared_by);
    }
    fprintf(f, "\n  ],\n  \"cache_source\": ");
    json_str(f, c->cache_source);
    fprintf(f, ",\n  \"clock\": {\"mhz\": %.1f, ", m->clock_mhz);
    json_spread(f, m->clock);
    fprintf(f, ", \"tsc_mhz\": %.1f, \"method\": \"dependent register-to-register integer adds (1 "
               "cycle each), 8 a loop turn, timed over CLOCK_MONOTONIC in chunks of 2^17 adds; "
               "each repetition's figure is its fastest chunk (a preempted chunk only reads "
               "slower); mhz = the fastest repetition; tsc_mhz = rdtsc ticks over that chunk "
               "(nominal under a hypervisor; 0 off x86)\"},\n",
            m->tsc_mhz);
    fprintf(f, "  \"system\": {\"kernel\": ");
    json_str(f, s->kernel);
    fprintf(f, ", \"cores_online\": %ld, \"cores_configured\": %ld, \"memory_bytes\": %" PRIu64
               "},\n",
            s->cores_online, s->cores_configured, s->memory_bytes);
    fprintf(f, "  \"build\": {\"compiler\": ");
    json_str(f, MACHINE_COMPILER);
    fprintf(f, ", \"cc\": ");
    json_str(f, ECSB_BUILD_CC);
    fprintf(f, ", \"cflags\": ");
    json_str(f, ECSB_BUILD_CFLAGS);
    fprintf(f, ", \"kernel_flags\": ");
    json_str(f, ECSB_MACHINE_KERNEL_FLAGS);
    fprintf(f, "},\n  \"measure\": {\"pinned_cpu\": %d, \"quick\": %s, \"repetitions\": %u, "
               "\"min_seconds\": %g, \"seconds\": %.2f},\n",
            m->pinned_cpu, set->quick ? "true" : "false", set->repetitions, set->min_seconds,
            m->seconds);
    fprintf(f, "  \"working_sets\": [");
    for (unsigned i = 0; i < m->set_count; i++)
        fprintf(f, "%s%" PRIu64, i ? ", " : "", m->sets[i]);
    fprintf(f, "],\n  \"kernels\": {");
    for (int k = 0; k < ECSB_KERNEL_COUNT; k++) {
        fprintf(f, "%s\n    \"%s\": {\"what\": ", k ? "," : "", ecsb_kernels[k].name);
        json_str(f, ecsb_kernels[k].what);
        fprintf(f, ", \"read_bytes\": %u, \"write_bytes\": %u}", ecsb_kernels[k].read_bytes,
                ecsb_kernels[k].write_bytes);
    }
    fprintf(f, "\n  },\n  \"bandwidth_gbps\": {");
    for (int k = 0; k < ECSB_KERNEL_COUNT; k++) {
        fprintf(f, "%s\n    \"%s\": [", k ? "," : "", ecsb_kernels[k].name);
        for (unsigned i = 0; i < m->set_count; i++) {
            fprintf(f, "%s\n      {\"bytes\": %" PRIu64 ", ", i ? "," : "", m->sets[i]);
            json_spread(f, m->bandwidth[k][i]);
            fputc('}', f);
        }
        fprintf(f, "\n    ]");
    }
    fprintf(f, "\n  },\n  \"latency_ns\": [");
    for (unsigned i = 0; i < m->set_count; i++) {
        fprintf(f, "%s\n    {\"bytes\": %" PRIu64 ", ", i ? "," : "", m->sets[i]);
        json_spread(f, m->latency[i]);
        fputc('}', f);
    }
    fprintf(f, "\n  ]\n}\n");
}

static void set_text(uint64_t bytes, char *out, size_t size)
{
    if (bytes >= (1u << 20))
        snprintf(out, size, "%" PRIu64 " MiB", bytes >> 20);
    else
        snprintf(out, size, "%" PRIu64 " KiB", bytes >> 10);
}

static void write_text(FILE *f, const ecsb_cpu_info *c, const ecsb_machine_measures *m,
                       const char *short_name, const char *path)
{
    fprintf(f, "%s\n", short_name);
    fprintf(f, "  cpu:     %s (%s%s%s)\n", c->brand[0] ? c->brand : c->arch, c->vendor,
            c->hypervisor[0] ? ", under " : "", c->hypervisor);
    if (c->has_signature)
        fprintf(f, "           family %u model %u stepping %u (%s)\n", c->family, c->model,
                c->stepping, c->source);
    for (unsigned i = 0; i < c->cache_count; i++) {
        char size[24];
        set_text(c->caches[i].size, size, sizeof size);
        fprintf(f, "  cache:   L%u %-11s %s, %u-byte lines (%s)\n", c->caches[i].level,
                c->caches[i].type, size, c->caches[i].line, c->cache_source);
    }
    fprintf(f, "  clock:   %.0f MHz measured (median %.0f, min %.0f), TSC %.0f MHz\n",
            m->clock_mhz, m->clock.median, m->clock.min, m->tsc_mhz);
    fprintf(f, "  measured on CPU %d in %.1f s; GB/s (median) by working set, and ns per "
               "dependent load:\n  %9s",
            m->pinned_cpu, m->seconds, "set");
    for (int k = 0; k < ECSB_KERNEL_COUNT; k++)
        fprintf(f, " %9s", ecsb_kernels[k].name);
    fprintf(f, " %9s\n", "latency");
    for (unsigned i = 0; i < m->set_count; i++) {
        char size[24];
        set_text(m->sets[i], size, sizeof size);
        fprintf(f, "  %9s", size);
        for (int k = 0; k < ECSB_KERNEL_COUNT; k++)
            fprintf(f, " %9.1f", m->bandwidth[k][i].median);
        fprintf(f, " %9.1f\n", m->latency[i].median);
    }
    if (path)
        fprintf(f, "  written: %s\n", path);
}

static int bad_flag(const char *what)
{
    fprintf(stderr,
            "ecsbench: machine: %s\nusage: ecsbench machine [--out=FILE] [--quick] "
            "[--max-set=BYTES]\n       ecsbench machine --fingerprint\n"
            "  --out=FILE       write machine.json to FILE (and a text report to stdout); "
            "without it the JSON goes to stdout\n"
            "  --quick          3 repetitions of 1 ms, working sets to 2x the last-level cache\n"
            "  --max-set=BYTES  the largest working set (65536 .. 4294967296; default 4x the "
            "last-level cache, 64 MiB .. 1 GiB)\n"
            "  --fingerprint    print the fingerprint's key only (nothing measured)\n",
            what);
    return 2;
}

int ecsb_cmd_machine(int argc, char **argv)
{
    const char *out_path = NULL;
    bool quick = false, fingerprint_only = false;
    uint64_t max_set = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        char msg[600];
        if (strncmp(a, "--out=", 6) == 0 && a[6]) {
            out_path = a + 6;
        } else if (strcmp(a, "--quick") == 0) {
            quick = true;
        } else if (strcmp(a, "--fingerprint") == 0) {
            fingerprint_only = true;
        } else if (strncmp(a, "--max-set=", 10) == 0) {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(a + 10, &end, 10);
            if (errno || end == a + 10 || *end || a[10] == '-' || v < 65536 ||
                v > 4294967296ull) {
                snprintf(msg, sizeof msg,
                         "bad --max-set '%s': want a number of bytes, 65536 .. 4294967296",
                         a + 10);
                return bad_flag(msg);
            }
            max_set = v;
        } else {
            snprintf(msg, sizeof msg, "unknown argument '%.400s'", a);
            return bad_flag(msg);
        }
    }
    ecsb_cpu_info cpu;
    system_info sys;
    ecsb_cpu_read(&cpu);
    system_read(&sys);
    uint64_t key = fingerprint_key(&cpu, &sys);
    if (fingerprint_only) {
        printf("%016" PRIx64 "\n", key);
        return 0;
    }
    uint64_t llc = 0;
    for (unsigned i = 0; i < cpu.cache_count; i++)
        if (strcmp(cpu.caches[i].type, "instruction") != 0 && cpu.caches[i].size > llc)
            llc = cpu.caches[i].size;
    ecsb_machine_settings set = {.quick = quick,
                                 .repetitions = quick ? 3 : 5,
                                 .min_seconds = quick ? 0.001 : 0.002};
    if (max_set) {
        set.max_bytes = max_set;
    } else {
        uint64_t want = llc ? (quick ? 2 : 4) * llc : 0, lo = quick ? 32u << 20 : 64u << 20,
                 hi = quick ? 512u << 20 : 1u << 30;
        set.max_bytes = want < lo ? lo : want > hi ? hi : want;
    }
    /* The file first: a path that cannot be written fails before 20 s of measuring. */
    char tmp[4096];
    FILE *f = NULL;
    if (out_path) {
        snprintf(tmp, sizeof tmp, "%s.tmp", out_path);
        f = fopen(tmp, "w");
        if (!f) {
            fprintf(stderr, "ecsbench: machine: cannot write %s: %s\n", tmp, strerror(errno));
            return 1;
        }
    }
    static ecsb_machine_measures m;
    if (!ecsb_machine_measure(&set, &m)) {
        if (f) {
            fclose(f);
            remove(tmp);
        }
        return 1;
    }
    char short_name[160];
    ecsb_machine_short_name(&cpu, m.clock_mhz, short_name, sizeof short_name);
    if (!out_path) {
        write_json(stdout, &cpu, &sys, &set, &m, short_name, key);
        return fflush(stdout) == 0 ? 0 : 1;
    }
    write_json(f, &cpu, &sys, &set, &m, short_name, key);
    if (fclose(f) != 0 || rename(tmp, out_path) != 0) {
        fprintf(stderr, "ecsbench: machine: cannot write %s: %s\n", out_path, strerror(errno));
        remove(tmp);
        return 1;
    }
    write_text(stdout, &cpu, &m, short_name, out_path);
    return 0;
}
