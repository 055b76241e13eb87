// Host shim (hand-written): the op prototype registry (OpDef, OP_ADD) with the gert contexts and ge types it uses.
#pragma once
#include "../impl/host/op_def.h"
#include "../impl/host/log.h"
#include "../securec.h"  // CANN's register headers bring securec along (host code calls memset_s unannounced)
