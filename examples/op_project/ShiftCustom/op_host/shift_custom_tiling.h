#ifndef SHIFT_CUSTOM_TILING_H
#define SHIFT_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ShiftCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);
    TILING_DATA_FIELD_DEF(uint32_t, blockLength);  // elements per core, a whole number of 32-byte blocks
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);   // elements per UB tile
    TILING_DATA_FIELD_DEF(float, shift);           // the attribute, handed to every core
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ShiftCustom, ShiftCustomTilingData)
} // namespace optiling
#endif // SHIFT_CUSTOM_TILING_H
