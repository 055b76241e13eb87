#ifndef AXPBY_CUSTOM_TILING_H
#define AXPBY_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AxpbyCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);
    TILING_DATA_FIELD_DEF(uint32_t, blockLength);     // elements per core, a whole number of 32-byte blocks
    TILING_DATA_FIELD_DEF(uint32_t, lastBlockLength); // the last core's share
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);
    TILING_DATA_FIELD_DEF(float, alpha);
    TILING_DATA_FIELD_DEF(float, beta);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AxpbyCustom, AxpbyCustomTilingData)
} // namespace optiling
#endif // AXPBY_CUSTOM_TILING_H
