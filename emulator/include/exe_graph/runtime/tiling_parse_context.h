// Host shim (hand-written): gert contexts (tiling_parse_context).
#pragma once
#include "../../impl/host/contexts.h"
