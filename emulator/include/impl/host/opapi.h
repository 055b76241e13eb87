// The emulated op-api framework, whole: what every opdev/, aclnn_kernels/ and aclnnop/ header of this emulator
// includes (a hand-written aclnn layer includes a handful of them; they are one API).
#pragma once
#include "opapi_types.h"
#include "opapi_guard.h"
#include "opapi_executor.h"
#include "opapi_l0.h"
