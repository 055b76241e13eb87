// Host shim (hand-written): the ops-base `infershape_broadcast_util.h` (Ops::Base::InferShape4Broadcast).
#pragma once
#include "impl/host/opbase.h"
