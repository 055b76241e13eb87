#ifndef MUL_ADD_CUSTOM_TILING_H
#define MUL_ADD_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MulAddCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);     // elements in every tensor
    TILING_DATA_FIELD_DEF(uint32_t, blockLength);     // elements per core (all cores but the last)
    TILING_DATA_FIELD_DEF(uint32_t, lastBlockLength); // elements handled by the last core
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);      // elements per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MulAddCustom, MulAddCustomTilingData)
} // namespace optiling
#endif // MUL_ADD_CUSTOM_TILING_H
