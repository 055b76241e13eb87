// Host shim (hand-written): gert runtime value types (continuous_vector).
#pragma once
#include "../../impl/host/gert_types.h"
