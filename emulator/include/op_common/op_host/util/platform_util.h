// Host shim (hand-written): the ops-base `op_common/op_host/util/platform_util.h` (Ops::Base GetUbBlockSize, GetVRegSize, GetCacheLineSize, GetAivCoreNum, IsRegbaseSocVersion).
#pragma once
#include "../../../impl/host/opbase.h"
