// The high-level library APIs (kernel side), included by kernel_operator.h.
#pragma once
#include "../tiling/hl_tiling_types.h"
#include "hl_core.h"
#include "hl_math.h"
#include "hl_softmax.h"
#include "hl_reduce.h"
#include "hl_quant.h"
#include "hl_random.h"
#include "hl_norm.h"
#include "hl_pad.h"
#include "hl_sort.h"
#include "hl_transpose.h"
#include "hl_std.h"
