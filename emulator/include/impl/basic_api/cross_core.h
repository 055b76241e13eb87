// The kernel-side API of mixed AIC/AIV kernels (emu/cores.h does the work): ASCEND_IS_AIC / ASCEND_IS_AIV,
// KERNEL_TASK_TYPE_DEFAULT / KERNEL_TASK_TYPE, CrossCoreSetFlag / CrossCoreWaitFlag (docs: 同步控制/核间同步/
// CrossCoreSetFlag(ISASI).md, CrossCoreWaitFlag(ISASI).md; Kernel-Tiling/设置Kernel类型.md).
#pragma once
#include <cstdint>

#include "../emu/mixed.h"
#include "types.h"

// The core-type constants and the kernel's own core type (impl/utils: sys_constants.h, sys_macros.h), which kernels
// test directly (`if (g_coreType == AIC) return;`): the type of the core running the block.
namespace AscendC {
constexpr int32_t MIX = 0;
constexpr int32_t AIC = 1;
constexpr int32_t AIV = 2;
}  // namespace AscendC
#define g_coreType (::cbemu::core_id().kind == ::cbemu::CoreKind::AIC ? ::AscendC::AIC : ::AscendC::AIV)

// `if ASCEND_IS_AIV { ... }`: the macro is the parenthesised condition. CBEMU_PLAIN_CORE is the core a kernel of no
// declared type runs on as its build says (cotbuilder's op build: AIV for a kernel that uses no Cube API, which the
// device compiler builds for the vector cores); PLAIN when the build does not say.
#ifndef CBEMU_PLAIN_CORE
#define CBEMU_PLAIN_CORE ::cbemu::CoreKind::PLAIN
#endif
#define ASCEND_IS_AIC (::cbemu::is_core(::cbemu::CoreKind::AIC, ::cbemu::SrcLoc(__FILE__, __LINE__), CBEMU_PLAIN_CORE))
#define ASCEND_IS_AIV (::cbemu::is_core(::cbemu::CoreKind::AIV, ::cbemu::SrcLoc(__FILE__, __LINE__), CBEMU_PLAIN_CORE))
#define ASCEND_IS_NOT_AIC (!ASCEND_IS_AIC)
#define ASCEND_IS_NOT_AIV (!ASCEND_IS_AIV)

// The kernel's AIC/AIV type, stated at the top of its body.
#define KERNEL_TASK_TYPE_DEFAULT(type) ::cbemu::declare_kernel_type((type), ::cbemu::SrcLoc(__FILE__, __LINE__))
// The type for one tiling key: taken when that key is the launch's.
#define KERNEL_TASK_TYPE(key, type)                                                                 \
    do {                                                                                            \
        if (::cbemu::tiling_key() == (uint64_t)(key))                                               \
            ::cbemu::declare_kernel_type((type), ::cbemu::SrcLoc(__FILE__, __LINE__));              \
    } while (0)

namespace AscendC {

// modeId 0: all AIC (or all AIV) cores of the launch; 1: the AIV cores of one logical core; 2: the AIC core and
// the AIV cores of one logical core. The pipe argument says which earlier instructions of this core must have
// ended before the set goes out; the hazard model orders them before what follows this core's own matching wait.
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
inline void CrossCoreSetFlag(uint16_t flagId, CBEMU_LOC) {
    cbemu::cross_set(modeId, flagId, (int)pipe, loc);
}
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
inline void CrossCoreWaitFlag(uint16_t flagId, CBEMU_LOC) {
    cbemu::cross_wait(flagId, loc);
}

}  // namespace AscendC
