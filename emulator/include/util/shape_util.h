// Host shim (hand-written): the ops-base `util/shape_util.h` (Ops::Base ToString, EnsureNotScalar, unknown rank / shape helpers).
#pragma once
#include "../impl/host/opbase.h"
