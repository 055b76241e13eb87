// False passes of the queue / buffer / scratch class and the poisoned-memory class: each kernel computed the right
// answer on the old emulator (which never checked these, or started every GM buffer at zero), and each breaks a rule
// its doc states.
#include "case.h"

using fp::N;

namespace {

template <typename T>
GlobalTensor<T> gm(GM_ADDR p, uint32_t n = N) {
    GlobalTensor<T> g;
    g.SetGlobalBuffer((__gm__ T*)p, n);
    return g;
}

// Two tensors enqueued into a depth-1 TQue before either is dequeued: the real TQueBind::EnQue asserts
// `usedCount < depth` (kernel_tquebind_impl.h). FIX declares the depth the code uses. z = x + y.
template <int DEPTH>
__global__ __aicore__ void depth_k(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TQue<TPosition::VECIN, DEPTH> qin;
    TQue<TPosition::VECOUT, 1> qout;
    pipe.InitBuffer(qin, 2, N * 4), pipe.InitBuffer(qout, 1, N * 4);
    LocalTensor<float> a = qin.template AllocTensor<float>(), b = qin.template AllocTensor<float>();
    DataCopy(a, gm<float>(x), N);
    DataCopy(b, gm<float>(y), N);
    qin.EnQue(a);
    qin.EnQue(b);
    a = qin.template DeQue<float>();
    b = qin.template DeQue<float>();
    LocalTensor<float> c = qout.AllocTensor<float>();
    Add(c, a, b, N);
    qout.EnQue(c);
    qin.FreeTensor(a), qin.FreeTensor(b);
    c = qout.DeQue<float>();
    DataCopy(gm<float>(z), c, N);
    qout.FreeTensor(c);
}

// InitBuffer.md: "一个kernel中所有使用的Buffer数量之和不能超过64". 65 TBufs (64 in the twin); z = x * 2.
template <int BUFS>
__global__ __aicore__ void buffers_k(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> io;
    TBuf<TPosition::VECCALC> extra[BUFS - 1];
    pipe.InitBuffer(io, N * 4);
    for (auto& b : extra) pipe.InitBuffer(b, 32);
    auto t = io.Get<float>();
    DataCopy(t, gm<float>(x), N);
    PipeBarrier<PIPE_ALL>();
    Muls(t, t, 2.0f, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gm<float>(z), t, N);
}

// ReduceMax.md 关键特性说明: without the index the sharedTmpBuffer needs ceil(2 * repeats / 8) * 8 floats, here
// repeats = 2048 / 64 = 32 -> 64 floats. The broken kernel passes 8. z[0] = max(x).
template <uint32_t TMP>
__global__ __aicore__ void reducemax_k(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    constexpr uint32_t M = 2048;
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bt, bz;
    pipe.InitBuffer(bx, M * 4), pipe.InitBuffer(bt, TMP * 4), pipe.InitBuffer(bz, 32);
    auto a = bx.Get<float>(), t = bt.Get<float>(), r = bz.Get<float>();
    DataCopy(a, gm<float>(x, M), M);
    PipeBarrier<PIPE_ALL>();
    ReduceMax(r, a, t, (int32_t)M, false);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gm<float>(z, 8), r, 8);
}

// ReduceSum.md: the repeat form (方式二) needs ceil(repeatTime / 8) * 8 floats of sharedTmpBuffer: 24 for 20 repeats.
template <uint32_t TMP>
__global__ __aicore__ void reducesum_k(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    constexpr int32_t REPEATS = 20;
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bt, bz;
    pipe.InitBuffer(bx, REPEATS * 256), pipe.InitBuffer(bt, TMP * 4), pipe.InitBuffer(bz, 32);
    auto a = bx.Get<float>(), t = bt.Get<float>(), r = bz.Get<float>();
    DataCopy(a, gm<float>(x, REPEATS * 64), REPEATS * 64);
    PipeBarrier<PIPE_ALL>();
    ReduceSum(r, a, t, 64, REPEATS, 8);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gm<float>(z, 8), r, 8);
}

// Sin.md: isReuseSource = true lets Sin compute in src's memory, so src is garbage afterwards; this kernel reads it
// again. z = sin(x) + x.
template <bool REUSE>
__global__ __aicore__ void sin_k(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bs, bz;
    pipe.InitBuffer(bx, N * 4), pipe.InitBuffer(bs, N * 4), pipe.InitBuffer(bz, N * 4);
    auto a = bx.Get<float>(), s = bs.Get<float>(), c = bz.Get<float>();
    DataCopy(a, gm<float>(x), N);
    PipeBarrier<PIPE_ALL>();
    Sin<float, REUSE>(s, a, N);
    Add(c, s, a, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gm<float>(z), c, N);
}

// A depth-1 VECIN queue with one buffer, two tiles, no FreeTensor: the second AllocTensor waits forever for a buffer
// (AllocTensor.md; the emulator: alloc_exhausted). z = 2 * (x ++ y).
template <bool FIX>
__global__ __aicore__ void free_k(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qin;
    TQue<TPosition::VECOUT, 1> qout;
    pipe.InitBuffer(qin, 1, N * 4), pipe.InitBuffer(qout, 1, N * 4);
    GM_ADDR src[2] = {x, y};
    for (int k = 0; k < 2; ++k) {
        LocalTensor<float> a = qin.AllocTensor<float>();
        DataCopy(a, gm<float>(src[k]), N);
        qin.EnQue(a);
        a = qin.DeQue<float>();
        LocalTensor<float> c = qout.AllocTensor<float>();
        Muls(c, a, 2.0f, N);
        qout.EnQue(c);
        if (FIX) qin.FreeTensor(a);
        c = qout.DeQue<float>();
        DataCopy(gm<float>(z + k * N * 4), c, N);
        qout.FreeTensor(c);
    }
}

// Not a false pass but the other way round: a queue buffer never freed at the end is a warning, not a failure (the
// real implementation does not check it). z = x * 2.
__global__ __aicore__ void leak_k(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qin;
    TQue<TPosition::VECOUT, 1> qout;
    pipe.InitBuffer(qin, 1, N * 4), pipe.InitBuffer(qout, 1, N * 4);
    LocalTensor<float> a = qin.AllocTensor<float>();
    DataCopy(a, gm<float>(x), N);
    qin.EnQue(a);
    a = qin.DeQue<float>();
    LocalTensor<float> c = qout.AllocTensor<float>();
    Muls(c, a, 2.0f, N);
    qout.EnQue(c);
    c = qout.DeQue<float>();
    DataCopy(gm<float>(z), c, N);
    qout.FreeTensor(c);  // a is never freed
}

// SetAtomicAdd.md: GM is not cleared before an atomic accumulation. The output comes from aclrtMalloc (device memory
// as the NPU program gets it); FIX clears it first (aclrtMemset). z = x.
__global__ __aicore__ void atomic_k(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx;
    pipe.InitBuffer(bx, N * 4);
    auto a = bx.Get<float>();
    DataCopy(a, gm<float>(x), N);
    PipeBarrier<PIPE_ALL>();
    SetAtomicAdd<float>();
    DataCopy(gm<float>(z), a, N);
    SetAtomicNone();
}

// y is never copied in: the kernel adds whatever its UB held (nothing on the chip clears it). z = x + y.
template <bool FIX>
__global__ __aicore__ void unloaded_k(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bz;
    pipe.InitBuffer(bx, N * 4), pipe.InitBuffer(by, N * 4), pipe.InitBuffer(bz, N * 4);
    auto a = bx.Get<float>(), b = by.Get<float>(), c = bz.Get<float>();
    DataCopy(a, gm<float>(x), N);
    if (FIX) DataCopy(b, gm<float>(y), N);
    PipeBarrier<PIPE_ALL>();
    Add(c, a, b, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gm<float>(z), c, N);
}

// 250 floats copied out with the count form of DataCopy: "DataCopy（GM与UB连续数据搬运）.md" moves whole 32-byte
// blocks only, so the last 2 elements never reach the (uncleared, aclrtMalloc'd) output. FIX uses DataCopyPad.
// z = x * 2 for 250 elements.
template <bool FIX>
__global__ __aicore__ void tail_k(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    constexpr uint32_t M = 250;
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx;
    pipe.InitBuffer(bx, N * 4);
    auto a = bx.Get<float>();
    DataCopyPad(a, gm<float>(x, M), DataCopyExtParams(1, M * 4, 0, 0, 0), DataCopyPadExtParams<float>());
    PipeBarrier<PIPE_ALL>();
    Muls(a, a, 2.0f, N);
    PipeBarrier<PIPE_ALL>();
    if (FIX) DataCopyPad(gm<float>(z, M), a, DataCopyExtParams(1, M * 4, 0, 0, 0));
    else DataCopy(gm<float>(z, M), a, M);
}

// Cast.md's table lists CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC for half -> int32_t: CAST_NONE is
// not one of them (the real CastIntrinsicsImpl asserts "CAST_NONE from half to int32_t is not supported" and converts
// nothing). z = rint(x) as int32.
template <bool FIX>
__global__ __aicore__ void cast_mode_k(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bz;
    pipe.InitBuffer(bx, N * 2), pipe.InitBuffer(bz, N * 4);
    auto a = bx.Get<half>();
    auto c = bz.Get<int32_t>();
    DataCopy(a, gm<half>(x), N);
    PipeBarrier<PIPE_ALL>();
    Cast(c, a, FIX ? RoundMode::CAST_RINT : RoundMode::CAST_NONE, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gm<int32_t>(z), c, N);
}
// ... and only CAST_NONE for half -> float ("only support CAST_NONE from half to float"). z = x as float.
template <bool FIX>
__global__ __aicore__ void cast_widen_k(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bz;
    pipe.InitBuffer(bx, N * 2), pipe.InitBuffer(bz, N * 4);
    auto a = bx.Get<half>();
    auto c = bz.Get<float>();
    DataCopy(a, gm<half>(x), N);
    PipeBarrier<PIPE_ALL>();
    Cast(c, a, FIX ? RoundMode::CAST_NONE : RoundMode::CAST_RINT, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gm<float>(z), c, N);
}

template <void (*K)(GM_ADDR, GM_ADDR, GM_ADDR), uint32_t OUT = N * 4>
void run() {
    uint8_t *x = fp::input<float>(2048, fp::xval), *y = fp::input<float>(2048, fp::yval), *z = fp::output(OUT);
    ICPU_RUN_KF(K, 1, x, y, z);
    fp::save(z, OUT);
}
template <void (*K)(GM_ADDR, GM_ADDR, GM_ADDR)>
void run_half_in() {
    uint8_t *x = fp::input<half>(N, fp::xval), *y = fp::output(32), *z = fp::output(N * 4);
    ICPU_RUN_KF(K, 1, x, y, z);
    fp::save(z, N * 4);
}
void run_device_out(void (*k)(GM_ADDR, GM_ADDR, GM_ADDR), bool clear) {
    uint8_t *x = fp::input<float>(N, fp::xval), *y = fp::input<float>(N, fp::yval), *z = fp::device_output(N * 4);
    if (clear) aclrtMemset(z, N * 4, 0, N * 4);
    cotbuilder::launch(k, 1, x, y, z);
    fp::save(z, N * 4);
}

}  // namespace

FP_CASE(enque_over_depth) { run<depth_k<1>>(); }
FP_CASE(enque_over_depth__fixed) { run<depth_k<2>>(); }
FP_CASE(buffers_over_64) { run<buffers_k<65>>(); }
FP_CASE(buffers_over_64__fixed) { run<buffers_k<64>>(); }
FP_CASE(reducemax_tmp_too_small) { run<reducemax_k<8>, 32>(); }
FP_CASE(reducemax_tmp_too_small__fixed) { run<reducemax_k<64>, 32>(); }
FP_CASE(reducesum_tmp_too_small) { run<reducesum_k<8>, 32>(); }
FP_CASE(reducesum_tmp_too_small__fixed) { run<reducesum_k<24>, 32>(); }
FP_CASE(sin_reuse_source) { run<sin_k<true>>(); }
FP_CASE(sin_reuse_source__fixed) { run<sin_k<false>>(); }
FP_CASE(free_missing) { run<free_k<false>, 2 * N * 4>(); }
FP_CASE(free_missing__fixed) { run<free_k<true>, 2 * N * 4>(); }
FP_CASE(leak_at_end_is_a_warning__fixed) { run<leak_k>(); }
FP_CASE(atomic_into_uncleared_gm) { run_device_out(atomic_k, false); }
FP_CASE(atomic_into_uncleared_gm__fixed) { run_device_out(atomic_k, true); }
FP_CASE(ub_never_loaded) { run<unloaded_k<false>>(); }
FP_CASE(ub_never_loaded__fixed) { run<unloaded_k<true>>(); }
FP_CASE(tail_not_copied) { run_device_out(tail_k<false>, false); }
FP_CASE(tail_not_copied__fixed) { run_device_out(tail_k<true>, false); }
FP_CASE(cast_none_half_to_int32) { run_half_in<cast_mode_k<false>>(); }
FP_CASE(cast_none_half_to_int32__fixed) { run_half_in<cast_mode_k<true>>(); }
FP_CASE(cast_rint_half_to_float) { run_half_in<cast_widen_k<false>>(); }
FP_CASE(cast_rint_half_to_float__fixed) { run_half_in<cast_widen_k<true>>(); }

FP_MAIN
