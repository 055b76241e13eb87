// Hand-written: the toolkit's basic_api/kernel_type.h, the kernel-side data-type codes (the numbering of
// ge::DataType, impl/host/ge_types.h) as macros, for kernels that switch on a dtype code, and the kernel API.
#pragma once
#include "../kernel_operator.h"

#ifndef DT_FLOAT
#define DT_FLOAT 0
#define DT_FLOAT16 1
#define DT_INT8 2
#define DT_INT32 3
#define DT_UINT8 4
#define DT_INT16 6
#define DT_UINT16 7
#define DT_UINT32 8
#define DT_INT64 9
#define DT_UINT64 10
#define DT_DOUBLE 11
#define DT_BOOL 12
#define DT_COMPLEX64 16
#define DT_COMPLEX128 17
#define DT_BF16 27
#endif
