/*
 * machine_cpuid.c — the CPUID decoding of `ecsbench machine` (harness/machine_cpuid.c) on
 * register values of real parts: an Intel Xeon (Emerald Rapids, family 6 model 207, leaf 4, as
 * read on a KVM guest) and an AMD EPYC (Zen 4, leaf 0x8000001D, AMD's documented Genoa values),
 * the family/model arithmetic with extended fields, the brand string, the microarchitecture
 * table and the short name.
 */
#include <string.h>

#include "harness/machine.h"
#include "tests/support.h"
#include "tests/suites.h"

static void check_cache(uint32_t eax, uint32_t ebx, uint32_t ecx, unsigned level,
                        const char *type, uint64_t size, unsigned ways, unsigned shared)
{
    ecsb_cache_info c;
    TST_CHECK(ecsb_cpuid_cache(eax, ebx, ecx, &c), "subleaf %08x ends the list", eax);
    TST_CHECK(c.level == level, "level %u, want %u", c.level, level);
    TST_CHECK(strcmp(c.type, type) == 0, "type %s, want %s", c.type, type);
    TST_CHECK(c.size == size, "L%u size %llu, want %llu", level, (unsigned long long)c.size,
              (unsigned long long)size);
    TST_CHECK(c.line == 64, "line %u, want 64", c.line);
    TST_CHECK(c.ways == ways, "L%u ways %u, want %u", level, c.ways, ways);
    TST_CHECK(c.shared_by == shared, "L%u shared by %u, want %u", level, c.shared_by, shared);
}

void machine_cpuid_decodes_an_intel_leaf_4(void **state)
{
    (void)state;
    unsigned f, m, s;
    ecsb_cpuid_signature(0x000c06f2, &f, &m, &s);
    TST_CHECK(f == 6 && m == 207 && s == 2, "family %u model %u stepping %u, want 6 207 2", f,
              m, s);
    check_cache(0x04000121, 0x02c0003f, 0x0000003f, 1, "data", 48 << 10, 12, 1);
    check_cache(0x04000122, 0x01c0003f, 0x0000003f, 1, "instruction", 32 << 10, 8, 1);
    check_cache(0x04000143, 0x03c0003f, 0x000007ff, 2, "unified", 2 << 20, 16, 1);
    check_cache(0x04004163, 0x04c0003f, 0x0003bfff, 3, "unified", 300ull << 20, 20, 2);
    ecsb_cache_info c;
    TST_CHECK(!ecsb_cpuid_cache(0, 0, 0, &c), "type 0 must end the list");
    TST_CHECK(strcmp(ecsb_cpu_uarch("GenuineIntel", 6, 207), "Intel Emerald Rapids") == 0,
              "family 6 model 207 is Emerald Rapids");
}

void machine_cpuid_decodes_an_amd_leaf_8000001d(void **state)
{
    (void)state;
    unsigned f, m, s;
    ecsb_cpuid_signature(0x00a10f11, &f, &m, &s); /* EPYC 9004: family 0x19 model 0x11 */
    TST_CHECK(f == 0x19 && m == 0x11 && s == 1, "family %u model %u stepping %u, want 25 17 1",
              f, m, s);
    check_cache(0x00004121, 0x01c0003f, 0x0000003f, 1, "data", 32 << 10, 8, 2);
    check_cache(0x00004143, 0x01c0003f, 0x000007ff, 2, "unified", 1 << 20, 8, 2);
    check_cache(0x0003c163, 0x03c0003f, 0x00007fff, 3, "unified", 32 << 20, 16, 16);
    TST_CHECK(strcmp(ecsb_cpu_uarch("AuthenticAMD", f, m), "AMD Zen 4") == 0, "Genoa is Zen 4");
    ecsb_cpuid_signature(0x00b00f21, &f, &m, &s); /* family 0x1a: Zen 5 */
    TST_CHECK(f == 26 && m == 2, "family %u model %u, want 26 2", f, m);
    TST_CHECK(strcmp(ecsb_cpu_uarch("AuthenticAMD", f, m), "AMD Zen 5") == 0, "family 26 is Zen 5");
    ecsb_cpuid_signature(0x00830f10, &f, &m, &s); /* EPYC 7002: family 0x17 model 0x31 */
    TST_CHECK(f == 0x17 && m == 0x31, "family %u model %u, want 23 49", f, m);
    TST_CHECK(strcmp(ecsb_cpu_uarch("AuthenticAMD", f, m), "AMD Zen 2") == 0, "Rome is Zen 2");
    TST_CHECK(ecsb_cpu_uarch("AuthenticAMD", 0x10, 2) == NULL, "an unknown family has no name");
}

void machine_cpuid_brand_and_short_name(void **state)
{
    (void)state;
    char text[49] = "  AMD EPYC 9654 96-Core Processor               ";
    uint32_t regs[12];
    memcpy(regs, text, 48);
    char brand[64];
    ecsb_cpuid_brand(regs, brand, sizeof brand);
    TST_CHECK(strcmp(brand, "AMD EPYC 9654 96-Core Processor") == 0, "brand '%s'", brand);

    ecsb_cpu_info cpu;
    memset(&cpu, 0, sizeof cpu);
    strcpy(cpu.vendor, "AuthenticAMD");
    cpu.has_signature = true;
    cpu.family = 26;
    strcpy(cpu.uarch, "AMD Zen 5");
    ecsb_cache_info caches[] = {{1, "data", 48 << 10, 64, 12, 1},
                                {1, "instruction", 32 << 10, 64, 8, 1},
                                {2, "unified", 1 << 20, 64, 16, 1},
                                {3, "unified", 32 << 20, 64, 16, 8}};
    memcpy(cpu.caches, caches, sizeof caches);
    cpu.cache_count = 4;
    char name[160];
    ecsb_machine_short_name(&cpu, 2096, name, sizeof name);
    TST_CHECK(strcmp(name, "AMD Zen 5, 2.1 GHz, 48K/1M/32M") == 0, "short name '%s'", name);
    cpu.uarch[0] = '\0';
    strcpy(cpu.vendor, "GenuineIntel");
    cpu.family = 6;
    cpu.model = 250;
    ecsb_machine_short_name(&cpu, 2596, name, sizeof name);
    TST_CHECK(strcmp(name, "Intel family 6 model 250, 2.6 GHz, 48K/1M/32M") == 0,
              "short name '%s'", name);
}
