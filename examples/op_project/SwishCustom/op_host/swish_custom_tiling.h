#ifndef SWISH_CUSTOM_TILING_H
#define SWISH_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SwishCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);
    TILING_DATA_FIELD_DEF(uint32_t, blockLength);     // elements per core, 32-byte multiple
    TILING_DATA_FIELD_DEF(uint32_t, lastBlockLength); // remainder taken by the last core
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);
    TILING_DATA_FIELD_DEF(float, beta);               // swish(x) = x * sigmoid(beta * x)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SwishCustom, SwishCustomTilingData)
} // namespace optiling
#endif // SWISH_CUSTOM_TILING_H
