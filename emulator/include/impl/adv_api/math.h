// High-level math library APIs (docs: SIMD-API/高阶API/数学计算): element-wise functions with the
// documented overload set (with/without sharedTmpBuffer, with/without calCount), Clamp/Where/bit ops,
// and Fill of a GM range.
#pragma once
#include "core.h"

namespace cbemu {
// 1 + exp(-x) as Sigmoid and Silu compute it on A2 / A3 / 310P: the library runs Muls(-1), Exp, Adds(1) as vector
// instructions in T, each result rounded to T (so a half input is rounded three times, not once in double).
template <typename T>
inline calc_t<T> one_plus_exp_neg(double x) {
    using C = calc_t<T>;
    T m = T(-C(x));
    T e = T(std::exp(C(m)));
    return C(T(C(e) + C(1)));
}
// The one-input library functions whose docs say isReuseSource = true computes in src's memory.
inline bool hl_reuses_src(const char* api) {
    return std::strcmp(api, "Sin") == 0 || std::strcmp(api, "Cos") == 0;
}
}  // namespace cbemu

namespace AscendC {

constexpr uint32_t FMOD_ITERATION_NUM_MAX = 11;
enum class FmodAlgo { NORMAL = 0, ITERATION_COMPENSATION = 1 };
struct FmodConfig {
    FmodAlgo algo = FmodAlgo::NORMAL;
    uint32_t iterationNum = FMOD_ITERATION_NUM_MAX;
};
inline constexpr FmodConfig DEFAULT_FMOD_CONFIG = {};
enum class PowerAlgo { INTRINSIC = 0, DOUBLE_FLOAT_TECH };
struct PowerConfig {
    PowerAlgo algo = PowerAlgo::INTRINSIC;
};
inline constexpr PowerConfig DEFAULT_POWER_CONFIG = {};
struct LogicalAndConfig {
    bool reserved = false;
};
inline constexpr LogicalAndConfig DEFAULT_LOGICAL_AND_CONFIG = {};

// One-input functions: dst = f(src). Template parameters after T are accepted as documented
// (isReuseSource and the like) and do not change the exact result computed here.
#define CBEMU_HL_UNARY(NAME, EXPR)                                                                              \
    template <typename T, bool isReuseSource = false>                                                           \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,            \
              const uint32_t calCount, CBEMU_LOC) {                                                             \
        cbemu::hl_tmp(tmp, loc, #NAME);                                                                         \
        cbemu::hl_map(dst, calCount, loc, #NAME, [](auto v) { double x = (double)v; return (EXPR); }, src);    \
        if constexpr (isReuseSource && std::is_same<T, float>::value)                                           \
            if (cbemu::hl_reuses_src(#NAME)) cbemu::hl_clobber(src, dst.addr_, calCount, loc, #NAME);           \
    }                                                                                                           \
    template <typename T, bool isReuseSource = false>                                                           \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp, CBEMU_LOC) { \
        NAME<T, isReuseSource>(dst, src, tmp, cbemu::hl_all(src), loc);                                         \
    }                                                                                                           \
    template <typename T, bool isReuseSource = false>                                                           \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t calCount, CBEMU_LOC) {       \
        cbemu::hl_map(dst, calCount, loc, #NAME, [](auto v) { double x = (double)v; return (EXPR); }, src);    \
        if constexpr (isReuseSource && std::is_same<T, float>::value)                                           \
            if (cbemu::hl_reuses_src(#NAME)) cbemu::hl_clobber(src, dst.addr_, calCount, loc, #NAME);           \
    }                                                                                                           \
    template <typename T, bool isReuseSource = false, CBEMU_NOLOC_TPARAMS>                                      \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t calCount, CBEMU_NOLOC) {     \
        NAME<T, isReuseSource>(dst, src, calCount, CBEMU_VIA_POINTER);                                          \
    }                                                                                                           \
    template <typename T, bool isReuseSource = false>                                                           \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, CBEMU_LOC) {                                \
        NAME<T, isReuseSource>(dst, src, cbemu::hl_all(src), loc);                                              \
    }

CBEMU_HL_UNARY(Acosh, std::acosh(x))
CBEMU_HL_UNARY(Asinh, std::asinh(x))
CBEMU_HL_UNARY(Atanh, std::atanh(x))
CBEMU_HL_UNARY(Acos, std::acos(x))
CBEMU_HL_UNARY(Asin, std::asin(x))
CBEMU_HL_UNARY(Atan, std::atan(x))
CBEMU_HL_UNARY(Cosh, std::cosh(x))
CBEMU_HL_UNARY(Sinh, std::sinh(x))
CBEMU_HL_UNARY(Tanh, std::tanh(x))
CBEMU_HL_UNARY(Sin, std::sin(x))
CBEMU_HL_UNARY(Cos, std::cos(x))
CBEMU_HL_UNARY(Tan, std::tan(x))
CBEMU_HL_UNARY(Ceil, std::ceil(x))
CBEMU_HL_UNARY(Floor, std::floor(x))
CBEMU_HL_UNARY(Trunc, std::trunc(x))
CBEMU_HL_UNARY(Round, std::round(x))
CBEMU_HL_UNARY(Rint, std::nearbyint(x))
CBEMU_HL_UNARY(Frac, x - std::trunc(x))
CBEMU_HL_UNARY(Erf, std::erf(x))
CBEMU_HL_UNARY(Erfc, std::erfc(x))
CBEMU_HL_UNARY(Sign, (double)((x > 0) - (x < 0)))
CBEMU_HL_UNARY(Log, std::log(x))
CBEMU_HL_UNARY(Log2, std::log2(x))
CBEMU_HL_UNARY(Log10, std::log10(x))
// ... then the last instruction, Div in T: 1 / d (Sigmoid) or x / d (Silu), rounded to T on store.
CBEMU_HL_UNARY(Sigmoid, (double)(cbemu::calc_t<T>(1) / cbemu::one_plus_exp_neg<T>(x)))
CBEMU_HL_UNARY(Silu, (double)(cbemu::calc_t<T>(x) / cbemu::one_plus_exp_neg<T>(x)))
#undef CBEMU_HL_UNARY

// Exp with a Taylor-expansion level: the exact exp is computed (the level only trades precision).
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
         const uint32_t calCount, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "Exp");
    cbemu::hl_map(dst, calCount, loc, "Exp", [](auto v) { return std::exp((double)v); }, src);
    if constexpr (isReuseSource && std::is_same<T, float>::value) cbemu::hl_clobber(src, dst.addr_, calCount, loc, "Exp");
}
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t calCount, CBEMU_LOC) {
    cbemu::hl_map(dst, calCount, loc, "Exp", [](auto v) { return std::exp((double)v); }, src);
    if constexpr (isReuseSource && std::is_same<T, float>::value) cbemu::hl_clobber(src, dst.addr_, calCount, loc, "Exp");
}

// Gelu: the tanh approximation written as x / (1 + exp(-2*sqrt(2/pi)*(x + 0.044715 x^3))).
inline double cbemu_gelu(double x) { return x / (1.0 + std::exp(-1.5957691216057308 * (x + 0.044715 * x * x * x))); }
template <typename T, bool highPrecision = false, bool highPerformance = false>
void Gelu(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
          const uint32_t dataSize, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "Gelu");
    cbemu::hl_map(dst, dataSize, loc, "Gelu", [](auto v) { return cbemu_gelu((double)v); }, src);
}
template <typename T, bool highPrecision = false, bool highPerformance = false>
void Gelu(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dataSize, CBEMU_LOC) {
    cbemu::hl_map(dst, dataSize, loc, "Gelu", [](auto v) { return cbemu_gelu((double)v); }, src);
}
// Swish: x / (1 + exp(-beta x)).
template <typename T, bool isReuseSource = false>
void Swish(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t dataSize, const T scalarValue, CBEMU_LOC) {
    double b = (double)cbemu::calc_t<T>(scalarValue);
    cbemu::hl_map(dst, dataSize, loc, "Swish", [b](auto v) { double x = (double)v; return x / (1.0 + std::exp(-b * x)); },
                  src);
}
template <typename T, bool isReuseSource = false>
void Swish(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp, uint32_t dataSize,
           const T scalarValue, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "Swish");
    Swish<T, isReuseSource>(dst, src, dataSize, scalarValue, loc);
}

// GeGLU: src0 * gelu(src1) (tanh form); SwiGLU: src0 * swish(src1, beta); ReGlu: src0 * relu(src1).
#define CBEMU_HL_GLU(NAME, EXPR)                                                                               \
    template <typename T, bool isReuseSource = false>                                                          \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,                     \
              const LocalTensor<uint8_t>& tmp, uint32_t calCount, CBEMU_LOC) {                                  \
        cbemu::hl_tmp(tmp, loc, #NAME);                                                                        \
        cbemu::hl_map(dst, calCount, loc, #NAME, [](auto u, auto w) { double x0 = u, x1 = w; return (EXPR); }, a, b); \
    }                                                                                                          \
    template <typename T, bool isReuseSource = false>                                                          \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,                     \
              const LocalTensor<uint8_t>& tmp, CBEMU_LOC) {                                                     \
        NAME<T, isReuseSource>(dst, a, b, tmp, cbemu::hl_all(a), loc);                                         \
    }                                                                                                          \
    template <typename T, bool isReuseSource = false>                                                          \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b, uint32_t calCount,  \
              CBEMU_LOC) {                                                                                     \
        cbemu::hl_map(dst, calCount, loc, #NAME, [](auto u, auto w) { double x0 = u, x1 = w; return (EXPR); }, a, b); \
    }                                                                                                          \
    template <typename T, bool isReuseSource = false>                                                          \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b, CBEMU_LOC) {        \
        NAME<T, isReuseSource>(dst, a, b, cbemu::hl_all(a), loc);                                              \
    }
CBEMU_HL_GLU(GeGLU, x0 * cbemu_gelu(x1))
CBEMU_HL_GLU(ReGlu, x0 * (x1 > 0 ? x1 : 0.0))
#undef CBEMU_HL_GLU

template <typename T, bool isReuseSource = false>
void SwiGLU(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b, const float& beta,
            const LocalTensor<uint8_t>& tmp, const uint32_t calCount, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "SwiGLU");
    double bt = beta;
    cbemu::hl_map(dst, calCount, loc, "SwiGLU",
                  [bt](auto u, auto w) { double x1 = w; return (double)u * x1 / (1.0 + std::exp(-bt * x1)); }, a, b);
}
template <typename T, bool isReuseSource = false>
void SwiGLU(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b, const float& beta,
            const LocalTensor<uint8_t>& tmp, CBEMU_LOC) {
    SwiGLU<T, isReuseSource>(dst, a, b, beta, tmp, cbemu::hl_all(a), loc);
}
template <typename T, bool isReuseSource = false>
void SwiGLU(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b, const float& beta,
            const uint32_t calCount, CBEMU_LOC) {
    double bt = beta;
    cbemu::hl_map(dst, calCount, loc, "SwiGLU",
                  [bt](auto u, auto w) { double x1 = w; return (double)u * x1 / (1.0 + std::exp(-bt * x1)); }, a, b);
}
template <typename T, bool isReuseSource = false>
void SwiGLU(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b, const float& beta,
            CBEMU_LOC) {
    SwiGLU<T, isReuseSource>(dst, a, b, beta, cbemu::hl_all(a), loc);
}

// Two-input functions with the four documented overloads.
#define CBEMU_HL_BINARY(NAME, TPARAMS, EXPR)                                                                   \
    template <typename T, bool isReuseSource = false TPARAMS>                                                  \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,                     \
              const LocalTensor<uint8_t>& tmp, const uint32_t calCount, CBEMU_LOC) {                           \
        cbemu::hl_tmp(tmp, loc, #NAME);                                                                        \
        cbemu::hl_map(dst, calCount, loc, #NAME, [](auto x, auto y) { return (EXPR); }, a, b);                 \
    }                                                                                                          \
    template <typename T, bool isReuseSource = false TPARAMS>                                                  \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,                     \
              const LocalTensor<uint8_t>& tmp, CBEMU_LOC) {                                                     \
        cbemu::hl_tmp(tmp, loc, #NAME);                                                                        \
        cbemu::hl_map(dst, cbemu::hl_all(a), loc, #NAME, [](auto x, auto y) { return (EXPR); }, a, b);         \
    }                                                                                                          \
    template <typename T, bool isReuseSource = false TPARAMS>                                                  \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,                     \
              const uint32_t calCount, CBEMU_LOC) {                                                            \
        cbemu::hl_map(dst, calCount, loc, #NAME, [](auto x, auto y) { return (EXPR); }, a, b);                 \
    }                                                                                                          \
    template <typename T, bool isReuseSource = false TPARAMS>                                                  \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b, CBEMU_LOC) {        \
        cbemu::hl_map(dst, cbemu::hl_all(a), loc, #NAME, [](auto x, auto y) { return (EXPR); }, a, b);         \
    }
#define CBEMU_COMMA ,
CBEMU_HL_BINARY(Fmod, CBEMU_COMMA const FmodConfig& config = DEFAULT_FMOD_CONFIG, std::fmod((double)x, (double)y))
CBEMU_HL_BINARY(Xor, , x ^ y)
CBEMU_HL_BINARY(Hypot, , std::hypot((double)x, (double)y))
#undef CBEMU_HL_BINARY

// Power: tensor^tensor, tensor^scalar, scalar^tensor; with or without sharedTmpBuffer / calCount.
namespace cbemu_hl {
template <typename T>
inline auto power(T b, T e) {
    if constexpr (std::is_integral<T>::value) {
        if (e < 0) return (T)(b == 1 ? 1 : (b == -1 ? ((e % 2) ? -1 : 1) : 0));
        T r = 1;
        for (T i = 0; i < e; ++i) r = (T)(r * b);
        return r;
    } else {
        return std::pow((double)b, (double)e);
    }
}
template <typename T, typename B, typename E>
inline void power_run(const LocalTensor<T>& dst, const B& base, const E& ex, uint32_t n, const cbemu::SrcLoc& loc) {
    cbemu::hl_map(dst, n, loc, "Power", [](auto b, auto e) { return power<cbemu::calc_t<T>>(b, e); }, base, ex);
}
template <typename T> inline uint32_t size_of(const LocalTensor<T>& t) { return t.GetSize(); }
template <typename S> inline uint32_t size_of(const S&) { return 0xffffffffu; }
template <typename A, typename B> inline uint32_t power_all(const A& a, const B& b) {
    uint32_t x = size_of(a), y = size_of(b);
    return x < y ? x : y;
}
}  // namespace cbemu_hl

template <typename T, bool isReuseSource = false, const PowerConfig& config = DEFAULT_POWER_CONFIG, typename B,
          typename E>
void Power(const LocalTensor<T>& dst, const B& base, const E& ex, const LocalTensor<uint8_t>& tmp, uint32_t calCount,
           CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "Power");
    cbemu_hl::power_run(dst, base, ex, calCount, loc);
}
template <typename T, bool isReuseSource = false, const PowerConfig& config = DEFAULT_POWER_CONFIG, typename B,
          typename E>
void Power(const LocalTensor<T>& dst, const B& base, const E& ex, const LocalTensor<uint8_t>& tmp, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "Power");
    cbemu_hl::power_run(dst, base, ex, cbemu_hl::power_all(base, ex), loc);
}
template <typename T, bool isReuseSource = false, const PowerConfig& config = DEFAULT_POWER_CONFIG, typename B,
          typename E>
void Power(const LocalTensor<T>& dst, const B& base, const E& ex, uint32_t calCount, CBEMU_LOC) {
    cbemu_hl::power_run(dst, base, ex, calCount, loc);
}
template <typename T, bool isReuseSource = false, const PowerConfig& config = DEFAULT_POWER_CONFIG, typename B,
          typename E>
void Power(const LocalTensor<T>& dst, const B& base, const E& ex, CBEMU_LOC) {
    cbemu_hl::power_run(dst, base, ex, cbemu_hl::power_all(base, ex), loc);
}

// Fma: dst = a * b + c (one rounding).
template <typename T, bool isReuseSource = false>
void Fma(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b, const LocalTensor<T>& c,
         const LocalTensor<uint8_t>& tmp, const uint32_t calCount, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "Fma");
    cbemu::hl_map(dst, calCount, loc, "Fma", [](auto x, auto y, auto z) { return std::fma((double)x, (double)y, (double)z); },
                  a, b, c);
}
template <typename T, bool isReuseSource = false>
void Fma(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b, const LocalTensor<T>& c,
         const uint32_t calCount, CBEMU_LOC) {
    cbemu::hl_map(dst, calCount, loc, "Fma", [](auto x, auto y, auto z) { return std::fma((double)x, (double)y, (double)z); },
                  a, b, c);
}

// ClampMin / ClampMax with a scalar bound (NaN passes through).
template <typename T, bool isReuseSource = false>
void ClampMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp, const T scalar,
              const uint32_t calCount, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "ClampMin");
    cbemu::hl_map(dst, calCount, loc, "ClampMin", [](auto x, auto s) { return x < s ? s : x; }, src, scalar);
}
template <typename T, bool isReuseSource = false>
void ClampMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T scalar, const uint32_t calCount, CBEMU_LOC) {
    cbemu::hl_map(dst, calCount, loc, "ClampMin", [](auto x, auto s) { return x < s ? s : x; }, src, scalar);
}
template <typename T, bool isReuseSource = false>
void ClampMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp, const T scalar,
              const uint32_t calCount, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "ClampMax");
    cbemu::hl_map(dst, calCount, loc, "ClampMax", [](auto x, auto s) { return x > s ? s : x; }, src, scalar);
}
template <typename T, bool isReuseSource = false>
void ClampMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T scalar, const uint32_t calCount, CBEMU_LOC) {
    cbemu::hl_map(dst, calCount, loc, "ClampMax", [](auto x, auto s) { return x > s ? s : x; }, src, scalar);
}

// Clamp(dst, src, min, max, count): min and max each a tensor or a scalar; min(max(x, lo), hi).
template <typename T, typename L, typename H>
void Clamp(const LocalTensor<T>& dst, const LocalTensor<T>& src, const L& lo, const H& hi, const uint32_t count,
           CBEMU_LOC) {
    cbemu::hl_map(dst, count, loc, "Clamp",
                  [](auto x, auto l, auto h) { auto y = x < l ? (decltype(x))l : x; return y > h ? (decltype(x))h : y; },
                  src, lo, hi);
}

// Where(dst, src0, src1, condition, count): condition ? src0 : src1; sources tensors or scalars.
template <typename T, typename U, typename S, typename V>
void Where(const LocalTensor<T>& dst, const U& src0, const S& src1, const LocalTensor<V>& cond, const uint32_t count,
           CBEMU_LOC) {
    cbemu::hl_map(dst, count, loc, "Where",
                  [](auto a, auto b, auto c) { return c ? (cbemu::calc_t<T>)a : (cbemu::calc_t<T>)b; }, src0, src1, cond);
}

// Bitwise and logical element ops (a config struct first, as documented; it selects nothing here).
#define CBEMU_HL_CFG(NAME, DEF) \
    struct NAME { bool reserved = false; }; \
    inline constexpr NAME DEF = {};
CBEMU_HL_CFG(BitwiseAndConfig, DEFAULT_BITWISE_AND_CONFIG)
CBEMU_HL_CFG(BitwiseOrConfig, DEFAULT_BITWISE_OR_CONFIG)
CBEMU_HL_CFG(BitwiseXorConfig, DEFAULT_BITWISE_XOR_CONFIG)
CBEMU_HL_CFG(BitwiseNotConfig, DEFAULT_BITWISE_NOT_CONFIG)
CBEMU_HL_CFG(LogicalOrConfig, DEFAULT_LOGICAL_OR_CONFIG)
CBEMU_HL_CFG(LogicalXorConfig, DEFAULT_LOGICAL_XOR_CONFIG)
CBEMU_HL_CFG(LogicalNotConfig, DEFAULT_LOGICAL_NOT_CONFIG)
CBEMU_HL_CFG(LogicalAndsConfig, DEFAULT_LOGICAL_ANDS_CONFIG)
CBEMU_HL_CFG(LogicalOrsConfig, DEFAULT_LOGICAL_ORS_CONFIG)
CBEMU_HL_CFG(IsInfConfig, DEFAULT_IS_INF_CONFIG)
CBEMU_HL_CFG(IsNanConfig, DEFAULT_IS_NAN_CONFIG)
#undef CBEMU_HL_CFG

#define CBEMU_HL_BITWISE(NAME, CFG, DEF, OP)                                                                     \
    template <const CFG& config = DEF, typename T>                                                              \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b, const uint32_t count, \
              CBEMU_LOC) {                                                                                      \
        static_assert(std::is_integral<T>::value, #NAME ": integer types only");                               \
        cbemu::hl_map(dst, count, loc, #NAME, [](auto x, auto y) { return (T)(x OP y); }, a, b);                \
    }
CBEMU_HL_BITWISE(BitwiseAnd, BitwiseAndConfig, DEFAULT_BITWISE_AND_CONFIG, &)
CBEMU_HL_BITWISE(BitwiseOr, BitwiseOrConfig, DEFAULT_BITWISE_OR_CONFIG, |)
CBEMU_HL_BITWISE(BitwiseXor, BitwiseXorConfig, DEFAULT_BITWISE_XOR_CONFIG, ^)
#undef CBEMU_HL_BITWISE
template <const BitwiseNotConfig& config = DEFAULT_BITWISE_NOT_CONFIG, typename T>
void BitwiseNot(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count, CBEMU_LOC) {
    static_assert(std::is_integral<T>::value, "BitwiseNot: integer types only");
    cbemu::hl_map(dst, count, loc, "BitwiseNot", [](auto x) { return (T)(~x); }, src);
}

// Logical ops: zero is false, anything else true; the result is 1 / 0 (or true / false) in dst's type.
#define CBEMU_HL_LOGICAL(NAME, CFG, DEF, EXPR)                                                                   \
    template <const CFG& config = DEF, typename T, typename U>                                                  \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& a, const LocalTensor<U>& b, const uint32_t count, \
              CBEMU_LOC) {                                                                                      \
        cbemu::hl_map(dst, count, loc, #NAME, [](auto x, auto y) { bool p = x != 0, q = y != 0; return (T)(EXPR); }, \
                      a, b);                                                                                    \
    }
CBEMU_HL_LOGICAL(LogicalAnd, LogicalAndConfig, DEFAULT_LOGICAL_AND_CONFIG, p && q)
CBEMU_HL_LOGICAL(LogicalOr, LogicalOrConfig, DEFAULT_LOGICAL_OR_CONFIG, p || q)
CBEMU_HL_LOGICAL(LogicalXor, LogicalXorConfig, DEFAULT_LOGICAL_XOR_CONFIG, p != q)
#undef CBEMU_HL_LOGICAL
template <const LogicalNotConfig& config = DEFAULT_LOGICAL_NOT_CONFIG, typename T, typename U>
void LogicalNot(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count, CBEMU_LOC) {
    cbemu::hl_map(dst, count, loc, "LogicalNot", [](auto x) { return (T)(x == 0); }, src);
}
// LogicalAnds / LogicalOrs: either operand may be a scalar.
template <const LogicalAndsConfig& config = DEFAULT_LOGICAL_ANDS_CONFIG, typename T, typename U, typename S>
void LogicalAnds(const LocalTensor<T>& dst, const U& a, const S& b, const uint32_t count, CBEMU_LOC) {
    cbemu::hl_map(dst, count, loc, "LogicalAnds", [](auto x, auto y) { return (T)((x != 0) && (y != 0)); }, a, b);
}
template <const LogicalOrsConfig& config = DEFAULT_LOGICAL_ORS_CONFIG, typename T, typename U, typename S>
void LogicalOrs(const LocalTensor<T>& dst, const U& a, const S& b, const uint32_t count, CBEMU_LOC) {
    cbemu::hl_map(dst, count, loc, "LogicalOrs", [](auto x, auto y) { return (T)((x != 0) || (y != 0)); }, a, b);
}

// IsInf / IsNan: 1 / true where the input is +-inf / NaN (IsInf hidden as IsFinite is, CBEMU_HIDE_IsInf).
#ifndef CBEMU_HIDE_IsInf
template <const IsInfConfig& config = DEFAULT_IS_INF_CONFIG, typename T, typename U>
void IsInf(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count, CBEMU_LOC) {
    cbemu::hl_map(dst, count, loc, "IsInf", [](auto x) { return (T)(std::isinf((double)x) ? 1 : 0); }, src);
}
template <const IsInfConfig& config = DEFAULT_IS_INF_CONFIG, typename T, typename U>
void IsInf(const LocalTensor<T>& dst, const LocalTensor<U>& src, const LocalTensor<uint8_t>& tmp, const uint32_t count,
           CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "IsInf");
    IsInf<config>(dst, src, count, loc);
}
#endif
template <const IsNanConfig& config = DEFAULT_IS_NAN_CONFIG, typename T, typename U>
void IsNan(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count, CBEMU_LOC) {
    cbemu::hl_map(dst, count, loc, "IsNan", [](auto x) { return (T)(std::isnan((double)x) ? 1 : 0); }, src);
}
template <const IsNanConfig& config = DEFAULT_IS_NAN_CONFIG, typename T, typename U>
void IsNan(const LocalTensor<T>& dst, const LocalTensor<U>& src, const LocalTensor<uint8_t>& tmp, const uint32_t count,
           CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "IsNan");
    IsNan<config>(dst, src, count, loc);
}

// IsFinite: 1 / true where the input is neither NaN nor +-inf. Hidden (CBEMU_HIDE_IsFinite) for a kernel written for
// an older toolkit that defines its own IsFinite (kernel_glue.NEWER_APIS).
#ifndef CBEMU_HIDE_IsFinite
template <typename T, typename U>
void IsFinite(const LocalTensor<U>& dst, const LocalTensor<T>& src, uint32_t calCount, CBEMU_LOC) {
    cbemu::hl_map(dst, calCount, loc, "IsFinite", [](auto x) { return (U)(std::isfinite((double)x) ? 1 : 0); }, src);
}
#endif

// Axpy with a sharedTmpBuffer (half src into a float dst): dst = src * scalar + dst.
template <typename T, typename U, bool isReuseSource = false>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U scalarValue, const LocalTensor<uint8_t>& tmp,
          const uint32_t calCount, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "Axpy");
    double s = cbemu::to_double(scalarValue);
    cbemu::hl_map(dst, calCount, loc, "Axpy", [s](auto x, auto d) { return (double)x * s + (double)d; }, src, dst);
}

// Fill: write `size` copies of value into GM (a workspace initialisation).
template <typename T>
void Fill(const GlobalTensor<T>& gm, const uint64_t size, const T value, CBEMU_LOC) {
    uint64_t ok = gm.check_span(gm.addr_, size * sizeof(T), loc, "Fill") / sizeof(T);
    for (uint64_t i = 0; i < ok; ++i) gm.addr_[i] = value;
}
// InitGlobalMemory: the GM Fill's name before CANN 9 (Fill-97.md's prototype: a non-const GlobalTensor&, so an
// rvalue such as gm[offset] does not bind, as with the toolkit). It runs on MTE3 (a UB fill copied out): Fill-97.md
// asks for an MTE3_MTE2 sync before later UB work, so a read of the memory on another pipe without one is a race.
template <typename T>
void InitGlobalMemory(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value, CBEMU_LOC) {
    uint64_t ok = gmWorkspaceAddr.check_span(gmWorkspaceAddr.addr_, size * sizeof(T), loc, "InitGlobalMemory");
    cbemu::hz::Scope op(cbemu::hz::P_MTE3, loc, "InitGlobalMemory");
    op.write(gmWorkspaceAddr.addr_, ok);
    for (uint64_t i = 0; i < ok / sizeof(T); ++i) gmWorkspaceAddr.addr_[i] = value;
}

}  // namespace AscendC
