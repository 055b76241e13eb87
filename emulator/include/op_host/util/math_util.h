// Host shim (hand-written): the ops-base `op_host/util/math_util.h` (Ops::Base CeilDiv / FloorDiv / CeilAlign / FloorAlign).
#pragma once
#include "../../impl/host/opbase.h"
