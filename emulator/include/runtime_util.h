// Host shim (hand-written): `runtime_util.h`, the op-proto helper header older op hosts include for their InferShape
// registrations (IMPL_OP_INFERSHAPE(Op).InferShape(InferShape4Elewise)): the op impl registry, the log and check
// macros, and the element-wise / broadcast InferShape of the ops-base shim, reachable as ops::.
#pragma once
#include "impl/host/log.h"
#include "impl/host/opbase.h"
#include "register/op_impl_registry.h"

namespace ops {
using Ops::Base::InferShape4Broadcast;
using Ops::Base::InferShape4Elewise;
}  // namespace ops
