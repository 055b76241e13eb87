// PairReduceSum on two repeats of 64 floats: argv[1] = "full" (mask 64, dstRepStride 1) or "masked" (mask 5:
// two whole pairs and one half pair per repeat, dstRepStride 2). Prints dst[0..127].
#include <cstdio>
#include <cstring>
#include <string>

#include "kernel_operator.h"

using namespace AscendC;

static bool masked = false;

extern "C" __global__ __aicore__ void pair_kernel(GM_ADDR x, GM_ADDR y) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, 128 * sizeof(float));
    pipe.InitBuffer(b, 128 * sizeof(float));
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float*)x, 128);
    gy.SetGlobalBuffer((__gm__ float*)y, 128);
    LocalTensor<float> src = a.Get<float>(), dst = b.Get<float>();
    DataCopy(src, gx, 128);
    Duplicate(dst, -1.0f, 128);
    PipeBarrier<PIPE_ALL>();
    if (masked) PairReduceSum<float>(dst, src, 2, 5, 2, 1, 8);
    else PairReduceSum<float>(dst, src, 2, 64, 1, 1, 8);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, dst, 128);
}

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    masked = std::string(argv[1]) == "masked";
    float* x = (float*)GmAlloc(128 * sizeof(float));
    float* y = (float*)GmAlloc(128 * sizeof(float));
    for (int i = 0; i < 128; ++i) x[i] = (float)i;
    ICPU_RUN_KF(pair_kernel, 1, (uint8_t*)x, (uint8_t*)y);
    for (int i = 0; i < 128; ++i) std::printf("%g ", y[i]);
    std::printf("\n");
    return 0;
}
