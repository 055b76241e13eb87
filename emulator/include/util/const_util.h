// Host shim (hand-written): the ops-base `util/const_util.h` (Ops::Base GetConstInt, GetConstIntToShape, GetValueToShape).
#pragma once
#include "../impl/host/opbase.h"
