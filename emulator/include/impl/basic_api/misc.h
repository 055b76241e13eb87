// Cores and sync, the mask register API, workspace, printf / ASSERT.
#pragma once
#include <cstdio>
#include <utility>

#include "vec_extra.h"

namespace AscendC {

inline int64_t GetBlockIdx() { return cbemu::ctx().block < 0 ? 0 : cbemu::ctx().block; }
inline int64_t GetBlockNum() { return cbemu::ctx().block_num; }
inline int64_t GetSubBlockIdx() { return 0; }
inline int64_t GetSubBlockNum() { return 1; }
inline void SetKernelMode(KernelMode m) { cbemu::kernel_mode() = (int)m; }
// Puts the vector state (mask register, mask mode, atomic mode) back to its defaults.
inline void InitSocState() {
    cbemu::BlockCtx& c = cbemu::ctx();
    c.mask_hi = c.mask_lo = ~0ull;
    c.counter_mode = false;
    c.atomic = 0;
    c.pad_set = false;
}

// Every instruction runs to completion before the next starts, so pipe flags and barriers are
// already satisfied: these are correct as no-ops for a sequential model.
template <HardEvent event>
inline void SetFlag(TEventID) {}
template <HardEvent event>
inline void WaitFlag(TEventID) {}
template <pipe_t pipe>
inline void PipeBarrier() {}

// SyncAll: a real barrier across the block threads of this launch.
template <bool isAIVOnly = true>
inline void SyncAll() {
    cbemu::BlockCtx& c = cbemu::ctx();
    if (c.barrier) c.barrier->wait();
}
template <bool isAIVOnly = true>
inline void SyncAll(const GlobalTensor<int32_t>&, const LocalTensor<int32_t>&, int32_t = 0) {
    SyncAll<isAIVOnly>();
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

// AscendCUtils::SetOverflow(1|0): switch the vector unit's saturation / inf-nan overflow mode around library calls.
// The emulator computes IEEE results (inf/nan kept) in both modes; the setting is recorded for GetOverflow.
struct AscendCUtils {
    static void SetOverflow(uint32_t mode) { overflow_mode() = mode; }
    static uint32_t GetOverflow() { return overflow_mode(); }

private:
    static uint32_t& overflow_mode() {
        thread_local uint32_t m = 0;
        return m;
    }
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
