// Host shim (hand-written): the error-manager report macros (REPORT_INNER_ERR_MSG, REPORT_INNER_ERROR,
// REPORT_CALL_ERROR), logged as errors under their error code.
#pragma once
#include "../impl/host/log.h"
