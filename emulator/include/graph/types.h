// Host shim (hand-written): ge::DataType, ge::Format.
#pragma once
#include "../impl/host/ge_types.h"
