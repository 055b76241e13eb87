// Host shim (hand-written): the ops error/log macros (OPS_CHECK, OPS_LOG_*, OPS_REPORT_*).
#pragma once
#include "../impl/host/log.h"
#include "../impl/host/ge_types.h"
