#ifndef MATMUL_BIAS_CUSTOM_TILING_H
#define MATMUL_BIAS_CUSTOM_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulBiasCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, M);
    TILING_DATA_FIELD_DEF(uint32_t, N);
    TILING_DATA_FIELD_DEF(uint32_t, K);
    // Block sizes, core split and L1/L0 staging chosen by the Matmul tiling library.
    TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTilingData);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulBiasCustom, MatmulBiasCustomTilingData)
} // namespace optiling
#endif // MATMUL_BIAS_CUSTOM_TILING_H
