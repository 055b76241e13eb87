// Host shim (hand-written): gert contexts (tiling_context).
#pragma once
#include "../../impl/host/contexts.h"
