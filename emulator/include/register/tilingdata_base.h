// Tiling data definitions usable from host and kernel code. The class is a plain standard-layout
// struct whose bytes are the tiling buffer: SaveToBuffer on the host and GET_TILING_DATA in the
// kernel agree on one layout (fields in order, natural alignment).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <type_traits>
#include <unordered_map>
#include <utility>

#include "../impl/emu/diag.h"
#include "../impl/host/tiling_buffer_scope.h"
#include "../securec.h"  // the real register headers bring securec along (host code calls memset_s unannounced)
#include "../graph/ascend_string.h"  // and the graph types: op headers use ge::DataType after including only this

#define BEGIN_TILING_DATA_DEF(class_name)                              \
    class class_name {                                                 \
    public:                                                            \
        ~class_name() { ::cbemu::tiling_data_ptr_flush(this, sizeof(*this), true); }

#define TILING_DATA_FIELD_DEF(data_type, field_name)                \
    data_type field_name = 0;                                       \
    void set_##field_name(data_type v) { field_name = v; }          \
    data_type get_##field_name() const { return field_name; }

#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name)                                          \
    arr_type field_name[arr_size] = {};                                                                     \
    void set_##field_name(const arr_type* v) { std::memcpy(field_name, v, sizeof(arr_type) * (arr_size)); } \
    arr_type* get_##field_name() { return field_name; }                                                     \
    const arr_type* get_##field_name() const { return field_name; }

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name)                  \
    struct_type field_name;                                                    \
    void set_##field_name(const struct_type& v) { field_name = v; }            \
    struct_type& get_##field_name() { return field_name; }                     \
    const struct_type& get_##field_name() const { return field_name; }

#define END_TILING_DATA_DEF                                                                   \
    void SaveToBuffer(void* buf, size_t capacity) const {                                     \
        std::memcpy(buf, (const void*)this, sizeof(*this) < capacity ? sizeof(*this) : capacity); \
    }                                                                                         \
    void SetDataPtr(void* buf) { ::cbemu::tiling_data_ptr_set(this, buf); }                   \
    size_t GetDataSize() const {                                                              \
        ::cbemu::tiling_data_ptr_flush(this, sizeof(*this), false);                           \
        return sizeof(*this);                                                                 \
    }                                                                                         \
    };

// SetDataPtr(buf) (TilingData结构定义.md: "预留接口", no more said): the toolkit's TilingData then keeps its fields
// in `buf`, so a tiling function that sets fields and never calls SaveToBuffer still fills the context's raw tiling
// data. Here the class's own bytes are the layout the kernel reads (no pointer member may be added), so the object
// remembers `buf` beside it and copies itself there when the size is asked (GetDataSize, which a tiling function
// calls to SetDataSize) and when it is destroyed (the end of the tiling function at the latest).
namespace cbemu {
struct TilingDataPtrs {
    std::mutex m;
    std::unordered_map<const void*, void*> to;
    size_t count = 0;  // read without the lock first: most objects never call SetDataPtr
};
inline TilingDataPtrs& tiling_data_ptrs() {
    static TilingDataPtrs p;
    return p;
}
inline void tiling_data_ptr_set(const void* obj, void* buf) {
    TilingDataPtrs& p = tiling_data_ptrs();
    std::lock_guard<std::mutex> lk(p.m);
    if (buf)
        p.to[obj] = buf;
    else
        p.to.erase(obj);
    __atomic_store_n(&p.count, p.to.size(), __ATOMIC_RELAXED);
}
inline void tiling_data_ptr_flush(const void* obj, size_t n, bool forget) {
    TilingDataPtrs& p = tiling_data_ptrs();
    if (__atomic_load_n(&p.count, __ATOMIC_RELAXED) == 0) return;
    std::lock_guard<std::mutex> lk(p.m);
    auto it = p.to.find(obj);
    if (it == p.to.end()) return;
    if (it->second != obj) {
        TilingBufferScope* scope = TilingBufferScope::current();
        std::memcpy(it->second, obj, scope ? scope->room(it->second, n) : n);
    }
    if (forget) {
        p.to.erase(it);
        __atomic_store_n(&p.count, p.to.size(), __ATOMIC_RELAXED);
    }
}
}  // namespace cbemu

// Registration. Every REGISTER_TILING_DATA_CLASS adds one numbered slot (a specialisation of
// CotbuilderTilingSlot<N>, N from __COUNTER__) in the namespace it is written in, so one header may register
// many ops with different structs. A plain GET_TILING_DATA reads the FIRST op registered in namespace optiling
// whose name is not a tiling-key variant (`Op_10001` names the struct of one tiling key of Op), else the first
// registered at all. Override with -DCOTBUILDER_TILING_TYPE=ns::Name, or use GET_TILING_DATA_WITH_STRUCT.
// The expansion ends with its own `;`: the use site may add one (an empty declaration) or not.
#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                                          \
    using CotbuilderRegisteredTiling_##op_type = class_name;                                     \
    template <int> struct CotbuilderTilingSlot;                                                  \
    template <> struct CotbuilderTilingSlot<__COUNTER__> {                                       \
        using type = class_name;                                                                 \
        static constexpr bool keyed = ::cbemu::is_tiling_key_variant(#op_type);                  \
    };

namespace cbemu {
// "Op_10001" (an op name, '_', digits only) is the struct of one tiling key of Op.
constexpr bool is_tiling_key_variant(const char* s) {
    int last_us = -1, n = 0;
    for (; s[n]; ++n)
        if (s[n] == '_') last_us = n;
    if (last_us <= 0 || last_us == n - 1) return false;
    for (int i = last_us + 1; i < n; ++i)
        if (s[i] < '0' || s[i] > '9') return false;
    return true;
}

template <template <int> class Slot, int N, typename = void>
struct slot_info {
    static constexpr bool defined = false, keyed = false;
};
template <template <int> class Slot, int N>
struct slot_info<Slot, N, std::void_t<typename Slot<N>::type>> {
    static constexpr bool defined = true, keyed = Slot<N>::keyed;
};

struct no_registered_tiling {};
template <template <int> class Slot, int N, bool found>
struct slot_type {
    using type = no_registered_tiling;  // only after the static_assert below has failed
};
template <template <int> class Slot, int N>
struct slot_type<Slot, N, true> {
    using type = typename Slot<N>::type;
};

// The slot GET_TILING_DATA reads among slots [0, sizeof...(Is)): -1 when none.
template <template <int> class Slot, int... Is>
constexpr int pick_tiling_slot(std::integer_sequence<int, Is...>) {
    constexpr bool def[] = {false, slot_info<Slot, Is>::defined...};
    constexpr bool keyed[] = {false, slot_info<Slot, Is>::keyed...};
    constexpr int n = (int)sizeof...(Is);
    for (int i = 0; i < n; ++i)
        if (def[i + 1] && !keyed[i + 1]) return i;
    for (int i = 0; i < n; ++i)
        if (def[i + 1]) return i;
    return -1;
}

template <template <int> class Slot, int End>
struct registered_tiling {
    static constexpr int slot = pick_tiling_slot<Slot>(std::make_integer_sequence<int, End>{});
    static_assert(slot >= 0,
                  "GET_TILING_DATA: no REGISTER_TILING_DATA_CLASS in namespace optiling is visible here; include the "
                  "tiling header, compile with -DCOTBUILDER_TILING_TYPE=ns::Name, or use GET_TILING_DATA_WITH_STRUCT");
    using type = typename slot_type<Slot, slot, (slot >= 0)>::type;
};
}  // namespace cbemu

namespace optiling {
template <int> struct CotbuilderTilingSlot;
}

#ifndef COTBUILDER_TILING_TYPE
#define COTBUILDER_TILING_TYPE ::cbemu::registered_tiling<::optiling::CotbuilderTilingSlot, __COUNTER__>::type
#endif

namespace cbemu {
inline void load_tiling(void* dst, const void* tiling, size_t n) {
    if (!tiling) report("tiling_null", Sev::fatal, SrcLoc{"", 0}, "GET_TILING_DATA with a null tiling pointer");
    std::memcpy(dst, tiling, n);
}
}  // namespace cbemu

#define GET_TILING_DATA(var, tiling)   \
    COTBUILDER_TILING_TYPE var;        \
    ::cbemu::load_tiling(&var, (const void*)(tiling), sizeof(var))
#define GET_TILING_DATA_WITH_STRUCT(struct_type, var, tiling) \
    struct_type var;                                          \
    ::cbemu::load_tiling(&var, (const void*)(tiling), sizeof(var))
#define GET_TILING_DATA_PTR_WITH_STRUCT(struct_type, ptr, tiling) \
    const struct_type* ptr = (const struct_type*)(tiling)
#define GET_TILING_DATA_MEMBER(struct_type, member, var, tiling)                                          \
    decltype(struct_type::member) var;                                                                    \
    ::cbemu::load_tiling(&var, (const uint8_t*)(tiling) + offsetof(struct_type, member), sizeof(var))

// Kernel-side declarations of which struct a tiling key reads (docs: REGISTER_TILING_DEFAULT /
// REGISTER_TILING_FOR_TILINGKEY): the emulator copies the bytes the host wrote whatever the struct, so a kernel that
// then reads them with GET_TILING_DATA_WITH_STRUCT sees the same layout; the declarations themselves do nothing here.
#ifndef REGISTER_TILING_DEFAULT
#define REGISTER_TILING_DEFAULT(struct_type)
#endif
#ifndef REGISTER_TILING_FOR_TILINGKEY
#define REGISTER_TILING_FOR_TILINGKEY(condition, struct_type)
#endif
