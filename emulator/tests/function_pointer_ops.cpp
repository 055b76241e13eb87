// A kernel that passes AscendC APIs as function-pointer template arguments, in the toolkit's types (the Foreach style:
// one kernel class for every unary or binary op): Add, Muls, Exp and Acos through pointers, Sub called directly. It
// prints the results of 4 elements per op; with -DWRONG_CALL it also calls Add with an extra argument (must not build);
// run with the argument `overrun`, the Acos call through its pointer runs past the end of the buffer (the emulator's
// checks must still catch it: the address form skips nothing but the caller's line).
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
using UnaryCount = void(const LocalTensor<T>&, const LocalTensor<T>&, const int32_t&);
template <typename T>
using BinaryCount = void(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, const int32_t&);
template <typename T>
using ScalarCount = void(const LocalTensor<T>&, const LocalTensor<T>&, const T&, const int32_t&);
template <typename T>
using MathCount = void(const LocalTensor<T>&, const LocalTensor<T>&, const uint32_t);

constexpr int32_t N = 64;  // one 256-byte block of float
uint32_t g_extra = 0;      // elements past the buffer's end for the call through the pointer (0: none)

template <BinaryCount<float>* binary, ScalarCount<float>* scalar, UnaryCount<float>* unary, MathCount<float>* math>
class Ops {
public:
    __aicore__ inline void Run(GM_ADDR x, GM_ADDR out) {
        xGm.SetGlobalBuffer((__gm__ float*)x, N);
        outGm.SetGlobalBuffer((__gm__ float*)out, 5 * N);
        pipe.InitBuffer(buf, 6 * N * sizeof(float));
        LocalTensor<float> all = buf.Get<float>();
        LocalTensor<float> xl = all[0];
        DataCopy(xl, xGm, N);
        PipeBarrier<PIPE_ALL>();
        binary(all[N], xl, xl, N);           // x + x
        scalar(all[2 * N], xl, 3.0f, N);     // x * 3
        unary(all[3 * N], xl, N);            // exp(x)
        math(all[4 * N], xl, (uint32_t)N + g_extra);  // acos(x)
        Sub(all[5 * N], xl, xl, N);          // a direct call still reports its own line
#ifdef WRONG_CALL
        Add(all[N], xl, xl, N, 1);
#endif
        PipeBarrier<PIPE_ALL>();
        DataCopy(outGm, all[N], 5 * N);
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<float> xGm, outGm;
};

extern "C" __global__ __aicore__ void ops(GM_ADDR x, GM_ADDR out) {
    Ops<Add<float>, Muls<float>, Exp<float>, Acos<float, false>> op;
    op.Run(x, out);
}

int main(int argc, char** argv) {
    if (argc > 1 && std::string(argv[1]) == "overrun") g_extra = 2 * N;
    float* x = (float*)GmAlloc(N * sizeof(float));
    float* out = (float*)GmAlloc(5 * N * sizeof(float));
    for (int i = 0; i < N; ++i) x[i] = 0.01f * (float)i;
    ICPU_RUN_KF(ops, 1, (uint8_t*)x, (uint8_t*)out);
    for (int op = 0; op < 5; ++op) std::printf("%.6f %.6f %.6f %.6f\n", out[op * N], out[op * N + 1], out[op * N + 10], out[op * N + 63]);
    return 0;
}
