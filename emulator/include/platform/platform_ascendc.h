// Host shim (hand-written): platform_ascendc::PlatformAscendC (the ops-base spelling of the path).
#pragma once
#include "../tiling/platform/platform_ascendc.h"
