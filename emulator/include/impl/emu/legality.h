// Legality from the docs: an API called with an element type its "supported data types" section does not list for
// the target SoC does not compile, as the real API rejects it (at compile time, or by the assertions active under
// ASCENDC_CPU_DEBUG: asc-devkit impl/basic_api/dav_c220/kernel_operator_vec_*_impl.h). The table is data,
// generated from the docs (legality_table.h from emulator/legality.json); an API or a type parameter the table has no
// types for is never rejected.
//
// The target SoC is the one the unit is built for (-DCOTBUILDER_SOC_ASCEND910B / _ASCEND310P / _ASCEND310B; the
// verify stage passes it), ascend910b by default.
#pragma once
#include <cstdint>
#include <type_traits>

#include "fp.h"
#include "legality_table.h"

namespace AscendC {
struct int4b_t;
}

namespace cbemu {
namespace legal {

constexpr int soc_index() {
#if defined(COTBUILDER_SOC_ASCEND310P)
    return 1;
#elif defined(COTBUILDER_SOC_ASCEND310B)
    return 2;
#else
    return 0;
#endif
}

// The bit of an element type in the table (kTypeNames order); 0 for a type the docs do not name (never rejected).
template <typename T>
constexpr uint32_t type_bit() {
    using U = typename std::remove_cv<T>::type;
    if constexpr (std::is_same<U, half>::value) return 1u << 0;
    else if constexpr (std::is_same<U, bfloat16_t>::value) return 1u << 1;
    else if constexpr (std::is_same<U, float>::value) return 1u << 2;
    else if constexpr (std::is_same<U, double>::value) return 1u << 3;
    else if constexpr (std::is_same<U, int8_t>::value) return 1u << 4;
    else if constexpr (std::is_same<U, uint8_t>::value) return 1u << 5;
    else if constexpr (std::is_same<U, int16_t>::value) return 1u << 6;
    else if constexpr (std::is_same<U, uint16_t>::value) return 1u << 7;
    else if constexpr (std::is_same<U, int32_t>::value) return 1u << 8;
    else if constexpr (std::is_same<U, uint32_t>::value) return 1u << 9;
    else if constexpr (std::is_same<U, int64_t>::value) return 1u << 10;
    else if constexpr (std::is_same<U, uint64_t>::value) return 1u << 11;
    else if constexpr (std::is_same<U, AscendC::int4b_t>::value) return 1u << 12;
    else if constexpr (std::is_same<U, bool>::value) return 1u << 13;
    else return 0;
}
template <typename T>
constexpr int type_index() {
    uint32_t b = type_bit<T>();
    for (int i = 0; i < 32; ++i)
        if (b == (1u << i)) return i;
    return -1;
}

template <typename T>
constexpr bool allows(const Rule& r) {
    uint32_t allowed = r.soc[soc_index()], bit = type_bit<T>();
    return allowed == 0 || bit == 0 || (allowed & bit) != 0;
}

// Cast: the (src, dst) pair must be in the page's table for the SoC (when the SoC has any pair at all).
template <typename Src, typename Dst>
constexpr bool cast_pair_allowed() {
    bool any = false;
    for (const CastRule& r : kCast) {
        if (r.modes[soc_index()] == 0) continue;
        any = true;
        if ((int)r.src == type_index<Src>() && (int)r.dst == type_index<Dst>()) return true;
    }
    return !any || type_bit<Src>() == 0 || type_bit<Dst>() == 0;
}
// The round modes the table allows for a pair (bit i = kRoundModes[i]); 0 when the pair or the SoC is not listed.
template <typename Src, typename Dst>
constexpr uint32_t cast_modes() {
    for (const CastRule& r : kCast)
        if ((int)r.src == type_index<Src>() && (int)r.dst == type_index<Dst>()) return r.modes[soc_index()];
    return 0;
}

}  // namespace legal
}  // namespace cbemu

// CBEMU_LEGAL(Add, T, T): `T` is a type the docs list for Add's template parameter T on the target SoC. The failure
// names the API, the parameter and the doc page; g++'s "[with T = ...]" note names the type.
#define CBEMU_LEGAL(API, PARAM, TYPE)                                                                        \
    static_assert(::cbemu::legal::allows<TYPE>(::cbemu::legal::API##_##PARAM),                             \
                  "cotbuilder legality: " #API " does not support this " #PARAM                            \
                  " on the target SoC (the docs' supported data types; docs: " CBEMU_LEGAL_DOC_##API##_##PARAM ")")
#define CBEMU_LEGAL_CAST(SRC, DST)                                                                           \
    static_assert(::cbemu::legal::cast_pair_allowed<SRC, DST>(),                                            \
                  "cotbuilder legality: Cast does not support this (src, dst) type pair on the target SoC "  \
                  "(docs: " CBEMU_LEGAL_DOC_Cast ")")
