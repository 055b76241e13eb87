// Host shim (hand-written): gert contexts (kernel_context).
#pragma once
#include "../../impl/host/contexts.h"
