// Cast float -> float with a rounding mode: argv[1] in rint|floor|ceil|round|trunc; prints the 8 results.
#include <cstdio>
#include <cstring>
#include <string>

#include "kernel_operator.h"

using namespace AscendC;

static RoundMode mode = RoundMode::CAST_NONE;

extern "C" __global__ __aicore__ void cast_kernel(GM_ADDR x) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, 8 * sizeof(float));
    pipe.InitBuffer(b, 8 * sizeof(float));
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)x, 8);
    LocalTensor<float> src = a.Get<float>(), dst = b.Get<float>();
    DataCopy(src, g, 8);
    PipeBarrier<PIPE_ALL>();
    Cast(dst, src, mode, 8);
    PipeBarrier<PIPE_ALL>();
    DataCopy(g, dst, 8);
}

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    std::string m = argv[1];
    mode = m == "rint" ? RoundMode::CAST_RINT : m == "floor" ? RoundMode::CAST_FLOOR : m == "ceil" ? RoundMode::CAST_CEIL
         : m == "round" ? RoundMode::CAST_ROUND : m == "trunc" ? RoundMode::CAST_TRUNC : RoundMode::CAST_NONE;
    const float in[8] = {-2.5f, -1.5f, -0.5f, 0.5f, 1.5f, 2.5f, 1.25f, -1.75f};
    float* x = (float*)GmAlloc(8 * sizeof(float));
    std::memcpy(x, in, sizeof(in));
    ICPU_RUN_KF(cast_kernel, 1, (uint8_t*)x);
    for (int i = 0; i < 8; ++i) std::printf("%g ", x[i]);
    std::printf("\n");
    return 0;
}
