// Compare / Compares (1 result bit per element, little-endian bit order), Select (three
// SELMODEs), ReduceSum/Max/Min, WholeReduce*, BlockReduce*, Brcb.
#pragma once
#include <type_traits>
#include <vector>

#include "vec.h"

namespace cbemu {

template <typename T>
inline bool cmp(AscendC::CMPMODE m, calc_t<T> a, calc_t<T> b) {
    switch (m) {
        case AscendC::CMPMODE::LT: return a < b;
        case AscendC::CMPMODE::GT: return a > b;
        case AscendC::CMPMODE::EQ: return a == b;
        case AscendC::CMPMODE::LE: return a <= b;
        case AscendC::CMPMODE::GE: return a >= b;
        default: return a != b;
    }
}
inline void set_bit(uint8_t* bits, uint64_t k, bool v) {
    if (v) bits[k >> 3] |= (uint8_t)(1u << (k & 7));
    else bits[k >> 3] &= (uint8_t)~(1u << (k & 7));
}
inline bool get_bit(const uint8_t* bits, uint64_t k) { return (bits[k >> 3] >> (k & 7)) & 1; }

// The dst mask's type, as Compare / Compares legality checks it: the docs list int8_t / uint8_t (Compares: uint8_t),
// but the instruction writes the result bits through a byte pointer whatever U is, and the toolkit checks U only by
// an assert under ASCENDC_CPU_DEBUG - a uint16_t mask (cann-ops adaptive_max_pool3d, radius) builds for the NPU and
// holds the same bits. So an integer U is checked as uint8_t; a floating-point mask stays refused as the docs say.
template <typename U>
using mask_byte = typename std::conditional<std::is_integral<U>::value, uint8_t, U>::type;

// The count form of Compare handles whole 256-byte repeats only.
template <typename T>
inline uint32_t cmp_count(uint32_t count, const SrcLoc& loc, const char* api) {
    uint32_t epr = 256 / sizeof(T);
    if (count % epr) {
        report("compare_count_unaligned", Sev::warning, loc,
               "%s count %u is not a multiple of %u elements (256 bytes); the tail is not compared", api, count, epr);
    }
    return count / epr * epr;
}

template <typename T, typename U, typename GetB>
inline void compare_rep(const AscendC::LocalTensor<U>& dst, const AscendC::LocalTensor<T>& a, GetB getb,
                        AscendC::CMPMODE mode, const Mask& m, uint32_t repeat, uint32_t a_blk, uint32_t a_rep,
                        const SrcLoc& loc, const char* api) {
    constexpr uint32_t epr = 256 / sizeof(T);
    uint64_t ea = rep_extent<T>(m, repeat, epr, a_blk, a_rep);
    if (!check_ub(a, 0, ea * sizeof(T), loc, api)) return;
    uint8_t* bits = (uint8_t*)dst.addr_;
    uint64_t nbits = (uint64_t)repeat * epr;
    if (ctx().counter_mode) nbits = m.lo;
    if (!check_ub(dst, 0, (nbits + 7) / 8, loc, api)) return;
    hz::Scope op(hz::P_V, loc, api);
    rd(op, a, ea), op.write(dst.addr_, (nbits + 7) / 8);
    for_each_active(m, repeat, epr, [&](uint32_t r, uint32_t j) {
        T x = a.addr_[rep_index<T>(r, j, a_blk, a_rep)];
        set_bit(bits, (uint64_t)r * epr + j, cmp<T>(mode, (calc_t<T>)x, getb(r, j)));
    });
}

}  // namespace cbemu

namespace AscendC {

// ---- Compare: two tensors ----
template <typename T, typename U>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
             uint32_t count, CBEMU_LOC) {
    CBEMU_LEGAL(Compare, T, T);
    CBEMU_LEGAL(Compare, U, cbemu::mask_byte<U>);
    uint32_t n = cbemu::cmp_count<T>(count, loc, "Compare");
    if (!cbemu::check_count(src0, n, loc, "Compare") | !cbemu::check_count(src1, n, loc, "Compare") |
        !cbemu::check_ub(dst, 0, (n + 7) / 8, loc, "Compare"))
        return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "Compare");
    cbemu::rd(op, src0, n), cbemu::rd(op, src1, n), op.write(dst.addr_, (n + 7) / 8);
    uint8_t* bits = (uint8_t*)dst.addr_;
    for (uint32_t i = 0; i < n; ++i)
        cbemu::set_bit(bits, i, cbemu::cmp<T>(cmpMode, cbemu::c(src0.addr_[i]), cbemu::c(src1.addr_[i])));
}
template <typename T, typename U, bool isSetMask = true>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
             const uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams& p, CBEMU_LOC) {
    CBEMU_LEGAL(Compare, T, T);
    CBEMU_LEGAL(Compare, U, cbemu::mask_byte<U>);
    auto getb = [&](uint32_t r, uint32_t j) { return cbemu::c(src1.addr_[cbemu::rep_index<T>(r, j, p.src1BlkStride, p.src1RepStride)]); };
    cbemu::compare_rep(dst, src0, getb, cmpMode, cbemu::use_mask(isSetMask, mask), repeatTime, p.src0BlkStride,
                       p.src0RepStride, loc, "Compare");
}
template <typename T, typename U, bool isSetMask = true>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
             const uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams& p, CBEMU_LOC) {
    CBEMU_LEGAL(Compare, T, T);
    CBEMU_LEGAL(Compare, U, cbemu::mask_byte<U>);
    auto getb = [&](uint32_t r, uint32_t j) { return cbemu::c(src1.addr_[cbemu::rep_index<T>(r, j, p.src1BlkStride, p.src1RepStride)]); };
    cbemu::compare_rep(dst, src0, getb, cmpMode, cbemu::use_mask(isSetMask, mask), repeatTime, p.src0BlkStride,
                       p.src0RepStride, loc, "Compare");
}

// ---- Compares: tensor against a scalar (CompareScalar is the older name) ----
template <typename T, typename U>
void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
              uint32_t count, CBEMU_LOC) {
    CBEMU_LEGAL(Compares, T, T);
    CBEMU_LEGAL(Compares, U, cbemu::mask_byte<U>);
    uint32_t n = cbemu::cmp_count<T>(count, loc, "Compares");
    if (!cbemu::check_count(src0, n, loc, "Compares") | !cbemu::check_ub(dst, 0, (n + 7) / 8, loc, "Compares")) return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "Compares");
    cbemu::rd(op, src0, n), op.write(dst.addr_, (n + 7) / 8);
    uint8_t* bits = (uint8_t*)dst.addr_;
    auto s = cbemu::c(src1Scalar);
    for (uint32_t i = 0; i < n; ++i) cbemu::set_bit(bits, i, cbemu::cmp<T>(cmpMode, cbemu::c(src0.addr_[i]), s));
}
template <typename T, typename U, bool isSetMask = true>
void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
              const uint64_t mask[], uint8_t repeatTime, const UnaryRepeatParams& p, CBEMU_LOC) {
    CBEMU_LEGAL(Compares, T, T);
    CBEMU_LEGAL(Compares, U, cbemu::mask_byte<U>);
    auto s = cbemu::c(src1Scalar);
    cbemu::compare_rep(dst, src0, [s](uint32_t, uint32_t) { return s; }, cmpMode, cbemu::use_mask(isSetMask, mask),
                       repeatTime, p.srcBlkStride, p.srcRepStride, loc, "Compares");
}
template <typename T, typename U, bool isSetMask = true>
void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
              const uint64_t mask, uint8_t repeatTime, const UnaryRepeatParams& p, CBEMU_LOC) {
    CBEMU_LEGAL(Compares, T, T);
    CBEMU_LEGAL(Compares, U, cbemu::mask_byte<U>);
    auto s = cbemu::c(src1Scalar);
    cbemu::compare_rep(dst, src0, [s](uint32_t, uint32_t) { return s; }, cmpMode, cbemu::use_mask(isSetMask, mask),
                       repeatTime, p.srcBlkStride, p.srcRepStride, loc, "Compares");
}
template <typename T, typename U>
void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
                   uint32_t count, CBEMU_LOC) {
    Compares(dst, src0, src1Scalar, cmpMode, count, loc);
}
template <typename T, typename U, bool isSetMask = true>
void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
                   const uint64_t mask[], uint8_t repeatTime, const UnaryRepeatParams& p, CBEMU_LOC) {
    Compares<T, U, isSetMask>(dst, src0, src1Scalar, cmpMode, mask, repeatTime, p, loc);
}
template <typename T, typename U, bool isSetMask = true>
void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
                   const uint64_t mask, uint8_t repeatTime, const UnaryRepeatParams& p, CBEMU_LOC) {
    Compares<T, U, isSetMask>(dst, src0, src1Scalar, cmpMode, mask, repeatTime, p, loc);
}

// ---- Select: bit 1 takes src0, bit 0 takes src1 (tensor or scalar) ----
namespace detail_select {
// Bit index of element (r, j): mode 0 reuses the first 256/sizeof(T) bits every repeat.
template <typename T>
inline uint64_t bit_of(SELMODE mode, uint32_t r, uint32_t j) {
    return mode == SELMODE::VSEL_CMPMASK_SPR ? j : (uint64_t)r * (256 / sizeof(T)) + j;
}
// The selMask's type, as its legality is checked: Select.md lists uint8/16/32/64_t for U, but selMask is read bit by
// bit, so U only sets a width, and Compare.md lists int8_t for the very mask Compare writes for Select to read. A
// signed integer is checked as its unsigned twin (same width, same bits); every other type stays as the docs list.
// (The toolkit's own U check is a CPU-debug assert, not a compile error: kernels with an int8_t mask ran on chips.)
template <typename U, bool = std::is_integral<U>::value && std::is_signed<U>::value>
struct mask_word {
    using type = U;
};
template <typename U>
struct mask_word<U, true> {
    using type = typename std::make_unsigned<U>::type;
};
}  // namespace detail_select
// Every Select form: T as the docs list it, the mask through mask_word.
#define CBEMU_LEGAL_SELECT(T, U) \
    CBEMU_LEGAL(Select, T, T);   \
    CBEMU_LEGAL(Select, U, typename detail_select::mask_word<U>::type)

template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE selMode, uint32_t count, CBEMU_LOC) {
    CBEMU_LEGAL_SELECT(T, U);
    if (!cbemu::check_count(dst, count, loc, "Select") | !cbemu::check_count(src0, count, loc, "Select") |
        !cbemu::check_count(src1, count, loc, "Select"))
        return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "Select");
    op.read(selMask.addr_, (count + 7) / 8), cbemu::rd(op, src0, count), cbemu::rd(op, src1, count);
    cbemu::wr(op, dst, count);
    const uint8_t* bits = (const uint8_t*)selMask.addr_;
    constexpr uint32_t epr = 256 / sizeof(T);
    for (uint32_t i = 0; i < count; ++i) {
        bool b = cbemu::get_bit(bits, detail_select::bit_of<T>(selMode, i / epr, i % epr));
        dst.addr_[i] = b ? src0.addr_[i] : src1.addr_[i];
    }
}
template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1,
            SELMODE selMode, uint32_t count, CBEMU_LOC) {
    CBEMU_LEGAL_SELECT(T, U);
    if (!cbemu::check_count(dst, count, loc, "Select") | !cbemu::check_count(src0, count, loc, "Select")) return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "Select");
    op.read(selMask.addr_, (count + 7) / 8), cbemu::rd(op, src0, count), cbemu::wr(op, dst, count);
    const uint8_t* bits = (const uint8_t*)selMask.addr_;
    constexpr uint32_t epr = 256 / sizeof(T);
    for (uint32_t i = 0; i < count; ++i) {
        bool b = cbemu::get_bit(bits, detail_select::bit_of<T>(selMode, i / epr, i % epr));
        dst.addr_[i] = b ? src0.addr_[i] : src1;
    }
}

namespace detail_select {
template <typename T, typename U, typename GetB>
void select_rep(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, GetB getb,
                SELMODE mode, const cbemu::Mask& m, uint32_t repeat, const BinaryRepeatParams& p,
                const cbemu::SrcLoc& loc) {
    constexpr uint32_t epr = 256 / sizeof(T);
    uint64_t ed = cbemu::rep_extent<T>(m, repeat, epr, p.dstBlkStride, p.dstRepStride);
    uint64_t e0 = cbemu::rep_extent<T>(m, repeat, epr, p.src0BlkStride, p.src0RepStride);
    if (!cbemu::check_ub(dst, 0, ed * sizeof(T), loc, "Select") | !cbemu::check_ub(src0, 0, e0 * sizeof(T), loc, "Select"))
        return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "Select");
    cbemu::rd_all(op, selMask), cbemu::rd(op, src0, e0), cbemu::wr(op, dst, ed);
    const uint8_t* bits = (const uint8_t*)selMask.addr_;
    cbemu::for_each_active(m, repeat, epr, [&](uint32_t r, uint32_t j) {
        bool b = cbemu::get_bit(bits, bit_of<T>(mode, r, j));
        T a = src0.addr_[cbemu::rep_index<T>(r, j, p.src0BlkStride, p.src0RepStride)];
        dst.addr_[cbemu::rep_index<T>(r, j, p.dstBlkStride, p.dstRepStride)] = b ? a : getb(r, j);
    });
}
}  // namespace detail_select

template <typename T, typename U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask[], uint8_t repeatTime,
            const BinaryRepeatParams& p, CBEMU_LOC) {
    CBEMU_LEGAL_SELECT(T, U);
    auto getb = [&](uint32_t r, uint32_t j) { return src1.addr_[cbemu::rep_index<T>(r, j, p.src1BlkStride, p.src1RepStride)]; };
    detail_select::select_rep(dst, selMask, src0, getb, selMode, cbemu::use_mask(isSetMask, mask), repeatTime, p, loc);
}
template <typename T, typename U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
            const BinaryRepeatParams& p, CBEMU_LOC) {
    CBEMU_LEGAL_SELECT(T, U);
    auto getb = [&](uint32_t r, uint32_t j) { return src1.addr_[cbemu::rep_index<T>(r, j, p.src1BlkStride, p.src1RepStride)]; };
    detail_select::select_rep(dst, selMask, src0, getb, selMode, cbemu::use_mask(isSetMask, mask), repeatTime, p, loc);
}
template <typename T, typename U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1,
            SELMODE selMode, uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams& p, CBEMU_LOC) {
    CBEMU_LEGAL_SELECT(T, U);
    detail_select::select_rep(dst, selMask, src0, [src1](uint32_t, uint32_t) { return src1; }, selMode,
                              cbemu::use_mask(isSetMask, mask), repeatTime, p, loc);
}
template <typename T, typename U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1,
            SELMODE selMode, uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams& p, CBEMU_LOC) {
    CBEMU_LEGAL_SELECT(T, U);
    detail_select::select_rep(dst, selMask, src0, [src1](uint32_t, uint32_t) { return src1; }, selMode,
                              cbemu::use_mask(isSetMask, mask), repeatTime, p, loc);
}

// ---- reductions over the whole tensor ----
namespace detail_reduce {
// ---- sharedTmpBuffer of the reductions (ReduceMax.md / ReduceMin.md / ReduceSum.md 关键特性说明) ----
// The documented size in elements of T for `repeats` first-round repeats; the buffer may instead reuse src's
// memory ("sharedTmpBuffer空间复用源操作数的空间": no check then).
template <typename T>
inline uint64_t maxmin_tmp_elems(uint64_t repeats, bool calIndex) {
    constexpr uint64_t epb = 32 / sizeof(T), epr = 256 / sizeof(T);
    auto up = [](uint64_t a, uint64_t b) { return (a + b - 1) / b; };
    uint64_t out1 = repeats * 2;
    if (!calIndex) return up(out1, epb) * epb;
    uint64_t start2 = up(out1, epb) * epb;
    uint64_t out2 = up(out1, epr) * 2;
    uint64_t end2 = up(out2, epb) * epb;
    if (out2 <= 2) return start2 + end2;
    uint64_t out3 = up(out2, epr) * 2;
    return start2 + end2 + up(out3, epb) * epb;
}
template <typename T>
inline uint64_t sum_tmp_elems(uint64_t repeats) {
    constexpr uint64_t epb = 32 / sizeof(T);
    return (repeats + epb - 1) / epb * epb;
}
// Report a buffer smaller than documented; otherwise it holds intermediate results afterwards (the poison byte).
template <typename T>
inline void use_tmp(const LocalTensor<T>& tmp, const LocalTensor<T>& src, uint64_t src_elems, uint64_t need,
                    const cbemu::SrcLoc& loc, const char* api) {
    const uint8_t *t = (const uint8_t*)tmp.addr_, *s = (const uint8_t*)src.addr_;
    if (!t || (t < s + src_elems * sizeof(T) && s < t + need * sizeof(T))) return;
    if ((uint64_t)tmp.GetSize() < need) {
        cbemu::report("scratch_too_small", cbemu::Sev::error, loc,
                      "%s: sharedTmpBuffer holds %u elements, the docs' formula needs %llu for this call (%s.md "
                      "关键特性说明); the hardware writes intermediate results past its end", api, tmp.GetSize(),
                      (unsigned long long)need, api);
        return;
    }
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, api);
    cbemu::wr(op, tmp, need);
    std::memset((void*)tmp.addr_, cbemu::poison_byte(), need * sizeof(T));
}


// The hardware's sums (ReduceSum.md 关键特性说明, ReduceDataBlock.md): inside a repeat (or a 32-byte block) a binary
// tree -- lanes pairwise (0+1, 2+3, ...), then those sums pairwise -- with every addition rounded to T (inactive lanes
// are 0); across repeats either in order (方式一) or again as a tree (方式二). The exact sum of two halves fits a
// double, so rounding it once to half is the hardware's rounded half addition; floats add in float.
template <typename T>
inline double hw_add(double a, double b, bool sat) {
    if constexpr (std::is_same<T, float>::value) return (double)((float)a + (float)b);
    else if constexpr (cbemu::is_small_float<T>::value) return cbemu::to_double(cbemu::saturate(T(a + b), sat));
    else return a + b;
}
// Reduce lanes[0, n) (n a power of two) by the pairwise tree.
template <typename T>
inline double tree(double* lanes, size_t n, bool sat) {
    for (; n > 1; n /= 2)
        for (size_t i = 0; i < n / 2; ++i) lanes[i] = hw_add<T>(lanes[2 * i], lanes[2 * i + 1], sat);
    return n ? lanes[0] : 0.0;
}
// Per-repeat tree sums of the active elements (a repeat's lanes are 256 / sizeof(T) wide).
template <typename T>
inline std::vector<double> repeat_sums(const T* src, const cbemu::Mask& m, uint32_t repeat, uint32_t blk,
                                       uint32_t rep_stride, bool sat) {
    constexpr uint32_t epr = 256 / sizeof(T);
    std::vector<double> lanes;
    uint32_t nrep = cbemu::ctx().counter_mode ? (uint32_t)((m.lo + epr - 1) / epr) : repeat;
    lanes.assign((size_t)nrep * epr, 0.0);
    cbemu::for_each_active(m, repeat, epr, [&](uint32_t r, uint32_t j) {
        if (r < nrep) lanes[(size_t)r * epr + j] = cbemu::to_double(src[cbemu::rep_index<T>(r, j, blk, rep_stride)]);
    });
    std::vector<double> sums(nrep);
    for (uint32_t r = 0; r < nrep; ++r) sums[r] = tree<T>(&lanes[(size_t)r * epr], epr, sat);
    return sums;
}
// 方式二 across repeats: the repeat results are reduced again, a repeat's worth at a time, until one is left.
template <typename T>
inline double tree_of_repeats(std::vector<double> v, bool sat) {
    constexpr uint32_t epr = 256 / sizeof(T);
    if (v.empty()) return 0.0;
    while (v.size() > 1) {
        std::vector<double> next((v.size() + epr - 1) / epr);
        std::vector<double> lanes(epr);
        for (size_t r = 0; r < next.size(); ++r) {
            std::fill(lanes.begin(), lanes.end(), 0.0);
            for (size_t j = 0; j < epr && r * epr + j < v.size(); ++j) lanes[j] = v[r * epr + j];
            next[r] = tree<T>(lanes.data(), epr, sat);
        }
        v.swap(next);
    }
    return v[0];
}
// The repeat forms of ReduceSum: 方式二 on every modelled SoC.
template <typename T>
inline void sum_repeat_form(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& tmp,
                            const cbemu::Mask& m, int32_t repeat, int32_t srcRepStride, const cbemu::SrcLoc& loc) {
    constexpr uint32_t epr = 256 / sizeof(T);
    uint64_t es = cbemu::rep_extent<T>(m, (uint32_t)repeat, epr, 1, (uint32_t)srcRepStride);
    if (!cbemu::check_ub(src, 0, es * sizeof(T), loc, "ReduceSum") |
        !cbemu::check_ub(dst, 0, sizeof(T), loc, "ReduceSum", false))
        return;
    use_tmp(tmp, src, es, sum_tmp_elems<T>((uint64_t)std::max(repeat, 1)), loc, "ReduceSum");  // 方式二
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "ReduceSum");
    cbemu::rd(op, src, es), cbemu::wr(op, dst, 1);
    bool sat = cbemu::float_saturation();
    std::vector<double> sums = repeat_sums(src.addr_, m, (uint32_t)repeat, 1, (uint32_t)srcRepStride, sat);
    dst.addr_[0] = cbemu::saturate(T(tree_of_repeats<T>(sums, sat)), sat);
}
// 方式一 across repeats: in order.
template <typename T>
inline double in_order(const std::vector<double>& v, bool sat) {
    double acc = v.empty() ? 0.0 : v[0];
    for (size_t r = 1; r < v.size(); ++r) acc = hw_add<T>(acc, v[r], sat);
    return acc;
}

// The register the count form of ReduceSum (and the ISA's accumulating vcadd) leaves its sum in.
template <typename T>
inline void set_sum_register(T v) {
    cbemu::ctx().reduce_sum = cbemu::to_double(v);
    cbemu::ctx().reduce_sum_bits = 0;
    std::memcpy(&cbemu::ctx().reduce_sum_bits, &v, sizeof(T) < 8 ? sizeof(T) : 8);
    cbemu::ctx().reduce_sum_set = true;
}

// The max / min register (GetReduceRepeatMaxMinSpr): the best of all repeats and its element offset in src,
// the first on ties, as within a repeat.
template <typename T>
inline void set_maxmin_register(bool counter, bool is_max, const std::vector<double>& best,
                                const std::vector<int64_t>& idx, int32_t srcBlkStride, int32_t srcRepStride) {
    cbemu::BlockCtx& c = cbemu::ctx();
    c.maxmin_state = counter ? 3 : 1;
    bool any = false;
    for (uint32_t r = 0; r < best.size(); ++r) {
        if (idx[r] < 0 || (any && !(is_max ? best[r] > c.maxmin_value : best[r] < c.maxmin_value))) continue;
        any = true;
        c.maxmin_value = best[r];
        c.maxmin_index =
            (uint32_t)cbemu::rep_index<T>(r, (uint32_t)idx[r], (uint32_t)srcBlkStride, (uint32_t)srcRepStride);
    }
}
inline void set_maxmin_value(double v) {
    cbemu::ctx().maxmin_state = 2;
    cbemu::ctx().maxmin_value = v;
}

template <typename T>
inline void store_index(const LocalTensor<T>& dst, uint32_t pos, uint32_t idx) {
    // the index is stored in the bits of a T, as the docs describe (read it back with reinterpret)
    if (sizeof(T) == 2) { uint16_t v = (uint16_t)idx; std::memcpy(&dst.addr_[pos], &v, 2); }
    else { uint32_t v = idx; std::memcpy(&dst.addr_[pos], &v, sizeof(T) < 4 ? sizeof(T) : 4); }
}
template <typename T>
void arg_best(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& tmp, int32_t count,
              bool calIndex, bool is_max, const cbemu::SrcLoc& loc, const char* api) {
    if (!cbemu::check_count(src, count, loc, api) | !cbemu::check_ub(dst, 0, (calIndex ? 2 : 1) * sizeof(T), loc, api, false))
        return;
    uint64_t repeats = std::max<uint64_t>(1, (uint64_t)count / (256 / sizeof(T)));  // "count/elementsPerRepeat"
    use_tmp(tmp, src, (uint64_t)count, maxmin_tmp_elems<T>(repeats, calIndex), loc, api);
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, api);
    cbemu::rd(op, src, count), cbemu::wr(op, dst, calIndex ? 2 : 1);
    uint32_t best = 0;
    for (int32_t i = 1; i < count; ++i) {
        auto v = cbemu::c(src.addr_[i]), b = cbemu::c(src.addr_[best]);
        if (is_max ? v > b : v < b) best = (uint32_t)i;
    }
    dst.addr_[0] = src.addr_[best];
    if (calIndex) store_index(dst, 1, best);
    set_maxmin_value(cbemu::to_double(dst.addr_[0]));
}
}  // namespace detail_reduce

template <typename T, bool isSetMask = true>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
               const int32_t count, CBEMU_LOC) {
    CBEMU_LEGAL(ReduceSum, T, T);
    if (!cbemu::check_count(src, count, loc, "ReduceSum") | !cbemu::check_ub(dst, 0, sizeof(T), loc, "ReduceSum", false))
        return;
    if (cbemu::legal::soc_index() != 0)  // 方式二 uses the buffer; A2/A3's count form (方式一) does not
        detail_reduce::use_tmp(sharedTmpBuffer, src, (uint64_t)count,
                               detail_reduce::sum_tmp_elems<T>(std::max<uint64_t>(1, (uint64_t)count / (256 / sizeof(T)))),
                               loc, "ReduceSum");
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "ReduceSum");
    cbemu::rd(op, src, count), cbemu::wr(op, dst, 1);
    // the count form: repeats of 256 bytes in counter mode; A2/A3 add the repeat results in order (方式一), the
    // other SoCs as a tree (方式二) (ReduceSum.md)
    bool sat = cbemu::float_saturation();
    bool saved = cbemu::ctx().counter_mode;
    cbemu::ctx().counter_mode = true;
    std::vector<double> sums =
        detail_reduce::repeat_sums(src.addr_, cbemu::Mask{0, (uint64_t)count}, 0, 1, 8, sat);
    cbemu::ctx().counter_mode = saved;
    double s = cbemu::legal::soc_index() == 0 ? detail_reduce::in_order<T>(sums, sat)
                                              : detail_reduce::tree_of_repeats<T>(sums, sat);
    dst.addr_[0] = cbemu::saturate(T(s), sat);
    detail_reduce::set_sum_register(dst.addr_[0]);
}
template <typename T>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
               const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride, CBEMU_LOC) {
    CBEMU_LEGAL(ReduceSum, T, T);
    (void)sharedTmpBuffer;
    cbemu::Mask m = cbemu::use_mask(true, (uint64_t)mask);
    detail_reduce::sum_repeat_form(dst, src, sharedTmpBuffer, m, repeatTime, srcRepStride, loc);
}
template <typename T>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
               const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride, CBEMU_LOC) {
    CBEMU_LEGAL(ReduceSum, T, T);
    (void)sharedTmpBuffer;
    cbemu::Mask m = cbemu::use_mask(true, mask);
    detail_reduce::sum_repeat_form(dst, src, sharedTmpBuffer, m, repeatTime, srcRepStride, loc);
}
template <typename T>
void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
               const int32_t count, bool calIndex = false, CBEMU_LOC) {
    CBEMU_LEGAL(ReduceMax, T, T);
    detail_reduce::arg_best(dst, src, sharedTmpBuffer, count, calIndex, true, loc, "ReduceMax");
}
template <typename T>
void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
               const int32_t count, bool calIndex = false, CBEMU_LOC) {
    CBEMU_LEGAL(ReduceMin, T, T);
    detail_reduce::arg_best(dst, src, sharedTmpBuffer, count, calIndex, false, loc, "ReduceMin");
}

// mask + repeat form of ReduceMax / ReduceMin; the index counts elements over all repeats
namespace detail_reduce {
template <typename T>
void arg_best_rep(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& tmp, const cbemu::Mask& m,
                  int32_t repeat, int32_t srcRepStride, bool calIndex, bool is_max, const cbemu::SrcLoc& loc,
                  const char* api) {
    constexpr uint32_t epr = 256 / sizeof(T);
    uint64_t es = cbemu::rep_extent<T>(m, (uint32_t)repeat, epr, 1, (uint32_t)srcRepStride);
    if (!cbemu::check_ub(src, 0, es * sizeof(T), loc, api) |
        !cbemu::check_ub(dst, 0, (calIndex ? 2 : 1) * sizeof(T), loc, api, false))
        return;
    use_tmp(tmp, src, es, maxmin_tmp_elems<T>((uint64_t)std::max(repeat, 1), calIndex), loc, api);
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, api);
    cbemu::rd(op, src, cbemu::rep_extent<T>(m, (uint32_t)repeat, epr, 1, (uint32_t)srcRepStride));
    cbemu::wr(op, dst, calIndex ? 2 : 1);
    bool have = false;
    double best = 0;
    uint32_t bi = 0;
    cbemu::for_each_active(m, (uint32_t)repeat, epr, [&](uint32_t r, uint32_t j) {
        double v = cbemu::to_double(src.addr_[cbemu::rep_index<T>(r, j, 1, (uint32_t)srcRepStride)]);
        if (!have || (is_max ? v > best : v < best)) { best = v; bi = r * epr + j; have = true; }
    });
    dst.addr_[0] = T(best);
    if (calIndex) store_index(dst, 1, bi);
    set_maxmin_value(cbemu::to_double(dst.addr_[0]));
}
}  // namespace detail_reduce

#define CBEMU_REDUCE_BEST(NAME, IS_MAX)                                                                         \
    template <typename T>                                                                                      \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,      \
              const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = false,  \
              CBEMU_LOC) {                                                                                     \
        CBEMU_LEGAL(NAME, T, T);                                                                               \
        detail_reduce::arg_best_rep(dst, src, sharedTmpBuffer, cbemu::use_mask(true, (uint64_t)mask), repeatTime, \
                                    srcRepStride,                                                              \
                                    calIndex, IS_MAX, loc, #NAME);                                             \
    }                                                                                                          \
    template <typename T>                                                                                      \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,      \
              const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = false, \
              CBEMU_LOC) {                                                                                     \
        CBEMU_LEGAL(NAME, T, T);                                                                               \
        detail_reduce::arg_best_rep(dst, src, sharedTmpBuffer, cbemu::use_mask(true, mask), repeatTime,        \
                                    srcRepStride, calIndex,                                                    \
                                    IS_MAX, loc, #NAME);                                                       \
    }
CBEMU_REDUCE_BEST(ReduceMax, true)
CBEMU_REDUCE_BEST(ReduceMin, false)

// ---- WholeReduce*: one result per repeat ----
namespace detail_reduce {
enum class Kind { SUM, MAX, MIN };
template <typename T>
void whole(Kind kind, const LocalTensor<T>& dst, const LocalTensor<T>& src, const cbemu::Mask& m, int32_t repeat,
           int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, ReduceOrder order,
           const cbemu::SrcLoc& loc, const char* api) {
    constexpr uint32_t epr = 256 / sizeof(T);
    uint64_t es = cbemu::rep_extent<T>(m, (uint32_t)repeat, epr, (uint32_t)srcBlkStride, (uint32_t)srcRepStride);
    if (!cbemu::check_ub(src, 0, es * sizeof(T), loc, api)) return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, api);
    cbemu::rd(op, src, es);
    bool counter = cbemu::ctx().counter_mode;
    uint32_t nrep = counter ? (uint32_t)((m.lo + epr - 1) / epr) : (uint32_t)repeat;
    std::vector<double> acc(nrep, 0.0);
    std::vector<int64_t> idx(nrep, -1);
    std::vector<double> best(nrep, 0.0);
    bool sat = cbemu::float_saturation();
    if (kind == Kind::SUM)  // each repeat's binary tree (ReduceRepeat.md -> ReduceDataBlock.md 关键特性说明)
        acc = repeat_sums(src.addr_, m, (uint32_t)repeat, (uint32_t)srcBlkStride, (uint32_t)srcRepStride, sat);
    else
        cbemu::for_each_active(m, (uint32_t)repeat, epr, [&](uint32_t r, uint32_t j) {
            double v = cbemu::to_double(src.addr_[cbemu::rep_index<T>(r, j, (uint32_t)srcBlkStride, (uint32_t)srcRepStride)]);
            if (idx[r] < 0 || (kind == Kind::MAX ? v > best[r] : v < best[r])) { best[r] = v; idx[r] = j; }
        });
    if (kind != Kind::SUM) set_maxmin_register<T>(counter, kind == Kind::MAX, best, idx, srcBlkStride, srcRepStride);
    for (uint32_t r = 0; r < nrep; ++r) {
        if (kind == Kind::SUM) {
            uint64_t at = (uint64_t)r * dstRepStride;
            if (!cbemu::check_ub(dst, at * sizeof(T), (at + 1) * sizeof(T), loc, api, false)) return;
            op.write(&dst.addr_[at], sizeof(T));
            dst.addr_[at] = cbemu::saturate(T(acc[r]), sat);
            continue;
        }
        T val = T(best[r]);
        uint32_t ix = idx[r] < 0 ? 0 : (uint32_t)idx[r];
        if (order == ReduceOrder::ORDER_ONLY_VALUE) {
            uint64_t at = (uint64_t)r * dstRepStride;
            if (!cbemu::check_ub(dst, at * sizeof(T), (at + 1) * sizeof(T), loc, api, false)) return;
            op.write(&dst.addr_[at], sizeof(T));
            dst.addr_[at] = val;
        } else if (order == ReduceOrder::ORDER_ONLY_INDEX) {
            uint64_t at = (uint64_t)r * dstRepStride * 4;  // unit: 4 bytes
            if (!cbemu::check_ub(dst, at, at + 4, loc, api, false)) return;
            op.write((uint8_t*)dst.addr_ + at, 4);
            uint32_t v = ix;
            std::memcpy((uint8_t*)dst.addr_ + at, &v, 4);
        } else {
            uint64_t at = (uint64_t)r * dstRepStride * 2;  // unit: one (value, index) pair
            if (!cbemu::check_ub(dst, at * sizeof(T), (at + 2) * sizeof(T), loc, api, false)) return;
            op.write(&dst.addr_[at], 2 * sizeof(T));
            bool vi = order == ReduceOrder::ORDER_VALUE_INDEX;
            dst.addr_[at + (vi ? 0 : 1)] = val;
            store_index(dst, (uint32_t)(at + (vi ? 1 : 0)), ix);
        }
    }
}
}  // namespace detail_reduce

#define CBEMU_WHOLE(NAME, KIND, ORDER_PARAM, ORDER_ARG)                                                        \
    template <typename T, bool isSetMask = true>                                                               \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], const int32_t repeatTime, \
              const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride ORDER_PARAM,  \
              CBEMU_LOC) {                                                                                     \
        detail_reduce::whole(KIND, dst, src, cbemu::use_mask(isSetMask, mask), repeatTime, dstRepStride,       \
                             srcBlkStride, srcRepStride, ORDER_ARG, loc, #NAME);                               \
    }                                                                                                          \
    template <typename T, bool isSetMask = true>                                                               \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask, const int32_t repeatTime, \
              const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride ORDER_PARAM,  \
              CBEMU_LOC) {                                                                                     \
        detail_reduce::whole(KIND, dst, src, cbemu::use_mask(isSetMask, (uint64_t)mask), repeatTime, dstRepStride, \
                             srcBlkStride, srcRepStride, ORDER_ARG, loc, #NAME);                               \
    }

#define CBEMU_COMMA ,
CBEMU_WHOLE(WholeReduceSum, detail_reduce::Kind::SUM, , ReduceOrder::ORDER_ONLY_VALUE)
CBEMU_WHOLE(WholeReduceMax, detail_reduce::Kind::MAX,
            CBEMU_COMMA const ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, order)
CBEMU_WHOLE(WholeReduceMin, detail_reduce::Kind::MIN,
            CBEMU_COMMA const ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, order)

// RepeatReduceSum: the sum of each repeat with a continuous mask only, the name before CANN 9.1 (接口变更说明.md:
// now ReduceRepeat; its dstBlkStride was "invalid" and is ignored). WholeReduceSum with the same strides.
template <typename T, bool isSetMask = true>
void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, const int32_t mask,
                     const int32_t dstBlkStride, const int32_t srcBlkStride, const int32_t dstRepStride,
                     const int32_t srcRepStride, CBEMU_LOC) {
    (void)dstBlkStride;
    detail_reduce::whole(detail_reduce::Kind::SUM, dst, src, cbemu::use_mask(isSetMask, (uint64_t)mask), repeatTime,
                         dstRepStride, srcBlkStride, srcRepStride, ReduceOrder::ORDER_ONLY_VALUE, loc, "RepeatReduceSum");
}

// ---- BlockReduce*: one result per 32-byte block, 8 per repeat ----
namespace detail_reduce {
template <typename T>
void block(Kind kind, const LocalTensor<T>& dst, const LocalTensor<T>& src, const cbemu::Mask& m, int32_t repeat,
           int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, const cbemu::SrcLoc& loc,
           const char* api) {
    constexpr uint32_t epr = 256 / sizeof(T), epb = 32 / sizeof(T);
    uint64_t es = cbemu::rep_extent<T>(m, (uint32_t)repeat, epr, (uint32_t)srcBlkStride, (uint32_t)srcRepStride);
    if (!cbemu::check_ub(src, 0, es * sizeof(T), loc, api)) return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, api);
    cbemu::rd(op, src, es);
    uint32_t nrep = (uint32_t)repeat;
    std::vector<double> acc((size_t)nrep * 8, 0.0);
    std::vector<char> seen((size_t)nrep * 8, 0);
    std::vector<double> lanes((size_t)nrep * epr, 0.0);  // SUM: each 32-byte block's binary tree (ReduceDataBlock.md)
    cbemu::for_each_active(m, (uint32_t)repeat, epr, [&](uint32_t r, uint32_t j) {
        if (r >= nrep) return;
        double v = cbemu::to_double(src.addr_[cbemu::rep_index<T>(r, j, (uint32_t)srcBlkStride, (uint32_t)srcRepStride)]);
        size_t k = (size_t)r * 8 + j / epb;
        if (kind == Kind::SUM) lanes[(size_t)r * epr + j] = v;
        else if (!seen[k] || (kind == Kind::MAX ? v > acc[k] : v < acc[k])) acc[k] = v;
        seen[k] = 1;
    });
    bool sat = cbemu::float_saturation();
    if (kind == Kind::SUM)
        for (size_t k = 0; k < (size_t)nrep * 8; ++k) acc[k] = cbemu::to_double(cbemu::saturate(T(tree<T>(&lanes[k * epb], epb, sat)), sat));
    for (uint32_t r = 0; r < nrep; ++r) {
        uint64_t at = (uint64_t)r * dstRepStride * 8;  // unit: one repeat's 8 results
        if (!cbemu::check_ub(dst, at * sizeof(T), (at + 8) * sizeof(T), loc, api, false)) return;
        op.write(&dst.addr_[at], 8 * sizeof(T));
        for (uint32_t b = 0; b < 8; ++b)
            if (seen[(size_t)r * 8 + b] || kind == Kind::SUM) dst.addr_[at + b] = T(acc[(size_t)r * 8 + b]);
    }
}
}  // namespace detail_reduce

#define CBEMU_BLOCKRED(NAME, KIND)                                                                             \
    template <typename T, bool isSetMask = true>                                                               \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, const uint64_t mask[], \
              const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride, CBEMU_LOC) { \
        detail_reduce::block(KIND, dst, src, cbemu::use_mask(isSetMask, mask), repeatTime, dstRepStride,       \
                             srcBlkStride, srcRepStride, loc, #NAME);                                          \
    }                                                                                                          \
    template <typename T, bool isSetMask = true>                                                               \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, const int32_t mask, \
              const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride, CBEMU_LOC) { \
        detail_reduce::block(KIND, dst, src, cbemu::use_mask(isSetMask, (uint64_t)mask), repeatTime,           \
                             dstRepStride, srcBlkStride, srcRepStride, loc, #NAME);                            \
    }
CBEMU_BLOCKRED(BlockReduceSum, detail_reduce::Kind::SUM)
CBEMU_BLOCKRED(BlockReduceMax, detail_reduce::Kind::MAX)
CBEMU_BLOCKRED(BlockReduceMin, detail_reduce::Kind::MIN)

// ---- Brcb: each of 8 source elements per repeat fills one 32-byte block ----
template <typename T>
void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint8_t repeatTime, const BrcbRepeatParams& p,
          CBEMU_LOC) {
    CBEMU_LEGAL(Brcb, T, T);
    constexpr uint32_t epb = 32 / sizeof(T);
    uint32_t blk = p.dstBlkStride ? p.dstBlkStride : 1;
    if (!cbemu::check_count(src, (int64_t)repeatTime * 8, loc, "Brcb")) return;
    uint64_t last = ((uint64_t)(repeatTime ? repeatTime - 1 : 0) * p.dstRepStride + 7ull * blk + 1) * epb;
    if (!cbemu::check_ub(dst, 0, repeatTime ? last * sizeof(T) : 0, loc, "Brcb")) return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "Brcb");
    cbemu::rd(op, src, (uint64_t)repeatTime * 8), cbemu::wr(op, dst, repeatTime ? last : 0);
    for (uint32_t i = 0; i < repeatTime; ++i)
        for (uint32_t j = 0; j < 8; ++j) {
            T v = src.addr_[i * 8 + j];
            T* o = dst.addr_ + ((uint64_t)i * p.dstRepStride + (uint64_t)j * blk) * epb;
            for (uint32_t e = 0; e < epb; ++e) o[e] = v;
        }
}

}  // namespace AscendC
