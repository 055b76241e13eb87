// Host shim (hand-written): AiCoreParams, AlignUp / CeilDiv helpers (tiling code utilities).
#pragma once
#include "../impl/host/tiling_type.h"
