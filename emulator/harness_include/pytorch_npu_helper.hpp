// Harness shim (hand-written): EXEC_NPU_CMD on the emulated aclnn layer (cotbuilder/npu_helper.h).
#pragma once
#include "cotbuilder/npu_helper.h"
