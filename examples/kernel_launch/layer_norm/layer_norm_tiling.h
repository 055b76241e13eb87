// Tiling of layer_norm.
#ifndef LAYER_NORM_TILING_H
#define LAYER_NORM_TILING_H
#include <cstdint>

struct LayerNormRowTiling {
    uint32_t rows;         // rows of x, a multiple of the core count
    uint32_t cols;         // normalised (last) axis, a multiple of 8
    float epsilon;         // added to the variance
};

#endif // LAYER_NORM_TILING_H
