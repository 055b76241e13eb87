// The reduceType-templated reductions (ReduceRepeat, ReduceDataBlock, ReducePairElem) and the
// AscendC::Conditional type trait they are usually written with. ReduceRepeat and ReduceDataBlock
// compute what WholeReduce* / BlockReduce* compute (same mask, strides and result layout).
#pragma once
#include <type_traits>

#include "vec_cmp_reduce.h"

namespace AscendC {

enum class ReduceType { SUM = 0, MAX, MIN };

template <bool Bp, typename If, typename Then>
struct Conditional { using type = If; };
template <typename If, typename Then>
struct Conditional<false, If, Then> { using type = Then; };

namespace detail_reduce {
template <ReduceType t>
constexpr Kind kind_of() { return t == ReduceType::SUM ? Kind::SUM : (t == ReduceType::MAX ? Kind::MAX : Kind::MIN); }

// One sum per adjacent (even, odd) pair of active elements; 128 / sizeof(T) results per repeat,
// dstRepStride in units of one repeat's results (128 bytes).
template <typename T>
void pair_sum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const cbemu::Mask& m, int32_t repeat,
              int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, const cbemu::SrcLoc& loc) {
    constexpr uint32_t epr = 256 / sizeof(T), half_epr = epr / 2;
    uint64_t es = cbemu::rep_extent<T>(m, (uint32_t)repeat, epr, (uint32_t)srcBlkStride, (uint32_t)srcRepStride);
    if (!cbemu::check_ub(src, 0, es * sizeof(T), loc, "ReducePairElem")) return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "ReducePairElem");
    cbemu::rd(op, src, es);
    bool counter = cbemu::ctx().counter_mode;
    uint32_t nrep = counter ? (uint32_t)((m.lo + epr - 1) / epr) : (uint32_t)(repeat < 0 ? 0 : repeat);
    std::vector<double> acc((size_t)nrep * half_epr, 0.0);
    std::vector<char> seen((size_t)nrep * half_epr, 0);
    cbemu::for_each_active(m, (uint32_t)repeat, epr, [&](uint32_t r, uint32_t j) {
        size_t k = (size_t)r * half_epr + j / 2;
        acc[k] += cbemu::to_double(src.addr_[cbemu::rep_index<T>(r, j, (uint32_t)srcBlkStride, (uint32_t)srcRepStride)]);
        seen[k] = 1;
    });
    for (uint32_t r = 0; r < nrep; ++r) {
        uint64_t at = (uint64_t)r * dstRepStride * half_epr;
        for (uint32_t p = 0; p < half_epr; ++p) {
            if (!seen[(size_t)r * half_epr + p]) continue;
            if (!cbemu::check_ub(dst, (at + p) * sizeof(T), (at + p + 1) * sizeof(T), loc, "ReducePairElem", false))
                return;
            op.write(&dst.addr_[at + p], sizeof(T));
            dst.addr_[at + p] = T(acc[(size_t)r * half_epr + p]);
        }
    }
}
}  // namespace detail_reduce

// PairReduceSum (CANN API reference, PairReduceSum): the untyped name of ReducePairElem<SUM>, half / float.
template <typename T, bool isSetMask = true>
void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                   const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,
                   const int32_t srcRepStride, CBEMU_LOC) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "cotbuilder emulator: PairReduceSum takes half or float");
    detail_reduce::pair_sum(dst, src, cbemu::use_mask(isSetMask, mask), repeatTime, dstRepStride, srcBlkStride,
                            srcRepStride, loc);
}
template <typename T, bool isSetMask = true>
void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, const int32_t mask,
                   const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride, CBEMU_LOC) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "cotbuilder emulator: PairReduceSum takes half or float");
    detail_reduce::pair_sum(dst, src, cbemu::use_mask(isSetMask, (uint64_t)mask), repeatTime, dstRepStride,
                            srcBlkStride, srcRepStride, loc);
}

// The emulator models the A2/A3 forms, where dst and src have the same type.
#define CBEMU_REDUCE_TYPED(NAME, MASKT, MASKEXPR, EXTRA_PARAM, CALL)                                           \
    template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>                            \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src, MASKT mask, const int32_t repeatTime,      \
              const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride EXTRA_PARAM,  \
              CBEMU_LOC) {                                                                                     \
        static_assert(std::is_same<T, U>::value, "cotbuilder emulator: " #NAME " needs dst and src of one type"); \
        cbemu::Mask m = cbemu::use_mask(isSetMask, MASKEXPR);                                                  \
        CALL;                                                                                                  \
    }

#define CBEMU_RR_CALL                                                                                          \
    detail_reduce::whole(detail_reduce::kind_of<reduceType>(), dst, src, m, repeatTime, dstRepStride,          \
                         srcBlkStride, srcRepStride,                                                           \
                         reduceType == ReduceType::SUM ? ReduceOrder::ORDER_ONLY_VALUE : order, loc, "ReduceRepeat")
#define CBEMU_RDB_CALL                                                                                         \
    detail_reduce::block(detail_reduce::kind_of<reduceType>(), dst, src, m, repeatTime, dstRepStride,          \
                         srcBlkStride, srcRepStride, loc, "ReduceDataBlock")
#define CBEMU_RPE_CALL                                                                                         \
    static_assert(reduceType == ReduceType::SUM, "ReducePairElem supports ReduceType::SUM only");             \
    detail_reduce::pair_sum(dst, src, m, repeatTime, dstRepStride, srcBlkStride, srcRepStride, loc)
#define CBEMU_ORDER_PARAM , ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX

CBEMU_REDUCE_TYPED(ReduceRepeat, const uint64_t*, mask, CBEMU_ORDER_PARAM, CBEMU_RR_CALL)
CBEMU_REDUCE_TYPED(ReduceRepeat, const int32_t, (uint64_t)mask, CBEMU_ORDER_PARAM, CBEMU_RR_CALL)
CBEMU_REDUCE_TYPED(ReduceDataBlock, const uint64_t*, mask, , CBEMU_RDB_CALL)
CBEMU_REDUCE_TYPED(ReduceDataBlock, const int32_t, (uint64_t)mask, , CBEMU_RDB_CALL)
CBEMU_REDUCE_TYPED(ReducePairElem, const uint64_t*, mask, , CBEMU_RPE_CALL)
CBEMU_REDUCE_TYPED(ReducePairElem, const int32_t, (uint64_t)mask, , CBEMU_RPE_CALL)

#undef CBEMU_RR_CALL
#undef CBEMU_RDB_CALL
#undef CBEMU_RPE_CALL
#undef CBEMU_ORDER_PARAM
#undef CBEMU_REDUCE_TYPED

}  // namespace AscendC
