// Host shim (hand-written): tiling template programming (ASCENDC_TPL_*, GET_TPL_TILING_KEY).
#pragma once
#include "../../../impl/host/tpl.h"
