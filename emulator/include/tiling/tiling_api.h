// Host-side tiling helpers of the high-level APIs (docs: SIMD-API/高阶API, the Get*TmpSize and *Tiling pages):
// TensorShape, the temporary-buffer size queries, and the library tiling structs.
//
// Temporary sizes. The emulated kernels compute in double and need no scratch, so these sizes only have to be
// plausible for the sample's own UB budget. Each op is modelled as keeping `k` float-sized intermediate values
// per element ("live nodes", the docs' GetXxxTmpBufferFactorSize notion): maxValue = align32(k * 4 * N),
// minValue = min(maxValue, k * 256) (one 256-byte repeat per live node), N = the shape's element count.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "../impl/host/ge_types.h"
#include "../impl/host/using_std.h"
#include "../register/tilingdata_base.h"
#include "platform/platform_ascendc.h"
#include "hl_tiling_types.h"


namespace AscendC {
using TensorShape = ge::Shape;

namespace cbemu_tiling {
inline uint32_t elems(const ge::Shape& s) {
    int64_t n = s.GetShapeSize();
    return n > 0 ? (uint32_t)n : 0;
}
inline uint32_t align32(uint64_t b) { return (uint32_t)((b + 31) / 32 * 32); }
inline void sizes(const ge::Shape& s, uint32_t k, uint32_t& maxValue, uint32_t& minValue) {
    maxValue = align32((uint64_t)k * 4 * elems(s));
    if (maxValue < 256u * k) maxValue = 256u * k;
    minValue = 256u * k;
}
}  // namespace cbemu_tiling

// bool GetXxxMaxMinTmpSize(shape, typeSize, isReuseSource, maxValue, minValue), optionally with a platform first,
// and GetXxxTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf).
#define CBEMU_TMP_API(NAME, K)                                                                                    \
    inline bool Get##NAME##MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource, \
                                         uint32_t& maxValue, uint32_t& minValue) {                                \
        (void)typeSize; (void)isReuseSource;                                                                      \
        cbemu_tiling::sizes(srcShape, K, maxValue, minValue);                                                     \
        return true;                                                                                              \
    }                                                                                                             \
    inline bool Get##NAME##MaxMinTmpSize(const platform_ascendc::PlatformAscendC&, const ge::Shape& srcShape,     \
                                         const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,   \
                                         uint32_t& minValue) {                                                    \
        return Get##NAME##MaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);                   \
    }                                                                                                             \
    inline void Get##NAME##TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,               \
                                               uint32_t& extraBuf) {                                              \
        maxLiveNodeCount = (K) * 4 / (typeSize ? typeSize : 4);                                                   \
        extraBuf = 0;                                                                                             \
    }
CBEMU_TMP_API(Acosh, 2) CBEMU_TMP_API(Asinh, 2) CBEMU_TMP_API(Atanh, 2) CBEMU_TMP_API(Acos, 3)
CBEMU_TMP_API(Asin, 3) CBEMU_TMP_API(Atan, 3) CBEMU_TMP_API(Cosh, 2) CBEMU_TMP_API(Sinh, 2) CBEMU_TMP_API(Tanh, 2)
CBEMU_TMP_API(Cos, 3) CBEMU_TMP_API(Tan, 3) CBEMU_TMP_API(Ceil, 1) CBEMU_TMP_API(Floor, 1)
CBEMU_TMP_API(Trunc, 1) CBEMU_TMP_API(Round, 1) CBEMU_TMP_API(Rint, 1) CBEMU_TMP_API(Frac, 1) CBEMU_TMP_API(Erf, 3)
CBEMU_TMP_API(Erfc, 3) CBEMU_TMP_API(Sign, 1) CBEMU_TMP_API(Log, 1) CBEMU_TMP_API(Exp, 3) CBEMU_TMP_API(Sigmoid, 2)
CBEMU_TMP_API(GeGLU, 3) CBEMU_TMP_API(ReGlu, 2) CBEMU_TMP_API(Fmod, 3) CBEMU_TMP_API(Xor, 1) CBEMU_TMP_API(Hypot, 2)
CBEMU_TMP_API(Fma, 1) CBEMU_TMP_API(Clamp, 1) CBEMU_TMP_API(Axpy, 2) CBEMU_TMP_API(Digamma, 4)
CBEMU_TMP_API(Lgamma, 4) CBEMU_TMP_API(IsFinite, 1) CBEMU_TMP_API(CumSum, 2)

// Spellings with a different argument order or name.
inline void GetSiluTmpSize(const ge::Shape& s, const uint32_t, const bool, uint32_t& maxValue, uint32_t& minValue) {
    cbemu_tiling::sizes(s, 2, maxValue, minValue);
}
inline void GetSwishTmpSize(const ge::Shape& s, const uint32_t, const bool, uint32_t& maxValue, uint32_t& minValue) {
    cbemu_tiling::sizes(s, 2, maxValue, minValue);
}
inline bool GetSwiGLUMaxMinTmpSize(const ge::Shape& s, const uint32_t, uint32_t& maxValue, uint32_t& minValue,
                                   const bool isReuseSource = false) {
    (void)isReuseSource;
    cbemu_tiling::sizes(s, 3, maxValue, minValue);
    return true;
}
inline void GetSwiGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    maxLiveNodeCount = 12 / (typeSize ? typeSize : 4);
    extraBuf = 0;
}
inline uint32_t GetGeluMaxTmpSize(const ge::Shape& s, const uint32_t) {
    uint32_t mx, mn;
    cbemu_tiling::sizes(s, 2, mx, mn);
    return mx;
}
inline uint32_t GetGeluMinTmpSize(const ge::Shape& s, const uint32_t) {
    uint32_t mx, mn;
    cbemu_tiling::sizes(s, 2, mx, mn);
    return mn;
}
inline void GetGeluMaxMinTmpSize(const ge::Shape& s, const uint32_t, uint32_t& maxValue, uint32_t& minValue) {
    cbemu_tiling::sizes(s, 2, maxValue, minValue);
}
// Power: shapes of base and exponent (a scalar side has shape {1}); typeIsInt selects the integer path.
inline bool GetPowerMaxMinTmpSize(const ge::Shape& s0, const ge::Shape& s1, const bool typeIsInt,
                                  const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                                  uint32_t& minValue) {
    (void)typeIsInt; (void)typeSize; (void)isReuseSource;
    cbemu_tiling::sizes(cbemu_tiling::elems(s0) >= cbemu_tiling::elems(s1) ? s0 : s1, 4, maxValue, minValue);
    return true;
}

}  // namespace AscendC

// ---- SoftMax family ----
namespace AscendC {
namespace cbemu_tiling {
// [m, k]: k the last dim, m the product of the others.
inline void mk(const ge::Shape& s, uint32_t& m, uint32_t& k) {
    size_t n = s.GetDimNum();
    k = n ? (uint32_t)s.GetDim(n - 1) : 0;
    m = 1;
    for (size_t i = 0; i + 1 < n; ++i) m *= (uint32_t)s.GetDim(i);
    if (n == 0) m = 0;
}
// Scratch for one row block: the row values in float plus one 32-byte block per row for the reductions.
inline uint32_t softmax_tmp(const ge::Shape& s, bool whole) {
    uint32_t m, k;
    mk(s, m, k);
    uint32_t rows = whole ? m : (m < 8 ? m : 8);
    return align32((uint64_t)rows * (k * 4 + 64) + 256);
}
inline void fill_softmax(const ge::Shape& s, uint32_t typeSize, tiling::SoftMaxTiling& t) {
    uint32_t m, k;
    mk(s, m, k);
    uint32_t blk = 32 / (typeSize ? typeSize : 4);
    t.srcM = m; t.srcK = k; t.srcSize = m * k;
    t.outMaxM = m; t.outMaxK = blk; t.outMaxSize = m * blk;
    t.splitM = m; t.splitK = k; t.splitSize = m * k;
    t.reduceM = m; t.reduceK = blk; t.reduceSize = m * blk;
    t.rangeM = 1; t.tailM = 0; t.tailSplitSize = 0; t.tailReduceSize = 0;
}
}  // namespace cbemu_tiling

inline uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& s, const uint32_t, const bool) { return cbemu_tiling::softmax_tmp(s, true); }
inline uint32_t GetSoftMaxMinTmpSize(const ge::Shape& s, const uint32_t, const bool) { return cbemu_tiling::softmax_tmp(s, false); }
inline void SoftMaxTilingFunc(const ge::Shape& s, const uint32_t dataTypeSize, const uint32_t, tiling::SoftMaxTiling& t) {
    cbemu_tiling::fill_softmax(s, dataTypeSize, t);
}
inline bool IsBasicBlockInSoftMax(tiling::SoftMaxTiling& t, const uint32_t dataTypeSize = 2) {
    uint32_t minK = 256 / (dataTypeSize ? dataTypeSize : 2);
    return t.srcK < 2048 && t.srcK >= minK && t.srcK % 64 == 0 && t.srcM % 8 == 0;
}
inline uint32_t GetLogSoftMaxMaxTmpSize(const ge::Shape s, const uint32_t, const bool) { return cbemu_tiling::softmax_tmp(s, true); }
inline uint32_t GetLogSoftMaxMinTmpSize(const ge::Shape s, const uint32_t, const bool) { return cbemu_tiling::softmax_tmp(s, false); }
inline void LogSoftMaxTilingFunc(const ge::Shape s, const uint32_t dataTypeSize, const uint32_t, tiling::LogSoftMaxTiling& t) {
    cbemu_tiling::fill_softmax(s, dataTypeSize, t);
}
inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const ge::Shape& s, const uint32_t, const uint32_t, const bool, const bool = false,
                                            const bool = false) {
    return cbemu_tiling::softmax_tmp(s, true);
}
inline uint32_t GetSoftMaxFlashV2MinTmpSize(const ge::Shape& s, const uint32_t, const uint32_t, const bool, const bool = false,
                                            const bool = false) {
    return cbemu_tiling::softmax_tmp(s, false);
}
inline void SoftMaxFlashV2TilingFunc(const ge::Shape& s, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                     const uint32_t, tiling::SoftMaxTiling& t, const bool, const bool = false,
                                     const bool = false) {
    cbemu_tiling::fill_softmax(s, dataTypeSize2 ? dataTypeSize2 : dataTypeSize1, t);
}
inline uint32_t GetSoftMaxGradMaxTmpSize(const ge::Shape& s, const uint32_t, const bool, const bool) {
    return cbemu_tiling::softmax_tmp(s, true);
}
inline uint32_t GetSoftMaxGradMinTmpSize(const ge::Shape& s, const uint32_t, const bool, const bool) {
    return cbemu_tiling::softmax_tmp(s, false);
}
inline void SoftMaxGradTilingFunc(const ge::Shape& s, const uint32_t dataTypeSize, const uint32_t,
                                  tiling::SoftMaxTiling& t, const bool isFront = false) {
    (void)isFront;
    cbemu_tiling::fill_softmax(s, dataTypeSize, t);
}
}  // namespace AscendC

// ---- data types, reductions, filters, shape ops ----
namespace AscendC {
using TensorDataType = ge::DataType;

CBEMU_TMP_API(DropOut, 2)

inline void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t, const bool, uint32_t& maxValue, uint32_t& minValue) {
    cbemu_tiling::sizes(ge::Shape({(int64_t)n}), 1, maxValue, minValue);
}
inline void GetMeanMaxMinTmpSize(const uint32_t n, const uint32_t, const uint32_t, const bool, uint32_t& maxValue,
                                 uint32_t& minValue) {
    cbemu_tiling::sizes(ge::Shape({(int64_t)n}), 1, maxValue, minValue);
}
inline void GetCumSumMaxMinTmpSize(const ge::Shape& s, const uint32_t, const bool isLastAxis, const bool,
                                   uint32_t& maxValue, uint32_t& minValue) {
    (void)isLastAxis;
    cbemu_tiling::sizes(s, 2, maxValue, minValue);
}
#define CBEMU_REDUCE_TMP(NAME)                                                                                     \
    inline void Get##NAME##MaxMinTmpSize(const ge::Shape& s, const TensorDataType, ReducePattern, bool, bool,       \
                                         uint32_t& maxValue, uint32_t& minValue) {                                 \
        cbemu_tiling::sizes(s, 1, maxValue, minValue);                                                             \
    }
CBEMU_REDUCE_TMP(ReduceMax) CBEMU_REDUCE_TMP(ReduceMin) CBEMU_REDUCE_TMP(ReduceSum) CBEMU_REDUCE_TMP(ReduceMean)
CBEMU_REDUCE_TMP(ReduceProd) CBEMU_REDUCE_TMP(ReduceAny) CBEMU_REDUCE_TMP(ReduceAll)
#undef CBEMU_REDUCE_TMP
inline void GetSelectMaxMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape, const uint32_t,
                                   const ge::Shape&, const uint32_t, const bool, uint32_t& maxValue, uint32_t& minValue) {
    cbemu_tiling::sizes(cbemu_tiling::elems(src0Shape) >= cbemu_tiling::elems(src1Shape) ? src0Shape : src1Shape, 1,
                        maxValue, minValue);
}
inline void GetBroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC&, const ge::Shape&, const ge::Shape& dstShape,
                                      uint32_t, const bool, uint32_t& maxValue, uint32_t& minValue) {
    cbemu_tiling::sizes(dstShape, 1, maxValue, minValue);
}
inline void GetArangeMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue) { maxValue = minValue = 0; }
}  // namespace AscendC

#include "../securec.h"  // CANN's tiling headers bring securec along; host tiling code calls memcpy_s


// ---- quantization ----
namespace AscendC {
inline void GetAscendQuantMaxMinTmpSize(const ge::Shape& s, const uint32_t, uint32_t& maxValue, uint32_t& minValue) {
    cbemu_tiling::sizes(s, 2, maxValue, minValue);
}
inline void GetQuantizeMaxMinTmpSize(const ge::Shape& s, const uint32_t, uint32_t& maxValue, uint32_t& minValue) {
    cbemu_tiling::sizes(s, 2, maxValue, minValue);
}
inline void GetAscendDequantMaxMinTmpSize(const ge::Shape& s, const uint32_t, uint32_t& maxValue, uint32_t& minValue) {
    cbemu_tiling::sizes(s, 2, maxValue, minValue);
}
inline void GetDequantizeMaxMinTmpSize(const ge::Shape& s, const uint32_t, uint32_t& maxValue, uint32_t& minValue) {
    cbemu_tiling::sizes(s, 2, maxValue, minValue);
}
inline void GetAscendAntiQuantMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape&, bool, TensorDataType,
                                            TensorDataType, uint32_t& maxValue, uint32_t& minValue) {
    cbemu_tiling::sizes(srcShape, 2, maxValue, minValue);
}
inline void GetAntiQuantizeMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape&, bool, TensorDataType,
                                         TensorDataType, uint32_t& maxValue, uint32_t& minValue) {
    cbemu_tiling::sizes(srcShape, 2, maxValue, minValue);
}
}  // namespace AscendC
#undef CBEMU_TMP_API

// ---- LayerNorm / LayerNormGrad / LayerNormGradBeta / DeepNorm ([B, S, H]) ----
namespace AscendC {
namespace cbemu_tiling {
template <typename Tl>
inline void bsh(const ge::Shape& s, const ge::Shape& orig, Tl& t) {
    t.bLength = (uint32_t)s.GetDim(0);
    t.sLength = (uint32_t)s.GetDim(1);
    t.hLength = (uint32_t)s.GetDim(2);
    t.originalHLength = orig.GetDimNum() >= 3 ? (uint32_t)orig.GetDim(2) : t.hLength;
}
}  // namespace cbemu_tiling
#define CBEMU_NORM_TMP(NAME, K)                                                                                     \
    inline void Get##NAME##MaxMinTmpSize(const ge::Shape& s, const uint32_t, const bool, uint32_t& maxValue,        \
                                         uint32_t& minValue) {                                                      \
        cbemu_tiling::sizes(s, K, maxValue, minValue);                                                              \
    }
CBEMU_NORM_TMP(LayerNorm, 2) CBEMU_NORM_TMP(LayerNormGrad, 3) CBEMU_NORM_TMP(LayerNormGradBeta, 2)
#undef CBEMU_NORM_TMP
inline void GetLayerNormMaxMinTmpSize(const ge::Shape& s, const uint32_t, const bool, const bool, const bool,
                                      uint32_t& maxValue, uint32_t& minValue) {
    cbemu_tiling::sizes(s, 2, maxValue, minValue);
}
inline void GetLayerNormNDTilingInfo(const ge::Shape& s, const uint32_t stackBufferSize, const uint32_t, const bool,
                                     tiling::LayerNormTiling& t) {
    cbemu_tiling::bsh(s, s, t);
    t.inputXSize = t.bLength * t.sLength * t.hLength;
    t.meanVarSize = t.bLength * t.sLength;
    t.tmpBufSize = stackBufferSize / 4;
    t.loopRound = 1;
    t.bshCurLength = t.inputXSize;
    t.bsCurLength = t.meanVarSize;
    t.lastDimValueBack = t.originalHLength ? 1.0f / (float)t.originalHLength : 0.0f;
}
inline void GetLayerNormGradNDTilingInfo(const ge::Shape s, const uint32_t stackBufferSize, const uint32_t, const bool,
                                         tiling::LayerNormGradTiling& t) {
    cbemu_tiling::bsh(s, s, t);
    t.stackBufferSize = stackBufferSize;
    t.loopNum = 1;
    t.oneCalSize = t.bLength * t.sLength * t.hLength;
}
inline void GetLayerNormGradBetaNDTilingInfo(const ge::Shape s, const uint32_t stackBufferSize, const uint32_t,
                                             const bool, tiling::LayerNormGradBetaTiling& t) {
    cbemu_tiling::bsh(s, s, t);
    t.stackBufferSize = stackBufferSize;
    t.bshLength = t.bLength * t.sLength * t.hLength;
    t.bsLength = t.bLength * t.sLength;
    t.loopRound = 1;
}
inline bool GetDeepNormMaxMinTmpSize(const ge::Shape& s, const uint32_t, const bool, const bool, uint32_t& maxValue,
                                     uint32_t& minValue) {
    cbemu_tiling::sizes(s, 2, maxValue, minValue);
    return true;
}
inline bool GetDeepNormTilingInfo(const ge::Shape& s, const ge::Shape& orig, const uint32_t stackBufferSize,
                                  const uint32_t typeSize, const bool isReuseSource, const bool,
                                  tiling::DeepNormTiling& t) {
    GetLayerNormNDTilingInfo(s, stackBufferSize, typeSize, isReuseSource, t);
    cbemu_tiling::bsh(s, orig, t);
    t.lastDimValueBack = t.originalHLength ? 1.0f / (float)t.originalHLength : 0.0f;
    return true;
}
}  // namespace AscendC

namespace AscendC {
inline void GetWelfordUpdateMaxMinTmpSize(const ge::Shape& s, const uint32_t, const uint32_t, const bool, const bool,
                                          uint32_t& maxValue, uint32_t& minValue) {
    cbemu_tiling::sizes(s, 2, maxValue, minValue);
}
inline void GetWelfordFinalizeMaxMinTmpSize(const ge::Shape& s, const uint32_t, const bool, uint32_t& maxValue,
                                            uint32_t& minValue) {
    cbemu_tiling::sizes(s, 2, maxValue, minValue);
}
}  // namespace AscendC

// ---- Pad / UnPad ([height, width]) ----
namespace AscendC {
inline void GetPadMaxMinTmpSize(const ge::Shape& s, const uint32_t, uint32_t& maxValue, uint32_t& minValue) {
    cbemu_tiling::sizes(s, 1, maxValue, minValue);
}
inline void PadTilingFunc(const ge::Shape s, const ge::Shape oriS, const uint32_t stackBufferSize, const uint32_t,
                          tiling::PadTiling& t) {
    t.srcHeight = (uint32_t)s.GetDim(0);
    t.srcWidth = (uint32_t)s.GetDim(1);
    t.srcOriWidth = oriS.GetDimNum() >= 2 ? (uint32_t)oriS.GetDim(1) : t.srcWidth;
    t.tmpBufSize = stackBufferSize;
}
inline void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC&, const ge::Shape& s, const uint32_t,
                                  uint32_t& maxValue, uint32_t& minValue) {
    cbemu_tiling::sizes(s, 1, maxValue, minValue);
}
inline void UnPadTilingFunc(const ge::Shape s, const uint32_t stackBufferSize, const uint32_t, tiling::UnPadTiling& t) {
    t.srcHeight = (uint32_t)s.GetDim(0);
    t.srcWidth = (uint32_t)s.GetDim(1);
    t.tmpBufSize = stackBufferSize;
}
}  // namespace AscendC

// ---- TopK ----
namespace AscendC {
inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC&, const int32_t inner, const int32_t outter,
                           const int32_t k, const uint32_t dataTypeSize, const bool, TopKMode, const bool isLargest,
                           tiling::TopkTiling& t) {
    t.inner = (uint32_t)inner;
    t.outter = (uint32_t)outter;
    t.k = (uint32_t)k;
    uint32_t epb = 32 / (dataTypeSize ? dataTypeSize : 4);
    t.kAlign = (t.k + epb - 1) / epb * epb;
    t.isLargest = isLargest ? 1 : 0;
    return true;
}
inline bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC&, const int32_t inner, const int32_t outter,
                                 const bool, const bool, TopKMode, const bool, const uint32_t, uint32_t& maxValue,
                                 uint32_t& minValue) {
    cbemu_tiling::sizes(ge::Shape({(int64_t)inner, (int64_t)outter}), 4, maxValue, minValue);
    return true;
}
}  // namespace AscendC

// ---- Transpose (ConfusionTranspose) ----
namespace AscendC {
inline void GetTransposeMaxMinTmpSize(const ge::Shape& s, const uint32_t, const uint32_t, uint32_t& maxValue,
                                      uint32_t& minValue) {
    cbemu_tiling::sizes(s, 1, maxValue, minValue);
}
inline void GetConfusionTransposeMaxMinTmpSize(const ge::Shape& s, const uint32_t typeSize, const uint32_t type,
                                               uint32_t& maxValue, uint32_t& minValue) {
    GetTransposeMaxMinTmpSize(s, typeSize, type, maxValue, minValue);
}
inline void GetTransposeTilingInfo(const ge::Shape& s, const uint32_t stackBufferSize, const uint32_t typeSize,
                                   const uint32_t transposeTypeIn, tiling::ConfusionTransposeTiling& t) {
    uint32_t* f = &t.param0;
    for (size_t i = 0; i < 4; ++i) f[i] = i < s.GetDimNum() ? (uint32_t)s.GetDim(i) : 1;
    t.param4 = (uint32_t)s.GetDimNum();
    t.param5 = stackBufferSize;
    t.param6 = typeSize;
    t.param7 = transposeTypeIn;
}
inline void GetConfusionTransposeTilingInfo(const ge::Shape& s, const uint32_t stackBufferSize, const uint32_t typeSize,
                                            const uint32_t transposeTypeIn, tiling::ConfusionTransposeTiling& t) {
    GetTransposeTilingInfo(s, stackBufferSize, typeSize, transposeTypeIn, t);
}
inline void GetConfusionTransposeOnlyTilingInfo(const ge::Shape& s, const uint32_t stackBufferSize,
                                                const uint32_t typeSize, tiling::ConfusionTransposeTiling& t) {
    GetTransposeTilingInfo(s, stackBufferSize, typeSize, 7, t);
}
}  // namespace AscendC

// ---- Sort ----
namespace AscendC {
inline void GetSortMaxMinTmpSize(const ge::Shape& s, TensorDataType, TensorDataType, bool, const SortConfig&,
                                 uint32_t& maxValue, uint32_t& minValue) {
    cbemu_tiling::sizes(s, 2, maxValue, minValue);
}
}  // namespace AscendC

// ---- RmsNorm, [A, R] LayerNorm, Normalize ----
namespace AscendC {
inline bool GetRmsNormMaxMinTmpSize(const ge::Shape& s, const uint32_t, uint32_t& maxValue, uint32_t& minValue,
                                    const bool = false) {
    cbemu_tiling::sizes(s, 1, maxValue, minValue);
    return true;
}
inline bool GetRmsNormTilingInfo(const ge::Shape& s, const ge::Shape& orig, const uint32_t stackBufferByteSize,
                                 const uint32_t, tiling::RmsNormTiling& t, const bool = false) {
    cbemu_tiling::bsh(s, orig, t);
    t.reciprocalOfHLength = t.originalHLength ? 1.0f / (float)t.originalHLength : 0.0f;
    t.mainBshLength = t.bLength * t.sLength * t.hLength;
    t.mainBsLength = t.bLength * t.sLength;
    t.mainBsLengthAlign = (t.mainBsLength + 7) / 8 * 8;
    t.loopRound = 1;
    (void)stackBufferByteSize;
    return true;
}
inline void GetLayerNormNDTilingInfo(const ge::Shape& s, const uint32_t stackBufferSize, const uint32_t, const bool,
                                     const bool, tiling::LayerNormSeparateTiling& t) {
    uint32_t a = 1;
    for (size_t i = 0; i + 1 < s.GetDimNum(); ++i) a *= (uint32_t)s.GetDim(i);
    t.aLength = a;
    t.rLength = s.GetDimNum() ? (uint32_t)s.GetDim(s.GetDimNum() - 1) : 0;
    t.inputXSize = t.aLength * t.rLength;
    t.meanVarSize = t.aLength;
    t.tmpBufSize = stackBufferSize / 4;
    t.loopRound = 1;
    t.arCurLength = t.inputXSize;
    t.aCurLength = t.aLength;
    t.rValueBack = t.rLength ? 1.0f / (float)t.rLength : 0.0f;
}
inline void GetNormalizeMaxMinTmpSize(const ge::Shape& s, const uint32_t, const uint32_t, const bool, const bool,
                                      const bool, uint32_t& maxValue, uint32_t& minValue) {
    cbemu_tiling::sizes(s, 2, maxValue, minValue);
}
}  // namespace AscendC

// ---- BatchNorm / GroupNorm ----
namespace AscendC {
inline bool GetBatchNormMaxMinTmpSize(const ge::Shape& s, const ge::Shape&, const uint32_t, const bool,
                                      uint32_t& maxValue, uint32_t& minValue, const bool = false) {
    cbemu_tiling::sizes(s, 3, maxValue, minValue);
    return true;
}
inline bool GetBatchNormNDTilingInfo(const ge::Shape& s, const ge::Shape& orig, const uint32_t stackBufferByteSize,
                                     const uint32_t, const bool, tiling::BatchNormTiling& t, const bool = false) {
    const ge::Shape& o = orig.GetDimNum() >= 3 ? orig : s;
    t.originalBLength = (uint32_t)o.GetDim(0);
    t.meanVarSize = (uint32_t)(s.GetDim(1) * s.GetDim(2));
    t.tmpBufSize = stackBufferByteSize / 4;
    t.loopRound = 1;
    t.bshCurLength = t.originalBLength * t.meanVarSize;
    t.shCurLength = t.meanVarSize;
    t.firstDimValueBack = t.originalBLength ? 1.0f / (float)t.originalBLength : 0.0f;
    return true;
}
inline void GetGroupNormMaxMinTmpSize(const ge::Shape& s, const uint32_t, const bool, const uint32_t,
                                      uint32_t& maxValue, uint32_t& minValue) {
    cbemu_tiling::sizes(s, 3, maxValue, minValue);
}
inline void GetGroupNormNDTilingInfo(const ge::Shape& s, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool, const uint32_t groupNum, tiling::GroupNormTiling& t) {
    t.n = (uint32_t)s.GetDim(0);
    t.c = (uint32_t)s.GetDim(1);
    t.hw = 1;
    for (size_t i = 2; i < s.GetDimNum(); ++i) t.hw *= (uint32_t)s.GetDim(i);
    t.g = groupNum;
    t.d = groupNum ? t.c / groupNum : 0;
    uint32_t epb = 32 / (typeSize ? typeSize : 4);
    t.hwAlignSize = (t.hw + epb - 1) / epb * epb;
    t.dhwAlignSize = t.d * t.hwAlignSize;
    t.inputXSize = t.n * t.c * t.hwAlignSize;
    t.meanVarSize = t.n * t.g;
    t.tmpBufSize = stackBufferSize / 4;
    t.loopRound = 1;
    t.factor = (t.d * t.hw) ? 1.0f / (float)(t.d * t.hw) : 0.0f;
}
}  // namespace AscendC
#include "matmul_tiling.h"
