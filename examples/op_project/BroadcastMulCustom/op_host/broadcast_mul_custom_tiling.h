#ifndef BROADCAST_MUL_CUSTOM_TILING_H
#define BROADCAST_MUL_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BroadcastMulCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rows);           // N
    TILING_DATA_FIELD_DEF(uint32_t, cols);           // C, the length of the broadcast vector
    TILING_DATA_FIELD_DEF(uint32_t, colsAligned);    // C rounded up to 32 bytes
    TILING_DATA_FIELD_DEF(uint32_t, formerCoreNum);
    TILING_DATA_FIELD_DEF(uint32_t, formerRows);
    TILING_DATA_FIELD_DEF(uint32_t, tailRows);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BroadcastMulCustom, BroadcastMulCustomTilingData)
} // namespace optiling
#endif // BROADCAST_MUL_CUSTOM_TILING_H
