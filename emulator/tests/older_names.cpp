// The APIs under the names CANN 8.x kernels use (renamed since, 附录/接口变更说明.md, or kept in the toolkit's impl
// layer): each must compute what its current name computes. Usage: older_names DIR [MODE]
// MODE "" runs every check and writes DIR/out_<name>.bin for pytest (numpy) to compare;
// MODE "assert_msg" / "assert_fmt" / "assert_ok" run one kernel whose assertion fails (or holds);
// MODE "fill_race" fills GM with InitGlobalMemory and reads it back on MTE2 without the MTE3_MTE2 sync;
// MODE "store_same" / "store_other" store 0 / 1 with SetValue over the filled GM without an MTE3_S sync;
// MODE "maxmin" / "maxmin_counter" read the max / min register (GetReduceMaxMinCount) after a normal / counter-mode
// WholeReduceMax.
#include <string>

#include "kernel_operator.h"
#include "tikicpulib.h"
#include "check_io.h"

using namespace AscendC;

// ---- ArithProgression (float and int32), RepeatReduceSum, CompareScalar's repeat form, ScalarCast ----
// out floats: [0,64) ArithProgression(-2.5, 0.75), [64,72) RepeatReduceSum of 8 repeats of 64 (mask 64),
// [72,80) the same with mask 40 and the dst every 2nd element ([72,80): sums at even places, odd places 0),
// [80,88) ScalarCast of rx[0..8) to int32 with CAST_ROUND / CAST_FLOOR (4 each, as int32 bits),
// [88,96) CompareScalar(rx >= 0) bits of the first 64 elements (8 bytes = 2 floats), rest 0.
// out int32: [0,32) ArithProgression<int32_t>(7, -3).
extern "C" __global__ __aicore__ void k_older(GM_ADDR x, GM_ADDR z, GM_ADDR zi) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bo, boi, bcmp;
    LocalTensor<float> a = ub_in<float>(pipe, bx, x, 512);
    pipe.InitBuffer(bo, 96 * 4);
    pipe.InitBuffer(boi, 32 * 4);
    pipe.InitBuffer(bcmp, 256);
    LocalTensor<float> o = bo.Get<float>();
    LocalTensor<int32_t> oi = boi.Get<int32_t>();
    LocalTensor<uint8_t> bits = bcmp.Get<uint8_t>();
    Duplicate(o, 0.0f, 96);
    Duplicate(bits.ReinterpretCast<uint16_t>(), (uint16_t)0, 128);
    PipeBarrier<PIPE_V>();
    ArithProgression<float>(o, -2.5f, 0.75f, 64);
    ArithProgression<int32_t>(oi, 7, -3, 32);
    PipeBarrier<PIPE_V>();
    RepeatReduceSum<float, true>(o[64], a, 8, 64, 0, 1, 1, 8);
    // mask 40 and dstRepStride 2: one sum of the first 40 elements per repeat at every second element
    RepeatReduceSum<float, true>(o[72], a, 4, 40, 0, 1, 2, 8);
    uint64_t full[2] = {~0ull, 0};
    UnaryRepeatParams rp;
    CompareScalar(bits, a, 0.0f, CMPMODE::GE, full, 1, rp);
    PipeBarrier<PIPE_ALL>();
    for (int i = 0; i < 4; ++i) {
        o.SetValue(80 + i, (float)0);
        int32_t r = ScalarCast<float, int32_t, RoundMode::CAST_ROUND>(a.GetValue(i));
        int32_t f = Cast<float, int32_t, RoundMode::CAST_FLOOR>(a.GetValue(i));
        o.ReinterpretCast<int32_t>().SetValue(80 + i, r);
        o.ReinterpretCast<int32_t>().SetValue(84 + i, f);
    }
    for (int i = 0; i < 8; ++i) o.ReinterpretCast<uint8_t>().SetValue(88 * 4 + i, bits.GetValue(i));
    ub_out(z, o, 96);
    ub_out(zi, oi, 32);
}

// ---- InitGlobalMemory / InitOutput on GM, GetTaskRation; out: 64 floats, [0,40) InitGlobalMemory(1.5) then
// [40,64) InitOutput on gm[40] (an rvalue, by value as the toolkit's header) with its default value 0, then
// one int32 at the end of a second buffer: GetTaskRation() ----
extern "C" __global__ __aicore__ void k_fill(GM_ADDR z, GM_ADDR r) {
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)z, 64);
    InitGlobalMemory(g, 40, 1.5f);
    InitOutput<float>(g[40], 24);
    GlobalTensor<int32_t> gr;
    gr.SetGlobalBuffer((__gm__ int32_t*)r, 8);
    gr.SetValue(0, (int32_t)GetTaskRation());
}

// ---- InitGlobalMemory then a DataCopy of the same GM into UB with no MTE3_MTE2 sync (Fill-97.md asks for one) ----
extern "C" __global__ __aicore__ void k_fill_race(GM_ADDR z) {
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)z, 64);
    InitGlobalMemory(g, 64, 2.0f);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 64 * 4);
    LocalTensor<float> t = b.Get<float>();
    DataCopy(t, g, 64);  // @fill_race
    PipeBarrier<PIPE_ALL>();
}

// ---- InitGlobalMemory(0) then the scalar unit stores into the same GM without an MTE3_S sync: storing the 0 already
// there cannot change the result (no race); storing another value can (a race at the SetValue) ----
extern "C" __global__ __aicore__ void k_fill_then_store(GM_ADDR z, GM_ADDR mode) {
    float v = *(__gm__ int32_t*)mode == 0 ? 0.0f : 1.0f;
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)z, 64);
    InitGlobalMemory(g, 64, 0.0f);
    for (int i = 0; i < 64; ++i) g.SetValue(i, v);  // @store_after_fill
}

// ---- GetReduceMaxMinCount / GetReduceRepeatMaxMinSpr: out floats [0] max of rx[0, 512) by WholeReduceMax over 8
// repeats, [1] its index (uint32 bits), [2] min of rx[0, 100) by ReduceMin, [3] the index after ReduceMin (bits);
// mode 1 reads the register after a counter-mode WholeReduceMax (the page: not supported) ----
extern "C" __global__ __aicore__ void k_maxmin(GM_ADDR x, GM_ADDR z, GM_ADDR mode) {
    int m = *(__gm__ int32_t*)mode;
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bo, bw;
    LocalTensor<float> a = ub_in<float>(pipe, bx, x, 512);
    pipe.InitBuffer(bo, 64 * 4);
    pipe.InitBuffer(bw, 512 * 4);
    LocalTensor<float> o = bo.Get<float>();
    LocalTensor<float> w = bw.Get<float>();
    float v = 0, i = 0;
    if (m == 1) {
        SetMaskCount();
        SetVectorMask<float, MaskMode::COUNTER>(0, 200);
        WholeReduceMax<float, false>(o, a, MASK_PLACEHOLDER, 1, 1, 1, 8);
        SetMaskNorm();
        ResetMask();
        PipeBarrier<PIPE_ALL>();
        GetReduceMaxMinCount<float>(v, i);  // @maxmin_counter
        return;
    }
    WholeReduceMax<float>(o, a, 64, 8, 1, 1, 8);
    PipeBarrier<PIPE_ALL>();
    GetReduceMaxMinCount<float>(v, i);
    float v2 = 0, i2 = 0;
    ReduceMin<float>(o[16], a, w, 100, true);
    PipeBarrier<PIPE_ALL>();
    GetReduceRepeatMaxMinSpr<float>(v2, i2);
    Duplicate(o, 0.0f, 64);
    PipeBarrier<PIPE_ALL>();
    o.SetValue(0, v);
    o.SetValue(1, i);
    o.SetValue(2, v2);
    o.SetValue(3, i2);
    ub_out(z, o, 64);
}

// assert stays usable in a constexpr function, as the C library's is: this file does not build otherwise.
constexpr int checked_half(int x) {
    assert(x % 2 == 0, "odd %d", x);
    return x / 2;
}
static_assert(checked_half(8) == 4, "a holding assert is a constant expression");

extern "C" __global__ __aicore__ void k_assert(GM_ADDR mode) {
    int m = *(__gm__ int32_t*)mode;
    int32_t b = 0;
    if (m == 0) ASSERT_MSG(b != 0, "division by zero: b=%d", b);  // @assert_msg
    if (m == 1) assert(b == 1, "b is %d, want %d", b, 1);         // @assert_fmt
    if (m == 2) {
        assert(b == 0);
        assert(b == 0, "never printed %d", b);
        ASSERT_MSG(b == 0, "never printed");
    }
}

int main(int argc, char** argv) {
    g_dir = argv[1];
    std::string mode = argc > 2 ? argv[2] : "";
    if (mode.rfind("assert", 0) == 0) {
        int32_t* m = (int32_t*)GmAlloc(32);
        *m = mode == "assert_msg" ? 0 : mode == "assert_fmt" ? 1 : 2;
        ICPU_RUN_KF(k_assert, 1, (GM_ADDR)m);
        return 0;
    }
    if (mode == "store_same" || mode == "store_other") {
        uint8_t* z = out(64 * 4);
        int32_t* m = (int32_t*)GmAlloc(32);
        *m = mode == "store_same" ? 0 : 1;
        ICPU_RUN_KF(k_fill_then_store, 1, z, (GM_ADDR)m);
        return 0;
    }
    if (mode == "maxmin" || mode == "maxmin_counter") {
        uint8_t* x = load("rx");
        uint8_t* z = out(64 * 4);
        int32_t* m = (int32_t*)GmAlloc(32);
        *m = mode == "maxmin" ? 0 : 1;
        ICPU_RUN_KF(k_maxmin, 1, x, z, (GM_ADDR)m);
        save("maxmin", z, 64 * 4);
        return 0;
    }
    if (mode == "fill_race") {
        uint8_t* z = out(64 * 4);
        ICPU_RUN_KF(k_fill_race, 1, z);
        return 0;
    }
    uint8_t* x = load("rx");
    uint8_t* z = out(96 * 4);
    uint8_t* zi = out(32 * 4);
    ICPU_RUN_KF(k_older, 1, x, z, zi);
    save("older", z, 96 * 4);
    save("older_int", zi, 32 * 4);
    uint8_t* f = out(64 * 4);
    uint8_t* r = out(8 * 4);
    ICPU_RUN_KF(k_fill, 1, f, r);
    save("fill", f, 64 * 4);
    save("ration", r, 8 * 4);
    return 0;
}
