// Host shim (hand-written): TilingRegistry and REGISTER_TILING_TEMPLATE.
#pragma once
#include "../impl/host/op_impl.h"
#include "../impl/host/tiling_base.h"
