// cotbuilder CPU emulator of the AscendC C++ API: the single umbrella header (precompile this one).
// Clean-room: written from the public API documentation.
#ifndef COTBUILDER_KERNEL_OPERATOR_H
#define COTBUILDER_KERNEL_OPERATOR_H
#include "cotbuilder_emu/qualifiers.h"
#include "cotbuilder_emu/fp.h"
#include "cotbuilder_emu/types.h"
#include "cotbuilder_emu/runtime.h"
#include "cotbuilder_emu/tensor.h"
#include "cotbuilder_emu/pipe.h"
#include "cotbuilder_emu/datacopy.h"
#include "cotbuilder_emu/vec_core.h"
#include "cotbuilder_emu/vec.h"
#include "cotbuilder_emu/vec_cmp_reduce.h"
#include "cotbuilder_emu/vec_extra.h"
#include "cotbuilder_emu/misc.h"
#include "cotbuilder_emu/launch.h"
#include "cotbuilder_emu/basic_sync.h"
#include "cotbuilder_emu/basic_debug.h"
#include "cotbuilder_emu/basic_reduce.h"
#include "cotbuilder_emu/basic_rearrange.h"
#include "cotbuilder_emu/basic_gather.h"
#include "cotbuilder_emu/basic_sort.h"
#include "cotbuilder_emu/hl_all.h"
#include "cotbuilder_emu/basic_transpose.h"
#include "cotbuilder_emu/basic_slice.h"
#include "register/tilingdata_base.h"
#include "acl/acl.h"
#endif  // COTBUILDER_KERNEL_OPERATOR_H
