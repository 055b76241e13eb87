// Host shim (hand-written): IMPL_OP / IMPL_OP_OPTILING / IMPL_OP_INFERSHAPE and gert::OpImplRegisterV2.
#pragma once
#include "../impl/host/op_impl.h"
#include "../securec.h"  // CANN's register headers bring securec along (host code calls memset_s unannounced)
