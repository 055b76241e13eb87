// Tiling of axpy_fp32.
#ifndef AXPY_FP32_TILING_H
#define AXPY_FP32_TILING_H
#include <cstdint>

struct AxpyFp32Tiling {
    uint32_t totalLength;  // elements, any value
    uint32_t tileLength;   // elements per tile, multiple of 8
    float alpha;           // z = alpha * x + y
};

#endif // AXPY_FP32_TILING_H
