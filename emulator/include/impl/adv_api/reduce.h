// High-level reductions and index/shape helpers (docs: SIMD-API/高阶API/归约操作, 索引计算, 数学计算/CumSum,
// 张量变换/Broadcast, 数据过滤/DropOut and Select): sums accumulate in double and round once.
#pragma once
#include <vector>

#include "core.h"

namespace AscendC {

// ---- Sum: per row of [outter, inner] (inner padded to 32 bytes), the sum of the first n elements ----
struct SumParams {
    uint32_t outter = 1;
    uint32_t inner = 0;
    uint32_t n = 0;
};
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
void Sum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const SumParams& p, CBEMU_LOC) {
    if (!cbemu::check_count(src, (int64_t)p.outter * p.inner, loc, "Sum") ||
        !cbemu::check_count(dst, (int64_t)p.outter, loc, "Sum"))
        return;
    for (uint32_t i = 0; i < p.outter; ++i) {
        double s = 0;
        for (uint32_t j = 0; j < p.n; ++j) s += cbemu::to_double(src.addr_[(uint64_t)i * p.inner + j]);
        if constexpr (std::is_integral<T>::value) dst.addr_[i] = (T)(int64_t)s;
        else dst.addr_[i] = T(s);
    }
}
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
void Sum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp, const SumParams& p,
         CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "Sum");
    Sum<T, reduceDim, isReuseSource, isBasicBlock>(dst, src, p, loc);
}

// ---- Mean: per row of [outter, inner] (inner padded to 32 bytes), the mean of the first n elements ----
struct MeanParams {
    uint32_t outter = 1;
    uint32_t inner = 0;
    uint32_t n = 0;
};
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
void Mean(const LocalTensor<T>& dst, const LocalTensor<T>& src, const MeanParams& p, CBEMU_LOC) {
    if (!cbemu::check_count(src, (int64_t)p.outter * p.inner, loc, "Mean") ||
        !cbemu::check_count(dst, (int64_t)p.outter, loc, "Mean"))
        return;
    for (uint32_t i = 0; i < p.outter; ++i) {
        double s = 0;
        for (uint32_t j = 0; j < p.n; ++j) s += cbemu::to_double(src.addr_[(uint64_t)i * p.inner + j]);
        dst.addr_[i] = T(p.n ? s / p.n : 0.0);
    }
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
void Mean(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp, const MeanParams& p,
          CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "Mean");
    Mean<T, accType, isReuseSource, isBasicBlock, reduceDim>(dst, src, p, loc);
}

// ---- Reduce<Op> with a 2-D pattern: AR reduces each row, RA each column ----
namespace Pattern {
namespace Reduce {
struct AR { static constexpr bool rowwise = true; };
struct RA { static constexpr bool rowwise = false; };
}  // namespace Reduce
}  // namespace Pattern

namespace cbemu_hl {
template <typename T, typename P, typename Init, typename Step, typename Fin>
inline void reduce2d(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t shape[], bool innerPad,
                     Init init, Step step, Fin fin, const cbemu::SrcLoc& loc, const char* api) {
    uint32_t rows = shape[0], cols = shape[1];
    // the inner axis lies padded to 32 bytes in UB when srcInnerPad says so
    uint32_t epb = 32 / sizeof(T);
    uint32_t stride = innerPad ? (cols + epb - 1) / epb * epb : cols;
    uint32_t nout = P::rowwise ? rows : cols;
    if (!cbemu::check_count(src, (int64_t)(rows ? (rows - 1) : 0) * stride + cols, loc, api) ||
        !cbemu::check_count(dst, (int64_t)nout, loc, api))
        return;
    std::vector<double> acc(nout, init());
    for (uint32_t i = 0; i < rows; ++i)
        for (uint32_t j = 0; j < cols; ++j) {
            double v = cbemu::to_double(src.addr_[(uint64_t)i * stride + j]);
            double& a = acc[P::rowwise ? i : j];
            a = step(a, v);
        }
    uint32_t cnt = P::rowwise ? cols : rows;
    for (uint32_t o = 0; o < nout; ++o) {
        double r = fin(acc[o], cnt);
        if constexpr (std::is_integral<T>::value) dst.addr_[o] = (T)(int64_t)r;
        else dst.addr_[o] = T(r);
    }
}
}  // namespace cbemu_hl

#define CBEMU_HL_REDUCE(NAME, INIT, STEP, FIN)                                                                    \
    template <class T, class pattern, bool isReuseSource = false>                                                 \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t srcShape[], bool srcInnerPad,  \
              CBEMU_LOC) {                                                                                        \
        cbemu_hl::reduce2d<T, pattern>(dst, src, srcShape, srcInnerPad, [] { return (double)(INIT); },           \
                                       [](double a, double v) { return (STEP); },                                \
                                       [](double a, uint32_t n) { (void)n; return (FIN); }, loc, #NAME);          \
    }                                                                                                             \
    template <class T, class pattern, bool isReuseSource = false>                                                 \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,              \
              const uint32_t srcShape[], bool srcInnerPad, CBEMU_LOC) {                                           \
        cbemu::hl_tmp(tmp, loc, #NAME);                                                                           \
        NAME<T, pattern, isReuseSource>(dst, src, srcShape, srcInnerPad, loc);                                    \
    }
CBEMU_HL_REDUCE(ReduceMax, -INFINITY, (v > a || std::isnan(v)) ? v : a, a)
CBEMU_HL_REDUCE(ReduceMin, INFINITY, (v < a || std::isnan(v)) ? v : a, a)
CBEMU_HL_REDUCE(ReduceSum, 0.0, a + v, a)
CBEMU_HL_REDUCE(ReduceMean, 0.0, a + v, n ? a / n : 0.0)
CBEMU_HL_REDUCE(ReduceProd, 1.0, a * v, a)
CBEMU_HL_REDUCE(ReduceAny, 0.0, (a != 0 || v != 0) ? 1.0 : 0.0, a)
CBEMU_HL_REDUCE(ReduceAll, 1.0, (a != 0 && v != 0) ? 1.0 : 0.0, a)
#undef CBEMU_HL_REDUCE

// ---- CumSum over the last axis (each row of [outter, inner]) or the first axis (down each column) ----
enum class CumSumAlgorithm { CUMSUM_ALGORITHM_LINEBYLINE = 0, CUMSUM_ALGORITHM_SKLANSKY = 1 };
struct CumSumConfig {
    bool isLastAxis{true};
    bool isReuseSource{false};
    bool outputLastRow{false};
    CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};
inline constexpr CumSumConfig defaultCumSumConfig = {};
struct CumSumInfo {
    uint32_t outter{0};
    uint32_t inner{0};
};
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
void CumSum(const LocalTensor<T>& dst, const LocalTensor<T>& lastRow, const LocalTensor<T>& src,
            const CumSumInfo& info, CBEMU_LOC) {
    uint32_t R = info.outter, C = info.inner;
    if (!cbemu::check_count(src, (int64_t)R * C, loc, "CumSum") || !cbemu::check_count(dst, (int64_t)R * C, loc, "CumSum"))
        return;
    // each partial sum is rounded to T as the hardware stores it line by line
    if (config.isLastAxis) {
        for (uint32_t i = 0; i < R; ++i) {
            T acc = T(0);
            for (uint32_t j = 0; j < C; ++j) {
                acc = T(cbemu::to_double(acc) + cbemu::to_double(src.addr_[(uint64_t)i * C + j]));
                dst.addr_[(uint64_t)i * C + j] = acc;
            }
        }
        if (config.outputLastRow && cbemu::check_count(lastRow, (int64_t)R, loc, "CumSum"))
            for (uint32_t i = 0; i < R; ++i) lastRow.addr_[i] = dst.addr_[(uint64_t)i * C + C - 1];
    } else {
        for (uint32_t j = 0; j < C; ++j) {
            T acc = T(0);
            for (uint32_t i = 0; i < R; ++i) {
                acc = T(cbemu::to_double(acc) + cbemu::to_double(src.addr_[(uint64_t)i * C + j]));
                dst.addr_[(uint64_t)i * C + j] = acc;
            }
        }
        if (config.outputLastRow && R && cbemu::check_count(lastRow, (int64_t)C, loc, "CumSum"))
            for (uint32_t j = 0; j < C; ++j) lastRow.addr_[j] = dst.addr_[(uint64_t)(R - 1) * C + j];
    }
}
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
void CumSum(const LocalTensor<T>& dst, const LocalTensor<T>& lastRow, const LocalTensor<T>& src,
            const LocalTensor<uint8_t>& tmp, const CumSumInfo& info, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "CumSum");
    CumSum<T, config>(dst, lastRow, src, info, loc);
}

// ---- Arange: dst[i] = first + i * diff ----
template <typename T>
void Arange(const LocalTensor<T>& dst, const T firstValue, const T diffValue, const int32_t count, CBEMU_LOC) {
    if (!cbemu::check_count(dst, count, loc, "Arange")) return;
    double a = cbemu::to_double(firstValue), d = cbemu::to_double(diffValue);
    for (int32_t i = 0; i < count; ++i) {
        if constexpr (std::is_integral<T>::value) dst.addr_[i] = (T)(firstValue + (T)i * diffValue);
        else dst.addr_[i] = T(a + (double)i * d);
    }
}
// ArithProgression: Arange's name before CANN 9 (same parameters; the toolkit still declares it in its impl layer).
template <typename T>
void ArithProgression(const LocalTensor<T>& dst, const T firstValue, const T diffValue, const int32_t count,
                      CBEMU_LOC) {
    Arange(dst, firstValue, diffValue, count, loc);
}

// ---- Broadcast of a dim-D tensor along one axis (or every size-1 axis) to dstShape ----
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dstShape[dim],
               const uint32_t srcShape[dim], CBEMU_LOC) {
    static_assert(dim >= 1 && dim <= 8, "Broadcast: dim out of range");
    uint64_t nd = 1, ns = 1;
    for (int d = 0; d < dim; ++d) { nd *= dstShape[d]; ns *= srcShape[d]; }
    if (!cbemu::check_count(dst, (int64_t)nd, loc, "Broadcast") || !cbemu::check_count(src, (int64_t)ns, loc, "Broadcast"))
        return;
    std::vector<T> in(src.addr_, src.addr_ + ns);  // src may overlap dst
    uint32_t idx[8] = {0};
    for (uint64_t o = 0; o < nd; ++o) {
        uint64_t rem = o, si = 0;
        for (int d = dim - 1; d >= 0; --d) { idx[d] = (uint32_t)(rem % dstShape[d]); rem /= dstShape[d]; }
        for (int d = 0; d < dim; ++d) si = si * srcShape[d] + (srcShape[d] == 1 ? 0 : idx[d]);
        dst.addr_[o] = in[si];
    }
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dstShape[dim],
               const uint32_t srcShape[dim], const LocalTensor<uint8_t>& tmp, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "Broadcast");
    Broadcast<T, dim, axis, isReuseSource>(dst, src, dstShape, srcShape, loc);
}
// BroadCast: the name CANN 8.0.0 documented for Broadcast (same template parameters and arguments)
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void BroadCast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dstShape[dim],
               const uint32_t srcShape[dim], CBEMU_LOC) {
    Broadcast<T, dim, axis, isReuseSource>(dst, src, dstShape, srcShape, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void BroadCast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dstShape[dim],
               const uint32_t srcShape[dim], const LocalTensor<uint8_t>& tmp, CBEMU_LOC) {
    Broadcast<T, dim, axis, isReuseSource>(dst, src, dstShape, srcShape, tmp, loc);
}

// ---- DropOut: dst = mask ? src / keepProb : 0; byte mask (one uint8 per element) or bit mask ----
struct DropOutShapeInfo {
    DropOutShapeInfo() {}
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
void DropOut(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& mask,
             const float keepProb, const DropOutShapeInfo& info, CBEMU_LOC) {
    uint32_t R = info.firstAxis, C = info.srcLastAxis, MC = info.maskLastAxis;
    // byte mode when the mask row holds one byte per element, else one bit per element
    bool bitMode = MC < C;
    if (!cbemu::check_count(src, (int64_t)R * C, loc, "DropOut") || !cbemu::check_count(dst, (int64_t)R * C, loc, "DropOut"))
        return;
    if (!cbemu::check_count(mask, (int64_t)R * MC, loc, "DropOut"))
        return;
    double scale = 1.0 / keepProb;
    for (uint32_t i = 0; i < R; ++i)
        for (uint32_t j = 0; j < C; ++j) {
            bool keep;
            if (bitMode) {
                uint64_t b = (uint64_t)i * MC * 8 + j;
                keep = (mask.addr_[b / 8] >> (b % 8)) & 1;
            } else {
                keep = mask.addr_[(uint64_t)i * MC + j] != 0;
            }
            uint64_t p = (uint64_t)i * C + j;
            dst.addr_[p] = keep ? T(cbemu::to_double(src.addr_[p]) * scale) : T(0);
        }
}
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
void DropOut(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& mask,
             const LocalTensor<uint8_t>& tmp, const float keepProb, const DropOutShapeInfo& info, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "DropOut");
    DropOut<T, isInitBitMode, dropOutMode>(dst, src, mask, keepProb, info, loc);
}

// ---- Select with a byte mask: mask == 0 takes src0, else src1; one side may be a scalar ----
struct SelectWithBytesMaskShapeInfo {
    SelectWithBytesMaskShapeInfo() {}
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};
namespace cbemu_hl {
template <typename T, typename A, typename B, typename U>
inline void select_bytes(const LocalTensor<T>& dst, const A& a, const B& b, const LocalTensor<U>& mask,
                         const SelectWithBytesMaskShapeInfo& info, const cbemu::SrcLoc& loc) {
    uint32_t R = info.firstAxis, C = info.srcLastAxis, MC = info.maskLastAxis;
    if (!cbemu::hl_check(dst, R * C, loc, "Select") || !cbemu::hl_check(a, R * C, loc, "Select") ||
        !cbemu::hl_check(b, R * C, loc, "Select") || !cbemu::check_count(mask, (int64_t)R * MC, loc, "Select"))
        return;
    std::vector<T> out((size_t)R * C);
    for (uint32_t i = 0; i < R; ++i)
        for (uint32_t j = 0; j < C; ++j) {
            uint32_t p = i * C + j;
            out[p] = mask.addr_[(uint64_t)i * MC + j] == 0 ? T(cbemu::hl_at(a, p)) : T(cbemu::hl_at(b, p));
        }
    for (size_t p = 0; p < out.size(); ++p) dst.addr_[p] = out[p];
}
}  // namespace cbemu_hl
template <typename T, typename U, bool isReuseMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1, const LocalTensor<U>& mask,
            const LocalTensor<uint8_t>& tmp, const SelectWithBytesMaskShapeInfo& info, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "Select");
    cbemu_hl::select_bytes(dst, src0, src1, mask, info, loc);
}
template <typename T, typename U, bool isReuseMask = true>
void Select(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1, const LocalTensor<U>& mask,
            const LocalTensor<uint8_t>& tmp, const SelectWithBytesMaskShapeInfo& info, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "Select");
    cbemu_hl::select_bytes(dst, src0, src1, mask, info, loc);
}
// SelectWithBytesMask: the toolkit's implementation-layer name of the two Selects above, which its
// adv_api/select/selectwithbytesmask.h brings into AscendC (cann-ops and NPUKernelBench kernels call it): the same
// operation, the same arguments.
template <typename T, typename U, bool isReuseMask = true>
void SelectWithBytesMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1, const LocalTensor<U>& mask,
                         const LocalTensor<uint8_t>& tmp, const SelectWithBytesMaskShapeInfo& info, CBEMU_LOC) {
    Select<T, U, isReuseMask>(dst, src0, src1, mask, tmp, info, loc);
}
template <typename T, typename U, bool isReuseMask = true>
void SelectWithBytesMask(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1, const LocalTensor<U>& mask,
                         const LocalTensor<uint8_t>& tmp, const SelectWithBytesMaskShapeInfo& info, CBEMU_LOC) {
    Select<T, U, isReuseMask>(dst, src0, src1, mask, tmp, info, loc);
}

}  // namespace AscendC
