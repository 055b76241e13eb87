// Host shim (hand-written): gert runtime value types (shape).
#pragma once
#include "../../impl/host/gert_types.h"
