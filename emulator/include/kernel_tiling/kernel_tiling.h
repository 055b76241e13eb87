// Host shim (hand-written): the high-level API tiling structs as the kernel sees them, and the tiling-data macros.
#pragma once
#include "../tiling/hl_tiling_types.h"
#include "../register/tilingdata_base.h"
