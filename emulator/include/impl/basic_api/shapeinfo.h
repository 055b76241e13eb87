// ShapeInfo and DataFormat (docs: SIMD-API/基础API/辅助数据结构/ShapeInfo): the shape record the library APIs
// (RmsNorm, SoftmaxFlashV3, AscendAntiQuant, ...) and tensors' SetShapeInfo/GetShapeInfo exchange.
#pragma once
#include <cstdint>

namespace AscendC {

enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D };

constexpr uint32_t K_MAX_DIM = 8;

struct ShapeInfo {
    ShapeInfo() {}
    ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[], const uint8_t inputOriginalShapeDim,
              const uint32_t inputOriginalShape[], const DataFormat inputFormat)
        : shapeDim(clamp(inputShapeDim)), originalShapeDim(clamp(inputOriginalShapeDim)), dataFormat(inputFormat) {
        for (uint8_t i = 0; i < shapeDim; ++i) shape[i] = inputShape[i];
        for (uint8_t i = 0; i < originalShapeDim; ++i) originalShape[i] = inputOriginalShape[i];
    }
    ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[], const DataFormat inputFormat)
        : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, inputFormat) {}
    ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[])
        : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, DataFormat::ND) {}
    uint8_t shapeDim = 0;
    uint8_t originalShapeDim = 0;
    uint32_t shape[K_MAX_DIM] = {};
    uint32_t originalShape[K_MAX_DIM] = {};
    DataFormat dataFormat = DataFormat::ND;

private:
    static uint8_t clamp(uint8_t d) { return d > K_MAX_DIM ? (uint8_t)K_MAX_DIM : d; }
};

// The product of all dims (0 for a shape without dims).
inline int GetShapeSize(const ShapeInfo& s) {
    if (s.shapeDim == 0) return 0;
    int n = 1;
    for (uint8_t i = 0; i < s.shapeDim; ++i) n *= (int)s.shape[i];
    return n;
}

}  // namespace AscendC
