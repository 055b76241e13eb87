// Scalar helpers kernels call by their older or utility names (docs: 标量计算/ToFloat, ToBfloat16 - since renamed
// Cast（多类型转float）, see 附录/接口变更说明.md - and the toolkit's AlignUp utility that kernel_operator.h
// makes visible). The 910B forms: ToFloat takes a bfloat16_t only.
#pragma once
#include <cstdint>

namespace AscendC {

inline float ToFloat(const bfloat16_t& v) { return (float)v; }  // exact: a bf16 is the top half of a float
inline bfloat16_t ToBfloat16(const float& v) { return bfloat16_t(v); }

// DivCeil is in sync.h (a template there)
constexpr inline uint32_t AlignUp(uint32_t a, uint32_t b) { return (a + b - 1) / b * b; }

}  // namespace AscendC
