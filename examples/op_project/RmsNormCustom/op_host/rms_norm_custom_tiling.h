#ifndef RMS_NORM_CUSTOM_TILING_H
#define RMS_NORM_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RmsNormCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rows);
    TILING_DATA_FIELD_DEF(uint32_t, cols);           // normalised (last) axis
    TILING_DATA_FIELD_DEF(uint32_t, colsAligned);    // UB row size, 32-byte multiple
    TILING_DATA_FIELD_DEF(uint32_t, formerCoreNum);  // cores that take formerRows rows
    TILING_DATA_FIELD_DEF(uint32_t, formerRows);
    TILING_DATA_FIELD_DEF(uint32_t, tailRows);       // rows of each remaining core
    TILING_DATA_FIELD_DEF(float, epsilon);
    TILING_DATA_FIELD_DEF(float, invCols);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RmsNormCustom, RmsNormCustomTilingData)
} // namespace optiling
#endif // RMS_NORM_CUSTOM_TILING_H
