// Host shim (hand-written): gert contexts (infer_shape_context).
#pragma once
#include "../../impl/host/contexts.h"
