// Second-tier vector APIs, written from the public API docs: AddRelu, ShiftLeft / ShiftRight (scalar and
// tensor shift counts), CreateVecIndex (count form), Copy (UB -> UB, mask + repeat form), Compare into the
// CmpMask register + GetCmpMask, GetReduceRepeatSumSpr.
#pragma once
#include <limits>  // not <climits>: a kernel TU must not see INT_MAX & co. unless it includes <climits> itself
#include <type_traits>

#include "vec_cmp_reduce.h"

namespace cbemu {

// Shift of one integer element. Unsigned: logical. Signed: arithmetic; a left shift keeps the sign bit
// (the bit below it is dropped). Counts at or beyond the width give 0 (or -1 for a negative value
// shifted right / left), as the docs state for over-wide shifts.
template <typename T>
inline T shift_left(T a, int64_t s) {
    static_assert(std::is_integral<T>::value, "ShiftLeft: integer element types only");
    using U = typename std::make_unsigned<T>::type;
    constexpr int W = (int)(sizeof(T) * std::numeric_limits<unsigned char>::digits);
    if (s < 0) s = 0;
    if (!std::is_signed<T>::value) return s >= W ? T(0) : T((U)((U)a << s));
    if (s >= W) return a < 0 ? T(-1) : T(0);
    U ua = (U)a, sign = (U)((U)1 << (W - 1));
    U r = (U)(ua << s);
    return (T)(U)((r & (U)~sign) | (ua & sign));
}
template <typename T>
inline T shift_right(T a, int64_t s, bool round) {
    static_assert(std::is_integral<T>::value, "ShiftRight: integer element types only");
    constexpr int W = (int)(sizeof(T) * std::numeric_limits<unsigned char>::digits);
    if (s <= 0) return a;
    if (s >= W) return (std::is_signed<T>::value && a < 0) ? T(-1) : T(0);
    T r = (T)(a >> s);  // g++: >> on a signed value is arithmetic
    // roundEn (int16 / int32 only): add the last bit shifted out
    if (round && std::is_signed<T>::value && (sizeof(T) == 2 || sizeof(T) == 4) && ((a >> (s - 1)) & 1)) r = (T)(r + 1);
    return r;
}

}  // namespace cbemu

namespace AscendC {

// ---- FusedMulAdd: dst = src0 * dst + src1 (dst is read and written) ----
template <typename T, bool isSetMask = true>
void FusedMulAdd(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                 const int32_t& count, CBEMU_LOC) {
    CBEMU_LEGAL(FusedMulAdd, T, T);
    const int64_t n = count;
    if (!cbemu::check_count(dst, n, loc, "FusedMulAdd") | !cbemu::check_count(src0, n, loc, "FusedMulAdd") |
        !cbemu::check_count(src1, n, loc, "FusedMulAdd"))
        return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "FusedMulAdd");
    cbemu::rd(op, src0, n), cbemu::rd(op, src1, n), cbemu::rd(op, dst, n), cbemu::wr(op, dst, n);
    const bool sat = cbemu::float_saturation();
    for (int64_t i = 0; i < n; ++i) {
        auto r = cbemu::c(src0.addr_[i]) * cbemu::c(dst.addr_[i]) + cbemu::c(src1.addr_[i]);
        dst.addr_[i] = cbemu::saturate(T(r), sat);
    }
}

// ---- AddRelu: dst = max(src0 + src1, 0) ----
CBEMU_BINARY(AddRelu, (a + b) > 0 ? (a + b) : decltype(a + b)(0))

// ---- ShiftLeft / ShiftRight by a scalar ----
template <typename T, bool isSetMask = true>
void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, const int32_t& count,
               CBEMU_LOC) {
    CBEMU_LEGAL(ShiftLeft, T, T);
    int64_t s = (int64_t)scalarValue;
    cbemu::unary_count(dst, src, count, [s](const T& v) { return cbemu::shift_left<T>(v, s); }, loc, "ShiftLeft");
}
template <typename T, bool isSetMask = true>
void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, uint64_t mask[],
               const uint8_t repeatTime, const UnaryRepeatParams& p, CBEMU_LOC) {
    CBEMU_LEGAL(ShiftLeft, T, T);
    int64_t s = (int64_t)scalarValue;
    cbemu::unary_rep(dst, src, cbemu::use_mask(isSetMask, mask), repeatTime, p,
                     [s](const T& v) { return cbemu::shift_left<T>(v, s); }, loc, "ShiftLeft");
}
template <typename T, bool isSetMask = true>
void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, uint64_t mask,
               const uint8_t repeatTime, const UnaryRepeatParams& p, CBEMU_LOC) {
    CBEMU_LEGAL(ShiftLeft, T, T);
    int64_t s = (int64_t)scalarValue;
    cbemu::unary_rep(dst, src, cbemu::use_mask(isSetMask, mask), repeatTime, p,
                     [s](const T& v) { return cbemu::shift_left<T>(v, s); }, loc, "ShiftLeft");
}
template <typename T, bool isSetMask = true>
void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, const int32_t& count,
                CBEMU_LOC) {
    CBEMU_LEGAL(ShiftRight, T, T);
    int64_t s = (int64_t)scalarValue;
    cbemu::unary_count(dst, src, count, [s](const T& v) { return cbemu::shift_right<T>(v, s, false); }, loc,
                       "ShiftRight");
}
template <typename T, bool isSetMask = true>
void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, uint64_t mask[],
                const uint8_t repeatTime, const UnaryRepeatParams& p, bool roundEn = false, CBEMU_LOC) {
    CBEMU_LEGAL(ShiftRight, T, T);
    int64_t s = (int64_t)scalarValue;
    cbemu::unary_rep(dst, src, cbemu::use_mask(isSetMask, mask), repeatTime, p,
                     [s, roundEn](const T& v) { return cbemu::shift_right<T>(v, s, roundEn); }, loc, "ShiftRight");
}
template <typename T, bool isSetMask = true>
void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, uint64_t mask,
                const uint8_t repeatTime, const UnaryRepeatParams& p, bool roundEn = false, CBEMU_LOC) {
    CBEMU_LEGAL(ShiftRight, T, T);
    int64_t s = (int64_t)scalarValue;
    cbemu::unary_rep(dst, src, cbemu::use_mask(isSetMask, mask), repeatTime, p,
                     [s, roundEn](const T& v) { return cbemu::shift_right<T>(v, s, roundEn); }, loc, "ShiftRight");
}

// ---- ShiftLeft / ShiftRight by a per-element count tensor (same element width as src0) ----
template <typename T, typename U>
void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1, const int32_t& count,
               CBEMU_LOC) {
    CBEMU_LEGAL(ShiftLeft, T, T);
    static_assert(sizeof(T) == sizeof(U), "ShiftLeft: the shift tensor's element size must match src0's");
    if (!cbemu::check_count(dst, count, loc, "ShiftLeft") | !cbemu::check_count(src0, count, loc, "ShiftLeft") |
        !cbemu::check_count(src1, count, loc, "ShiftLeft"))
        return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "ShiftLeft");
    cbemu::rd(op, src0, count), cbemu::rd(op, src1, count), cbemu::wr(op, dst, count);
    for (int32_t i = 0; i < count; ++i) dst.addr_[i] = cbemu::shift_left<T>(src0.addr_[i], (int64_t)src1.addr_[i]);
}
template <typename T, typename U>
void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1,
                const int32_t& count, CBEMU_LOC) {
    CBEMU_LEGAL(ShiftRight, T, T);
    static_assert(sizeof(T) == sizeof(U), "ShiftRight: the shift tensor's element size must match src0's");
    if (!cbemu::check_count(dst, count, loc, "ShiftRight") | !cbemu::check_count(src0, count, loc, "ShiftRight") |
        !cbemu::check_count(src1, count, loc, "ShiftRight"))
        return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "ShiftRight");
    cbemu::rd(op, src0, count), cbemu::rd(op, src1, count), cbemu::wr(op, dst, count);
    for (int32_t i = 0; i < count; ++i)
        dst.addr_[i] = cbemu::shift_right<T>(src0.addr_[i], (int64_t)src1.addr_[i], false);
}

// ---- CreateVecIndex, count form: dst[i] = firstValue + i ----
template <typename T>
void CreateVecIndex(LocalTensor<T> dst, const T& firstValue, uint32_t count, CBEMU_LOC) {
    CBEMU_LEGAL(CreateVecIndex, T, T);
    if (!cbemu::check_count(dst, (int64_t)count, loc, "CreateVecIndex")) return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "CreateVecIndex");
    cbemu::wr(op, dst, count);
    double f = cbemu::to_double(firstValue);
    for (uint32_t i = 0; i < count; ++i) dst.addr_[i] = T(f + (double)i);
}

// ---- Copy: UB -> UB, mask + repeat form; strides in 32-byte blocks ----
struct CopyRepeatParams {
    CopyRepeatParams() {}
    CopyRepeatParams(uint16_t dstStrideIn, uint16_t srcStrideIn, uint16_t dstRepeatSizeIn, uint16_t srcRepeatSizeIn)
        : dstStride(dstStrideIn), srcStride(srcStrideIn), dstRepeatSize(dstRepeatSizeIn),
          srcRepeatSize(srcRepeatSizeIn) {}
    uint16_t dstStride = DEFAULT_BLK_STRIDE;
    uint16_t srcStride = DEFAULT_BLK_STRIDE;
    uint16_t dstRepeatSize = DEFAULT_REPEAT_STRIDE;
    uint16_t srcRepeatSize = DEFAULT_REPEAT_STRIDE;
};
namespace detail_copy {
template <typename T>
void copy_rep(const LocalTensor<T>& dst, const LocalTensor<T>& src, const cbemu::Mask& m, uint32_t repeat,
              const CopyRepeatParams& p, const cbemu::SrcLoc& loc) {
    constexpr uint32_t epr = 256 / sizeof(T);
    uint64_t ed = cbemu::rep_extent<T>(m, repeat, epr, p.dstStride, p.dstRepeatSize);
    uint64_t es = cbemu::rep_extent<T>(m, repeat, epr, p.srcStride, p.srcRepeatSize);
    if (!cbemu::check_ub(dst, 0, ed * sizeof(T), loc, "Copy") | !cbemu::check_ub(src, 0, es * sizeof(T), loc, "Copy"))
        return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "Copy");
    cbemu::rd(op, src, es), cbemu::wr(op, dst, ed);
    cbemu::for_each_active(m, repeat, epr, [&](uint32_t r, uint32_t j) {
        dst.addr_[cbemu::rep_index<T>(r, j, p.dstStride, p.dstRepeatSize)] =
            src.addr_[cbemu::rep_index<T>(r, j, p.srcStride, p.srcRepeatSize)];
    });
}
}  // namespace detail_copy
template <typename T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], const uint8_t repeatTime,
          const CopyRepeatParams& p, CBEMU_LOC) {
    CBEMU_LEGAL(Copy, T, T);
    detail_copy::copy_rep(dst, src, cbemu::use_mask(isSetMask, mask), repeatTime, p, loc);
}
template <typename T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask, const uint8_t repeatTime,
          const CopyRepeatParams& p, CBEMU_LOC) {
    CBEMU_LEGAL(Copy, T, T);
    detail_copy::copy_rep(dst, src, cbemu::use_mask(isSetMask, mask), repeatTime, p, loc);
}

// ---- Compare into the 128-bit CmpMask register (one repeat), read back with GetCmpMask ----
namespace detail_cmpreg {
template <typename T>
void compare_reg(const LocalTensor<T>& a, const LocalTensor<T>& b, CMPMODE mode, const cbemu::Mask& m,
                 const BinaryRepeatParams& p, const cbemu::SrcLoc& loc) {
    constexpr uint32_t epr = 256 / sizeof(T);
    uint64_t ea = cbemu::rep_extent<T>(m, 1, epr, p.src0BlkStride, p.src0RepStride);
    uint64_t eb = cbemu::rep_extent<T>(m, 1, epr, p.src1BlkStride, p.src1RepStride);
    if (!cbemu::check_ub(a, 0, ea * sizeof(T), loc, "Compare") | !cbemu::check_ub(b, 0, eb * sizeof(T), loc, "Compare"))
        return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "Compare");
    cbemu::rd(op, a, ea), cbemu::rd(op, b, eb);
    uint8_t* reg = cbemu::ctx().cmp_mask;
    std::memset(reg, 0, 16);  // lanes outside the mask read as 0
    cbemu::for_each_active(m, 1, epr, [&](uint32_t r, uint32_t j) {
        T x = a.addr_[cbemu::rep_index<T>(r, j, p.src0BlkStride, p.src0RepStride)];
        T y = b.addr_[cbemu::rep_index<T>(r, j, p.src1BlkStride, p.src1RepStride)];
        if (j < 128) cbemu::set_bit(reg, j, cbemu::cmp<T>(mode, (cbemu::calc_t<T>)x, (cbemu::calc_t<T>)y));
    });
}
}  // namespace detail_cmpreg
template <typename T, bool isSetMask = true>
void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, const uint64_t mask[],
             const BinaryRepeatParams& p, CBEMU_LOC) {
    CBEMU_LEGAL(Compare, T, T);
    detail_cmpreg::compare_reg(src0, src1, cmpMode, cbemu::use_mask(isSetMask, mask), p, loc);
}
template <typename T, bool isSetMask = true>
void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, const uint64_t mask,
             const BinaryRepeatParams& p, CBEMU_LOC) {
    CBEMU_LEGAL(Compare, T, T);
    detail_cmpreg::compare_reg(src0, src1, cmpMode, cbemu::use_mask(isSetMask, mask), p, loc);
}
// Writes the 16 bytes (128 bits, bit j = lane j, little-endian) of the CmpMask register to dst.
template <typename T>
void GetCmpMask(const LocalTensor<T>& dst, CBEMU_LOC) {
    if (!cbemu::check_ub(dst, 0, 16, loc, "GetCmpMask")) return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "GetCmpMask");
    op.write(dst.addr_, 16);
    std::memcpy((void*)dst.addr_, cbemu::ctx().cmp_mask, 16);
}

// ---- the sum register written by the count form of ReduceSum ----
namespace detail_reduce {
inline const cbemu::BlockCtx& sum_register(const cbemu::SrcLoc& loc) {
    if (!cbemu::ctx().reduce_sum_set)
        cbemu::report("reduce_spr_unset", cbemu::Sev::warning, loc,
                      "GetReduceRepeatSumSpr before any count-form ReduceSum in this block");
    return cbemu::ctx();
}
}  // namespace detail_reduce
template <typename T>
T GetReduceRepeatSumSpr(CBEMU_LOC) {
    return T(detail_reduce::sum_register(loc).reduce_sum);
}
// The untyped forms return the register's raw 64 bits (the sum's T in the low bits; kernels reinterpret them);
// GetAccVal is the name it had before GetReduceRepeatSumSpr.
inline int64_t GetReduceRepeatSumSpr(CBEMU_LOC) { return (int64_t)detail_reduce::sum_register(loc).reduce_sum_bits; }
inline int64_t GetAccVal(CBEMU_LOC) { return GetReduceRepeatSumSpr(loc); }
template <typename T>
T GetAccVal(CBEMU_LOC) {
    return GetReduceRepeatSumSpr<T>(loc);
}

// ---- the max / min register (GetReduceRepeatMaxMinSpr(ISASI).md) ----
// After ReduceRepeat<MAX/MIN> (WholeReduceMax/Min): the best value of all repeats and its element offset in src,
// the index stored in the bits of a T ("reinterpret_cast<uint16_t*> / <uint32_t*>" to read it). After ReduceMax /
// ReduceMin only the value is accurate (the page): the index holds the poison bits. After a counter-mode reduction
// the page does not support reading it: what a kernel reads then is undefined, the kernel's bug (maxmin_counter_mode,
// a rule break: failed_run whatever its output).
namespace detail_reduce {
inline const cbemu::BlockCtx& maxmin_register(const cbemu::SrcLoc& loc, const char* api) {
    const cbemu::BlockCtx& c = cbemu::ctx();
    if (c.maxmin_state == 0)
        cbemu::report("reduce_spr_unset", cbemu::Sev::warning, loc,
                      "%s before any ReduceRepeat<MAX/MIN>, ReduceMax or ReduceMin in this block", api);
    if (c.maxmin_state == 3)
        cbemu::report("maxmin_counter_mode", cbemu::Sev::error, loc,
                      "%s after a reduction in Mask Counter mode: the docs do not support reading the result then "
                      "(GetReduceRepeatMaxMinSpr(ISASI).md), so the value read is undefined", api);
    return c;
}
// The value and its element offset (~0 where only ReduceMax/ReduceMin set the value), as both names read them.
template <typename T>
void read_maxmin(T& maxMinValue, T* maxMinIndex, const cbemu::SrcLoc& loc, const char* api) {
    const cbemu::BlockCtx& c = maxmin_register(loc, api);
    maxMinValue = T(c.maxmin_value);
    if (maxMinIndex == nullptr) return;
    uint32_t idx = c.maxmin_state == 1 ? c.maxmin_index : ~0u;
    *maxMinIndex = T();
    std::memcpy(maxMinIndex, &idx, sizeof(T) < 4 ? sizeof(T) : 4);
}
}  // namespace detail_reduce
template <typename T>
void GetReduceRepeatMaxMinSpr(T& maxMinValue, T& maxMinIndex, CBEMU_LOC) {
    CBEMU_LEGAL(GetReduceRepeatMaxMinSpr, T, T);
    detail_reduce::read_maxmin(maxMinValue, &maxMinIndex, loc, "GetReduceRepeatMaxMinSpr");
}
template <typename T>
void GetReduceRepeatMaxMinSpr(T& maxMinValue, CBEMU_LOC) {
    CBEMU_LEGAL(GetReduceRepeatMaxMinSpr, T, T);
    detail_reduce::read_maxmin(maxMinValue, (T*)nullptr, loc, "GetReduceRepeatMaxMinSpr");
}
// GetReduceMaxMinCount: its name before CANN 9 (附录/接口变更说明.md), without the newer page's type rule.
template <typename T>
void GetReduceMaxMinCount(T& maxMinValue, T& maxMinIndex, CBEMU_LOC) {
    detail_reduce::read_maxmin(maxMinValue, &maxMinIndex, loc, "GetReduceMaxMinCount");
}
template <typename T>
void GetReduceMaxMinCount(T& maxMinValue, CBEMU_LOC) {
    detail_reduce::read_maxmin(maxMinValue, (T*)nullptr, loc, "GetReduceMaxMinCount");
}

}  // namespace AscendC
