// Cores and sync, the mask register API, workspace, printf / ASSERT.
#pragma once
#include <cstdio>
#include <utility>

#include "vec_extra.h"

namespace AscendC {

inline int64_t GetBlockIdx() { return cbemu::ctx().block < 0 ? 0 : cbemu::ctx().block; }
inline int64_t GetBlockNum() { return cbemu::ctx().block_num; }
// A mixed kernel's AIV cores: their index inside the logical core and how many there are (emu/cores.h).
inline int64_t GetSubBlockIdx() { return cbemu::core_id().kind == cbemu::CoreKind::AIV ? cbemu::core_id().sub : 0; }
inline int64_t GetSubBlockNum() {
    const cbemu::CoreId& id = cbemu::core_id();
    return id.kind == cbemu::CoreKind::AIV && id.aiv_per > 0 ? id.aiv_per : 1;
}
// GetTaskRatio.md: AIV cores of a 1:2 kernel 2, every other core 1.
inline int64_t GetTaskRatio() { return GetSubBlockNum(); }
// GetTaskRation: the toolkit's older spelling, still declared beside GetTaskRatio (kernel_operator_sys_var_intf_impl.h).
inline int64_t GetTaskRation() { return GetTaskRatio(); }
inline void SetKernelMode(KernelMode m) { cbemu::kernel_mode() = (int)m; }
// Puts the vector state (mask register, mask mode, atomic mode) back to its defaults.
inline void InitSocState() {
    cbemu::BlockCtx& c = cbemu::ctx();
    c.mask_hi = c.mask_lo = ~0ull;
    c.counter_mode = false;
    c.atomic = 0;
    c.pad_set = false;
}

// In-core sync: the pipe-hazard model (impl/emu/hazard.h) orders pipes only through these.
namespace detail_sync {
// (source pipe, destination pipe) of each HardEvent, in the enum's order; -1: none.
constexpr int8_t kEventPipes[][2] = {
    {cbemu::hz::P_MTE2, cbemu::hz::P_MTE1}, {cbemu::hz::P_MTE1, cbemu::hz::P_MTE2}, {cbemu::hz::P_MTE1, cbemu::hz::P_M},
    {cbemu::hz::P_M, cbemu::hz::P_MTE1},    {cbemu::hz::P_MTE2, cbemu::hz::P_V},    {cbemu::hz::P_V, cbemu::hz::P_MTE2},
    {cbemu::hz::P_MTE3, cbemu::hz::P_V},    {cbemu::hz::P_V, cbemu::hz::P_MTE3},    {cbemu::hz::P_M, cbemu::hz::P_V},
    {cbemu::hz::P_V, cbemu::hz::P_M},       {cbemu::hz::P_V, cbemu::hz::P_V},       {cbemu::hz::P_MTE3, cbemu::hz::P_MTE1},
    {cbemu::hz::P_MTE1, cbemu::hz::P_MTE3}, {cbemu::hz::P_MTE1, cbemu::hz::P_V},    {cbemu::hz::P_MTE2, cbemu::hz::P_M},
    {cbemu::hz::P_M, cbemu::hz::P_MTE2},    {cbemu::hz::P_V, cbemu::hz::P_MTE1},    {cbemu::hz::P_M, cbemu::hz::P_FIX},
    {cbemu::hz::P_FIX, cbemu::hz::P_M},     {cbemu::hz::P_MTE3, cbemu::hz::P_MTE2}, {cbemu::hz::P_MTE2, cbemu::hz::P_MTE3},
    {cbemu::hz::P_S, cbemu::hz::P_V},       {cbemu::hz::P_V, cbemu::hz::P_S},       {cbemu::hz::P_S, cbemu::hz::P_MTE2},
    {cbemu::hz::P_MTE2, cbemu::hz::P_S},    {cbemu::hz::P_S, cbemu::hz::P_MTE3},    {cbemu::hz::P_MTE3, cbemu::hz::P_S},
    {cbemu::hz::P_MTE2, cbemu::hz::P_FIX},  {cbemu::hz::P_FIX, cbemu::hz::P_MTE2},  {cbemu::hz::P_FIX, cbemu::hz::P_S},
    {cbemu::hz::P_M, cbemu::hz::P_S},       {cbemu::hz::P_FIX, cbemu::hz::P_MTE3},  {cbemu::hz::P_MTE1, cbemu::hz::P_FIX},
    {cbemu::hz::P_FIX, cbemu::hz::P_MTE1},  {cbemu::hz::P_FIX, cbemu::hz::P_FIX},   {-1, -1}};
static_assert(sizeof(kEventPipes) / sizeof(kEventPipes[0]) == (size_t)HardEvent::MAX + 1, "one row per HardEvent");
inline void set(HardEvent e, int id, const cbemu::SrcLoc& loc) {
    cbemu::hz::set_flag(kEventPipes[(int)e][0], kEventPipes[(int)e][1], (int)e, id, loc);
}
inline void wait(HardEvent e, int id, const cbemu::SrcLoc& loc) {
    cbemu::hz::wait_flag(kEventPipes[(int)e][0], kEventPipes[(int)e][1], (int)e, id, loc);
}
}  // namespace detail_sync

template <HardEvent event>
inline void SetFlag(TEventID id, CBEMU_LOC) { detail_sync::set(event, id, loc); }
template <HardEvent event>
inline void WaitFlag(TEventID id, CBEMU_LOC) { detail_sync::wait(event, id, loc); }
template <pipe_t pipe>
inline void PipeBarrier() { cbemu::hz::barrier(cbemu::hz::from_pipe_t(pipe)); }

// The device compiler's own sync intrinsics, which kernels (and the toolkit's impl) also call directly: set_flag /
// wait_flag between two pipes, pipe_barrier on one. The same flags as SetFlag/WaitFlag/PipeBarrier above.
namespace detail_sync {
inline int event_of(int src, int dst) {  // the HardEvent with these pipes; a pair without one gets its own flag
    for (int e = 0; e < (int)HardEvent::MAX; ++e)
        if (kEventPipes[e][0] == src && kEventPipes[e][1] == dst) return e;
    return cbemu::hz::kEvents - 1;
}
}  // namespace detail_sync
}  // namespace AscendC

inline void set_flag(pipe_t src, pipe_t dst, event_t id, CBEMU_LOC) {
    const int s = cbemu::hz::from_pipe_t(src), d = cbemu::hz::from_pipe_t(dst);
    cbemu::hz::set_flag(s, d, AscendC::detail_sync::event_of(s, d), (int)id, loc);
}
inline void wait_flag(pipe_t src, pipe_t dst, event_t id, CBEMU_LOC) {
    const int s = cbemu::hz::from_pipe_t(src), d = cbemu::hz::from_pipe_t(dst);
    cbemu::hz::wait_flag(s, d, AscendC::detail_sync::event_of(s, d), (int)id, loc);
}
inline void pipe_barrier(pipe_t pipe) { cbemu::hz::barrier(cbemu::hz::from_pipe_t(pipe)); }

namespace AscendC {
// TQueSync<src, dst>: SetFlag/WaitFlag between two pipes named as template arguments (docs: TQueSync).
template <pipe_t src, pipe_t dst>
class TQueSync {
public:
    void SetFlag(TEventID id, CBEMU_LOC) {
        cbemu::hz::set_flag(cbemu::hz::from_pipe_t(src), cbemu::hz::from_pipe_t(dst), evt(), id, loc);
    }
    void WaitFlag(TEventID id, CBEMU_LOC) {
        cbemu::hz::wait_flag(cbemu::hz::from_pipe_t(src), cbemu::hz::from_pipe_t(dst), evt(), id, loc);
    }

private:
    // the same flag as the HardEvent with these pipes (a pair without one gets a flag of its own)
    static int evt() { return detail_sync::event_of(cbemu::hz::from_pipe_t(src), cbemu::hz::from_pipe_t(dst)); }
};

// SyncAll: all blocks of the launch meet (impl/emu/sched.h); with more blocks than the SoC's cores it hangs.
template <bool isAIVOnly = true>
inline void SyncAll(CBEMU_LOC) {
    cbemu::barrier_wait(loc, !isAIVOnly);
}
template <bool isAIVOnly = true>
inline void SyncAll(const GlobalTensor<int32_t>&, const LocalTensor<int32_t>&, int32_t = 0, CBEMU_LOC) {
    cbemu::barrier_wait(loc, !isAIVOnly);
}

// ---- mask register ----
template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow) {
    cbemu::ctx().mask_hi = maskHigh;
    cbemu::ctx().mask_lo = maskLow;
    if (mode == MaskMode::COUNTER) cbemu::ctx().mask_hi = 0;
}
template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(int32_t len) {
    if (mode == MaskMode::COUNTER || cbemu::ctx().counter_mode) {
        cbemu::ctx().mask_hi = 0;
        cbemu::ctx().mask_lo = (uint64_t)len;
        return;
    }
    cbemu::Mask m = cbemu::mask_from_count((uint64_t)len);
    cbemu::ctx().mask_hi = m.hi;
    cbemu::ctx().mask_lo = m.lo;
}
inline void SetMaskCount() { cbemu::ctx().counter_mode = true; }
inline void SetMaskNorm() { cbemu::ctx().counter_mode = false; }
template <typename T = uint16_t, bool setBit = true>
inline void ResetMask() {
    cbemu::ctx().mask_hi = ~0ull;
    cbemu::ctx().mask_lo = ~0ull;
}

// ---- workspace: the emulator has no system workspace prefix ----
inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) { return workspace; }
inline GM_ADDR GetSysWorkSpacePtr() { return cbemu::sys_workspace(); }
// Kernels hand the launch's workspace to the framework first (SetSysWorkspace(workspace)); the emulator's system
// workspace is a buffer of its own and the user workspace has no prefix, so there is nothing to record.
inline void SetSysWorkspace(GM_ADDR) {}
inline void SetSysWorkspaceForce(GM_ADDR) {}

// ---- printf: half / bfloat16_t arguments are printed as double ----
namespace detail_print {
template <typename A> inline A arg(A a) { return a; }
inline double arg(half h) { return (double)(float)h; }
inline double arg(bfloat16_t h) { return (double)(float)h; }
}  // namespace detail_print
template <typename... Args>
inline void printf(const char* fmt, Args... args) {
    std::lock_guard<std::mutex> g(cbemu::diag_mutex());
    std::printf(fmt, detail_print::arg(args)...);
    std::fflush(stdout);
}
// docs: 系统资源与变量/GetDataBlockSizeInBytes: one data block (the 32-byte unit of DataCopy and repeat strides).
inline constexpr uint32_t GetDataBlockSizeInBytes() { return 32; }

// AscendCUtils: the toolkit's utility class (kernel_utils_base.h) whose helpers kernels call directly.
// SetOverflow(1|0): the vector unit's inf/NaN mode (1: CTRL[48] = 1, IEEE results) or saturation mode (0: CTRL[48] =
// 0), as the real utils set it on NPU arch 2201. SetMask writes the mask register as is (in counter mode the low word
// is the count); SetMask(len) is the normal-mode bit mask of the first len elements of a 256-byte repeat.
struct AscendCUtils {
    static void SetOverflow(uint32_t mode) {
        uint64_t& r = cbemu::ctx().ctrl;
        r = mode == 1 ? (r | (1ull << 48)) : (r & ~(1ull << 48));
    }
    static uint32_t GetOverflow() { return (uint32_t)((cbemu::ctx().ctrl >> 48) & 1); }
    template <typename T, bool isSetMask = true>
    static void SetMask(const uint64_t& maskHigh, const uint64_t& maskLow) {
        if constexpr (isSetMask) {
            cbemu::ctx().mask_hi = maskHigh;
            cbemu::ctx().mask_lo = maskLow;
        }
    }
    template <typename T, bool isSetMask = true>
    static void SetMask(int32_t len) {
        if constexpr (isSetMask) {
            constexpr int32_t per_repeat = (int32_t)(256 / sizeof(T)), half = 64;
            if (len == half) return SetMask<T>(0, ~0ull);
            if (len == per_repeat || len >= 2 * half) return SetMask<T>(~0ull, ~0ull);
            SetMask<T>(len > half ? (1ull << (uint32_t)(len - half)) - 1 : 0,
                       len > half ? ~0ull : (1ull << (uint32_t)len) - 1);
        }
    }
    // C0: the 32-byte data block; GetC0Count(size) is how many elements of that byte size fill one
    static int32_t GetC0Size() { return 32; }
    static int32_t GetC0Count(const int32_t dtypeSize) { return GetC0Size() / dtypeSize; }
    template <typename T>
    static void SetMaskCount() { AscendC::SetMaskCount(); }
    template <typename T>
    static void SetMaskNorm() { AscendC::SetMaskNorm(); }
};

template <typename... Args>
inline void PRINTF(const char* fmt, Args... args) { AscendC::printf(fmt, args...); }

}  // namespace AscendC

#define ASSERT(cond)                                                                                          \
    do {                                                                                                      \
        if (!(cond))                                                                                          \
            ::cbemu::report("assert_failed", ::cbemu::Sev::fatal, ::cbemu::SrcLoc{__FILE__, __LINE__},        \
                            "ASSERT(%s) failed", #cond);                                                      \
    } while (0)

// The system workspace pointer is spelled unqualified by kernels (REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), ...)).
using AscendC::GetSysWorkSpacePtr;

