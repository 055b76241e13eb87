// A kernel that includes the arch-2201 special-register header by its path and asks for its sub-block; with
// -DUSE_RSVD_CNT it also reads a register the emulator does not model (the build must refuse, naming it).
#include "kernel_operator.h"
#include "impl/dav_c220/kernel_operator_reg_others_impl.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void regs(GM_ADDR out, GM_ADDR workspace) {
    SetSysWorkspace(workspace);
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t*)out, 8);
    g.SetValue(0, (int32_t)GetSubBlockId());
    g.SetValue(1, (int32_t)GetSubBlockDim());
    g.SetValue(3, g_coreType == AIV ? 1 : 0);  // a vector kernel's blocks run on vector cores
#ifdef USE_RSVD_CNT
    g.SetValue(2, (int32_t)GetRsvdCnt());
#endif
}

int main() {
    int32_t* out = (int32_t*)GmAlloc(8 * sizeof(int32_t));
    uint8_t* ws = (uint8_t*)GmAlloc(1024);
    ICPU_RUN_KF(regs, 1, (uint8_t*)out, ws);
    std::printf("%d %d %d\n", out[0], out[1], out[3]);
    return 0;
}
