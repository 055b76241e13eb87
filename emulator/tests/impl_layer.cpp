// The toolkit's implementation-layer functions some kernels call with raw UB / GM pointers (impl_layer.h,
// transpose.h), each checked against the documented API it sits under.
//   b32: TransDataTo5HDImpl on 16 int32 blocks of 8 (a 16x8 matrix), dst blocks contiguous: out is its 8x16
//        transpose (TransDataTo5HD.md's int32_t example).
//   b16: the same on 16 half blocks of 16 through address values: a 16x16 transpose.
//   fill: DuplicateImpl of 7 over 100 int16 of UB, DataCopyUB2GMImpl of 4 blocks (64 values) to GM.
//   outside: the hostile twin: DuplicateImpl on a pointer past UB must be an emulator error, not a write.
//   gm_past: the hardware-wrong twin of fill: DataCopyUB2GMImpl of 4 blocks to 12 bytes before the end of the GM
//        output: a GM overrun, reported as DataCopy's would be.
#include <cstdio>
#include <cstring>
#include <string>

#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void impl_layer(GM_ADDR x, GM_ADDR out, uint32_t which) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 4096);
    if (which == 0) {
        LocalTensor<int32_t> src = b.Get<int32_t>(128), dst = b.GetWithOffset<int32_t>(128, 1024);
        GlobalTensor<int32_t> gx, go;
        gx.SetGlobalBuffer((__gm__ int32_t*)x, 128), go.SetGlobalBuffer((__gm__ int32_t*)out, 128);
        DataCopy(src, gx, 128);
        PipeBarrier<PIPE_ALL>();
        __ubuf__ int32_t* s = (__ubuf__ int32_t*)src.GetPhyAddr();
        __ubuf__ int32_t* d = (__ubuf__ int32_t*)dst.GetPhyAddr();
        __ubuf__ int32_t* sl[16];
        __ubuf__ int32_t* dl[16];
        for (int i = 0; i < 16; ++i) sl[i] = s + 8 * i, dl[i] = d + 8 * i;
        TransDataTo5HDImpl(dl, sl, TransDataTo5HDParams(false, false, 1, 0, 0));
        PipeBarrier<PIPE_ALL>();
        DataCopy(go, dst, 128);
    } else if (which == 1) {
        LocalTensor<half> src = b.Get<half>(256), dst = b.GetWithOffset<half>(256, 1024);
        GlobalTensor<half> gx, go;
        gx.SetGlobalBuffer((__gm__ half*)x, 256), go.SetGlobalBuffer((__gm__ half*)out, 256);
        DataCopy(src, gx, 256);
        PipeBarrier<PIPE_ALL>();
        uint64_t sl[16], dl[16];
        for (int i = 0; i < 16; ++i) sl[i] = src[16 * i].GetPhyAddr(), dl[i] = dst[16 * i].GetPhyAddr();
        TransDataTo5HDImpl<half>(dl, sl, TransDataTo5HDParams(false, false, 1, 0, 0));
        PipeBarrier<PIPE_ALL>();
        DataCopy(go, dst, 256);
    } else {
        LocalTensor<int16_t> t = b.Get<int16_t>(128);
        __ubuf__ int16_t* p = (__ubuf__ int16_t*)t.GetPhyAddr();
        if (which == 3) p += 1 << 20;  // far past the end of UB
        DuplicateImpl<int16_t>(p, 7, 100);
        PipeBarrier<PIPE_ALL>();
        __gm__ int16_t* to = (__gm__ int16_t*)out + (which == 4 ? 250 : 0);  // 250: 12 bytes before the end
        DataCopyUB2GMImpl(to, p, {1, 4, 0, 0});
    }
}

int main(int argc, char** argv) {
    std::string c = argc > 1 ? argv[1] : "";
    uint32_t which = c == "b32" ? 0 : c == "b16" ? 1 : c == "fill" ? 2 : c == "gm_past" ? 4 : 3;
    uint8_t* x = (uint8_t*)GmAlloc(512);
    uint8_t* out = (uint8_t*)GmAlloc(512);
    for (int i = 0; i < 128; ++i) ((int32_t*)x)[i] = i;
    if (which == 1)
        for (int i = 0; i < 256; ++i) ((half*)x)[i] = (half)(float)i;
    std::memset(out, 0xFF, 512);
    ICPU_RUN_KF(impl_layer, 1, x, out, which);
    int n = which == 0 ? 128 : which == 1 ? 256 : 66;
    for (int i = 0; i < n; ++i) {
        if (which == 0) std::printf("%d ", ((int32_t*)out)[i]);
        else if (which == 1) std::printf("%g ", (float)((half*)out)[i]);
        else std::printf("%d ", ((int16_t*)out)[i]);
    }
    std::printf("\n");
    return 0;
}
