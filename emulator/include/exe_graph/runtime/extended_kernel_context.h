// Host shim (hand-written): gert contexts (extended_kernel_context).
#pragma once
#include "../../impl/host/contexts.h"
