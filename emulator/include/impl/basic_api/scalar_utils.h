// Scalar helpers kernels call by their older or utility names (docs: 标量计算/ToFloat, ToBfloat16 - since renamed
// Cast（多类型转float）, see 附录/接口变更说明.md - and the toolkit's AlignUp utility that kernel_operator.h
// makes visible). The 910B forms: ToFloat takes a bfloat16_t only. GetScalarBitcodeValue: a utility the toolkit's
// headers declare under kernel_operator.h (no page of its own); kernels use it for DataCopyPad's paddingValue.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace AscendC {

inline float ToFloat(const bfloat16_t& v) { return (float)v; }  // exact: a bf16 is the top half of a float
inline bfloat16_t ToBfloat16(const float& v) { return bfloat16_t(v); }

// Cast<T, U, roundMode>(valueIn) (标量计算/Cast（float转half-int32_t）.md) and ScalarCast, its name before CANN 9
// (附录/接口变更说明.md): a float scalar to half (CAST_ODD) or int32_t (CAST_ROUND / CEIL / FLOOR / RINT), the only
// pairs the page's table lists; another pair or mode does not compile.
template <typename T, typename U, RoundMode roundMode>
U Cast(T valueIn) {
    static_assert(std::is_same<T, float>::value &&
                      ((std::is_same<U, half>::value && roundMode == RoundMode::CAST_ODD) ||
                       (std::is_same<U, int32_t>::value &&
                        (roundMode == RoundMode::CAST_ROUND || roundMode == RoundMode::CAST_CEIL ||
                         roundMode == RoundMode::CAST_FLOOR || roundMode == RoundMode::CAST_RINT))),
                  "cotbuilder legality: scalar Cast supports float -> half (CAST_ODD) and float -> int32_t "
                  "(CAST_ROUND, CAST_CEIL, CAST_FLOOR, CAST_RINT) (docs: SIMD-API/基础API/标量计算/"
                  "Cast（float转half-int32_t）.md)");
    return cbemu::convert<U>((double)valueIn, roundMode);
}
template <typename T, typename U, RoundMode roundMode>
U ScalarCast(T valueIn) {
    return Cast<T, U, roundMode>(valueIn);
}

// The bits of a scalar, as an integer: GetScalarBitcodeValue(v) zero-extended to uint64_t, and
// GetScalarBitcodeValue<T, U>(v) the bytes of v read as a U (the part both have).
template <typename T>
inline uint64_t GetScalarBitcodeValue(T scalarValue) {
    static_assert(sizeof(T) <= sizeof(uint64_t), "GetScalarBitcodeValue: a scalar of at most 8 bytes");
    uint64_t bits = 0;
    std::memcpy(&bits, &scalarValue, sizeof(T));
    return bits;
}
template <typename T, typename U>
inline U GetScalarBitcodeValue(T scalarValue) {
    U out{};
    std::memcpy(&out, &scalarValue, sizeof(T) < sizeof(U) ? sizeof(T) : sizeof(U));
    return out;
}

// DivCeil is in sync.h (a template there)
constexpr inline uint32_t AlignUp(uint32_t a, uint32_t b) { return (a + b - 1) / b * b; }

}  // namespace AscendC
