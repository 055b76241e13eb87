// False passes of the numerics class: the old emulator summed in double and kept IEEE inf / NaN, kinder than the
// hardware. ReduceSum.md 关键特性说明: A2's count form adds each repeat as a binary tree and the repeat results in
// order, every step rounded to half; SetCtrlSpr(ISASI).md: half results saturate by default (inf -> +-65504,
// NaN -> 0), and precision_conversion.md: "溢出默认按照饱和模式处理". Each twin computes in float.
#include "case.h"

using fp::N;

namespace {

constexpr uint32_t M = 4096;
inline float sumval(uint32_t i) { return 1.0f + (float)(i % 3) * 0.07f; }  // rounded to half by fp::input<half>

template <typename T>
GlobalTensor<T> gm(GM_ADDR p, uint32_t n = N) {
    GlobalTensor<T> g;
    g.SetGlobalBuffer((__gm__ T*)p, n);
    return g;
}

// The sum of 4096 halves near 1.07 computed by ReduceSum<half>: 0.36% off after the in-order half additions.
template <bool FIX>
__global__ __aicore__ void sum_k(GM_ADDR x, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bf, bt, br, bh;
    pipe.InitBuffer(bx, M * 2), pipe.InitBuffer(bf, M * 4), pipe.InitBuffer(bt, 256), pipe.InitBuffer(br, 32),
        pipe.InitBuffer(bh, 32);
    auto a = bx.Get<half>();
    auto h = bh.Get<half>();
    DataCopy(a, gm<half>(x, M), M);
    PipeBarrier<PIPE_ALL>();
    if (FIX) {
        auto f = bf.Get<float>(), t = bt.Get<float>(), r = br.Get<float>();
        Cast(f, a, RoundMode::CAST_NONE, M);
        ReduceSum(r, f, t, (int32_t)M);
        Cast(h, r, RoundMode::CAST_RINT, 8);
    } else {
        ReduceSum(h, a, bt.Get<half>(), (int32_t)M);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(gm<half>(z, 16), h, 16);
}

// x * 40000 in float, then Cast to half: |x| > 1.6375 overflows, and the hardware saturates to +-65504 instead of
// the inf numpy's astype gives. The twin keeps the float.
template <bool FIX>
__global__ __aicore__ void cast_k(GM_ADDR x, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bh;
    pipe.InitBuffer(bx, N * 4), pipe.InitBuffer(bh, N * 2);
    auto a = bx.Get<float>();
    auto h = bh.Get<half>();
    DataCopy(a, gm<float>(x), N);
    PipeBarrier<PIPE_ALL>();
    Muls(a, a, 40000.0f, N);
    if (!FIX) Cast(h, a, RoundMode::CAST_RINT, N);
    PipeBarrier<PIPE_ALL>();
    if (FIX) DataCopy(gm<float>(z), a, N);
    else DataCopy(gm<half>(z), h, N);
}

// The same overflow inside half arithmetic: Muls<half> by 40000.
template <bool FIX>
__global__ __aicore__ void muls_k(GM_ADDR x, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bh, bf;
    pipe.InitBuffer(bh, N * 2), pipe.InitBuffer(bf, N * 4);
    auto h = bh.Get<half>();
    auto f = bf.Get<float>();
    DataCopy(h, gm<half>(x), N);
    PipeBarrier<PIPE_ALL>();
    if (FIX) {
        Cast(f, h, RoundMode::CAST_NONE, N);
        Muls(f, f, 40000.0f, N);
    } else {
        Muls(h, h, (half)40000.0f, N);
    }
    PipeBarrier<PIPE_ALL>();
    if (FIX) DataCopy(gm<float>(z), f, N);
    else DataCopy(gm<half>(z), h, N);
}

// x / (x + 0) in half where x has zeros: 0/0 is NaN in IEEE, 0 under the default saturation; and 1/0 is 65504.
// z = 1 / x.
template <bool FIX>
__global__ __aicore__ void div_k(GM_ADDR x, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bh, bo, bf, bof;
    pipe.InitBuffer(bh, N * 2), pipe.InitBuffer(bo, N * 2), pipe.InitBuffer(bf, N * 4), pipe.InitBuffer(bof, N * 4);
    auto h = bh.Get<half>(), o = bo.Get<half>();
    auto f = bf.Get<float>(), of = bof.Get<float>();
    DataCopy(h, gm<half>(x), N);
    PipeBarrier<PIPE_ALL>();
    if (FIX) {
        Cast(f, h, RoundMode::CAST_NONE, N);
        Duplicate(of, 1.0f, N);
        Div(f, of, f, N);
    } else {
        Duplicate(o, (half)1.0f, N);
        Div(h, o, h, N);
    }
    PipeBarrier<PIPE_ALL>();
    if (FIX) DataCopy(gm<float>(z), f, N);
    else DataCopy(gm<half>(z), h, N);
}

template <typename In, void (*K)(GM_ADDR, GM_ADDR)>
void run(uint32_t n, float (*f)(uint32_t), size_t out) {
    uint8_t *x = fp::input<In>(n, f), *z = fp::output(out);
    ICPU_RUN_KF(K, 1, x, z);
    fp::save(z, out);
}

}  // namespace

FP_CASE(reducesum_half_rounds_each_step) { run<half, sum_k<false>>(M, sumval, 32); }
FP_CASE(reducesum_half_rounds_each_step__fixed) { run<half, sum_k<true>>(M, sumval, 32); }
// The other direction: a kernel that counts on half results saturating (a clamp to +-65504 by overflow) without
// setting the mode is wrong under A2's default runtime, whose launches start in Inf/NaN mode; the twin sets it.
template <bool FIX>
__global__ __aicore__ void sat_k(GM_ADDR x, GM_ADDR z) {
    if (FIX) AscendCUtils::SetOverflow(0);
    muls_k<false>(x, z);
}

FP_CASE(cast_overflow_saturates) { run<float, cast_k<false>>(N, fp::xval, N * 2); }
FP_CASE(cast_overflow_saturates__fixed) { run<float, cast_k<true>>(N, fp::xval, N * 4); }
FP_CASE(half_muls_overflow_saturates) { run<half, muls_k<false>>(N, fp::xval, N * 2); }
FP_CASE(half_muls_overflow_saturates__fixed) { run<half, muls_k<true>>(N, fp::xval, N * 4); }
FP_CASE(half_div_by_zero_saturates) { run<half, div_k<false>>(N, fp::xval, N * 2); }
FP_CASE(half_div_by_zero_saturates__fixed) { run<half, div_k<true>>(N, fp::xval, N * 4); }

FP_CASE(half_overflow_counts_on_saturation) { run<half, sat_k<false>>(N, fp::xval, N * 2); }
FP_CASE(half_overflow_counts_on_saturation__fixed) { run<half, sat_k<true>>(N, fp::xval, N * 2); }

FP_MAIN
