// Quantization library APIs (docs: SIMD-API/高阶API/量化操作): int8 quantize with scale/offset, dequantize of
// int32 results, anti-quantize of int8 weights. Per-tensor (scalar) and per-channel (a [n] / [1, n] tensor
// indexed by column) forms; the value is computed in double, rounded with the configured mode, saturated.
#pragma once
#include "core.h"

namespace AscendC {

struct AscendQuantConfig {
    uint32_t calcCount = 0;
    uint32_t offsetCount = 0;
    uint32_t scaleCount = 0;
    uint32_t workLocalSize = 0;
};
inline constexpr AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG = {0, 0, 0, 0};
enum class QuantizePolicy : int32_t { PER_TENSOR, PER_CHANNEL, PER_TOKEN, PER_GROUP };
struct QuantizeConfig {
    QuantizePolicy policy;
    bool hasOffset;
    RoundMode roundMode = RoundMode::CAST_RINT;
    int32_t kDim = 1;
};
struct QuantizeParams {
    uint32_t m;
    uint32_t n;
    uint32_t groupSize = 0;
};
enum class DequantizePolicy : int32_t { PER_TENSOR, PER_CHANNEL, PER_TOKEN, PER_GROUP };
struct DequantizeConfig {
    DequantizePolicy policy;
    bool hasOffset = false;
    int32_t kDim = 1;
};
struct DequantizeParams {
    uint32_t m;
    uint32_t n;
    uint32_t groupSize = 0;
};
enum class AntiQuantizePolicy : int32_t { PER_TENSOR, PER_CHANNEL, PER_TOKEN, PER_GROUP };
struct AntiQuantizeConfig {
    AntiQuantizePolicy policy;
    bool hasOffset;
    int32_t kDim = 1;
};
struct AntiQuantizeParams {
    uint32_t m;
    uint32_t n;
    uint32_t groupSize = 0;
};
struct DequantParams {
    uint32_t m;
    uint32_t n;
    uint32_t calCount;
};
enum class DeQuantMode { DEQUANT_WITH_SINGLE_ROW = 0, DEQUANT_WITH_MULTI_ROW };
struct AntiQuantShapeInfo {
    uint32_t offsetHeight = 0;
    uint32_t offsetWidth = 0;
    uint32_t scaleHeight = 0;
    uint32_t scaleWidth = 0;
};

namespace cbemu_hl {
// Per-channel parameter j of a [.., n] tensor, or a scalar.
template <typename S>
inline double qparam(const LocalTensor<S>& t, uint32_t j) { return cbemu::to_double(t.addr_[j]); }
template <typename S, typename std::enable_if<!cbemu::is_local_tensor<S>::value, int>::type = 0>
inline double qparam(const S& s, uint32_t) { return cbemu::to_double(s); }

template <typename D, typename S, typename F>
inline void rowcol(const LocalTensor<D>& dst, const LocalTensor<S>& src, uint32_t m, uint32_t n, F f,
                   const cbemu::SrcLoc& loc, const char* api) {
    if (!cbemu::check_count(dst, (int64_t)m * n, loc, api) || !cbemu::check_count(src, (int64_t)m * n, loc, api)) return;
    for (uint32_t i = 0; i < m; ++i)
        for (uint32_t j = 0; j < n; ++j) {
            uint64_t p = (uint64_t)i * n + j;
            dst.addr_[p] = f(cbemu::to_double(src.addr_[p]), j);
        }
}
}  // namespace cbemu_hl

// AscendQuant: dst = int8(rint(src * scale + offset)), per tensor.
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dst, const LocalTensor<T>& src, const float scale, const float offset,
                 const uint32_t calCount, CBEMU_LOC) {
    // as the vector unit does it: int8 is only converted from half, so the value goes to half first and
    // the multiply and the add are each rounded to half
    double s = scale, o = offset;
    cbemu::hl_map(dst, calCount, loc, "AscendQuant", [s, o](auto x) {
        half v = half(cbemu::to_double(half(cbemu::to_double(half((double)x))) * s) + o);
        return cbemu::convert<int8_t>(cbemu::to_double(v), RoundMode::CAST_RINT);
    }, src);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dst, const LocalTensor<T>& src, const float scale, const float offset,
                 CBEMU_LOC) {
    AscendQuant<T, isReuseSource, config>(dst, src, scale, offset, src.GetSize(), loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
                 const float scale, const float offset, const uint32_t calCount, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "AscendQuant");
    AscendQuant<T, isReuseSource, config>(dst, src, scale, offset, calCount, loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
                 const float scale, const float offset, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "AscendQuant");
    AscendQuant<T, isReuseSource, config>(dst, src, scale, offset, src.GetSize(), loc);
}

// Quantize: dst = round(src * scale [+ offset]) per tensor (scalars) or per channel (tensors over n).
template <const QuantizeConfig& config, typename DstT, typename SrcT, typename ScaleT, typename OffsetT>
void Quantize(const LocalTensor<DstT>& dst, const LocalTensor<SrcT>& src, const ScaleT& scale, const OffsetT& offset,
              const QuantizeParams& params, CBEMU_LOC) {
    static_assert(config.policy == QuantizePolicy::PER_TENSOR || config.policy == QuantizePolicy::PER_CHANNEL,
                  "cotbuilder emulator: Quantize PER_TOKEN/PER_GROUP are not emulated");
    cbemu_hl::rowcol(dst, src, params.m, params.n, [&](double x, uint32_t j) {
        double v = x * cbemu_hl::qparam(scale, j) + (config.hasOffset ? cbemu_hl::qparam(offset, j) : 0.0);
        return cbemu::convert<DstT>(v, config.roundMode);
    }, loc, "Quantize");
}
template <const QuantizeConfig& config, typename DstT, typename SrcT, typename ScaleT, typename OffsetT>
void Quantize(const LocalTensor<DstT>& dst, const LocalTensor<SrcT>& src, const ScaleT& scale, const OffsetT& offset,
              const LocalTensor<uint8_t>& tmp, const QuantizeParams& params, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "Quantize");
    Quantize<config>(dst, src, scale, offset, params, loc);
}

// Dequantize: dst = src * scale [+ offset].
template <const DequantizeConfig& config, typename DstT, typename SrcT, typename ScaleT, typename OffsetT>
void Dequantize(const LocalTensor<DstT>& dst, const LocalTensor<SrcT>& src, const ScaleT& scale, const OffsetT& offset,
                const DequantizeParams& params, CBEMU_LOC) {
    static_assert(config.policy == DequantizePolicy::PER_TENSOR || config.policy == DequantizePolicy::PER_CHANNEL,
                  "cotbuilder emulator: Dequantize PER_TOKEN/PER_GROUP are not emulated");
    cbemu_hl::rowcol(dst, src, params.m, params.n, [&](double x, uint32_t j) {
        return DstT(x * cbemu_hl::qparam(scale, j) + (config.hasOffset ? cbemu_hl::qparam(offset, j) : 0.0));
    }, loc, "Dequantize");
}
template <const DequantizeConfig& config, typename DstT, typename SrcT, typename ScaleT, typename OffsetT>
void Dequantize(const LocalTensor<DstT>& dst, const LocalTensor<SrcT>& src, const ScaleT& scale, const OffsetT& offset,
                const LocalTensor<uint8_t>& tmp, const DequantizeParams& params, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "Dequantize");
    Dequantize<config>(dst, src, scale, offset, params, loc);
}

// AntiQuantize: dst = (src [+ offset]) * scale.
template <const AntiQuantizeConfig& config, typename DstT, typename SrcT, typename ScaleT, typename OffsetT>
void AntiQuantize(const LocalTensor<DstT>& dst, const LocalTensor<SrcT>& src, const ScaleT& scale,
                  const OffsetT& offset, const AntiQuantizeParams& params, CBEMU_LOC) {
    static_assert(config.policy == AntiQuantizePolicy::PER_TENSOR || config.policy == AntiQuantizePolicy::PER_CHANNEL,
                  "cotbuilder emulator: AntiQuantize PER_TOKEN/PER_GROUP are not emulated");
    cbemu_hl::rowcol(dst, src, params.m, params.n, [&](double x, uint32_t j) {
        return DstT((x + (config.hasOffset ? cbemu_hl::qparam(offset, j) : 0.0)) * cbemu_hl::qparam(scale, j));
    }, loc, "AntiQuantize");
}
template <const AntiQuantizeConfig& config, typename DstT, typename SrcT, typename ScaleT, typename OffsetT>
void AntiQuantize(const LocalTensor<DstT>& dst, const LocalTensor<SrcT>& src, const ScaleT& scale,
                  const OffsetT& offset, const LocalTensor<uint8_t>& tmp, const AntiQuantizeParams& params, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "AntiQuantize");
    AntiQuantize<config>(dst, src, scale, offset, params, loc);
}

// AscendDequant: int32 [m, n] times a per-column deqScale (tensor) or a scalar.
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW, typename S>
void AscendDequant(const LocalTensor<dstT>& dst, const LocalTensor<int32_t>& src, const S& deqScale,
                   DequantParams params, CBEMU_LOC) {
    cbemu_hl::rowcol(dst, src, params.m, params.n,
                     [&](double x, uint32_t j) { return dstT(x * cbemu_hl::qparam(deqScale, j)); }, loc, "AscendDequant");
}
template <typename dstT, typename S>
void AscendDequant(const LocalTensor<dstT>& dst, const LocalTensor<int32_t>& src, const S& deqScale,
                   DequantParams params, CBEMU_LOC) {
    AscendDequant<dstT, int, DeQuantMode::DEQUANT_WITH_SINGLE_ROW>(dst, src, deqScale, params, loc);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW, typename S>
void AscendDequant(const LocalTensor<dstT>& dst, const LocalTensor<int32_t>& src, const S& deqScale,
                   const LocalTensor<uint8_t>& tmp, DequantParams params, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "AscendDequant");
    AscendDequant<dstT, scaleT, mode>(dst, src, deqScale, params, loc);
}

// AscendAntiQuant (not transposed): src [k, n], offset / scale per column n (tensors) or scalars.
template <typename InputDataType, typename OutputDataType, bool isTranspose, typename O, typename S>
inline void cbemu_antiquant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                            const O* offset, const S& scale, uint32_t k, const cbemu::SrcLoc& loc) {
    static_assert(!isTranspose, "cotbuilder emulator: transposed AscendAntiQuant is not emulated");
    uint32_t n = k ? src.GetSize() / k : 0;
    cbemu_hl::rowcol(dst, src, k, n, [&](double x, uint32_t j) {
        double shifted = x + (offset ? cbemu_hl::qparam(*offset, j) : 0.0);
        // a half result is computed in half: the shifted value is rounded before the scale multiplies it
        if constexpr (std::is_same<OutputDataType, half>::value) shifted = (double)(float)half(shifted);
        return OutputDataType(shifted * cbemu_hl::qparam(scale, j));
    }, loc, "AscendAntiQuant");
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const LocalTensor<OutputDataType>& offset, const LocalTensor<OutputDataType>& scale,
                     const LocalTensor<uint8_t>& tmp, const uint32_t k, const AntiQuantShapeInfo& = {}, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "AscendAntiQuant");
    cbemu_antiquant<InputDataType, OutputDataType, isTranspose>(dst, src, &offset, scale, k, loc);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const LocalTensor<OutputDataType>& scale, const LocalTensor<uint8_t>& tmp, const uint32_t k,
                     const AntiQuantShapeInfo& = {}, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "AscendAntiQuant");
    cbemu_antiquant<InputDataType, OutputDataType, isTranspose>(dst, src, (const OutputDataType*)nullptr, scale, k, loc);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const OutputDataType offset, const OutputDataType scale, const LocalTensor<uint8_t>& tmp,
                     const uint32_t k, const AntiQuantShapeInfo& = {}, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "AscendAntiQuant");
    cbemu_antiquant<InputDataType, OutputDataType, isTranspose>(dst, src, &offset, scale, k, loc);
}

}  // namespace AscendC
