// tikicpulib-compatible launch: ICPU_RUN_KF, GmAlloc/GmFree, ICPU_SET_TILING_KEY, SetKernelMode.
#pragma once
#include "kernel_operator.h"
