// False passes of the multi-core class: the old emulator ran the blocks almost one after another, so these were
// right every time. On hardware cores run concurrently and are ordered only by SyncAll and the GM-flag syncs
// (SyncAll.md, IBSet.md / IBWait.md), and at most the SoC's cores run at once.
#include "case.h"

using fp::N;

namespace {

constexpr uint32_t CORES = 8;

template <typename T>
GlobalTensor<T> gm(GM_ADDR p, uint32_t n) {
    GlobalTensor<T> g;
    g.SetGlobalBuffer((__gm__ T*)p, n);
    return g;
}

// SyncAll.md: "算子调用时指定的逻辑AI Core核数numBlocks必须保证不大于实际运行该算子的AI处理器核数，否则...卡死".
// Each block doubles its 8 elements, SyncAll, and writes them. The broken launch uses 64 blocks on a 48-core SoC.
__global__ __aicore__ void syncall_blocks(GM_ADDR x, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 32);
    auto t = b.Get<float>();
    DataCopy(t, gm<float>(x + GetBlockIdx() * 32, 8), 8);
    PipeBarrier<PIPE_ALL>();
    Muls(t, t, 2.0f, 8);
    SyncAll();
    PipeBarrier<PIPE_ALL>();
    DataCopy(gm<float>(z + GetBlockIdx() * 32, 8), t, 8);
}

// Each core writes its slice of x * 2, then reads its left neighbour's slice from GM and adds its own: the read of
// another core's output needs a SyncAll in between. z[b] = 2 x[b] + 2 x[b-1].
template <bool FIX>
__global__ __aicore__ void neighbour(GM_ADDR x, GM_ADDR ws, GM_ADDR z) {
    const uint32_t S = N / CORES, b = GetBlockIdx(), left = (b + CORES - 1) % CORES;
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bn;
    pipe.InitBuffer(ba, S * 4), pipe.InitBuffer(bn, S * 4);
    auto a = ba.Get<float>(), n = bn.Get<float>();
    DataCopy(a, gm<float>(x + b * S * 4, S), S);
    PipeBarrier<PIPE_ALL>();
    Muls(a, a, 2.0f, S);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gm<float>(ws + b * S * 4, S), a, S);
    PipeBarrier<PIPE_ALL>();
    if (FIX) SyncAll();
    DataCopy(n, gm<float>(ws + left * S * 4, S), S);
    PipeBarrier<PIPE_ALL>();
    Add(a, a, n, S);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gm<float>(z + b * S * 4, S), a, S);
}

// 8 cores x 100 increments of one GM counter by scalar read-modify-write: updates are lost when two cores
// interleave. FIX uses the scalar atomic (AtomicAdd.md). z[0] = 800.
template <bool FIX>
__global__ __aicore__ void counter(GM_ADDR x, GM_ADDR ws, GM_ADDR z) {
    GlobalTensor<int32_t> c = gm<int32_t>(z, 8);
    for (int i = 0; i < 100; ++i) {
        if (FIX) {
            AtomicAdd((__gm__ int32_t*)z, (int32_t)1);
        } else {
            int32_t v = c.GetValue(0);
            c.SetValue(0, v + 1);
        }
    }
}

// Core 0 zeroes the output, then every core accumulates its slice into it with SetAtomicAdd: without a SyncAll the
// zeroing may land after another core's accumulation. z = sum over cores of x-slices.
template <bool FIX>
__global__ __aicore__ void init_then_atomic(GM_ADDR x, GM_ADDR ws, GM_ADDR z) {
    const uint32_t S = N / CORES;
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba;
    pipe.InitBuffer(ba, S * 4);
    auto a = ba.Get<float>();
    if (GetBlockIdx() == 0) {
        Duplicate(a, 0.0f, S);
        PipeBarrier<PIPE_ALL>();
        DataCopy(gm<float>(z, S), a, S);
        PipeBarrier<PIPE_ALL>();
    }
    if (FIX) SyncAll();
    DataCopy(a, gm<float>(x + GetBlockIdx() * S * 4, S), S);
    PipeBarrier<PIPE_ALL>();
    SetAtomicAdd<float>();
    DataCopy(gm<float>(z, S), a, S);
    SetAtomicNone();
}

// IBWait on a flag no block will ever set (the broken chain waits on block b+1 instead of b-1): hangs on hardware.
// The chain passes a running count: z[b] = b.
template <bool FIX>
__global__ __aicore__ void ib_chain(GM_ADDR x, GM_ADDR ws, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bu;
    pipe.InitBuffer(bu, 32);
    auto u = bu.Get<int32_t>();
    GlobalTensor<int32_t> flags = gm<int32_t>(ws, CORES * 8);
    int32_t b = (int32_t)GetBlockIdx();
    if (b > 0) IBWait(flags, u, FIX ? b - 1 : b + 1, 0);
    gm<int32_t>(z, CORES).SetValue(b, b);
    DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(gm<int32_t>(z, CORES));
    IBSet(flags, u, b, 0);
}

void run(void (*k)(GM_ADDR, GM_ADDR, GM_ADDR), uint32_t blocks) {
    uint8_t *x = fp::input<float>(N, fp::xval), *ws = fp::output(N * 4), *z = fp::output(N * 4);
    cotbuilder::launch(k, blocks, x, ws, z);
    fp::save(z, N * 4);
}

}  // namespace

FP_CASE(syncall_over_cores) {
    uint8_t *x = fp::input<float>(64 * 8, fp::xval), *z = fp::output(64 * 32);
    ICPU_RUN_KF(syncall_blocks, 64, x, z);
    fp::save(z, 64 * 32);
}
FP_CASE(syncall_over_cores__fixed) {
    uint8_t *x = fp::input<float>(48 * 8, fp::xval), *z = fp::output(48 * 32);
    ICPU_RUN_KF(syncall_blocks, 48, x, z);
    fp::save(z, 48 * 32);
}
FP_CASE(neighbour_without_syncall) { run(neighbour<false>, CORES); }
FP_CASE(neighbour_without_syncall__fixed) { run(neighbour<true>, CORES); }
FP_CASE(counter_rmw) { run(counter<false>, CORES); }
FP_CASE(counter_rmw__fixed) { run(counter<true>, CORES); }
FP_CASE(init_then_atomic) { run(init_then_atomic<false>, CORES); }
FP_CASE(init_then_atomic__fixed) { run(init_then_atomic<true>, CORES); }
FP_CASE(ibwait_never_set) { run(ib_chain<false>, CORES); }
FP_CASE(ibwait_never_set__fixed) { run(ib_chain<true>, CORES); }

FP_MAIN
