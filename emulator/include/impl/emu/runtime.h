// Per-block execution context, GM allocation registry, the block launcher (one thread per
// block so SyncAll is a real barrier), atomics and tiling key.
#pragma once
#include <cctype>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "diag.h"

// The block index / count as the globals some kernels read directly.
inline thread_local int64_t block_idx = 0;
inline thread_local int64_t block_num = 1;

namespace cbemu {

// Backing store per block: larger than any SoC's UB so an overflow can be reported and the
// kernel still finishes; the SoC limit itself is checked by TPipe::InitBuffer.
constexpr size_t kUbBacking = 2u << 20;

inline size_t soc_ub_bytes() {
#ifdef COTBUILDER_SOC_UB_BYTES
    return (size_t)(COTBUILDER_SOC_UB_BYTES);
#else
    static size_t v = [] {
        const char* s = std::getenv("COTBUILDER_SOC");
        std::string soc = s ? s : "ascend910b";
        for (auto& c : soc) c = (char)std::tolower((unsigned char)c);
        if (soc.rfind("ascend310p", 0) == 0 || soc.rfind("ascend910a", 0) == 0 || soc == "ascend910")
            return (size_t)256 * 1024;
        return (size_t)192 * 1024;  // ascend910b / 910_93 / 310b
    }();
    return v;
#endif
}

struct Barrier {
    std::mutex m;
    std::condition_variable cv;
    int total = 0, arrived = 0, departed = 0;
    uint64_t gen = 0;
    bool broken = false;
    void wait() {
        std::unique_lock<std::mutex> lk(m);
        uint64_t g = gen;
        if (++arrived + departed >= total) {
            arrived = 0;
            gen++;
            cv.notify_all();
        } else {
            cv.wait(lk, [&] { return gen != g; });
        }
    }
    // A block that returns is no longer counted, so the others are not stuck forever.
    bool leave() {
        std::lock_guard<std::mutex> lk(m);
        departed++;
        if (arrived > 0 && arrived + departed >= total) {
            arrived = 0;
            gen++;
            cv.notify_all();
            return true;
        }
        return false;
    }
};

struct BlockCtx {
    int block = -1;
    int block_num = 1;
    uint8_t* ub = nullptr;
    uint64_t mask_hi = ~0ull, mask_lo = ~0ull;  // vector mask register
    bool counter_mode = false;
    int atomic = 0;  // 0 none, 1 add, 2 max, 3 min
    Barrier* barrier = nullptr;
    void* pipe = nullptr;
    int syncall_count = 0;
    // SetPadValue register (raw bits of the value, valid when pad_set), CmpMask register (128 bits),
    // the ReduceSum count-form result register (GetReduceRepeatSumSpr)
    bool pad_set = false;
    uint64_t pad_bits = 0;
    uint8_t cmp_mask[16] = {};
    bool reduce_sum_set = false;
    double reduce_sum = 0;
};
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
inline void* gm_alloc(size_t size) {
    size_t padded = ((size ? size : 1) + 63) / 64 * 64;
    void* p = std::aligned_alloc(64, padded);
    if (!p) return nullptr;
    std::memset(p, 0, padded);
    std::lock_guard<std::mutex> g(gm_registry().m);
    gm_registry().allocs[(uintptr_t)p] = size;
    return p;
}
inline void gm_free(void* p) {
    if (!p) return;
    {
        std::lock_guard<std::mutex> g(gm_registry().m);
        gm_registry().allocs.erase((uintptr_t)p);
    }
    std::free(p);
}
// The allocation [base, end) that owns p. A pointer just past an allocation (a wrong block
// offset) is attributed to the allocation below it, with an empty valid range.
inline bool gm_find(const void* p, uintptr_t& base, uintptr_t& end) {
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

inline std::mutex& atomic_mutex() {
    static std::mutex m;
    return m;
}
inline uint64_t& tiling_key() {
    static uint64_t k = 0;
    return k;
}
inline int& kernel_mode() {
    static int m = 0;
    return m;
}
inline uint8_t* sys_workspace() {
    static uint8_t* p = (uint8_t*)gm_alloc(16u << 20);
    return p;
}


// Run func(args...) once per block, each block on its own thread.
template <typename F, typename... Args>
void run_kernel(const char* name, F func, uint32_t block_dim, Args... args) {
    install_exit_hook();
    if (block_dim == 0) {
        report("bad_launch", Sev::fatal, SrcLoc{name, 0}, "kernel %s launched with blockDim 0", name);
    }
    Barrier barrier;
    barrier.total = (int)block_dim;
    std::vector<std::thread> threads;
    threads.reserve(block_dim);
    for (uint32_t b = 0; b < block_dim; ++b) {
        threads.emplace_back([=, &barrier]() {
            BlockCtx& c = ctx();
            c = BlockCtx{};
            c.block = (int)b;
            c.block_num = (int)block_dim;
            c.barrier = &barrier;
            ::block_idx = b;
            ::block_num = block_dim;
            c.ub = (uint8_t*)std::aligned_alloc(256, kUbBacking);
            // stale UB content: 0xFF bytes read as NaN / -1, so reading unwritten UB shows up
            std::memset(c.ub, 0xFF, kUbBacking);
            func(args...);
            if (barrier.leave()) {
                report("syncall_mismatch", Sev::error, SrcLoc{name, 0},
                       "block %d returned while other blocks wait in SyncAll (hangs on hardware)", (int)b);
            }
            std::free(c.ub);
            c.ub = nullptr;
            c.block = -1;
        });
    }
    for (auto& t : threads) t.join();
}

}  // namespace cbemu
