// Host shim (hand-written): the ops-base `op_common/op_host/tiling_base_class.h` (Ops::Base::TilingBaseClass).
#pragma once
#include "../../impl/host/opbase.h"
