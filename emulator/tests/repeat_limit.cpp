// MAX_REPEAT_TIMES, the toolkit's name for the most repeats one vector instruction takes (repeatTime is 8 bits):
// a kernel adds 1 to 300 repeats of 64 floats in chunks of MAX_REPEAT_TIMES repeats. argv[1] = "over" is the
// hardware-wrong twin: chunks of MAX_REPEAT_TIMES + 1 = 256 repeats, which the 8-bit repeatTime takes as 0, so the
// first chunk computes nothing.
#include <cstdio>
#include <string>

#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t PER_REPEAT = 64, REPEATS = 300, N = PER_REPEAT * REPEATS;

extern "C" __global__ __aicore__ void add_one(GM_ADDR x, GM_ADDR z, uint32_t chunk) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, N * sizeof(float));
    LocalTensor<float> t = b.Get<float>();
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer((__gm__ float*)x, N), gz.SetGlobalBuffer((__gm__ float*)z, N);
    DataCopy(t, gx, N);
    PipeBarrier<PIPE_ALL>();
    for (uint32_t done = 0; done < REPEATS; done += chunk) {
        uint32_t n = REPEATS - done < chunk ? REPEATS - done : chunk;
        Adds(t[done * PER_REPEAT], t[done * PER_REPEAT], 1.0f, (uint64_t)PER_REPEAT, n, {1, 1, 8, 8});
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, t, N);
}

int main(int argc, char** argv) {
    std::string c = argc > 1 ? argv[1] : "";
    float* x = (float*)GmAlloc(N * sizeof(float));
    float* z = (float*)GmAlloc(N * sizeof(float));
    for (uint32_t i = 0; i < N; ++i) x[i] = (float)(i % 10);
    uint32_t chunk = c == "over" ? (uint32_t)MAX_REPEAT_TIMES + 1 : (uint32_t)MAX_REPEAT_TIMES;
    ICPU_RUN_KF(add_one, 1, (uint8_t*)x, (uint8_t*)z, chunk);
    uint32_t right = 0;
    for (uint32_t i = 0; i < N; ++i) right += z[i] == x[i] + 1.0f;
    std::printf("%d %u %u\n", MAX_REPEAT_TIMES, right, N);
    return 0;
}
