// Host shim (hand-written): the ops-base `util/math_util.h` (Ops::Base CeilDiv / FloorDiv / CeilAlign / FloorAlign).
#pragma once
#include "../impl/host/opbase.h"
