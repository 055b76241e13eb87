// The toolkit's utility header (AscendCUtils, the register helpers) as a CANN install puts it on the kernel include
// path, bare (`#include "kernel_utils.h"`; NPUKernelBench's DeepNormGrad and AddLayerNormGrad include it). What it
// declares that kernels use is in the emulator's umbrella header.
#pragma once
#include "kernel_operator.h"
