// Tiling of leaky_relu_fp32.
#ifndef LEAKY_RELU_FP32_TILING_H
#define LEAKY_RELU_FP32_TILING_H
#include <cstdint>

struct LeakyReluFp32Tiling {
    uint32_t totalLength;  // elements, any value
    uint32_t tileLength;   // elements per tile, multiple of 8
    float negativeSlope;   // y = slope * x where x < 0
};

#endif // LEAKY_RELU_FP32_TILING_H
