// Host shim (hand-written): gert runtime value types (runtime_attrs).
#pragma once
#include "../../impl/host/gert_types.h"
