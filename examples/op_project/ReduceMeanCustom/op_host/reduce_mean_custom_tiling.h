#ifndef REDUCE_MEAN_CUSTOM_TILING_H
#define REDUCE_MEAN_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
constexpr uint32_t REDUCE_MEAN_MAX_CORES = 8;

BEGIN_TILING_DATA_DEF(ReduceMeanCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rows);         // product of all axes but the last
    TILING_DATA_FIELD_DEF(uint32_t, cols);         // length of the reduced (last) axis
    TILING_DATA_FIELD_DEF(uint32_t, colsAligned);  // cols rounded up to 32 bytes: the UB row pitch
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);  // rows moved per DataCopyPad
    TILING_DATA_FIELD_DEF(float, invCols);         // 1 / cols, multiplied once per tile
    // Rows do not divide evenly over cores, so each core gets its own start and count.
    TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, coreRowStart);
    TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, coreRowCount);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ReduceMeanCustom, ReduceMeanCustomTilingData)
} // namespace optiling
#endif // REDUCE_MEAN_CUSTOM_TILING_H
