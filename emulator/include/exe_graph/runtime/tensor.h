// Host shim (hand-written): gert runtime value types (tensor).
#pragma once
#include "../../impl/host/gert_types.h"
