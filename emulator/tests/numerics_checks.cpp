// Hardware numerics, compared bit for bit with a numpy model of the documented order (test_hardware_numerics.py):
// ReduceSum count and repeat forms, ReduceRepeat / WholeReduceSum and BlockReduceSum on half (every addition rounded
// to half), the saturation of half results (SetOverflow(0)) against the IEEE mode (SetOverflow(1)), and the mode a
// launch finds: the runtime's Inf/NaN default, or saturation after aclrtSetDeviceSatMode; Sigmoid and Silu on half.
// ./numerics_checks DIR [saturation]: reads DIR/h.bin (5008 halves) and writes DIR/out_*.bin.
#include "acl/acl.h"
#include "check_io.h"

using namespace AscendC;

constexpr uint32_t M = 5008;      // count form: 39 repeats of 128 + a partial one (16)
constexpr uint32_t R = 20;        // repeat forms: 20 repeats of 128 halves

extern "C" __global__ __aicore__ void k_sums(GM_ADDR h, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bh, bt, bo;
    LocalTensor<half> x = ub_in<half>(pipe, bh, h, M);
    pipe.InitBuffer(bt, 4096), pipe.InitBuffer(bo, 1024);
    LocalTensor<half> tmp = bt.Get<half>(), o = bo.Get<half>();
    Duplicate(o, (half)0, 512);
    PipeBarrier<PIPE_V>();
    ReduceSum(o[0], x, tmp, (int32_t)M);                         // o[0]: count form
    ReduceSum(o[16], x, tmp, 128, (int32_t)R, 8);                 // o[16]: repeat form, 20 full repeats
    uint64_t mask[2] = {0xF0F0F0F0F0F0F0F0ull, 0x00FF00FF00FF00FFull};
    ReduceSum(o[32], x, tmp, mask, (int32_t)R, 8);                // o[32]: repeat form, bit mask
    WholeReduceSum(o[64], x, 128, (int32_t)R, 1, 1, 8);           // o[64..84): one tree per repeat
    BlockReduceSum(o[128], x, (int32_t)R, 128, 1, 1, 8);          // o[128..288): one tree per 32-byte block
    ub_out(z, o, 512);
}

// half results: 60000 + 60000 overflows. Saturation (SetOverflow(0)): 65504; IEEE (SetOverflow(1)): inf. 0 * inf ->
// NaN saturates to 0. And Cast float -> half of 1e6 (CAST_RINT) saturates. o[96..112): the same Add in the mode the
// launch found (the runtime's: Inf/NaN unless the host asked for saturation), o[112]: GetOverflow() at the start.
extern "C" __global__ __aicore__ void k_saturation(GM_ADDR z) {
    uint32_t launch_mode = AscendCUtils::GetOverflow();
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb, bf, bo;
    pipe.InitBuffer(ba, 64), pipe.InitBuffer(bb, 64), pipe.InitBuffer(bf, 128), pipe.InitBuffer(bo, 256);
    LocalTensor<half> a = ba.Get<half>(), b = bb.Get<half>(), o = bo.Get<half>();
    LocalTensor<float> f = bf.Get<float>();
    Duplicate(a, (half)60000.0f, 16);
    Duplicate(f, 1.0e6f, 32);
    PipeBarrier<PIPE_V>();
    Add(o[96], a, a, 16);                              // the launch's mode
    AscendCUtils::SetOverflow(0);                      // saturation from here
    Add(o[0], a, a, 16);                               // saturated
    Cast(o[16], f, RoundMode::CAST_RINT, 16);          // saturated
    AscendCUtils::SetOverflow(1);                      // IEEE inf / NaN from here
    Add(o[32], a, a, 16);
    Cast(o[48], f, RoundMode::CAST_RINT, 16);
    AscendCUtils::SetOverflow(0);
    Duplicate(b, (half)0.0f, 16);
    PipeBarrier<PIPE_V>();
    Add(b, o[32], a, 16);                              // inf + 60000 = inf -> saturated: 65504
    Mul(o[64], b, b, 16);                              // 65504^2 -> 65504
    Sub(o[80], o[32], o[32], 16);                      // inf - inf = NaN -> 0
    PipeBarrier<PIPE_V>();
    o.SetValue(112, (half)(float)launch_mode);
    ub_out(z, o, 128);
}

// Sigmoid and Silu on half: the library's chain Muls(-1), Exp, Adds(1), Div, every step rounded to half (A2).
// o[0..A): Sigmoid of the first A inputs, o[A..2A): Silu.
constexpr uint32_t A = 1024;
extern "C" __global__ __aicore__ void k_activation(GM_ADDR h, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bh, bo;
    LocalTensor<half> x = ub_in<half>(pipe, bh, h, A);
    pipe.InitBuffer(bo, 2 * A * sizeof(half));
    LocalTensor<half> o = bo.Get<half>();
    Sigmoid<half, false>(o, x, A);
    Silu<half, false>(o[A], x, A);
    ub_out(z, o, 2 * A);
}

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    g_dir = argv[1];
    if (argc > 2 && std::string(argv[2]) == "saturation") aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION);
    uint8_t *h = load("h"), *z = out(1024), *s = out(256);
    ICPU_RUN_KF(k_sums, 1, h, z);
    save("sums", z, 1024);
    ICPU_RUN_KF(k_saturation, 1, s);
    save("saturation", s, 256);
    uint8_t* a = out(2 * A * sizeof(half));
    ICPU_RUN_KF(k_activation, 1, h, a);
    save("activation", a, 2 * A * sizeof(half));
    return 0;
}
