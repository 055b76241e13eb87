// Tiling of scale_shift_fp16: sizes and the two scalars of y = x * scale + shift.
#ifndef SCALE_SHIFT_FP16_TILING_H
#define SCALE_SHIFT_FP16_TILING_H
#include <cstdint>

struct ScaleShiftFp16Tiling {
    uint32_t blockLength;  // elements per core, a multiple of tileLength
    uint32_t tileLength;   // elements per tile, a multiple of 16
    float scale;
    float shift;
};

#endif // SCALE_SHIFT_FP16_TILING_H
