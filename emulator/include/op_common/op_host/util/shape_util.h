// Host shim (hand-written): the ops-base `op_common/op_host/util/shape_util.h` (Ops::Base ToString, EnsureNotScalar, unknown rank / shape helpers).
#pragma once
#include "../../../impl/host/opbase.h"
