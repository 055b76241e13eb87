// Host shim (hand-written): TilingBaseClass (the tiling template framework).
#pragma once
#include "../impl/host/op_impl.h"
#include "../impl/host/tiling_base.h"
