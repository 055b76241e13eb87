// Kernel-side shim (hand-written): the ops-base `op_kernel/platform_util.h` (Ops::Base GetUbBlockSize / GetVRegSize, constexpr).
#pragma once
#include "../impl/host/opbase_math.h"
