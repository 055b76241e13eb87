// Host shim (hand-written): gert runtime value types (storage_format).
#pragma once
#include "../../impl/host/gert_types.h"
