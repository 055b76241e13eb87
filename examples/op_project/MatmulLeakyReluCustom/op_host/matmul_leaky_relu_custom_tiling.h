#ifndef MATMUL_LEAKY_RELU_CUSTOM_TILING_H
#define MATMUL_LEAKY_RELU_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulLeakyReluCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, M);
    TILING_DATA_FIELD_DEF(uint32_t, N);
    TILING_DATA_FIELD_DEF(uint32_t, K);
    TILING_DATA_FIELD_DEF(uint32_t, baseM);       // rows of one C tile (multiple of 32: two AIVs x 16)
    TILING_DATA_FIELD_DEF(uint32_t, baseN);       // columns of one C tile (multiple of 16)
    TILING_DATA_FIELD_DEF(uint32_t, baseK);       // K chunk staged through L1 / L0 (multiple of 16)
    TILING_DATA_FIELD_DEF(uint32_t, mTiles);
    TILING_DATA_FIELD_DEF(uint32_t, nTiles);
    TILING_DATA_FIELD_DEF(uint32_t, usedCoreNum); // logical cores (one AIC + two AIVs each)
    TILING_DATA_FIELD_DEF(float, alpha);          // leaky_relu(x) = x >= 0 ? x : alpha * x
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulLeakyReluCustom, MatmulLeakyReluCustomTilingData)
} // namespace optiling
#endif // MATMUL_LEAKY_RELU_CUSTOM_TILING_H
