// Host shim (hand-written): the ops-base `op_common/op_host/util/opbase_export.h` (the ops-base export macro (nothing to export here)).
#pragma once
#include "../../../impl/host/opbase.h"
