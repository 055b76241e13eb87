// Host shim (hand-written): gert::OpImplRegisterV2 and the op-implementation registry.
#pragma once
#include "../impl/host/op_impl.h"
