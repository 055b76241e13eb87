// Address-space and function qualifiers of the device compiler: nothing on the CPU.
#pragma once
#include <cstdint>
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __global__
#define __global__
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef __vector__
#define __vector__
#endif
#ifndef __cube__
#define __cube__
#endif
#ifndef __inline__
#define __inline__ inline
#endif
// The device compiler's forced inlining (`__forceinline__ [aicore] void f()`, Catlass-style code; cotbuilder's op
// build turns `[aicore]` into __aicore__): plain inline on the CPU.
#ifndef __forceinline__
#define __forceinline__ inline
#endif
// A mixed AIC/AIV kernel (`__global__ __mix__(1, 2) void k(...)`): the attribute starts the function with
// 8 + 4 * aic + aiv no-op instructions, which the launch counts at the kernel's address to learn the ratio
// (emu/cores.h). (A named section would be the obvious marker, but g++ drops it for template kernels.)
#ifndef __mix__
#define __mix__(aic, aiv) __attribute__((patchable_function_entry(8 + 4 * (aic) + (aiv), 0)))
#endif
#ifndef __kfc_workspace__
#define __kfc_workspace__
#endif
#ifndef __inout_pipe__
#define __inout_pipe__(x)
#endif
// Branch hints the toolkit's kernel macros define (kernels write `if (unlikely(n == 0))`).
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
#ifndef GM_ADDR
#define GM_ADDR __gm__ uint8_t*
#endif
#ifndef ASCENDC_CPU_DEBUG
#define ASCENDC_CPU_DEBUG 1
#endif

// A scalar type name the device compiler provides to kernels (kernels spell `float32_t` for float).
using float32_t = float;
