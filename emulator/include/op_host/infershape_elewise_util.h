// Host shim (hand-written): the ops-base `op_host/infershape_elewise_util.h` (Ops::Base::InferShape4Elewise).
#pragma once
#include "../impl/host/opbase.h"
