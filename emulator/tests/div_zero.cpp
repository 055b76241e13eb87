// Integer division by zero in a kernel (impl/emu/div_zero.h): the device does not trap, so the kernel runs on;
// here x / 0 = 0 and x % 0 = x, reported once per core as `div_by_zero`. Each block writes, from a zero it reads
// from GM (so the compiler cannot fold it): u32 %, u32 /, s32 %, u64 %, then a value computed after them.
#include "kernel_operator.h"
#include "tikicpulib.h"

#include <cstdio>

extern "C" __global__ __aicore__ void div_zero_kernel(GM_ADDR x, GM_ADDR y)
{
    __gm__ uint32_t* in = reinterpret_cast<__gm__ uint32_t*>(x);
    __gm__ uint32_t* out = reinterpret_cast<__gm__ uint32_t*>(y) + AscendC::GetBlockIdx() * 5;
    const uint32_t zero = in[0];
    out[0] = in[1] % zero;
    out[1] = in[1] / zero;
    out[2] = static_cast<uint32_t>(static_cast<int32_t>(in[2]) % static_cast<int32_t>(zero));
    out[3] = static_cast<uint32_t>(static_cast<uint64_t>(in[1]) % static_cast<uint64_t>(zero));
    out[4] = in[1] * 3;
}

int main()
{
    uint32_t* x = static_cast<uint32_t*>(AscendC::GmAlloc(16));
    uint32_t* y = static_cast<uint32_t*>(AscendC::GmAlloc(40));
    x[0] = 0;
    x[1] = 7;
    x[2] = static_cast<uint32_t>(-5);
    ICPU_RUN_KF(div_zero_kernel, 2, reinterpret_cast<GM_ADDR>(x), reinterpret_cast<GM_ADDR>(y));
    for (int i = 0; i < 10; ++i) std::printf("%d ", static_cast<int32_t>(y[i]));
    std::printf("\n");
    // outside a kernel the CPU's own rule holds: this one dies of SIGFPE
    if (std::getenv("HOST_DIV")) std::printf("%u\n", x[1] / x[0]);
    return 0;
}
