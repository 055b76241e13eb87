#ifndef HARD_SWISH_CUSTOM_TILING_H
#define HARD_SWISH_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HardSwishCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);
    TILING_DATA_FIELD_DEF(uint32_t, blockLength);     // elements per core (a whole number of 32-byte blocks)
    TILING_DATA_FIELD_DEF(uint32_t, lastBlockLength); // what is left for the last core
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);      // elements per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(HardSwishCustom, HardSwishCustomTilingData)
} // namespace optiling
#endif // HARD_SWISH_CUSTOM_TILING_H
