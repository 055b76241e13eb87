#ifndef FOREACH_MUL_SCALAR_LIST_CUSTOM_TILING_H
#define FOREACH_MUL_SCALAR_LIST_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
constexpr uint32_t MAX_LIST_TENSORS = 16;

BEGIN_TILING_DATA_DEF(ForeachMulScalarListCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, tensorNum);
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);                        // elements per UB tile
    TILING_DATA_FIELD_DEF_ARR(uint32_t, MAX_LIST_TENSORS, tensorLength);  // elements of each tensor
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ForeachMulScalarListCustom, ForeachMulScalarListCustomTilingData)
} // namespace optiling
#endif // FOREACH_MUL_SCALAR_LIST_CUSTOM_TILING_H
