// Hand-written: the toolkit's kernel_log.h (an internal header some kernels include directly): KERNEL_LOG and the
// ASCENDC_ASSERT family, which the emulator defines with the kernel API (impl/basic_api/debug.h).
#pragma once
#include "../kernel_operator.h"
