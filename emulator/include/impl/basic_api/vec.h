// Vector instructions: element-wise binary / unary / scalar ops in the count form and the
// mask + repeat form, Cast, Duplicate, Compare / Compares / Select, reductions, Brcb, Axpy.
#pragma once
#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "../emu/legality.h"
#include "../emu/vec_core.h"

namespace cbemu {

template <typename T, typename F>
inline void binary_count(const AscendC::LocalTensor<T>& d, const AscendC::LocalTensor<T>& a,
                         const AscendC::LocalTensor<T>& b, int64_t n, F f, const SrcLoc& loc, const char* api) {
    if (!check_count(d, n, loc, api) | !check_count(a, n, loc, api) | !check_count(b, n, loc, api)) return;
    hz::Scope op(hz::P_V, loc, api);
    rd(op, a, n), rd(op, b, n), wr(op, d, n);
    bool sat = float_saturation();
    for (int64_t i = 0; i < n; ++i) d.addr_[i] = saturate(T(f((calc_t<T>)a.addr_[i], (calc_t<T>)b.addr_[i])), sat);
}

// And / Or count form on A2 / A3 (And.md, Or.md 约束说明): the instruction works on 16-bit lanes whatever T is, and
// count is a number of those lanes - an int32_t / uint32_t call needs count doubled to cover its elements, a byte
// type's call covers 2 * count bytes. The docs' type list names int16_t / uint16_t, but only the mask forms refuse
// another T at compile time (the count form's check is a CPU-debug assert), so 8- and 32-bit integers build there.
template <typename T>
constexpr bool bitwise_in_halfwords() {
    return legal::soc_index() == 0 && std::is_integral<T>::value && !std::is_same<T, bool>::value &&
           (sizeof(T) == 1 || sizeof(T) == 4);
}
template <typename T, typename F>
inline void bitwise_halfwords(const AscendC::LocalTensor<T>& d, const AscendC::LocalTensor<T>& a,
                              const AscendC::LocalTensor<T>& b, int64_t lanes, F f, const SrcLoc& loc, const char* api) {
    uint64_t bytes = lanes > 0 ? (uint64_t)lanes * 2 : 0;
    if (!check_ub(d, 0, bytes, loc, api) | !check_ub(a, 0, bytes, loc, api) | !check_ub(b, 0, bytes, loc, api)) return;
    hz::Scope op(hz::P_V, loc, api);
    op.read(a.addr_, bytes), op.read(b.addr_, bytes), op.write(d.addr_, bytes);
    for (uint64_t i = 0; i < bytes; i += 2) {
        uint16_t x, y, r;
        std::memcpy(&x, (const uint8_t*)a.addr_ + i, 2), std::memcpy(&y, (const uint8_t*)b.addr_ + i, 2);
        r = f(x, y);
        std::memcpy((uint8_t*)d.addr_ + i, &r, 2);
    }
}

template <typename T, typename F>
inline void binary_rep(const AscendC::LocalTensor<T>& d, const AscendC::LocalTensor<T>& a,
                       const AscendC::LocalTensor<T>& b, const Mask& m, uint32_t repeat,
                       const AscendC::BinaryRepeatParams& p, F f, const SrcLoc& loc, const char* api) {
    constexpr uint32_t epr = 256 / sizeof(T);
    uint64_t ed = rep_extent<T>(m, repeat, epr, p.dstBlkStride, p.dstRepStride);
    uint64_t e0 = rep_extent<T>(m, repeat, epr, p.src0BlkStride, p.src0RepStride);
    uint64_t e1 = rep_extent<T>(m, repeat, epr, p.src1BlkStride, p.src1RepStride);
    if (!check_ub(d, 0, ed * sizeof(T), loc, api) | !check_ub(a, 0, e0 * sizeof(T), loc, api) |
        !check_ub(b, 0, e1 * sizeof(T), loc, api))
        return;
    hz::Scope op(hz::P_V, loc, api);
    rd(op, a, e0), rd(op, b, e1), wr(op, d, ed);
    bool sat = float_saturation();
    for_each_active(m, repeat, epr, [&](uint32_t r, uint32_t j) {
        T x = a.addr_[rep_index<T>(r, j, p.src0BlkStride, p.src0RepStride)];
        T y = b.addr_[rep_index<T>(r, j, p.src1BlkStride, p.src1RepStride)];
        d.addr_[rep_index<T>(r, j, p.dstBlkStride, p.dstRepStride)] = saturate(T(f((calc_t<T>)x, (calc_t<T>)y)), sat);
    });
}

// `arith`: the result is computed (saturation mode applies), not copied (Duplicate).
template <typename D, typename S, typename F>
inline void unary_count(const AscendC::LocalTensor<D>& d, const AscendC::LocalTensor<S>& s, int64_t n, F f,
                        const SrcLoc& loc, const char* api, bool arith = true) {
    if (!check_count(d, n, loc, api) | !check_count(s, n, loc, api)) return;
    hz::Scope op(hz::P_V, loc, api);
    rd(op, s, n), wr(op, d, n);
    bool sat = arith && float_saturation();
    for (int64_t i = 0; i < n; ++i) d.addr_[i] = saturate(f(s.addr_[i]), sat);
}

template <typename D, typename S, typename F>
inline void unary_rep(const AscendC::LocalTensor<D>& d, const AscendC::LocalTensor<S>& s, const Mask& m,
                      uint32_t repeat, const AscendC::UnaryRepeatParams& p, F f, const SrcLoc& loc, const char* api,
                      bool arith = true) {
    constexpr uint32_t epr = 256 / (sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S));
    uint64_t ed = rep_extent<D>(m, repeat, epr, p.dstBlkStride, p.dstRepStride);
    uint64_t es = rep_extent<S>(m, repeat, epr, p.srcBlkStride, p.srcRepStride);
    if (!check_ub(d, 0, ed * sizeof(D), loc, api) | !check_ub(s, 0, es * sizeof(S), loc, api)) return;
    hz::Scope op(hz::P_V, loc, api);
    if ((const void*)s.addr_ != (const void*)d.addr_) rd(op, s, es);  // Duplicate passes dst as its own source
    wr(op, d, ed);
    bool sat = arith && float_saturation();
    for_each_active(m, repeat, epr, [&](uint32_t r, uint32_t j) {
        d.addr_[rep_index<D>(r, j, p.dstBlkStride, p.dstRepStride)] =
            saturate(f(s.addr_[rep_index<S>(r, j, p.srcBlkStride, p.srcRepStride)]), sat);
    });
}

template <typename T>
inline calc_t<T> c(const T& v) { return (calc_t<T>)v; }

}  // namespace cbemu

// The address forms (impl/emu/diag.h) of the bit-mask and continuous-mask forms: kernels pass those too as template
// function pointers (NPUKernelBench's Foreach "level zero" kernels: `Sub` as
// `void (*)(dst, src0, src1, uint64_t, const uint8_t, const BinaryRepeatParams&)`).
#define CBEMU_BINARY_MASK_ADDRESS_FORMS(NAME)                                                                  \
    template <typename T, bool isSetMask = true, CBEMU_NOLOC_TPARAMS>                                          \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask[], \
              const uint8_t repeatTime, const BinaryRepeatParams& p, CBEMU_NOLOC) {                            \
        NAME<T, isSetMask>(dst, src0, src1, mask, repeatTime, p, CBEMU_VIA_POINTER);                           \
    }                                                                                                          \
    template <typename T, bool isSetMask = true, CBEMU_NOLOC_TPARAMS>                                          \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask,   \
              const uint8_t repeatTime, const BinaryRepeatParams& p, CBEMU_NOLOC) {                            \
        NAME<T, isSetMask>(dst, src0, src1, mask, repeatTime, p, CBEMU_VIA_POINTER);                           \
    }
#define CBEMU_UNARY_MASK_ADDRESS_FORMS(NAME)                                                                   \
    template <typename T, bool isSetMask = true, CBEMU_NOLOC_TPARAMS>                                          \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask[], const uint8_t repeatTime, \
              const UnaryRepeatParams& p, CBEMU_NOLOC) {                                                       \
        NAME<T, isSetMask>(dst, src, mask, repeatTime, p, CBEMU_VIA_POINTER);                                  \
    }                                                                                                          \
    template <typename T, bool isSetMask = true, CBEMU_NOLOC_TPARAMS>                                          \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, const uint8_t repeatTime,   \
              const UnaryRepeatParams& p, CBEMU_NOLOC) {                                                       \
        NAME<T, isSetMask>(dst, src, mask, repeatTime, p, CBEMU_VIA_POINTER);                                  \
    }
#define CBEMU_SCALAR_MASK_ADDRESS_FORMS(NAME)                                                                  \
    template <typename T, bool isSetMask = true, CBEMU_NOLOC_TPARAMS>                                          \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, uint64_t mask[],     \
              const uint8_t repeatTime, const UnaryRepeatParams& p, CBEMU_NOLOC) {                             \
        NAME<T, isSetMask>(dst, src, scalarValue, mask, repeatTime, p, CBEMU_VIA_POINTER);                     \
    }                                                                                                          \
    template <typename T, bool isSetMask = true, CBEMU_NOLOC_TPARAMS>                                          \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, uint64_t mask,       \
              const uint8_t repeatTime, const UnaryRepeatParams& p, CBEMU_NOLOC) {                             \
        NAME<T, isSetMask>(dst, src, scalarValue, mask, repeatTime, p, CBEMU_VIA_POINTER);                     \
    }

// ---------------------------------------------------------------------------------------------
// Element-wise binary ops: count form, bit-mask form, continuous-mask form.
#define CBEMU_BINARY_COUNT_BODY(NAME, EXPR)                                                                    \
    CBEMU_LEGAL(NAME, T, T);                                                                                   \
    cbemu::binary_count(dst, src0, src1, count, [](cbemu::calc_t<T> a, cbemu::calc_t<T> b) { return EXPR; }, loc, \
                        #NAME);
// The count form of And / Or: in 16-bit lanes for the 8- and 32-bit integers A2 builds it with
// (cbemu::bitwise_in_halfwords), else as every binary op.
#define CBEMU_BITWISE_COUNT_BODY(NAME, EXPR)                                                                   \
    if constexpr (cbemu::bitwise_in_halfwords<T>()) {                                                          \
        cbemu::bitwise_halfwords(dst, src0, src1, count, [](uint16_t a, uint16_t b) { return uint16_t(EXPR); }, \
                                 loc, #NAME);                                                                  \
    } else {                                                                                                   \
        CBEMU_BINARY_COUNT_BODY(NAME, EXPR)                                                                    \
    }
#define CBEMU_BINARY_WITH(NAME, EXPR, COUNT_BODY)                                                              \
    template <typename T, bool isSetMask = true>                                                               \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,              \
              const int32_t& count, CBEMU_LOC) {                                                               \
        COUNT_BODY(NAME, EXPR)                                                                                 \
    }                                                                                                          \
    template <typename T, bool isSetMask = true, CBEMU_NOLOC_TPARAMS>                                          \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,              \
              const int32_t& count, CBEMU_NOLOC) {                                                             \
        NAME<T, isSetMask>(dst, src0, src1, count, CBEMU_VIA_POINTER);                                         \
    }                                                                                                          \
    template <typename T, bool isSetMask = true>                                                               \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask[], \
              const uint8_t repeatTime, const BinaryRepeatParams& p, CBEMU_LOC) {                              \
        CBEMU_LEGAL(NAME, T, T);                                                                               \
        cbemu::binary_rep(dst, src0, src1, cbemu::use_mask(isSetMask, mask), repeatTime, p,                    \
                          [](cbemu::calc_t<T> a, cbemu::calc_t<T> b) { return EXPR; }, loc, #NAME);           \
    }                                                                                                          \
    template <typename T, bool isSetMask = true>                                                               \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask,   \
              const uint8_t repeatTime, const BinaryRepeatParams& p, CBEMU_LOC) {                              \
        CBEMU_LEGAL(NAME, T, T);                                                                               \
        cbemu::binary_rep(dst, src0, src1, cbemu::use_mask(isSetMask, mask), repeatTime, p,                    \
                          [](cbemu::calc_t<T> a, cbemu::calc_t<T> b) { return EXPR; }, loc, #NAME);           \
    }                                                                                                          \
    CBEMU_BINARY_MASK_ADDRESS_FORMS(NAME)

#define CBEMU_BINARY(NAME, EXPR) CBEMU_BINARY_WITH(NAME, EXPR, CBEMU_BINARY_COUNT_BODY)

// Element-wise unary ops (same type in and out).
#define CBEMU_UNARY(NAME, EXPR)                                                                                \
    template <typename T, bool isSetMask = true>                                                               \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count, CBEMU_LOC) {         \
        CBEMU_LEGAL(NAME, T, T);                                                                               \
        cbemu::unary_count(dst, src, count, [](const T& v) { auto a = cbemu::c(v); return T(EXPR); }, loc, #NAME); \
    }                                                                                                          \
    template <typename T, bool isSetMask = true, CBEMU_NOLOC_TPARAMS>                                          \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count, CBEMU_NOLOC) {       \
        NAME<T, isSetMask>(dst, src, count, CBEMU_VIA_POINTER);                                                \
    }                                                                                                          \
    template <typename T, bool isSetMask = true>                                                               \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask[], const uint8_t repeatTime, \
              const UnaryRepeatParams& p, CBEMU_LOC) {                                                         \
        CBEMU_LEGAL(NAME, T, T);                                                                               \
        cbemu::unary_rep(dst, src, cbemu::use_mask(isSetMask, mask), repeatTime, p,                            \
                         [](const T& v) { auto a = cbemu::c(v); return T(EXPR); }, loc, #NAME);               \
    }                                                                                                          \
    template <typename T, bool isSetMask = true>                                                               \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, const uint8_t repeatTime,   \
              const UnaryRepeatParams& p, CBEMU_LOC) {                                                         \
        CBEMU_LEGAL(NAME, T, T);                                                                               \
        cbemu::unary_rep(dst, src, cbemu::use_mask(isSetMask, mask), repeatTime, p,                            \
                         [](const T& v) { auto a = cbemu::c(v); return T(EXPR); }, loc, #NAME);               \
    }                                                                                                          \
    CBEMU_UNARY_MASK_ADDRESS_FORMS(NAME)

// Tensor-scalar ops; the scalar has the tensor's element type, as in the documented prototypes.
#define CBEMU_SCALAR(NAME, EXPR)                                                                               \
    template <typename T, bool isSetMask = true>                                                               \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, const int32_t& count, \
              CBEMU_LOC) {                                                                                     \
        CBEMU_LEGAL(NAME, T, T);                                                                               \
        auto s = cbemu::c(scalarValue);                                                                        \
        cbemu::unary_count(dst, src, count, [s](const T& v) { auto a = cbemu::c(v); return T(EXPR); }, loc, #NAME); \
    }                                                                                                          \
    template <typename T, bool isSetMask = true, CBEMU_NOLOC_TPARAMS>                                          \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, const int32_t& count, \
              CBEMU_NOLOC) {                                                                                   \
        NAME<T, isSetMask>(dst, src, scalarValue, count, CBEMU_VIA_POINTER);                                   \
    }                                                                                                          \
    template <typename T, bool isSetMask = true>                                                               \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, uint64_t mask[],     \
              const uint8_t repeatTime, const UnaryRepeatParams& p, CBEMU_LOC) {                               \
        CBEMU_LEGAL(NAME, T, T);                                                                               \
        auto s = cbemu::c(scalarValue);                                                                        \
        cbemu::unary_rep(dst, src, cbemu::use_mask(isSetMask, mask), repeatTime, p,                            \
                         [s](const T& v) { auto a = cbemu::c(v); return T(EXPR); }, loc, #NAME);              \
    }                                                                                                          \
    template <typename T, bool isSetMask = true>                                                               \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, uint64_t mask,       \
              const uint8_t repeatTime, const UnaryRepeatParams& p, CBEMU_LOC) {                               \
        CBEMU_LEGAL(NAME, T, T);                                                                               \
        auto s = cbemu::c(scalarValue);                                                                        \
        cbemu::unary_rep(dst, src, cbemu::use_mask(isSetMask, mask), repeatTime, p,                            \
                         [s](const T& v) { auto a = cbemu::c(v); return T(EXPR); }, loc, #NAME);              \
    }                                                                                                          \
    CBEMU_SCALAR_MASK_ADDRESS_FORMS(NAME)

namespace AscendC {

CBEMU_BINARY(Add, a + b)
CBEMU_BINARY(Sub, a - b)
CBEMU_BINARY(Mul, a * b)
CBEMU_BINARY(Div, a / b)
CBEMU_BINARY(Max, a > b ? a : b)
CBEMU_BINARY(Min, a < b ? a : b)
CBEMU_BINARY_WITH(And, a & b, CBEMU_BITWISE_COUNT_BODY)
CBEMU_BINARY_WITH(Or, a | b, CBEMU_BITWISE_COUNT_BODY)

CBEMU_UNARY(Exp, std::exp(a))
CBEMU_UNARY(Ln, std::log(a))
CBEMU_UNARY(Abs, a < 0 ? -a : a)
CBEMU_UNARY(Sqrt, std::sqrt(a))
CBEMU_UNARY(Rsqrt, decltype(a)(1) / std::sqrt(a))
CBEMU_UNARY(Reciprocal, decltype(a)(1) / a)
CBEMU_UNARY(Relu, a > 0 ? a : decltype(a)(0))
CBEMU_UNARY(Not, ~a)

CBEMU_SCALAR(Adds, a + s)
CBEMU_SCALAR(Muls, a * s)
CBEMU_SCALAR(Maxs, a > s ? a : s)
CBEMU_SCALAR(Mins, a < s ? a : s)
CBEMU_SCALAR(LeakyRelu, a >= 0 ? a : a * s)

// ---- Duplicate: fill with a scalar ----
template <typename T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, const int32_t& count, CBEMU_LOC) {
    CBEMU_LEGAL(Duplicate, T, T);
    if (!cbemu::check_count(dst, count, loc, "Duplicate")) return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "Duplicate");
    cbemu::wr(op, dst, count);
    for (int32_t i = 0; i < count; ++i) dst.addr_[i] = scalarValue;
}
template <typename T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, uint64_t mask[], const uint8_t repeatTime,
               const uint16_t dstBlockStride, const uint8_t dstRepeatStride, CBEMU_LOC) {
    CBEMU_LEGAL(Duplicate, T, T);
    UnaryRepeatParams p(dstBlockStride, dstBlockStride, dstRepeatStride, dstRepeatStride);
    cbemu::unary_rep(dst, dst, cbemu::use_mask(isSetMask, mask), repeatTime, p, [&](const T&) { return scalarValue; },
                     loc, "Duplicate", false);
}
template <typename T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, uint64_t mask, const uint8_t repeatTime,
               const uint16_t dstBlockStride, const uint8_t dstRepeatStride, CBEMU_LOC) {
    CBEMU_LEGAL(Duplicate, T, T);
    UnaryRepeatParams p(dstBlockStride, dstBlockStride, dstRepeatStride, dstRepeatStride);
    cbemu::unary_rep(dst, dst, cbemu::use_mask(isSetMask, mask), repeatTime, p, [&](const T&) { return scalarValue; },
                     loc, "Duplicate", false);
}

// ---- Cast with a rounding mode ----
}  // namespace AscendC
namespace cbemu {
// The round mode is a run-time argument: a mode the docs do not list for the pair is reported at run time, and
// nothing is computed -- the real implementation asserts under ASCENDC_CPU_DEBUG and issues no instruction
// (dav_c220/kernel_operator_vec_vconv_impl.h: "illegal input cast mode ... only support CAST_NONE from half to float").
template <typename T, typename U>
inline bool cast_mode_ok(AscendC::RoundMode m, const cbemu::SrcLoc& loc) {
    constexpr uint32_t modes = cbemu::legal::cast_modes<U, T>();
    if (modes == 0 || (modes & cbemu::legal::kRoundModeIgnored) || (int)m > 6 || (modes & (1u << (int)m))) return true;
    std::string allowed;
    for (int i = 0; i < 7; ++i)
        if (modes & (1u << i)) allowed += std::string(allowed.empty() ? "" : ", ") + cbemu::legal::kRoundModes[i];
    cbemu::report("illegal_cast", cbemu::Sev::error, loc,
                  "Cast from %s to %s with %s: the docs allow only %s for this pair on %s (docs: %s); nothing is "
                  "converted", cbemu::legal::kTypeNames[cbemu::legal::type_index<U>()],
                  cbemu::legal::kTypeNames[cbemu::legal::type_index<T>()], cbemu::legal::kRoundModes[(int)m],
                  allowed.c_str(), cbemu::legal::kSocNames[cbemu::legal::soc_index()], CBEMU_LEGAL_DOC_Cast);
    return false;
}

// Cast into int4b_t: round as for int8, saturate to [-8, 7], pack element i into nibble i (low nibble first).
// Element i of a repeat lies in 32-byte blocks of 64 nibbles, like any narrower destination type.
template <typename U>
void cast_int4(const AscendC::LocalTensor<AscendC::int4b_t>& d, const AscendC::LocalTensor<U>& s, const Mask* m,
               uint32_t repeat, const AscendC::UnaryRepeatParams& p, int64_t count, AscendC::RoundMode mode,
               const SrcLoc& loc) {
    std::vector<std::pair<uint64_t, uint64_t>> moves;  // (dst nibble, src element)
    if (!m) {
        for (int64_t i = 0; i < count; ++i) moves.push_back({(uint64_t)i, (uint64_t)i});
    } else {
        for_each_active(*m, repeat, 256 / sizeof(U), [&](uint32_t r, uint32_t j) {
            uint64_t dn = ((uint64_t)r * p.dstRepStride + (uint64_t)(j / 64) * p.dstBlkStride) * 64 + j % 64;
            moves.push_back({dn, rep_index<U>(r, j, p.srcBlkStride, p.srcRepStride)});
        });
    }
    uint64_t dmax = 0, smax = 0;
    for (auto& mv : moves) {
        dmax = std::max(dmax, mv.first / 2 + 1);
        smax = std::max(smax, mv.second + 1);
    }
    if (!check_ub(d, 0, dmax, loc, "Cast") | !check_ub(s, 0, smax * sizeof(U), loc, "Cast")) return;
    hz::Scope op(hz::P_V, loc, "Cast");
    rd(op, s, smax);
    op.write(d.addr_, dmax);
    uint8_t* bytes = (uint8_t*)d.addr_;
    for (auto& mv : moves) {
        int v = convert<int8_t>(to_double(s.addr_[mv.second]), mode);
        uint8_t nib = (uint8_t)((v < -8 ? -8 : v > 7 ? 7 : v) & 0xF);
        uint8_t& b = bytes[mv.first / 2];
        b = (mv.first % 2) ? (uint8_t)((b & 0x0F) | (nib << 4)) : (uint8_t)((b & 0xF0) | nib);
    }
}
// One element of Cast. float -> float with CAST_RINT / FLOOR / CEIL / ROUND / TRUNC (Cast.md's type table) rounds
// to an integral value and stays float (kernels floor or round in place this way); every other pair converts.
template <typename T, typename U>
inline T cast_elem(const U& v, AscendC::RoundMode m) {
    if constexpr (std::is_same<T, float>::value && std::is_same<U, float>::value) {
        using AscendC::RoundMode;
        switch (m) {
            case RoundMode::CAST_RINT: return std::nearbyint(v);  // the default FE_TONEAREST: ties to even
            case RoundMode::CAST_FLOOR: return std::floor(v);
            case RoundMode::CAST_CEIL: return std::ceil(v);
            case RoundMode::CAST_ROUND: return std::round(v);  // ties away from zero
            case RoundMode::CAST_TRUNC: return std::trunc(v);
            default: return v;
        }
    } else if constexpr (std::is_same<T, ::half>::value && std::is_same<U, int32_t>::value) {
        // s322fp16 goes through the DEQSCALE register (SetDeqScale.md): the integer times the scale, then to half
        const BlockCtx& c = ctx();
        return convert<T>(c.deq_set ? to_double(v) * (double)c.deq_scale : to_double(v), m);
    } else {
        return convert<T>(to_double(v), m);
    }
}
}  // namespace cbemu
namespace AscendC {

// SetDeqScale(half scale): the DEQSCALE register's scale for the s322fp16 Cast (and AddDeqRelu / CastDequant's
// s322fp16 forms, not emulated). The float / offset / signMode and vdeq forms serve CastDequant's s162b8 forms, which
// are not emulated either, so they are not declared: a kernel using them is `unsupported` naming CastDequant.
inline void SetDeqScale(half scale, CBEMU_LOC) {
    (void)loc;
    cbemu::BlockCtx& c = cbemu::ctx();
    c.deq_set = true;
    c.deq_scale = (float)scale;
}

template <typename T, typename U>
void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode, const uint32_t count,
          CBEMU_LOC) {
    CBEMU_LEGAL_CAST(U, T);
    if (!cbemu::cast_mode_ok<T, U>(roundMode, loc)) return;
    RoundMode m = roundMode;
    if constexpr (std::is_same<T, int4b_t>::value) {
        cbemu::cast_int4(dst, src, nullptr, 0, UnaryRepeatParams{}, count, m, loc);
    } else {
        cbemu::unary_count(dst, src, count, [m](const U& v) { return cbemu::cast_elem<T, U>(v, m); }, loc,
                           "Cast");
    }
}
template <typename T, typename U, bool isSetMask = true>
void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode, const uint64_t mask[],
          const uint8_t repeatTime, const UnaryRepeatParams& p, CBEMU_LOC) {
    CBEMU_LEGAL_CAST(U, T);
    if (!cbemu::cast_mode_ok<T, U>(roundMode, loc)) return;
    RoundMode m = roundMode;
    if constexpr (std::is_same<T, int4b_t>::value) {
        cbemu::Mask mk = cbemu::use_mask(isSetMask, mask);
        cbemu::cast_int4(dst, src, &mk, repeatTime, p, 0, m, loc);
    } else {
        cbemu::unary_rep(dst, src, cbemu::use_mask(isSetMask, mask), repeatTime, p,
                         [m](const U& v) { return cbemu::cast_elem<T, U>(v, m); }, loc, "Cast");
    }
}
template <typename T, typename U, bool isSetMask = true>
void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode, const uint64_t mask,
          const uint8_t repeatTime, const UnaryRepeatParams& p, CBEMU_LOC) {
    CBEMU_LEGAL_CAST(U, T);
    if (!cbemu::cast_mode_ok<T, U>(roundMode, loc)) return;
    RoundMode m = roundMode;
    if constexpr (std::is_same<T, int4b_t>::value) {
        cbemu::Mask mk = cbemu::use_mask(isSetMask, mask);
        cbemu::cast_int4(dst, src, &mk, repeatTime, p, 0, m, loc);
    } else {
        cbemu::unary_rep(dst, src, cbemu::use_mask(isSetMask, mask), repeatTime, p,
                         [m](const U& v) { return cbemu::cast_elem<T, U>(v, m); }, loc, "Cast");
    }
}

// ---- Axpy: dst = src * scalar + dst (dst may be wider than src) ----
namespace detail_axpy {
// One element. All in half (or bfloat16): the product is a half result before the add, two roundings as Muls then
// Add give. The high-level Axpy's page (高阶API/数学计算/Axpy接口/Axpy-80.md) says it computes through Muls and Add
// "从而提供更优的精度" than this one, so this one is not a fused multiply-add rounded once (NPUKernelBench's Foreach
// answers, Axpy in half, meet goldens computed as `x + y * a` in half only so). A half source into a float
// destination: the product of two halves is exact in float.
template <typename T, typename U>
inline T axpy_elem(const U& src, float s, const T& d) {
    float p = (float)src * s;
    if constexpr (std::is_same<T, U>::value && sizeof(T) == 2) p = (float)T(p);
    return T(p + (float)d);
}
}  // namespace detail_axpy
template <typename T, typename U>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue, const int32_t& count,
          CBEMU_LOC) {
    if (!cbemu::check_count(dst, count, loc, "Axpy") | !cbemu::check_count(src, count, loc, "Axpy")) return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "Axpy");
    cbemu::rd(op, src, count), cbemu::rd(op, dst, count), cbemu::wr(op, dst, count);
    float s = (float)scalarValue;
    bool sat = cbemu::float_saturation();
    for (int32_t i = 0; i < count; ++i) dst.addr_[i] = cbemu::saturate(detail_axpy::axpy_elem(src.addr_[i], s, dst.addr_[i]), sat);
}
template <typename T, typename U, bool isSetMask = true>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue, uint64_t mask[],
          const uint8_t repeatTime, const UnaryRepeatParams& p, CBEMU_LOC) {
    float s = (float)scalarValue;
    constexpr uint32_t epr = 256 / (sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U));
    cbemu::Mask mk = cbemu::use_mask(isSetMask, mask);
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "Axpy");
    uint64_t es = cbemu::rep_extent<U>(mk, repeatTime, epr, p.srcBlkStride, p.srcRepStride);
    uint64_t ed = cbemu::rep_extent<T>(mk, repeatTime, epr, p.dstBlkStride, p.dstRepStride);
    cbemu::rd(op, src, es), cbemu::rd(op, dst, ed), cbemu::wr(op, dst, ed);
    cbemu::for_each_active(mk, repeatTime, epr, [&](uint32_t r, uint32_t j) {
        T& d = dst.addr_[cbemu::rep_index<T>(r, j, p.dstBlkStride, p.dstRepStride)];
        d = detail_axpy::axpy_elem(src.addr_[cbemu::rep_index<U>(r, j, p.srcBlkStride, p.srcRepStride)], s, d);
    });
    (void)loc;
}
template <typename T, typename U, bool isSetMask = true>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue, uint64_t mask,
          const uint8_t repeatTime, const UnaryRepeatParams& p, CBEMU_LOC) {
    uint64_t m2[2];
    cbemu::Mask mk = cbemu::mask_from_count(mask);
    m2[0] = mk.lo;
    m2[1] = mk.hi;
    Axpy<T, U, isSetMask>(dst, src, scalarValue, m2, repeatTime, p, loc);
}

}  // namespace AscendC
