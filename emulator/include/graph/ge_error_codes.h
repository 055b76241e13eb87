// Host shim (hand-written): ge::graphStatus and its codes.
#pragma once
#include "../impl/host/ge_types.h"
