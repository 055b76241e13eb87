// The older CANN spelling of the Matmul tiling header (lib/matrix/matmul/tiling.h; asc-devkit moved it to
// adv_api/matmul/tiling.h, which lib/matmul/tiling.h forwards): attention kernels include it after lib/matmul_intf.h
// for MatmulConfig / GetNormalConfig. Hand-written: the generator forwards only paths in asc-devkit's tree.
#pragma once
#include "../../matmul/tiling.h"
