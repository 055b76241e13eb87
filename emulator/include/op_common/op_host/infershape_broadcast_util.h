// Host shim (hand-written): the ops-base `op_common/op_host/infershape_broadcast_util.h` (Ops::Base::InferShape4Broadcast).
#pragma once
#include "../../impl/host/opbase.h"
