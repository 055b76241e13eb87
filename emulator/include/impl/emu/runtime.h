// Per-block execution context, GM allocation registry, the block launcher (one thread per
// block so SyncAll is a real barrier), atomics and tiling key.
#pragma once
#include <cctype>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "diag.h"
#include "soc_table.h"

// The block index / count as the globals some kernels read directly.
inline thread_local int64_t block_idx = 0;
inline thread_local int64_t block_num = 1;

namespace cbemu {

// Backing store per block: larger than any SoC's UB so an overflow can be reported and the
// kernel still finishes; the SoC limit itself is checked by TPipe::InitBuffer.
constexpr size_t kUbBacking = 2u << 20;

// The SoC this run emulates: the run-time COTBUILDER_SOC, else the one the unit was built for, else ascend910b.
// Names match by prefix (ascend910b1 is ascend910b); sizes come from the one SoC table (soc_table.h).
inline const SocInfo& soc() {
    static const SocInfo* v = [] {
        const char* s = std::getenv("COTBUILDER_SOC");
#ifdef COTBUILDER_SOC
        if (!s || !*s) s = COTBUILDER_SOC;
#endif
        std::string name = s ? s : "ascend910b";
        for (auto& c : name) c = (char)std::tolower((unsigned char)c);
        for (const SocInfo& info : kSocTable)
            if (name.rfind(info.name, 0) == 0) return &info;
        return &kSocTable[0];
    }();
    return *v;
}

inline size_t soc_ub_bytes() {
#ifdef COTBUILDER_SOC_UB_BYTES
    return (size_t)(COTBUILDER_SOC_UB_BYTES);
#else
    return soc().ub_bytes;
#endif
}

// Bytes nobody wrote read as this: 0xFF makes every float format (fp32, fp16, bf16) a NaN and every integer -1,
// as stale memory on hardware holds garbage. COTBUILDER_POISON_BYTE=0xNN picks another byte.
inline uint8_t poison_byte() {
    static uint8_t b = [] {
        const char* s = std::getenv("COTBUILDER_POISON_BYTE");
        return (uint8_t)(s && *s ? std::strtoul(s, nullptr, 0) : 0xFF);
    }();
    return b;
}

namespace hz {
struct Core;
}
struct Sched;

struct BlockCtx {
    int block = -1;  // GetBlockIdx (an AIV core of a 1:2 mixed launch counts 0 .. 2 * numBlocks - 1)
    int slot = -1;   // this core's index in the launch's scheduler (sched.h) and in the hazard model's clocks
    int block_num = 1;
    uint8_t* ub = nullptr;
    uint64_t mask_hi = ~0ull, mask_lo = ~0ull;  // vector mask register
    bool counter_mode = false;
    int atomic = 0;  // 0 none, 1 add, 2 max, 3 min
    Sched* sched = nullptr;
    hz::Core* hz = nullptr;  // the pipe-hazard model of this core (hazard.h); nullptr with the model off
    void* pipe = nullptr;
    int syncall_count = 0;
    // SetPadValue register (raw bits of the value, valid when pad_set), CmpMask register (128 bits),
    // the ReduceSum count-form result register (GetReduceRepeatSumSpr)
    bool pad_set = false;
    uint64_t pad_bits = 0;
    uint8_t cmp_mask[16] = {};
    bool reduce_sum_set = false;
    double reduce_sum = 0;
    uint64_t reduce_sum_bits = 0;  // the same result as the register holds it (get_acc_val: a T in the low bits)
    // the max / min register GetReduceRepeatMaxMinSpr reads: 0 never set, 1 set by ReduceRepeat<MAX/MIN> /
    // WholeReduceMax/Min (value and index), 2 by ReduceMax / ReduceMin (value only: the page says the index is not
    // accurate), 3 by a counter-mode reduction (the page: not supported)
    int maxmin_state = 0;
    double maxmin_value = 0;
    uint32_t maxmin_index = 0;
    // the DEQSCALE register's half scale (SetDeqScale(half), SetDeqScale.md table 1): Cast int32_t -> half (s322fp16)
    // multiplies by it once set; before any SetDeqScale the emulator converts unscaled, as it always did
    bool deq_set = false;
    float deq_scale = 1.0f;
    // the CTRL register (SetCtrlSpr): CTRL[60] = 1 and CTRL[48] = 0 (half/bf16 saturation) after reset; a launch sets
    // it as the runtime does (launch_ctrl)
    uint64_t ctrl = 1ull << 60;
};
// The CTRL register as a kernel launch finds it. The register itself resets to saturation (CTRL[48] = 0,
// SetCtrlSpr(ISASI).md), but the runtime programs each stream's overflow mode before it launches: Inf/NaN (IEEE 754)
// by default on A2 / A3 (aclrtFloatOverflowMode: "默认为Inf/NaN模式"), saturation only after
// aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION) - which the host shim records in COTBUILDER_SAT_MODE (an
// environment variable, not a variable of ours: a renamed kernel variant must see the same mode).
inline bool saturation_requested() {
    const char* mode = std::getenv("COTBUILDER_SAT_MODE");
    return mode && std::strcmp(mode, "saturation") == 0;
}
inline uint64_t launch_ctrl() { return (1ull << 60) | (saturation_requested() ? 0 : 1ull << 48); }
inline BlockCtx& ctx() {
    thread_local BlockCtx c;
    return c;
}
inline int current_block() { return ctx().block; }

// ---- GM allocations (GmAlloc / aclrtMalloc) for bounds checks ----
struct GmRegistry {
    std::mutex m;
    std::map<uintptr_t, size_t> allocs;
};
inline GmRegistry& gm_registry() {
    static GmRegistry r;
    return r;
}
// GmAlloc (CPU twin debugging) maps a new file under /tmp (GmAlloc.md), and a new file reads as zeros: its memory
// starts zeroed, as the real CPU mode's does. Device memory (aclrtMalloc) is not cleared on hardware (SetAtomicAdd.md:
// GM is not cleared before an atomic accumulation): it starts poisoned.
CBEMU_RT void* gm_alloc(size_t size, bool zeroed = true);
namespace hz {
inline void gm_forget(uintptr_t base);
}
CBEMU_RT void gm_free(void* p);
// The allocation [base, end) that owns p. A pointer just past an allocation (a wrong block
// offset) is attributed to the allocation below it, with an empty valid range.
CBEMU_RT bool gm_find(const void* p, uintptr_t& base, uintptr_t& end);

inline std::mutex& atomic_mutex() {
    static std::mutex m;
    return m;
}
inline uint64_t& tiling_key() {
    static uint64_t k = 0;
    return k;
}
// The host's SetKernelMode (KernelMode: MIX_MODE = 0, AIC_MODE, AIV_MODE, MIX_AIC_1_1); -1 while never set.
inline int& kernel_mode() {
    static int m = -1;
    return m;
}
inline uint8_t* sys_workspace() {
    static uint8_t* p = (uint8_t*)gm_alloc(16u << 20);
    return p;
}

namespace hz {
// The allocation that strictly contains p (the hazard model tracks only real GM allocations).
CBEMU_RT bool gm_allocation(const void* p, uintptr_t& base, size_t& size);
inline uint8_t* ub_base() { return ctx().ub; }
inline Core* core() { return ctx().hz; }
}  // namespace hz

}  // namespace cbemu

#include "hazard.h"
#include "sched.h"

#if CBEMU_RT_BODY
namespace cbemu {

CBEMU_RT void* gm_alloc(size_t size, bool zeroed) {
    size_t padded = ((size ? size : 1) + 63) / 64 * 64;
    void* p = std::aligned_alloc(64, padded);
    if (!p) return nullptr;
    std::memset(p, zeroed ? 0 : poison_byte(), padded);
    std::lock_guard<std::mutex> g(gm_registry().m);
    gm_registry().allocs[(uintptr_t)p] = size;
    return p;
}

CBEMU_RT void gm_free(void* p) {
    if (!p) return;
    {
        std::lock_guard<std::mutex> g(gm_registry().m);
        gm_registry().allocs.erase((uintptr_t)p);
    }
    hz::gm_forget((uintptr_t)p);
    std::free(p);
}

CBEMU_RT bool gm_find(const void* p, uintptr_t& base, uintptr_t& end) {
    std::lock_guard<std::mutex> g(gm_registry().m);
    auto& a = gm_registry().allocs;
    if (a.empty()) return false;
    uintptr_t x = (uintptr_t)p;
    auto it = a.upper_bound(x);
    if (it == a.begin()) return false;
    --it;
    base = it->first;
    end = it->first + it->second;
    if (x < end) return true;
    if (x - end < ((uintptr_t)1 << 30)) return true;  // past the end: caller reports on access
    return false;
}

namespace hz {
CBEMU_RT bool gm_allocation(const void* p, uintptr_t& base, size_t& size) {
    std::lock_guard<std::mutex> g(gm_registry().m);
    auto& a = gm_registry().allocs;
    auto it = a.upper_bound((uintptr_t)p);
    if (it == a.begin()) return false;
    --it;
    if ((uintptr_t)p >= it->first + it->second) return false;
    base = it->first;
    size = it->second;
    return true;
}
}  // namespace hz

}  // namespace cbemu
#endif  // CBEMU_RT_BODY
