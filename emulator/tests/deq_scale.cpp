// Cast int32_t -> half (s322fp16) goes through the DEQSCALE register (SetDeqScale.md): 16 integers cast once before
// any SetDeqScale, once after SetDeqScale(0.5), once after SetDeqScale(1.0) (the rounding idiom of RmsNorm-style
// kernels: float -> int32 with CAST_RINT, then back to half unscaled). Prints the three rows.
#include <cstdio>

#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t N = 16;

extern "C" __global__ __aicore__ void deq_kernel(GM_ADDR x, GM_ADDR y) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, N * sizeof(int32_t));
    pipe.InitBuffer(b, 3 * N * sizeof(half));
    GlobalTensor<int32_t> xg;
    GlobalTensor<half> yg;
    xg.SetGlobalBuffer((__gm__ int32_t*)x, N);
    yg.SetGlobalBuffer((__gm__ half*)y, 3 * N);
    LocalTensor<int32_t> src = a.Get<int32_t>();
    LocalTensor<half> dst = b.Get<half>();
    DataCopy(src, xg, N);
    PipeBarrier<PIPE_ALL>();
    Cast(dst, src, RoundMode::CAST_NONE, N);
    PipeBarrier<PIPE_V>();
    SetDeqScale((half)0.5f);
    PipeBarrier<PIPE_V>();
    Cast(dst[N], src, RoundMode::CAST_NONE, N);
    PipeBarrier<PIPE_V>();
    SetDeqScale((half)1.000000e+00f);
    PipeBarrier<PIPE_V>();
    Cast(dst[2 * N], src, RoundMode::CAST_NONE, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, dst, 3 * N);
}

int main() {
    int32_t* x = (int32_t*)GmAlloc(N * sizeof(int32_t));
    half* y = (half*)GmAlloc(3 * N * sizeof(half));
    for (int i = 0; i < N; ++i) x[i] = (i - 8) * 3;
    ICPU_RUN_KF(deq_kernel, 1, (uint8_t*)x, (uint8_t*)y);
    for (int row = 0; row < 3; ++row) {
        for (int i = 0; i < N; ++i) std::printf("%g ", (float)y[row * N + i]);
        std::printf("\n");
    }
    return 0;
}
