// The toolkit's arch-2201 header of special-register getters, which some kernels include by its path (even when
// they use none of it). The sub-block ones are emulated; the others read registers the emulator does not model and
// stop the build naming themselves, so a kernel that calls one is `unsupported`, never failed_compile.
#pragma once
#include "../../kernel_operator.h"

namespace AscendC {
inline int64_t GetSubBlockDim() { return GetSubBlockNum(); }
inline int64_t GetSubBlockId() { return GetSubBlockIdx(); }

namespace detail_regs {
template <typename T>
inline constexpr bool never = false;
}  // namespace detail_regs

#define CBEMU_UNMODELLED_REG(NAME)                                                                                \
    template <typename T = int64_t>                                                                              \
    T NAME() {                                                                                                   \
        static_assert(detail_regs::never<T>, "cotbuilder emulator: " #NAME " (a special register) is not emulated"); \
        return T();                                                                                              \
    }
CBEMU_UNMODELLED_REG(GetThreadDim)
CBEMU_UNMODELLED_REG(GetThreadId)
CBEMU_UNMODELLED_REG(GetStackPhyBase)
CBEMU_UNMODELLED_REG(GetStAtomicCfg)
CBEMU_UNMODELLED_REG(GetRsvdCnt)
CBEMU_UNMODELLED_REG(GetMaxMinCnt)
CBEMU_UNMODELLED_REG(GetIcachePrlSt)
CBEMU_UNMODELLED_REG(GetFpc)
#undef CBEMU_UNMODELLED_REG
}  // namespace AscendC
