// The multi-core scheduler: blocks interleave at API calls in an order drawn from COTBUILDER_SCHEDULE_SEED.
//   lost_updates OUT   8 blocks x 50 raw-pointer read-modify-writes of one GM word with an API call in between (the
//                      hazard model cannot see raw pointers, so only the interleaving decides the count)
//   rounds OUT         100 blocks on a 48-core SoC, each writing its own slice: they run in rounds, all finish
#include <cstdio>
#include <cstring>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void lost_updates(GM_ADDR counter) {
    volatile int32_t* c = (volatile int32_t*)counter;
    for (int i = 0; i < 50; ++i) {
        int32_t v = *c;
        PipeBarrier<PIPE_ALL>();  // a scheduling point between the read and the write
        *c = v + 1;
    }
}

extern "C" __global__ __aicore__ void rounds(GM_ADDR out) {
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t*)out + GetBlockIdx() * 8, 8);
    for (int i = 0; i < 8; ++i) g.SetValue(i, (int32_t)GetBlockIdx());
}

int main(int argc, char** argv) {
    if (argc < 3) return 2;
    FILE* f = std::fopen(argv[2], "wb");
    if (!std::strcmp(argv[1], "lost_updates")) {
        uint8_t* c = (uint8_t*)GmAlloc(32);
        ICPU_RUN_KF(lost_updates, 8, c);
        std::fwrite(c, 4, 1, f);
    } else {
        uint8_t* o = (uint8_t*)GmAlloc(100 * 32);
        ICPU_RUN_KF(rounds, 100, o);
        std::fwrite(o, 32, 100, f);
    }
    std::fclose(f);
    return 0;
}
