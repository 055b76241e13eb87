// Host shim (hand-written): the ops-base `infershape_elewise_util.h` (Ops::Base::InferShape4Elewise).
#pragma once
#include "impl/host/opbase.h"
