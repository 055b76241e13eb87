#ifndef FLOAT_TO_HALF_SCALE_TILING_H
#define FLOAT_TO_HALF_SCALE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(FloatToHalfScaleTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);
    TILING_DATA_FIELD_DEF(uint32_t, blockLength);      // multiple of 16 so both float and half offsets stay aligned
    TILING_DATA_FIELD_DEF(uint32_t, lastBlockLength);
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);
    TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(FloatToHalfScale, FloatToHalfScaleTilingData)
} // namespace optiling
#endif // FLOAT_TO_HALF_SCALE_TILING_H
