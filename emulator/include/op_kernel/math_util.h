// Kernel-side shim (hand-written): the ops-base `op_kernel/math_util.h` (Ops::Base CeilDiv / CeilAlign / FloorDiv / FloorAlign, constexpr).
#pragma once
#include "../impl/host/opbase_math.h"
