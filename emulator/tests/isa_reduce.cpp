// The ISA reduce intrinsics kernels call under the API (isa_reduce.h), checked against the API they sit under.
//   acc:     float 1..200; vcadd accumulating 3 full repeats (mask 64), read with get_acc_val, then the 8-element
//            tail into the register again: 18528 and 1572.
//   counter: counter mode (set_mask_count, set_vector_mask(0, 200)), one accumulating vcadd, read with the untyped
//            GetAccVal and the typed GetReduceRepeatSumSpr<float>: 20100 twice.
//   repeat:  vcadd without accumulating: one sum per repeat to dst[r], as WholeReduceSum writes them:
//            2080, 6176, 10272 (1..64, 65..128, 129..192).
//   half:    half 1..64, accumulating, the register's low 16 bits as a half: 2080.
//   outside: the hostile twin: vcadd on a pointer past UB is an emulator error, not a read.
//   unset:   the hardware-wrong twin of acc: per-repeat vcadd (no accumulate), then get_acc_val - the register holds
//            no sum of this kernel (only the count form / an accumulating vcadd writes it): a warning, and 0.
#include <cstdio>
#include <cstring>
#include <string>

#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void isa_reduce(GM_ADDR x, GM_ADDR out, uint32_t which) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 4096);
    LocalTensor<float> src = b.Get<float>(256), dst = b.GetWithOffset<float>(64, 2048);
    GlobalTensor<float> gx, go;
    gx.SetGlobalBuffer((__gm__ float*)x, 256), go.SetGlobalBuffer((__gm__ float*)out, 8);
    DataCopy(src, gx, 256);
    PipeBarrier<PIPE_ALL>();
    float* res = (float*)out;
    if (which == 0) {
        AscendCUtils::SetMask<float>(64);
        vcadd(nullptr, (__ubuf__ float*)src.GetPhyAddr(), 3, 1, 1, 8, true);
        set_flag(PIPE_V, PIPE_S, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_S, EVENT_ID0);
        uint64_t acc = get_acc_val();
        res[0] = *reinterpret_cast<float*>(&acc);
        AscendCUtils::SetMask<float>(8);
        vcadd(nullptr, (__ubuf__ float*)src[192].GetPhyAddr(), 1, 1, 1, 8, true);
        set_flag(PIPE_V, PIPE_S, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_S, EVENT_ID0);
        acc = get_acc_val();
        res[1] = *reinterpret_cast<float*>(&acc);
    } else if (which == 1) {
        set_mask_count();
        set_vector_mask(0, 200);
        vcadd(nullptr, (__ubuf__ float*)src.GetPhyAddr(), 1, 1, 1, 8, true);
        set_mask_norm();
        set_vector_mask((uint64_t)-1, (uint64_t)-1);
        set_flag(PIPE_V, PIPE_S, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_S, EVENT_ID0);
        int64_t acc = GetAccVal();
        res[0] = *reinterpret_cast<float*>(&acc);
        res[1] = GetReduceRepeatSumSpr<float>();
    } else if (which == 2) {
        AscendCUtils::SetMask<float>(64);
        vcadd((__ubuf__ float*)dst.GetPhyAddr(), (__ubuf__ float*)src.GetPhyAddr(), 3, 1, 1, 8, false);
        PipeBarrier<PIPE_ALL>();
        DataCopy(go, dst, 8);
    } else if (which == 3) {
        LocalTensor<half> h = b.GetWithOffset<half>(128, 3072);
        for (int i = 0; i < 64; ++i) h.SetValue(i, (half)(float)(i + 1));
        set_flag(PIPE_S, PIPE_V, EVENT_ID0);
        wait_flag(PIPE_S, PIPE_V, EVENT_ID0);
        AscendCUtils::SetMask<half>(64);
        vcadd(nullptr, (__ubuf__ half*)h.GetPhyAddr(), 1, 1, 1, 8, true);
        set_flag(PIPE_V, PIPE_S, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_S, EVENT_ID0);
        int64_t acc = get_acc_val();
        res[0] = (float)*reinterpret_cast<half*>(&acc);
    } else if (which == 4) {
        AscendCUtils::SetMask<float>(64);
        vcadd(nullptr, (__ubuf__ float*)src.GetPhyAddr() + (1 << 20), 1, 1, 1, 8, true);
    } else {
        AscendCUtils::SetMask<float>(64);
        vcadd((__ubuf__ float*)dst.GetPhyAddr(), (__ubuf__ float*)src.GetPhyAddr(), 3, 1, 1, 8, false);
        set_flag(PIPE_V, PIPE_S, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_S, EVENT_ID0);
        int64_t acc = get_acc_val();
        res[0] = *reinterpret_cast<float*>(&acc);
        res[1] = -1.0f;
    }
}

int main(int argc, char** argv) {
    std::string c = argc > 1 ? argv[1] : "";
    uint32_t which = c == "acc" ? 0 : c == "counter" ? 1 : c == "repeat" ? 2 : c == "half" ? 3 : c == "unset" ? 5 : 4;
    float* x = (float*)GmAlloc(256 * sizeof(float));
    float* out = (float*)GmAlloc(8 * sizeof(float));
    for (int i = 0; i < 256; ++i) x[i] = (float)(i + 1);
    std::memset(out, 0, 8 * sizeof(float));
    ICPU_RUN_KF(isa_reduce, 1, (GM_ADDR)x, (GM_ADDR)out, which);
    for (int i = 0; i < (which == 2 ? 3 : 2); ++i) std::printf("%g ", out[i]);
    std::printf("\n");
    return 0;
}
