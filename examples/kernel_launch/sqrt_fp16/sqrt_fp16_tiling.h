// Tiling of sqrt_fp16.
#ifndef SQRT_FP16_TILING_H
#define SQRT_FP16_TILING_H
#include <cstdint>

struct SqrtFp16Tiling {
    uint32_t totalLength;  // elements, any value
    uint32_t tileLength;   // elements per tile, a multiple of 16 (32 bytes of half)
};

#endif // SQRT_FP16_TILING_H
