// Host shim (hand-written): context_ascendc::ContextBuilder, KernelRunContextHolder, OpTilingRegistry (tiling unit tests).
#pragma once
#include "../../impl/host/context_builder.h"
