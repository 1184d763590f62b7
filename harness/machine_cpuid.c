/*
 * machine_cpuid.c — what the CPU is: CPUID decoded (pure functions of register values, so the
 * C tests check them on fixtures of an Intel and an AMD part), this CPU's leaves read where
 * there is CPUID (x86; guarded), and the system's word elsewhere or where CPUID says nothing
 * (caches: sysconf, i.e. what getconf prints). Each part says its source.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "harness/machine.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define ECSB_HAVE_CPUID 1
#endif

void ecsb_cpuid_signature(uint32_t eax, unsigned *family, unsigned *model, unsigned *stepping)
{
    unsigned base_family = (eax >> 8) & 0xf, base_model = (eax >> 4) & 0xf;
    unsigned ext_family = (eax >> 20) & 0xff, ext_model = (eax >> 16) & 0xf;
    *stepping = eax & 0xf;
    *family = base_family == 15 ? base_family + ext_family : base_family;
    *model = base_family == 6 || base_family == 15 ? (ext_model << 4) | base_model : base_model;
}

bool ecsb_cpuid_cache(uint32_t eax, uint32_t ebx, uint32_t ecx, ecsb_cache_info *out)
{
    static const char *const types[] = {"", "data", "instruction", "unified"};
    unsigned type = eax & 0x1f;
    if (type == 0 || type > 3)
        return false;
    memset(out, 0, sizeof *out);
    snprintf(out->type, sizeof out->type, "%s", types[type]);
    out->level = (eax >> 5) & 7;
    out->shared_by = ((eax >> 14) & 0xfff) + 1;
    out->line = (ebx & 0xfff) + 1;
    unsigned partitions = ((ebx >> 12) & 0x3ff) + 1;
    out->ways = ((ebx >> 22) & 0x3ff) + 1;
    uint64_t sets = (uint64_t)ecx + 1;
    out->size = (uint64_t)out->ways * partitions * out->line * sets;
    return true;
}

void ecsb_cpuid_brand(const uint32_t regs[12], char *out, size_t size)
{
    char raw[49];
    for (int i = 0; i < 12; i++)
        memcpy(raw + 4 * i, &regs[i], 4); /* little-endian: the bytes in order */
    raw[48] = '\0';
    char *start = raw;
    while (*start == ' ')
        start++;
    size_t len = strlen(start);
    while (len && start[len - 1] == ' ')
        start[--len] = '\0';
    snprintf(out, size, "%s", start);
}

typedef struct uarch_row {
    const char *vendor;
    unsigned family, model_lo, model_hi;
    const char *name;
} uarch_row;

/* The parts cloud VMs and desktops come as (Intel's SDM model table, AMD's revision guides);
 * the first matching row wins. */
static const uarch_row uarch_table[] = {
    {"GenuineIntel", 6, 0x3f, 0x3f, "Intel Haswell"},
    {"GenuineIntel", 6, 0x4f, 0x4f, "Intel Broadwell"},
    {"GenuineIntel", 6, 0x55, 0x55, "Intel Skylake/Cascade Lake"},
    {"GenuineIntel", 6, 0x5e, 0x5e, "Intel Skylake"},
    {"GenuineIntel", 6, 0x6a, 0x6a, "Intel Ice Lake"},
    {"GenuineIntel", 6, 0x6c, 0x6c, "Intel Ice Lake"},
    {"GenuineIntel", 6, 0x7d, 0x7e, "Intel Ice Lake"},
    {"GenuineIntel", 6, 0x8c, 0x8d, "Intel Tiger Lake"},
    {"GenuineIntel", 6, 0x8e, 0x8e, "Intel Kaby/Coffee Lake"},
    {"GenuineIntel", 6, 0x8f, 0x8f, "Intel Sapphire Rapids"},
    {"GenuineIntel", 6, 0x97, 0x9a, "Intel Alder Lake"},
    {"GenuineIntel", 6, 0x9e, 0x9e, "Intel Kaby/Coffee Lake"},
    {"GenuineIntel", 6, 0xa5, 0xa6, "Intel Comet Lake"},
    {"GenuineIntel", 6, 0xaa, 0xac, "Intel Meteor Lake"},
    {"GenuineIntel", 6, 0xad, 0xae, "Intel Granite Rapids"},
    {"GenuineIntel", 6, 0xb7, 0xb7, "Intel Raptor Lake"},
    {"GenuineIntel", 6, 0xba, 0xba, "Intel Raptor Lake"},
    {"GenuineIntel", 6, 0xbf, 0xbf, "Intel Raptor Lake"},
    {"GenuineIntel", 6, 0xcf, 0xcf, "Intel Emerald Rapids"},
    {"AuthenticAMD", 0x17, 0x00, 0x07, "AMD Zen"},
    {"AuthenticAMD", 0x17, 0x08, 0x0f, "AMD Zen+"},
    {"AuthenticAMD", 0x17, 0x10, 0x17, "AMD Zen"},
    {"AuthenticAMD", 0x17, 0x18, 0x1f, "AMD Zen+"},
    {"AuthenticAMD", 0x17, 0x30, 0xff, "AMD Zen 2"},
    {"AuthenticAMD", 0x19, 0x00, 0x0f, "AMD Zen 3"},
    {"AuthenticAMD", 0x19, 0x10, 0x1f, "AMD Zen 4"},
    {"AuthenticAMD", 0x19, 0x20, 0x5f, "AMD Zen 3"},
    {"AuthenticAMD", 0x19, 0x60, 0xaf, "AMD Zen 4"},
    {"AuthenticAMD", 0x1a, 0x00, 0xff, "AMD Zen 5"},
};

const char *ecsb_cpu_uarch(const char *vendor, unsigned family, unsigned model)
{
    for (size_t i = 0; i < sizeof uarch_table / sizeof uarch_table[0]; i++) {
        const uarch_row *r = &uarch_table[i];
        if (strcmp(vendor, r->vendor) == 0 && family == r->family && model >= r->model_lo &&
            model <= r->model_hi)
            return r->name;
    }
    return NULL;
}

void ecsb_cache_size_text(uint64_t bytes, char *out, size_t size)
{
    if (bytes >= (1u << 20) && bytes % (1u << 20) == 0)
        snprintf(out, size, "%lluM", (unsigned long long)(bytes >> 20));
    else /* not a whole MiB: KiB (36608K), as scripts/ecsb_rundata.py writes it */
        snprintf(out, size, "%lluK", (unsigned long long)(bytes >> 10) % 100000000000ull);
}

/* The data-side cache of a level (data or unified), or NULL. */
static const ecsb_cache_info *data_cache(const ecsb_cpu_info *cpu, unsigned level)
{
    for (unsigned i = 0; i < cpu->cache_count; i++)
        if (cpu->caches[i].level == level && strcmp(cpu->caches[i].type, "instruction") != 0)
            return &cpu->caches[i];
    return NULL;
}

void ecsb_machine_short_name(const ecsb_cpu_info *cpu, double mhz, char *out, size_t size)
{
    char who[96];
    if (cpu->uarch[0])
        snprintf(who, sizeof who, "%s", cpu->uarch);
    else if (cpu->has_signature)
        snprintf(who, sizeof who, "%s family %u model %u",
                 strcmp(cpu->vendor, "GenuineIntel") == 0   ? "Intel"
                 : strcmp(cpu->vendor, "AuthenticAMD") == 0 ? "AMD"
                                                            : cpu->vendor,
                 cpu->family, cpu->model);
    else
        snprintf(who, sizeof who, "%s", cpu->brand[0] ? cpu->brand : cpu->arch);
    char caches[64] = "";
    for (unsigned level = 1; level <= 3; level++) {
        const ecsb_cache_info *c = data_cache(cpu, level);
        if (!c)
            continue;
        char text[16];
        ecsb_cache_size_text(c->size, text, sizeof text);
        size_t used = strlen(caches);
        snprintf(caches + used, sizeof caches - used, "%s%s", used ? "/" : "", text);
    }
    if (mhz > 0)
        snprintf(out, size, "%s, %.1f GHz%s%s", who, mhz / 1000.0, caches[0] ? ", " : "", caches);
    else
        snprintf(out, size, "%s%s%s", who, caches[0] ? ", " : "", caches);
}

/* "model name" (x86) or "CPU implementer"/"CPU part" (Arm) lines of /proc/cpuinfo. */
static void cpuinfo_value(const char *key, char *out, size_t size)
{
    out[0] = '\0';
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    size_t klen = strlen(key);
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, klen) != 0 || (line[klen] != ' ' && line[klen] != '\t' &&
                                               line[klen] != ':'))
            continue;
        char *v = strchr(line, ':');
        if (!v)
            continue;
        v++;
        while (*v == ' ' || *v == '\t')
            v++;
        v[strcspn(v, "\n")] = '\0';
        snprintf(out, size, "%s", v);
        break;
    }
    fclose(f);
}

static void caches_from_sysconf(ecsb_cpu_info *cpu)
{
#ifdef _SC_LEVEL1_DCACHE_SIZE
    static const struct {
        int size, line, ways;
        unsigned level;
        const char *type;
    } keys[] = {
        {_SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL1_DCACHE_LINESIZE, _SC_LEVEL1_DCACHE_ASSOC, 1, "data"},
        {_SC_LEVEL1_ICACHE_SIZE, _SC_LEVEL1_ICACHE_LINESIZE, _SC_LEVEL1_ICACHE_ASSOC, 1,
         "instruction"},
        {_SC_LEVEL2_CACHE_SIZE, _SC_LEVEL2_CACHE_LINESIZE, _SC_LEVEL2_CACHE_ASSOC, 2, "unified"},
        {_SC_LEVEL3_CACHE_SIZE, _SC_LEVEL3_CACHE_LINESIZE, _SC_LEVEL3_CACHE_ASSOC, 3, "unified"},
    };
    cpu->cache_count = 0;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        long size = sysconf(keys[i].size);
        if (size <= 0)
            continue;
        ecsb_cache_info *c = &cpu->caches[cpu->cache_count++];
        memset(c, 0, sizeof *c);
        c->level = keys[i].level;
        snprintf(c->type, sizeof c->type, "%s", keys[i].type);
        c->size = (uint64_t)size;
        long line = sysconf(keys[i].line), ways = sysconf(keys[i].ways);
        c->line = line > 0 ? (unsigned)line : 0;
        c->ways = ways > 0 ? (unsigned)ways : 0;
    }
    if (cpu->cache_count)
        snprintf(cpu->cache_source, sizeof cpu->cache_source,
                 "sysconf _SC_LEVEL*_CACHE_* (what getconf prints)");
#endif
}

#ifdef ECSB_HAVE_CPUID
static void read_cpuid(ecsb_cpu_info *cpu)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return;
    unsigned max_leaf = a;
    memcpy(cpu->vendor, &b, 4);
    memcpy(cpu->vendor + 4, &d, 4);
    memcpy(cpu->vendor + 8, &c, 4);
    cpu->vendor[12] = '\0';
    __get_cpuid(1, &a, &b, &c, &d);
    ecsb_cpuid_signature(a, &cpu->family, &cpu->model, &cpu->stepping);
    cpu->has_signature = true;
    snprintf(cpu->source, sizeof cpu->source, "cpuid leaves 0 and 1");
    if (c & (1u << 31)) { /* a hypervisor: its vendor at leaf 0x40000000 */
        __cpuid(0x40000000, a, b, c, d);
        memcpy(cpu->hypervisor, &b, 4);
        memcpy(cpu->hypervisor + 4, &c, 4);
        memcpy(cpu->hypervisor + 8, &d, 4);
        cpu->hypervisor[12] = '\0';
    }
    unsigned max_ext = __get_cpuid_max(0x80000000, NULL);
    if (max_ext >= 0x80000004) {
        uint32_t regs[12];
        for (unsigned i = 0; i < 3; i++)
            __cpuid(0x80000002 + i, regs[4 * i], regs[4 * i + 1], regs[4 * i + 2],
                    regs[4 * i + 3]);
        ecsb_cpuid_brand(regs, cpu->brand, sizeof cpu->brand);
    }
    /* Caches: leaf 4 (Intel), leaf 0x8000001D (AMD, with topology extensions). */
    unsigned leaf = 0;
    if (strcmp(cpu->vendor, "GenuineIntel") == 0 && max_leaf >= 4)
        leaf = 4;
    else if (strcmp(cpu->vendor, "AuthenticAMD") == 0 && max_ext >= 0x8000001d) {
        __cpuid(0x80000001, a, b, c, d);
        if (c & (1u << 22)) /* TopologyExtensions */
            leaf = 0x8000001d;
    }
    if (!leaf)
        return;
    for (unsigned i = 0; i < 16 && cpu->cache_count < ECSB_MACHINE_MAX_CACHES; i++) {
        __cpuid_count(leaf, i, a, b, c, d);
        if (!ecsb_cpuid_cache(a, b, c, &cpu->caches[cpu->cache_count]))
            break;
        cpu->cache_count++;
    }
    if (cpu->cache_count)
        snprintf(cpu->cache_source, sizeof cpu->cache_source, "cpuid leaf %s",
                 leaf == 4 ? "4" : "0x8000001d");
}
#endif

void ecsb_cpu_read(ecsb_cpu_info *cpu)
{
    memset(cpu, 0, sizeof *cpu);
    struct utsname u;
    snprintf(cpu->arch, sizeof cpu->arch, "%s", uname(&u) == 0 ? u.machine : "unknown");
#ifdef ECSB_HAVE_CPUID
    read_cpuid(cpu);
#endif
    if (!cpu->has_signature) {
        /* No CPUID: the system's words (Arm: implementer and part, in hex as it prints them). */
        char impl[32], part[32];
        cpuinfo_value("CPU implementer", impl, sizeof impl);
        cpuinfo_value("CPU part", part, sizeof part);
        if (impl[0]) {
            snprintf(cpu->vendor, sizeof cpu->vendor, "arm impl %s", impl);
            cpu->model = (unsigned)strtoul(part, NULL, 0);
            snprintf(cpu->source, sizeof cpu->source, "/proc/cpuinfo (CPU implementer, part)");
        } else {
            snprintf(cpu->source, sizeof cpu->source, "none (no CPUID, no /proc/cpuinfo ids)");
        }
    }
    if (!cpu->brand[0])
        cpuinfo_value("model name", cpu->brand, sizeof cpu->brand);
    const char *uarch = cpu->has_signature ? ecsb_cpu_uarch(cpu->vendor, cpu->family, cpu->model)
                                           : NULL;
    snprintf(cpu->uarch, sizeof cpu->uarch, "%s", uarch ? uarch : "");
    if (!cpu->cache_count)
        caches_from_sysconf(cpu);
    if (!cpu->cache_count)
        snprintf(cpu->cache_source, sizeof cpu->cache_source, "none found");
}
