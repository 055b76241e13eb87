// Mask and bitwise types the docs' lists leave out but the NPU build takes (asc-devkit dav_c220: the checks are
// CPU-debug asserts), run with the semantics the instructions have.
//   cmp16 : Compare and Compares (CompareScalar) write their bits into a uint16_t mask: the same bytes as uint8_t.
//           out: 2 x N/8 mask bytes (x < y, then x >= 0).
//   and8  : And<uint8_t> / Or<uint8_t> count form on A2: count is 16-bit lanes, so 16 covers 32 bytes of 64
//           (And.md 约束说明); the bytes after are left as they were (0xEE). out: 64 + 64 bytes.
//   and32 : And<int32_t> count 16: 16 lanes = 8 int32 elements of 16 (the docs: count doubled for 32-bit types).
// -DHALF_CMP_MASK: Compare into a half mask, a type no page lists for a mask: the build must refuse it.
#include <cstdio>
#include <cstring>
#include <string>

#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t N = 256;

__global__ __aicore__ void cmp16(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bm;
    pipe.InitBuffer(bx, N * sizeof(float)), pipe.InitBuffer(by, N * sizeof(float)), pipe.InitBuffer(bm, N / 4);
    LocalTensor<float> a = bx.Get<float>(), b = by.Get<float>();
    LocalTensor<uint16_t> m = bm.Get<uint16_t>();
    GlobalTensor<float> gx, gy;
    GlobalTensor<uint16_t> gz;
    gx.SetGlobalBuffer((__gm__ float*)x, N), gy.SetGlobalBuffer((__gm__ float*)y, N);
    gz.SetGlobalBuffer((__gm__ uint16_t*)z, N / 8);
    DataCopy(a, gx, N);
    DataCopy(b, gy, N);
    PipeBarrier<PIPE_ALL>();
    Compare(m, a, b, CMPMODE::LT, N);
    CompareScalar(m[N / 16], a, 0.0f, CMPMODE::GE, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, m, N / 8);
}

template <typename T>
__global__ __aicore__ void bitwise(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    constexpr uint32_t n = 64 / sizeof(T);  // 64 bytes each
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bd, bo;
    pipe.InitBuffer(bx, 64), pipe.InitBuffer(by, 64), pipe.InitBuffer(bd, 64), pipe.InitBuffer(bo, 64);
    LocalTensor<T> a = bx.Get<T>(), b = by.Get<T>(), d = bd.Get<T>(), o = bo.Get<T>();
    GlobalTensor<T> gx, gy, gz;
    gx.SetGlobalBuffer((__gm__ T*)x, n), gy.SetGlobalBuffer((__gm__ T*)y, n), gz.SetGlobalBuffer((__gm__ T*)z, 2 * n);
    DataCopy(a, gx, n);
    DataCopy(b, gy, n);
    Duplicate(d.template ReinterpretCast<uint16_t>(), (uint16_t)0xEEEE, 32);
    Duplicate(o.template ReinterpretCast<uint16_t>(), (uint16_t)0xEEEE, 32);
    PipeBarrier<PIPE_ALL>();
    And(d, a, b, 16);
    Or(o, a, b, 16);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, d, n);
    DataCopy(gz[n], o, n);
}

#ifdef HALF_CMP_MASK
__global__ __aicore__ void half_mask(GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bm, ba;
    pipe.InitBuffer(bm, N * sizeof(half)), pipe.InitBuffer(ba, N * sizeof(float));
    LocalTensor<half> m = bm.Get<half>();
    LocalTensor<float> a = ba.Get<float>();
    Compare(m, a, a, CMPMODE::EQ, N);
}
#endif

int main(int argc, char** argv) {
    std::string c = argc > 1 ? argv[1] : "";
    uint8_t* x = (uint8_t*)GmAlloc(N * sizeof(float));
    uint8_t* y = (uint8_t*)GmAlloc(N * sizeof(float));
    uint8_t* z = (uint8_t*)GmAlloc(N * sizeof(float));
    size_t out = 128;
    if (c == "cmp16") {
        for (uint32_t i = 0; i < N; ++i) ((float*)x)[i] = (float)(i % 7) - 3.0f, ((float*)y)[i] = (float)(i % 5) - 2.0f;
        ICPU_RUN_KF(cmp16, 1, x, y, z);
        out = N / 4;
    } else {
        for (uint32_t i = 0; i < 64; ++i) x[i] = (uint8_t)(i * 37 + 11), y[i] = (uint8_t)(i * 91 + 5);
        if (c == "and8") ICPU_RUN_KF(bitwise<uint8_t>, 1, x, y, z);
        else ICPU_RUN_KF(bitwise<int32_t>, 1, x, y, z);
    }
    for (size_t i = 0; i < out; ++i) std::printf("%u ", z[i]);
    std::printf("\n");
    return 0;
}
