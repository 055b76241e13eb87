#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ClampScalarTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);
    TILING_DATA_FIELD_DEF(uint32_t, tileNum);
    TILING_DATA_FIELD_DEF(float, lower);
    TILING_DATA_FIELD_DEF(float, upper);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ClampScalar, ClampScalarTilingData)
}
