#ifndef HARD_SIGMOID_CUSTOM_TILING_H
#define HARD_SIGMOID_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HardSigmoidCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, blockLength);      // elements of every core but the last
    TILING_DATA_FIELD_DEF(uint32_t, lastBlockLength);
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(HardSigmoidCustom, HardSigmoidCustomTilingData)
} // namespace optiling
#endif // HARD_SIGMOID_CUSTOM_TILING_H
