// Host shim (hand-written): gert contexts (infer_shape_range_context).
#pragma once
#include "../../impl/host/contexts.h"
