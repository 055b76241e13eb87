// Host shim (hand-written): ge::Shape and the ge types.
#pragma once
#include "../impl/host/ge_types.h"
