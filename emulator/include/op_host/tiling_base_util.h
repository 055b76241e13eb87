// Host shim (hand-written): the ops-base `op_host/tiling_base_util.h` (Ops::Base tiling helpers (IsRegbaseSocVersion, GetUbBlockSize ...)).
#pragma once
#include "../impl/host/opbase.h"
