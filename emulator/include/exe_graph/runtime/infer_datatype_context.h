// Host shim (hand-written): gert contexts (infer_datatype_context).
#pragma once
#include "../../impl/host/contexts.h"
