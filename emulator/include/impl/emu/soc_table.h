// GENERATED from cotbuilder/verify/data/socs.toml by `python -m cotbuilder.apidocs socs --write`;
// do not edit. The one table of per-SoC sizes (UB, L1, L0A/B/C bytes per core; cube and vector cores).
#pragma once
#include <cstdint>

namespace cbemu {

struct SocInfo {
    const char* name;
    const char* npu_arch;
    uint32_t ub_bytes;
    uint32_t l1_bytes;
    uint32_t l0a_bytes;
    uint32_t l0b_bytes;
    uint32_t l0c_bytes;
    uint32_t float_saturation;
    uint32_t aic_cores;
    uint32_t aiv_cores;
};

inline constexpr SocInfo kSocTable[] = {
    {"ascend910b", "dav-2201", 196608, 524288, 65536, 65536, 131072, 1, 24, 48},
    {"ascend310p", "dav-2002", 262144, 1048576, 65536, 65536, 262144, 0, 8, 8},
    {"ascend310b", "dav-3002", 253952, 1048576, 65536, 65536, 131072, 0, 1, 1},
};

}  // namespace cbemu
