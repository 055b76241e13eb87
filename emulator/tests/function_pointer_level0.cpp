// A kernel that passes AscendC APIs' mask forms ("level 0": a mask, a repeat count, repeat strides) as function-pointer
// template arguments, in the toolkit's types, the way a Foreach-style kernel class takes one op for every binary or
// unary variant: Sub with a continuous mask, Div with a bit mask, Abs and Adds with a continuous mask. One repeat of 64
// floats each; prints 4 elements per op. Run with the argument `overrun`, the Adds call through its pointer takes two
// repeats from the last 64 floats of the buffer: past its end (the emulator's checks must still catch it).
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
using BinaryLevel0 = void(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, uint64_t, const uint8_t,
                          const BinaryRepeatParams&);
template <typename T>
using BinaryBits = void(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, uint64_t[], const uint8_t,
                        const BinaryRepeatParams&);
template <typename T>
using UnaryLevel0 = void(const LocalTensor<T>&, const LocalTensor<T>&, uint64_t, const uint8_t, const UnaryRepeatParams&);
template <typename T>
using ScalarLevel0 = void(const LocalTensor<T>&, const LocalTensor<T>&, const T&, uint64_t, const uint8_t,
                          const UnaryRepeatParams&);

constexpr int32_t N = 64;  // one repeat of float: 8 blocks of 32 bytes
uint8_t g_repeats = 1;     // repeats of the Adds call through its pointer (2: past the buffer's end)

template <BinaryLevel0<float>* sub, BinaryBits<float>* div, UnaryLevel0<float>* unary, ScalarLevel0<float>* scalar>
class Level0Ops {
public:
    __aicore__ inline void Run(GM_ADDR x, GM_ADDR y, GM_ADDR out) {
        xGm.SetGlobalBuffer((__gm__ float*)x, N);
        yGm.SetGlobalBuffer((__gm__ float*)y, N);
        outGm.SetGlobalBuffer((__gm__ float*)out, 4 * N);
        pipe.InitBuffer(buf, 6 * N * sizeof(float));
        LocalTensor<float> all = buf.Get<float>();
        LocalTensor<float> xl = all[0], yl = all[N];
        DataCopy(xl, xGm, N);
        DataCopy(yl, yGm, N);
        PipeBarrier<PIPE_ALL>();
        BinaryRepeatParams bp;  // strides 1 / 8: one contiguous repeat
        UnaryRepeatParams up;
        uint64_t bits[2] = {~0ull, 0};
        sub(all[2 * N], xl, yl, (uint64_t)N, 1, bp);  // x - y
        div(all[3 * N], xl, yl, bits, 1, bp);         // x / y
        unary(all[4 * N], xl, (uint64_t)N, 1, up);    // |x|
        scalar(all[5 * N], xl, 0.5f, (uint64_t)N, g_repeats, up);  // x + 0.5
        PipeBarrier<PIPE_ALL>();
        DataCopy(outGm, all[2 * N], 4 * N);
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<float> xGm, yGm, outGm;
};

extern "C" __global__ __aicore__ void level0_ops(GM_ADDR x, GM_ADDR y, GM_ADDR out) {
    Level0Ops<Sub<float>, Div<float>, Abs<float>, Adds<float>> op;
    op.Run(x, y, out);
}

int main(int argc, char** argv) {
    if (argc > 1 && std::string(argv[1]) == "overrun") g_repeats = 2;
    float* x = (float*)GmAlloc(N * sizeof(float));
    float* y = (float*)GmAlloc(N * sizeof(float));
    float* out = (float*)GmAlloc(4 * N * sizeof(float));
    for (int i = 0; i < N; ++i) {
        x[i] = 0.25f * (float)(i - 20);
        y[i] = 1.0f + 0.5f * (float)i;
    }
    ICPU_RUN_KF(level0_ops, 1, (uint8_t*)x, (uint8_t*)y, (uint8_t*)out);
    for (int op = 0; op < 4; ++op) std::printf("%.6f %.6f %.6f %.6f\n", out[op * N], out[op * N + 1], out[op * N + 10], out[op * N + 63]);
    return 0;
}
