#ifndef INDEX_SELECT_CUSTOM_TILING_H
#define INDEX_SELECT_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(IndexSelectCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, numRows);          // rows of the table x (axis 0)
    TILING_DATA_FIELD_DEF(uint32_t, rowLength);        // elements per row
    TILING_DATA_FIELD_DEF(uint32_t, rowLengthAligned); // UB row pitch, 32-byte multiple
    TILING_DATA_FIELD_DEF(uint32_t, numIndices);
    TILING_DATA_FIELD_DEF(uint32_t, indicesPerCore);   // every core but the last
    TILING_DATA_FIELD_DEF(uint32_t, lastCoreIndices);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);      // gathered rows written back per DataCopyPad
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(IndexSelectCustom, IndexSelectCustomTilingData)
} // namespace optiling
#endif // INDEX_SELECT_CUSTOM_TILING_H
