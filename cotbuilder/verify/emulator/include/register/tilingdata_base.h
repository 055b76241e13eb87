// Tiling data definitions usable from host and kernel code. The class is a plain standard-layout
// struct whose bytes are the tiling buffer: SaveToBuffer on the host and GET_TILING_DATA in the
// kernel agree on one layout (fields in order, natural alignment).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "../cotbuilder_emu/diag.h"

#define BEGIN_TILING_DATA_DEF(class_name) \
    class class_name {                    \
    public:

#define TILING_DATA_FIELD_DEF(data_type, field_name)                \
    data_type field_name = 0;                                       \
    void set_##field_name(data_type v) { field_name = v; }          \
    data_type get_##field_name() const { return field_name; }

#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name)                                          \
    arr_type field_name[arr_size] = {};                                                                     \
    void set_##field_name(const arr_type* v) { std::memcpy(field_name, v, sizeof(arr_type) * (arr_size)); } \
    const arr_type* get_##field_name() const { return field_name; }

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name)                  \
    struct_type field_name;                                                    \
    void set_##field_name(const struct_type& v) { field_name = v; }            \
    const struct_type& get_##field_name() const { return field_name; }

#define END_TILING_DATA_DEF                                                                   \
    void SaveToBuffer(void* buf, size_t capacity) const {                                     \
        std::memcpy(buf, (const void*)this, sizeof(*this) < capacity ? sizeof(*this) : capacity); \
    }                                                                                         \
    size_t GetDataSize() const { return sizeof(*this); }                                     \
    }

// The last registered class is what a plain GET_TILING_DATA reads (override with
// -DCOTBUILDER_TILING_TYPE=ns::Name when the registration is not in namespace optiling).
#define REGISTER_TILING_DATA_CLASS(op_type, class_name)     \
    using CotbuilderRegisteredTiling_##op_type = class_name; \
    using CotbuilderLastRegisteredTiling = class_name

#ifndef COTBUILDER_TILING_TYPE
#define COTBUILDER_TILING_TYPE ::optiling::CotbuilderLastRegisteredTiling
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
