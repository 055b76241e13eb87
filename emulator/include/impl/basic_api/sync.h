// Cross-block synchronisation through GM flags (IBSet/IBWait, InitDetermineComputeWorkspace/WaitPreBlock/
// NotifyNextBlock, GroupBarrier), scalar GM access that bypasses the data cache, scalar GM atomics, and the
// in-core sync primitives that a sequential CPU model already satisfies (Mutex, DataSyncBarrier, task sync,
// cache maintenance). Written from the public API docs.
#pragma once
#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>
#include <type_traits>

#include "misc.h"

namespace cbemu {

// Raw GM word access with sequentially consistent atomics: the block threads poll these words.
template <typename T>
inline T gm_atomic_load(const T* p) {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8, "scalar GM access");
    using U = typename std::conditional<sizeof(T) == 1, uint8_t,
              typename std::conditional<sizeof(T) == 2, uint16_t,
              typename std::conditional<sizeof(T) == 4, uint32_t, uint64_t>::type>::type>::type;
    U u = __atomic_load_n(reinterpret_cast<const U*>(p), __ATOMIC_SEQ_CST);
    T v;
    std::memcpy(&v, &u, sizeof(T));
    return v;
}
template <typename T>
inline void gm_atomic_store(T* p, T v) {
    using U = typename std::conditional<sizeof(T) == 1, uint8_t,
              typename std::conditional<sizeof(T) == 2, uint16_t,
              typename std::conditional<sizeof(T) == 4, uint32_t, uint64_t>::type>::type>::type;
    U u;
    std::memcpy(&u, &v, sizeof(T));
    __atomic_store_n(reinterpret_cast<U*>(p), u, __ATOMIC_SEQ_CST);
}

// A scalar GM access must lie inside the GmAlloc allocation it points into (pointers that are not
// from GmAlloc, e.g. host memory in a unit test, are not checked).
inline bool gm_scalar_ok(const void* p, size_t n, const SrcLoc& loc, const char* api) {
    uintptr_t base = 0, end = 0;
    if (!gm_find(p, base, end)) return true;
    uintptr_t x = (uintptr_t)p;
    if (x >= base && x + n <= end) return true;
    report("gm_out_of_bounds", Sev::error, loc, "%s touches GM bytes [%lld, %lld) of an allocation of %lld bytes",
           api, (long long)(x - base), (long long)(x - base + n), (long long)(end - base));
    return false;
}

// spin_until (a core polling a GM flag) lives with the scheduler, impl/emu/sched.h.

// Per-block state of the sequential (deterministic) block order: how many WaitPreBlock calls this block made.
inline uint32_t& determine_round() {
    thread_local uint32_t r = 0;
    return r;
}

}  // namespace cbemu

namespace AscendC {

// ---- scalar GM access bypassing the DCache: the CPU model has no data cache, so these are plain
// (atomic, sequentially consistent) loads and stores that other block threads observe at once ----
// Kernels build their own GM flags with these: they count as sync accesses (never a data race), a write
// publishes this core's progress and a read takes what was published there (hazard model, sched.h).
template <typename T>
inline T ReadGmByPassDCache(__gm__ T* addr, CBEMU_LOC) {
    if (!cbemu::gm_scalar_ok(addr, sizeof(T), loc, "ReadGmByPassDCache")) return T{};
    cbemu::hz::sched_tick();
    T v = cbemu::gm_atomic_load(addr);
    cbemu::acquire_published(addr);
    return v;
}
template <typename T>
inline void WriteGmByPassDCache(__gm__ T* addr, T value, CBEMU_LOC) {
    if (!cbemu::gm_scalar_ok(addr, sizeof(T), loc, "WriteGmByPassDCache")) return;
    cbemu::publish(addr);
    cbemu::hz::sched_tick();
    cbemu::gm_atomic_store(addr, value);
    cbemu::hz::note_progress();
}

// ---- scalar GM atomics (return the old value); serialised with the DataCopy atomic mode ----
// A scalar atomic read-modify-write also orders cores, like a C++ acq_rel RMW: what a core did before its atomic
// is ordered before what a later atomic on the same word (on any core) is followed by.
template <typename T>
inline T AtomicAdd(__gm__ T* address, T value, CBEMU_LOC) {
    if (!cbemu::gm_scalar_ok(address, sizeof(T), loc, "AtomicAdd")) return T{};
    cbemu::hz::sched_tick();
    std::lock_guard<std::mutex> g(cbemu::atomic_mutex());
    cbemu::acquire_published(address);
    T old = cbemu::gm_atomic_load(address);
    cbemu::gm_atomic_store(address, (T)(old + value));
    cbemu::publish(address);
    cbemu::hz::note_progress();
    return old;
}
template <typename T>
inline T AtomicCas(__gm__ T* address, T value1, T value2, CBEMU_LOC) {
    if (!cbemu::gm_scalar_ok(address, sizeof(T), loc, "AtomicCas")) return T{};
    cbemu::hz::sched_tick();
    std::lock_guard<std::mutex> g(cbemu::atomic_mutex());
    cbemu::acquire_published(address);
    T old = cbemu::gm_atomic_load(address);
    if (old == value1) cbemu::gm_atomic_store(address, value2);
    cbemu::publish(address);
    cbemu::hz::note_progress();
    return old;
}

// ---- memory barrier: the CPU model runs each block's instructions in order; a full fence also makes
// this block's earlier GM writes visible to the other block threads before its later ones ----
enum class MemDsbT : uint8_t { ALL = 0, DDR, UB, SEQ };
template <MemDsbT arg0 = MemDsbT::ALL>
inline void DataSyncBarrier() { std::atomic_thread_fence(std::memory_order_seq_cst); }

// ---- data cache maintenance: the CPU model has no DCache in front of GM (every scalar access reads
// and writes GM itself), so clean-and-invalidate has nothing to do; a fence keeps the ordering ----
enum class CacheLine : uint8_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint8_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
// (hazard model: the scalar's earlier stores are visible to every pipe afterwards)
template <typename T, CacheLine entireType, DcciDst dcciDst>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T>&) { cbemu::hz::scalar_stores_visible(); }
template <typename T, CacheLine entireType, DcciDst dcciDst>
inline void DataCacheCleanAndInvalid(const LocalTensor<T>&) { cbemu::hz::scalar_stores_visible(); }
template <typename T, CacheLine entireType>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T>&) { cbemu::hz::scalar_stores_visible(); }

// ---- in-core pipe mutex (Lock.md / Unlock.md): Unlock<P>(id) releases the mutex once P's earlier instructions
// have ended, Lock<Q>(id) holds Q's later instructions until then -- to the hazard model a SetFlag / WaitFlag pair
// keyed by the MutexID ----
using MutexID = uint8_t;
namespace detail_mutex {
inline uint32_t& used() {
    thread_local uint32_t bits = 0;
    return bits;
}
}  // namespace detail_mutex
inline MutexID AllocMutexID(CBEMU_LOC) {
    uint32_t& u = detail_mutex::used();
    for (uint8_t i = 0; i < 28; ++i) {  // 28-31 are reserved for the framework
        if (!(u & (1u << i))) {
            u |= 1u << i;
            return i;
        }
    }
    cbemu::report("mutex_exhausted", cbemu::Sev::fatal, loc, "AllocMutexID: all 28 MutexIDs are in use");
    return 0;
}
inline void ReleaseMutexID(MutexID id) { detail_mutex::used() &= ~(1u << (id & 31)); }
namespace detail_mutex {
struct Held {
    bool released = false;
    cbemu::hz::Clock clock{};
};
inline Held& held(MutexID id) {
    thread_local Held h[32];
    return h[id & 31];
}
}  // namespace detail_mutex
class Mutex {
public:
    template <pipe_t pipe>
    static inline void Lock(MutexID id) {
        cbemu::hz::Core* c = cbemu::hz::core();
        int p = cbemu::hz::from_pipe_t(pipe);
        detail_mutex::Held& h = detail_mutex::held(id);
        if (c && p >= 0 && h.released) cbemu::hz::acquire(c, p, h.clock);
    }
    template <pipe_t pipe>
    static inline void Unlock(MutexID id) {
        cbemu::hz::Core* c = cbemu::hz::core();
        int p = cbemu::hz::from_pipe_t(pipe);
        detail_mutex::Held& h = detail_mutex::held(id);
        if (c && p >= 0) h.clock = cbemu::hz::release_clock(c, p), h.released = true;
    }
};

// ---- SuperKernel task sync: the emulator runs one kernel launch at a time, so the previous task has
// always ended and nothing overlaps with the next one ----
template <bool FORCE = false>
inline void WaitPreTaskEnd() {}
template <bool FORCE = false>
inline void SetNextTaskStart() {}

// ---- IBSet / IBWait: a flag word per (eventID, blockIdx) in gmWorkspace, 32 bytes apart ----
template <bool isAIVOnly = true>
inline void IBSet(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>&, int32_t blockIdx,
                  int32_t eventID, CBEMU_LOC) {
    int32_t* flag = gmWorkspace.GetPhyAddr() + ((int64_t)eventID * GetBlockNum() + blockIdx) * 8;
    if (!cbemu::gm_scalar_ok(flag, 4, loc, "IBSet")) return;
    cbemu::publish(flag);
    cbemu::hz::sched_tick();
    cbemu::gm_atomic_store(flag, (int32_t)1);
    cbemu::hz::note_progress();
}
template <bool isAIVOnly = true>
inline void IBWait(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>&, int32_t blockIdx,
                   int32_t eventID, CBEMU_LOC) {
    int32_t* flag = gmWorkspace.GetPhyAddr() + ((int64_t)eventID * GetBlockNum() + blockIdx) * 8;
    if (!cbemu::gm_scalar_ok(flag, 4, loc, "IBWait")) return;
    cbemu::spin_until([&] { return cbemu::gm_atomic_load(flag) == 1; }, loc, "IBWait");
    cbemu::acquire_published(flag);
}

// ---- sequential block order (deterministic computation): gmWorkspace[0] counts the NotifyNextBlock
// calls of all blocks; the k-th WaitPreBlock of block b proceeds once k*blockNum + b notifications
// happened, so the blocks pass in ascending blockIdx order, round after round ----
inline void InitDetermineComputeWorkspace(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>&, CBEMU_LOC) {
    int32_t* turn = gmWorkspace.GetPhyAddr();
    if (!cbemu::gm_scalar_ok(turn, 4, loc, "InitDetermineComputeWorkspace")) return;
    cbemu::determine_round() = 0;
    // every block takes part; the reset must happen before any block notifies
    if (GetBlockIdx() == 0) cbemu::gm_atomic_store(turn, (int32_t)0);
    cbemu::hz::note_progress();
    cbemu::barrier_wait(loc);
}
inline void WaitPreBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>&, CBEMU_LOC) {
    int32_t* turn = gmWorkspace.GetPhyAddr();
    if (!cbemu::gm_scalar_ok(turn, 4, loc, "WaitPreBlock")) return;
    int64_t want = (int64_t)cbemu::determine_round()++ * GetBlockNum() + GetBlockIdx();
    cbemu::spin_until([&] { return (int64_t)cbemu::gm_atomic_load(turn) >= want; }, loc, "WaitPreBlock");
    cbemu::acquire_published(turn);
}
inline void NotifyNextBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>&, CBEMU_LOC) {
    int32_t* turn = gmWorkspace.GetPhyAddr();
    if (!cbemu::gm_scalar_ok(turn, 4, loc, "NotifyNextBlock")) return;
    cbemu::publish(turn);
    cbemu::hz::sched_tick();
    __atomic_add_fetch(turn, 1, __ATOMIC_SEQ_CST);
    cbemu::hz::note_progress();
}

// ---- GroupBarrier: the workspace's first word counts Arrive calls; the k-th Wait of a waiter returns
// once k * arriveSize arrivals happened (the user zeroes the workspace) ----
enum class PipeMode : uint8_t { SCALAR_MODE = 0, MTE3_MODE = 1, MAX };
template <PipeMode pipeMode = PipeMode::MTE3_MODE>
class GroupBarrier {
public:
    GroupBarrier(GM_ADDR groupWorkspace, uint32_t arriveSizeIn, uint32_t waitSizeIn)
        : ws_(reinterpret_cast<int64_t*>(groupWorkspace)), arrive_(arriveSizeIn), wait_(waitSizeIn) {}
    void Arrive(uint32_t arriveIndex, CBEMU_LOC) {
        if (arriveIndex >= arrive_)
            cbemu::report("group_barrier_index", cbemu::Sev::error, loc, "Arrive(%u) outside [0, %u)", arriveIndex,
                          arrive_);
        if (!cbemu::gm_scalar_ok(ws_, 8, loc, "GroupBarrier::Arrive")) return;
        cbemu::publish(ws_);
        cbemu::hz::sched_tick();
        __atomic_add_fetch(ws_, 1, __ATOMIC_SEQ_CST);
        cbemu::hz::note_progress();
    }
    void Wait(uint32_t waitIndex, CBEMU_LOC) {
        if (waitIndex >= wait_)
            cbemu::report("group_barrier_index", cbemu::Sev::error, loc, "Wait(%u) outside [0, %u)", waitIndex, wait_);
        if (!cbemu::gm_scalar_ok(ws_, 8, loc, "GroupBarrier::Wait")) return;
        int64_t want = (int64_t)(++rounds_) * arrive_;
        cbemu::spin_until([&] { return cbemu::gm_atomic_load(ws_) >= want; }, loc, "GroupBarrier::Wait");
        cbemu::acquire_published(ws_);
    }
    uint64_t GetWorkspaceLen() const { return (uint64_t)wait_ * 512; }

private:
    int64_t* ws_;
    uint32_t arrive_, wait_;
    uint32_t rounds_ = 0;
};

// ---- CTRL register: stored per block. CTRL[48] switches half/bf16 results and conversions between saturation
// (0, the A2 default: inf -> +-MAX, NaN -> 0) and IEEE inf/NaN (1) on SoCs whose table says they saturate
// (vec_core.h); the other bits read back as written ----
namespace detail_ctrl {
constexpr uint64_t kDefault = 1ull << 60;  // CTRL[60] (global saturation control) defaults to 1
inline uint64_t& reg() { return cbemu::ctx().ctrl; }
template <int startBit, int endBit>
constexpr uint64_t field_mask() {
    static_assert(0 <= startBit && startBit <= endBit && endBit <= 63, "CTRL bits are [0, 63], startBit <= endBit");
    return (endBit - startBit == 63 ? ~0ull : ((1ull << (endBit - startBit + 1)) - 1)) << startBit;
}
}  // namespace detail_ctrl
template <int startBit, int endBit>
inline void SetCtrlSpr(int64_t value) {
    constexpr uint64_t m = detail_ctrl::field_mask<startBit, endBit>();
    uint64_t& r = detail_ctrl::reg();
    r = (r & ~m) | (((uint64_t)value << startBit) & m);
}
template <int startBit, int endBit>
inline int64_t GetCtrlSpr() {
    constexpr uint64_t m = detail_ctrl::field_mask<startBit, endBit>();
    return (int64_t)((detail_ctrl::reg() & m) >> startBit);
}
template <int startBit, int endBit>
inline void ResetCtrlSpr() {
    constexpr uint64_t m = detail_ctrl::field_mask<startBit, endBit>();
    uint64_t& r = detail_ctrl::reg();
    r = (r & ~m) | (detail_ctrl::kDefault & m);
}

// ---- system resources ----
// The UB size the emulator enforces (the SoC's, see soc_ub_bytes), at run time.
inline uint32_t GetUBSizeInBytes() { return (uint32_t)cbemu::soc_ub_bytes(); }
inline uint32_t GetRuntimeUBSize() { return (uint32_t)cbemu::soc_ub_bytes(); }
// A monotonic counter at the A2/A3 system-counter rate of 50 MHz (one cycle = 20 ns).
inline int64_t GetSystemCycle() {
    auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                  std::chrono::steady_clock::now().time_since_epoch()).count();
    return (int64_t)(ns / 20);
}
template <typename T, typename U>
constexpr inline auto DivCeil(T a, U b) -> decltype(a / b) { return (a + b - 1) / b; }

}  // namespace AscendC
