#ifndef LOG_SOFTMAX_CUSTOM_TILING_H
#define LOG_SOFTMAX_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LogSoftmaxCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rows);
    TILING_DATA_FIELD_DEF(uint32_t, cols);          // softmax axis (last)
    TILING_DATA_FIELD_DEF(uint32_t, colsAligned);   // UB row pitch
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);   // every core but the last
    TILING_DATA_FIELD_DEF(uint32_t, lastCoreRows);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LogSoftmaxCustom, LogSoftmaxCustomTilingData)
} // namespace optiling
#endif // LOG_SOFTMAX_CUSTOM_TILING_H
