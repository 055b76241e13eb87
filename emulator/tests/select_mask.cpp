// Select driven by the mask Compare writes: Compare.md lists int8_t and uint8_t for that mask, Select.md lists only
// unsigned types for selMask, which is read bit by bit. The kernel keeps x where x < y and writes 0 elsewhere, with
// the mask held in int8_t (argv[1] = "i8") or uint8_t ("u8"). -DHALF_MASK reads the mask as half, a type no page
// lists for a mask: the build must refuse it, naming Select.
#include <cstdio>
#include <cstring>
#include <string>

#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t N = 256;

template <typename M>
__global__ __aicore__ void less_keep(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bm, bz;
    pipe.InitBuffer(bx, N * sizeof(float)), pipe.InitBuffer(by, N * sizeof(float));
    pipe.InitBuffer(bm, N / 8), pipe.InitBuffer(bz, N * sizeof(float));
    LocalTensor<float> a = bx.Get<float>(), b = by.Get<float>(), c = bz.Get<float>();
    LocalTensor<M> m = bm.Get<M>();
    GlobalTensor<float> gx, gy, gz;
    gx.SetGlobalBuffer((__gm__ float*)x, N), gy.SetGlobalBuffer((__gm__ float*)y, N), gz.SetGlobalBuffer((__gm__ float*)z, N);
    DataCopy(a, gx, N);
    DataCopy(b, gy, N);
    PipeBarrier<PIPE_ALL>();
    Compare(m, a, b, CMPMODE::LT, N);
    Select(c, m, a, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, c, N);
}

#ifdef HALF_MASK
__global__ __aicore__ void half_mask(GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bm, bz;
    pipe.InitBuffer(bm, N * sizeof(half)), pipe.InitBuffer(bz, N * sizeof(float));
    LocalTensor<half> m = bm.Get<half>();
    LocalTensor<float> c = bz.Get<float>();
    Select(c, m, c, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, N);
}
#endif

int main(int argc, char** argv) {
    std::string c = argc > 1 ? argv[1] : "";
    float* x = (float*)GmAlloc(N * sizeof(float));
    float* y = (float*)GmAlloc(N * sizeof(float));
    float* z = (float*)GmAlloc(N * sizeof(float));
    for (uint32_t i = 0; i < N; ++i) x[i] = (float)(i % 7) - 3.0f, y[i] = (float)(i % 5) - 2.0f;
    if (c == "i8") ICPU_RUN_KF(less_keep<int8_t>, 1, (uint8_t*)x, (uint8_t*)y, (uint8_t*)z);
    else ICPU_RUN_KF(less_keep<uint8_t>, 1, (uint8_t*)x, (uint8_t*)y, (uint8_t*)z);
    for (uint32_t i = 0; i < N; ++i) std::printf("%g ", z[i]);
    std::printf("\n");
    return 0;
}
