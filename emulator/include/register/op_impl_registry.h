// Host shim (hand-written): IMPL_OP / IMPL_OP_OPTILING / IMPL_OP_INFERSHAPE and gert::OpImplRegisterV2.
#pragma once
#include "../impl/host/op_impl.h"
