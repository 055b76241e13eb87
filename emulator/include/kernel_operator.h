// cotbuilder CPU emulator of the AscendC C++ API: the single umbrella header (precompile this one).
// Clean-room: written from the public API documentation.
#ifndef COTBUILDER_KERNEL_OPERATOR_H
#define COTBUILDER_KERNEL_OPERATOR_H
#include <cassert>  // the device toolchain makes assert available to kernels
#include "impl/emu/qualifiers.h"
#include "impl/emu/fp.h"
#include "impl/basic_api/types.h"
#include "impl/emu/runtime.h"
#include "impl/basic_api/tensor.h"
#include "impl/basic_api/pipe.h"
#include "impl/basic_api/datacopy.h"
#include "impl/emu/vec_core.h"
#include "impl/basic_api/vec.h"
#include "impl/basic_api/vec_cmp_reduce.h"
#include "impl/basic_api/vec_extra.h"
#include "impl/basic_api/misc.h"
#include "impl/emu/launch.h"
#include "impl/basic_api/sync.h"
#include "impl/basic_api/debug.h"
#include "impl/basic_api/reduce.h"
#include "impl/basic_api/rearrange.h"
#include "impl/basic_api/gather.h"
#include "impl/basic_api/sort.h"
#include "impl/adv_api/all.h"
#include "impl/basic_api/transpose.h"
#include "impl/basic_api/slice.h"
#include "impl/basic_api/cube_types.h"
#include "impl/basic_api/cube.h"
#include "impl/basic_api/cube_datamove.h"
#include "impl/basic_api/cross_core.h"
#include "register/tilingdata_base.h"
#include "acl/acl.h"
#endif  // COTBUILDER_KERNEL_OPERATOR_H
