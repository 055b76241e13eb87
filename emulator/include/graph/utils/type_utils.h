// Host shim (hand-written): ge::TypeUtils.
#pragma once
#include "../../impl/host/ge_types.h"
