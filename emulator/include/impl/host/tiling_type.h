// Small helpers tiling code shares (the ops-base `tiling/tiling_type.h` interface, as op projects use it): the
// AI-core parameters a tiling template caches, rounding helpers, and check macros (defined only when the project has
// not defined its own).
#pragma once
#include <cstdint>
#include <cstdio>

namespace optiling {

struct AiCoreParams {
    uint64_t ubSize = 0;
    uint64_t blockDim = 0;
    uint64_t aicNum = 0;
    uint64_t l1Size = 0;
    uint64_t l0aSize = 0;
    uint64_t l0bSize = 0;
    uint64_t l0cSize = 0;
};

// AlignUp takes the divisor as a second type parameter (converted to T), so that a project helper of the same name
// written for a toolkit without it (`template <typename T> T AlignUp(T, T)`) is the more specialised template and
// wins the call instead of making it ambiguous. CeilDiv / CeilDivision keep one type: ops-math hosts bring
// Ops::Base::CeilDiv(T1, T2) into this namespace with a using-declaration, which a two-type CeilDiv would clash with.

// n rounded up to a multiple of align (0 when align is 0).
template <typename T, typename U = T>
static T AlignUp(T num, U by) {
    const T align = static_cast<T>(by);
    if (align == 0) return 0;
    if (num < 0) return -(-num / align) * align;
    return (num + align - 1) / align * align;
}
// n / d rounded up (0 when d is 0).
template <typename T>
static T CeilDivision(T num, T div) {
    return div == 0 ? 0 : (num + div - 1) / div;
}
template <typename T>
static T CeilDiv(const T num, const T div) {
    return div == 0 ? 0 : (num + div - 1) / div;
}

}  // namespace optiling

namespace cbhost {
// Tiling-key fields packed as decimal digits, the first field in the lowest digit.
constexpr uint64_t decimal_fields() { return 0; }
template <typename T, typename... Rest>
constexpr uint64_t decimal_fields(T first, Rest... rest) {
    return static_cast<uint64_t>(first) + 10 * decimal_fields(rest...);
}
}  // namespace cbhost

namespace optiling {
// A tiling key assembled from template fields, one decimal digit each (first field lowest), above a 10^19 marker
// digit: the op keeps the low digits it needs (`key % 10^12`) or matches the whole value.
constexpr uint64_t TILINGKEYOFFSET = 10000000000000000000ULL;
template <typename... Fields>
constexpr uint64_t GET_TILINGKEY(Fields... fields) {
    return TILINGKEYOFFSET + cbhost::decimal_fields(fields...);
}
// The same digits without the marker: cann-ops' reduction ops pack their axis-pattern ids into a key with it.
template <typename... Fields>
constexpr uint64_t RecursiveSum(Fields... fields) {
    return cbhost::decimal_fields(fields...);
}
}  // namespace optiling

#ifndef CHECK_RET
#define CHECK_RET(cond, return_expr) \
    do {                             \
        if ((cond)) {                \
            return_expr;             \
        }                            \
    } while (0)
#endif
#ifndef CHECK_NULL
#define CHECK_NULL(ptr, return_expr) \
    do {                             \
        if ((ptr) == nullptr) {      \
            return_expr;             \
        }                            \
    } while (0)
#endif
#ifndef LOG_PRINT
#define LOG_PRINT(message, ...) std::printf(message, ##__VA_ARGS__)
#endif
