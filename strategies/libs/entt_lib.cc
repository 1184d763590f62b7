/*
 * entt_lib.cc — the EnTT side of the strategy strategies/entt.c (its opening comment gives the
 * mapping of each operation and why): one entt::basic_registry per world, each ecsb type a
 * named storage of a sized element type, run-time views for queries. Public API only.
 *
 * Settings, as an EnTT user sets them (all documented in EnTT's wiki, "Entity Component
 * System" and "Configuration"):
 *   - the identifier: a 64-bit enum (entt_traits<std::uint64_t>: 32-bit index, 32-bit
 *     version); the default 32-bit one has a 20-bit index, fewer ids than the scenarios at
 *     1,048,576 entities keep alive;
 *   - the registry's allocator (basic_registry's second parameter): a counting allocator
 *     over aligned operator new, for world_bytes;
 *   - ENTT_NOEXCEPTION (the Makefile): built without exceptions, so that these functions
 *     can be inlined into the C code (a C++ function with cleanups has a personality routine
 *     gcc does not inline into C); a failed allocation ends the program, as in flecs.
 * Page sizes are EnTT's defaults (ENTT_SPARSE_PAGE 4096 ids, ENTT_PACKED_PAGE 1024 values).
 */
#include "strategies/libs/entt_lib.h"

#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>
#include <type_traits>

#include "strategies/libs/entt/entt.hpp"

namespace {

enum class entity_id : std::uint64_t {};

/* Counts the bytes it hands out into *bytes; aligned operator new underneath. */
template<typename Type>
struct counting_allocator {
    using value_type = Type;
    std::size_t *bytes;

    explicit counting_allocator(std::size_t *counter) noexcept : bytes{counter} {}
    template<typename Other>
    counting_allocator(const counting_allocator<Other> &other) noexcept : bytes{other.bytes} {}

    Type *allocate(std::size_t n)
    {
        *bytes += n * sizeof(Type);
        return static_cast<Type *>(::operator new(n * sizeof(Type), std::align_val_t{alignof(Type)}));
    }
    void deallocate(Type *p, std::size_t n) noexcept
    {
        *bytes -= n * sizeof(Type);
        ::operator delete(p, std::align_val_t{alignof(Type)});
    }
    template<typename Other>
    bool operator==(const counting_allocator<Other> &other) const noexcept { return bytes == other.bytes; }
    template<typename Other>
    bool operator!=(const counting_allocator<Other> &other) const noexcept { return bytes != other.bytes; }
};

using registry_type = entt::basic_registry<entity_id, counting_allocator<entity_id>>;
using common_type = registry_type::common_type; /* basic_sparse_set: the type-erased pool */
using runtime_view_type = entt::basic_runtime_view<common_type>;

/* The element types: a tag is an empty type (EnTT keeps no values for it); a value type of s
 * bytes and alignment a is the first block below with at least both. */
struct tag {};
template<std::size_t Size, std::size_t Align>
struct alignas(Align) block {
    unsigned char bytes[Size];
};
#define ENTT_BLOCKS(X)                                                                         \
    X(1, 4, 4) X(2, 8, 8) X(3, 12, 4) X(4, 16, 16) X(5, 24, 8) X(6, 32, 32) X(7, 48, 16)       \
    X(8, 64, 64) X(9, 128, 64) X(10, 256, 64) X(11, 512, 64) X(12, 1024, 64)

template<typename Element>
using storage_of = std::remove_reference_t<decltype(std::declval<registry_type &>().storage<Element>(entt::id_type{}))>;

constexpr entity_id to_id(ecsb_entity e) { return entity_id{e - (std::uint64_t{1} << 32)}; }
constexpr ecsb_entity to_handle(entity_id e) { return static_cast<std::uint64_t>(e) + (std::uint64_t{1} << 32); }

} // namespace

struct ecsb_entt {
    std::size_t bytes = 0;            /* what the registry holds, through its allocator */
    registry_type registry{counting_allocator<entity_id>{&bytes}};
    std::uint32_t type_count = 0;
    std::uint8_t block[ECSB_MAX_TYPES]{};  /* type t's element type: 0 tag, else ENTT_BLOCKS' */
    common_type *pool[ECSB_MAX_TYPES]{};   /* type t's storage, type-erased */
    void *typed[ECSB_MAX_TYPES]{};         /* the same storage, as its own type */
};

namespace {

/* The storage of type t, as its own type, handed to f: one switch on t's element type. */
template<typename Func>
inline __attribute__((always_inline)) decltype(auto) with_storage(const ecsb_entt *r, ecsb_type t, Func &&f)
{
    switch (r->block[t]) {
#define ENTT_CASE(n, size, align)                                                              \
    case n:                                                                                    \
        return f(*static_cast<storage_of<block<size, align>> *>(r->typed[t]));
        ENTT_BLOCKS(ENTT_CASE)
#undef ENTT_CASE
    default:
        return f(*static_cast<storage_of<tag> *>(r->typed[t]));
    }
}

/* Type t's value of e (e holds t): its address, ECSB_TAG for a tag. */
inline __attribute__((always_inline)) void *value_of(const ecsb_entt *r, ecsb_type t, entity_id e)
{
    return with_storage(r, t, [e](auto &storage) -> void * {
        if constexpr (std::is_same_v<typename std::remove_reference_t<decltype(storage)>::element_type, tag>)
            return ECSB_TAG;
        else
            return &storage.get(e);
    });
}

/* The element type for s bytes at alignment a (s > 0): the first block that fits. */
std::uint8_t block_for(std::uint32_t size, std::uint32_t align)
{
    static const std::uint32_t sizes[] = {0,
#define ENTT_SIZE(n, size, align) size,
        ENTT_BLOCKS(ENTT_SIZE)
#undef ENTT_SIZE
    };
    static const std::uint32_t aligns[] = {0,
#define ENTT_ALIGN(n, size, align) align,
        ENTT_BLOCKS(ENTT_ALIGN)
#undef ENTT_ALIGN
    };
    std::uint8_t n = 1;
    while (sizes[n] < size || aligns[n] < align)
        n++;
    return n;
}

/* The name of type t's storage in the registry. */
constexpr entt::id_type storage_id(ecsb_type t) { return static_cast<entt::id_type>(0xecb00000u + t); }

/* The type info of element type n (block[t]'s numbering). */
const entt::type_info &element_info(std::uint8_t n)
{
    switch (n) {
#define ENTT_INFO(n, size, align)                                                              \
    case n:                                                                                    \
        return entt::type_id<block<size, align>>();
        ENTT_BLOCKS(ENTT_INFO)
#undef ENTT_INFO
    case 0:
        return entt::type_id<tag>();
    default:
        return entt::type_id<void>(); /* no element type */
    }
}

template<typename Element>
void open_storage(ecsb_entt *r, ecsb_type t)
{
    auto &storage = r->registry.storage<Element>(storage_id(t));
    r->pool[t] = &storage;
    r->typed[t] = &storage;
}

} // namespace

/* The hot calls: inlined into the C callers at link time (always_inline is kept in the LTO
 * bytecode), and still emitted (used) for the test build, which links without LTO. */
#define ENTT_HOT inline __attribute__((always_inline, used))

extern "C" {

ecsb_entt *ecsb_entt_open(const ecsb_world_config *config)
{
    auto *r = new (std::nothrow) ecsb_entt{};
    if (!r)
        return nullptr;
    r->type_count = config->type_count;
    for (ecsb_type t = 0; t < config->type_count; t++) {
        if (config->type_size[t] == 0) {
            r->block[t] = 0;
            open_storage<tag>(r, t);
            continue;
        }
        r->block[t] = block_for(config->type_size[t], ecsb_type_align(config, t));
        switch (r->block[t]) {
#define ENTT_OPEN(n, size, align)                                                              \
    case n:                                                                                    \
        open_storage<block<size, align>>(r, t);                                                \
        break;
            ENTT_BLOCKS(ENTT_OPEN)
#undef ENTT_OPEN
        }
    }
    if (config->initial_capacity)
        r->registry.storage<entity_id>().reserve(config->initial_capacity);
    return r;
}

void ecsb_entt_close(ecsb_entt *r) { delete r; }

size_t ecsb_entt_bytes(const ecsb_entt *r) { return sizeof *r + r->bytes; }

ENTT_HOT ecsb_entity ecsb_entt_create(ecsb_entt *r) { return to_handle(r->registry.create()); }

ENTT_HOT bool ecsb_entt_alive(const ecsb_entt *r, ecsb_entity e)
{
    return (e >> 32) != 0 && r->registry.valid(to_id(e));
}

ENTT_HOT void ecsb_entt_destroy(ecsb_entt *r, ecsb_entity e) { r->registry.destroy(to_id(e)); }

ENTT_HOT bool ecsb_entt_has(const ecsb_entt *r, ecsb_entity e, ecsb_type t)
{
    return r->pool[t]->contains(to_id(e));
}

ENTT_HOT void *ecsb_entt_emplace(ecsb_entt *r, ecsb_entity e, ecsb_type t)
{
    return with_storage(r, t, [e](auto &storage) -> void * {
        if constexpr (std::is_same_v<typename std::remove_reference_t<decltype(storage)>::element_type, tag>) {
            storage.emplace(to_id(e));
            return ECSB_TAG;
        } else {
            return &storage.emplace(to_id(e));
        }
    });
}

ENTT_HOT void ecsb_entt_erase(ecsb_entt *r, ecsb_entity e, ecsb_type t)
{
    with_storage(r, t, [e](auto &storage) { storage.erase(to_id(e)); });
}

ENTT_HOT void *ecsb_entt_get(ecsb_entt *r, ecsb_entity e, ecsb_type t)
{
    const entity_id id = to_id(e);
    return r->pool[t]->contains(id) ? value_of(r, t, id) : nullptr;
}

size_t ecsb_entt_count(const ecsb_entt *r, ecsb_type t) { return r->pool[t]->size(); }

ENTT_HOT void ecsb_entt_query(ecsb_entt *r, const ecsb_query *q, ecsb_query_fn fn, void *ctx)
{
    runtime_view_type view{};
    for (std::uint32_t j = 0; j < q->count; j++)
        view.iterate(*r->pool[q->types[j]]);
    for (std::uint32_t j = 0; j < q->exclude_count; j++)
        view.exclude(*r->pool[q->exclude[j]]);
    void *columns[ECSB_MAX_QUERY_COLUMNS];
    ecsb_entity handle;
    if (q->entities)
        columns[q->count] = &handle;
    for (const entity_id e : view) { /* view.each(f), with f's body here: no closure call */
        for (std::uint32_t j = 0; j < q->count; j++)
            columns[j] = value_of(r, q->types[j], e);
        if (q->entities)
            handle = to_handle(e);
        fn(ctx, 1, columns);
    }
}

bool ecsb_entt_valid(const ecsb_entt *r, size_t live)
{
    if (r->registry.storage<entity_id>()->free_list() != live)
        return false;
    for (ecsb_type t = 0; t < r->type_count; t++) { /* t's storage is the registry's, typed */
        if (r->registry.storage(storage_id(t)) != r->pool[t] || r->pool[t]->info() != element_info(r->block[t]))
            return false;
        if (!with_storage(r, t, [&](auto &storage) { return static_cast<const void *>(&storage) == r->typed[t]; }))
            return false;
    }
    for (ecsb_type t = 0; t < r->type_count; t++) {
        std::size_t held = 0;
        for (const auto e : *r->pool[t]) {
            if (!r->registry.valid(e))
                return false;
            held++;
        }
        if (held != r->pool[t]->size())
            return false;
    }
    return true;
}

int ecsb_entt_corrupt(ecsb_entt *r, unsigned which)
{
    switch (which) {
    case 0: /* type 0's storage pointer: type 1's */
        if (r->type_count < 2)
            return 0;
        std::swap(r->pool[0], r->pool[1]);
        std::swap(r->typed[0], r->typed[1]);
        return 1;
    case 1: /* type 0's element type: another block */
        r->block[0] ^= 16;
        return 1;
    default:
        return -1;
    }
}

} // extern "C"
