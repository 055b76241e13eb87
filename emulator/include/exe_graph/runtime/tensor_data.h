// Host shim (hand-written): gert runtime value types (tensor_data).
#pragma once
#include "../../impl/host/gert_types.h"
