// Host shim (hand-written): ge::AscendString.
#pragma once
#include "../impl/host/ge_types.h"
