// Host shim (hand-written): op host logging and check macros (OP_LOGE, OP_CHECK_IF, OP_TILING_CHECK ...).
#pragma once
#include "../impl/host/log.h"
#include "../impl/host/opbase.h"  // the ops-base log header brings Ops::Base (ToString ...) along
