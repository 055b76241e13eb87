// Host shim (hand-written): TilingRegistry and REGISTER_TILING_TEMPLATE.
#pragma once
#include "../impl/host/op_impl.h"
#include "../impl/host/tiling_base.h"
// The template's GetPlatformInfo step reads PlatformAscendC, and op hosts that include only this header use it
// (an NPUKernelBench answer that ran on chips does): the toolkit's header brings it along.
#include "platform/platform_ascendc.h"
