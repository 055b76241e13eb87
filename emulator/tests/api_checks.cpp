// One test program for many emulator API checks. Usage: api_checks DIR
// Reads DIR/<name>.bin inputs written by pytest (numpy), runs one small kernel per API group
// and writes DIR/out_<name>.bin for pytest to compare against numpy.
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "kernel_operator.h"
#include "tikicpulib.h"
#include "check_io.h"

using namespace AscendC;

constexpr uint32_t N = 256;

// Load n elements of T from GM into a fresh TBuf-backed tensor.

// ---- binary / unary / scalar float32 ops ----
extern "C" __global__ __aicore__ void k_elementwise_f32(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bz;
    LocalTensor<float> a = ub_in<float>(pipe, bx, x, N), b = ub_in<float>(pipe, by, y, N);
    pipe.InitBuffer(bz, N * sizeof(float));
    LocalTensor<float> r = bz.Get<float>();
    int k = 0;
    auto emit = [&]() { ub_out(z + (k++) * N * sizeof(float), r, N); };
    Add(r, a, b, N); emit();
    Sub(r, a, b, N); emit();
    Mul(r, a, b, N); emit();
    Div(r, a, b, N); emit();
    Max(r, a, b, N); emit();
    Min(r, a, b, N); emit();
    Adds(r, a, 0.5f, N); emit();
    Muls(r, a, -1.5f, N); emit();
    Maxs(r, a, 0.25f, N); emit();
    Mins(r, a, 0.25f, N); emit();
    LeakyRelu(r, a, 0.1f, N); emit();
    Exp(r, a, N); emit();
    Abs(r, a, N); emit();
    Ln(r, b, N); emit();    // b > 0
    Sqrt(r, b, N); emit();
    Rsqrt(r, b, N); emit();
    Reciprocal(r, b, N); emit();
    Relu(r, a, N); emit();
    Duplicate(r, 3.25f, N); emit();
    Axpy(r, a, 2.0f, N); emit();   // r = 3.25 + 2a
}

// ---- half ops round once to fp16 ----
extern "C" __global__ __aicore__ void k_elementwise_f16(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bz, bf;
    LocalTensor<half> a = ub_in<half>(pipe, bx, x, N), b = ub_in<half>(pipe, by, y, N);
    pipe.InitBuffer(bz, N * sizeof(half));
    LocalTensor<half> r = bz.Get<half>();
    int k = 0;
    auto emit = [&]() { ub_out(z + (k++) * N * sizeof(half), r, N); };
    Add(r, a, b, N); emit();
    Mul(r, a, b, N); emit();
    Div(r, a, b, N); emit();
    Adds(r, a, (half)0.1f, N); emit();
    Exp(r, a, N); emit();
    // Axpy with a half source into a float destination
    pipe.InitBuffer(bf, N * sizeof(float));
    LocalTensor<float> f = bf.Get<float>();
    Duplicate(f, 1.0f, N);
    Axpy(f, a, (half)0.5f, N);
    ub_out(z + k * N * sizeof(half), f, N);
    // Axpy all in half: the product is a half result before the add (two roundings, as Muls then Add)
    Muls(r, b, (half)1.0f, N);
    Axpy(r, a, (half)3.0f, N);
    ub_out(z + k * N * sizeof(half) + N * sizeof(float), r, N);
}

// ---- int16 bitwise ----
extern "C" __global__ __aicore__ void k_bitwise_i16(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bz;
    LocalTensor<int16_t> a = ub_in<int16_t>(pipe, bx, x, N), b = ub_in<int16_t>(pipe, by, y, N);
    pipe.InitBuffer(bz, N * sizeof(int16_t));
    LocalTensor<int16_t> r = bz.Get<int16_t>();
    And(r, a, b, N); ub_out(z, r, N);
    Or(r, a, b, N); ub_out(z + N * 2, r, N);
    Not(r, a, N); ub_out(z + N * 4, r, N);
}

// ---- Cast with every round mode ----
extern "C" __global__ __aicore__ void k_cast(GM_ADDR x, GM_ADDR xh, GM_ADDR z16, GM_ADDR z32, GM_ADDR zmisc) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bxh, bh, bi, bf, bb, b8;
    LocalTensor<float> a = ub_in<float>(pipe, bx, x, N);
    LocalTensor<half> ah = ub_in<half>(pipe, bxh, xh, N);
    pipe.InitBuffer(bh, N * sizeof(half));
    pipe.InitBuffer(bi, N * sizeof(int32_t));
    pipe.InitBuffer(bf, N * sizeof(float));
    pipe.InitBuffer(bb, N * sizeof(bfloat16_t));
    pipe.InitBuffer(b8, N * sizeof(int8_t));
    LocalTensor<half> h = bh.Get<half>();
    LocalTensor<int32_t> i32 = bi.Get<int32_t>();
    const RoundMode modes[7] = {RoundMode::CAST_NONE, RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
                                RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC, RoundMode::CAST_ODD};
    for (int m = 0; m < 7; ++m) {
        Cast(h, a, modes[m], N);
        ub_out(z16 + m * N * sizeof(half), h, N);
        // float -> int32_t: the docs list RINT, FLOOR, CEIL, ROUND, TRUNC only (NONE and ODD: illegal_cast)
        if (m == 0 || m == 6) Duplicate(i32, (int32_t)0, N);
        else Cast(i32, a, modes[m], N);
        ub_out(z32 + m * N * sizeof(int32_t), i32, N);
    }
    // half -> float (exact), float -> bf16 (RINT), half -> int8 (TRUNC, saturating)
    LocalTensor<float> f = bf.Get<float>();
    Cast(f, ah, RoundMode::CAST_NONE, N);
    ub_out(zmisc, f, N);
    LocalTensor<bfloat16_t> bfv = bb.Get<bfloat16_t>();
    Cast(bfv, a, RoundMode::CAST_RINT, N);
    ub_out(zmisc + N * 4, bfv, N);
    LocalTensor<int8_t> i8 = b8.Get<int8_t>();
    Cast(i8, ah, RoundMode::CAST_TRUNC, N);
    ub_out(zmisc + N * 6, i8, N);
}

// ---- mask + repeat form ----
extern "C" __global__ __aicore__ void k_repeat(GM_ADDR x, GM_ADDR y, GM_ADDR xh, GM_ADDR yh, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bxh, byh, bz, bzh;
    const uint32_t M = 1024;
    LocalTensor<float> a = ub_in<float>(pipe, bx, x, M), b = ub_in<float>(pipe, by, y, M);
    LocalTensor<half> ah = ub_in<half>(pipe, bxh, xh, M), bh = ub_in<half>(pipe, byh, yh, M);
    pipe.InitBuffer(bz, M * sizeof(float));
    pipe.InitBuffer(bzh, M * sizeof(half));
    LocalTensor<float> r = bz.Get<float>();
    LocalTensor<half> rh = bzh.Get<half>();
    uint32_t k = 0;
    auto emit = [&]() { ub_out(z + (k++) * M * sizeof(float), r, M); };
    auto emith = [&]() { ub_out(z + (k++) * M * sizeof(float), rh, M); };
    // 1: continuous mask 48, 3 repeats, strided blocks
    Duplicate(r, 0.0f, M);
    Add(r, a, b, 48, 3, {1, 2, 1, 8, 16, 8}); emit();
    // 2: bit mask on half, 2 repeats, dst repeat stride 10 blocks
    Duplicate(rh, (half)0.0f, M);
    uint64_t bm[2] = {0xF0F0F0F0F0F0F0F0ull, 0x00000000FFFF0001ull};
    Mul(rh, ah, bh, bm, 2, {1, 1, 1, 10, 8, 8}); emith();
    // 3: unary scalar op with UnaryRepeatParams (block strides 2)
    Duplicate(r, 0.0f, M);
    Adds(r, a, 1.0f, 64, 2, {2, 2, 16, 16}); emit();
    // 4: counter mode: 200 elements, repeatTime ignored
    Duplicate(r, 0.0f, M);
    SetMaskCount();
    Sub(r, a, b, 200, 1, {1, 1, 1, 8, 8, 8});
    SetMaskNorm();
    emit();
    // 5: mask set outside the call (isSetMask = false)
    Duplicate(r, 0.0f, M);
    SetVectorMask<float, MaskMode::NORMAL>(0, 0x00000000FFFFFFFFull);
    Max<float, false>(r, a, b, MASK_PLACEHOLDER, 2, {1, 1, 1, 8, 8, 8});
    ResetMask();
    emit();
    // 6: unary Exp, bit mask, src repeat stride 4 blocks (overlapping reads)
    Duplicate(r, 0.0f, M);
    uint64_t bm2[2] = {0x5555555555555555ull, 0};
    Exp(r, a, bm2, 2, {1, 1, 8, 4}); emit();
    // 7: Cast float -> half with a mask (64 per repeat, dst repeat stride 4)
    Duplicate(rh, (half)0.0f, M);
    Cast(rh, a, RoundMode::CAST_RINT, 64, 2, {1, 1, 4, 8}); emith();
}

// ---- Compare bit masks and Select ----
extern "C" __global__ __aicore__ void k_cmpsel(GM_ADDR x, GM_ADDR y, GM_ADDR m, GM_ADDR zbits, GM_ADDR zsel) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bm, bbits, br;
    LocalTensor<float> a = ub_in<float>(pipe, bx, x, N), b = ub_in<float>(pipe, by, y, N);
    LocalTensor<uint8_t> mask = ub_in<uint8_t>(pipe, bm, m, 64);
    pipe.InitBuffer(bbits, 64);
    pipe.InitBuffer(br, N * sizeof(float));
    LocalTensor<uint8_t> bits = bbits.Get<uint8_t>();
    LocalTensor<float> r = br.Get<float>();
    const CMPMODE modes[6] = {CMPMODE::LT, CMPMODE::GT, CMPMODE::EQ, CMPMODE::LE, CMPMODE::GE, CMPMODE::NE};
    for (int i = 0; i < 6; ++i) {
        Compare(bits, a, b, modes[i], N);
        ub_out(zbits + i * 32, bits, 32);
    }
    Compares(bits, a, 0.0f, CMPMODE::GT, N);
    ub_out(zbits + 6 * 32, bits, 32);
    // repeat form: 2 repeats of 64 with a continuous mask of 40
    Duplicate(bits.ReinterpretCast<uint16_t>(), (uint16_t)0, 32);  // Duplicate has no 8-bit form (Duplicate.md)
    Compare(bits, a, b, CMPMODE::LT, 40, 2, {1, 1, 1, 8, 8, 8});
    ub_out(zbits + 7 * 32, bits, 32);

    Select(r, mask, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, N); ub_out(zsel, r, N);
    Select(r, mask, a, -7.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, N); ub_out(zsel + N * 4, r, N);
    Select(r, mask, a, b, SELMODE::VSEL_CMPMASK_SPR, N); ub_out(zsel + N * 8, r, N);
    // repeat form, mode 2 with a mask of 32 per repeat: the rest of dst keeps its value
    Duplicate(r, 9.0f, N);
    Select(r, mask, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, 32, 4, {1, 1, 1, 8, 8, 8});
    ub_out(zsel + N * 12, r, N);
}

// ---- reductions, Brcb ----
extern "C" __global__ __aicore__ void k_reduce(GM_ADDR x, GM_ADDR xh, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bxh, bw, br, brh;
    LocalTensor<float> a = ub_in<float>(pipe, bx, x, N);
    LocalTensor<half> ah = ub_in<half>(pipe, bxh, xh, N);
    pipe.InitBuffer(bw, N * sizeof(float));
    pipe.InitBuffer(br, N * 8 * sizeof(float));
    pipe.InitBuffer(brh, N * sizeof(half));
    LocalTensor<float> w = bw.Get<float>(), r = br.Get<float>();
    LocalTensor<half> rh = brh.Get<half>();
    uint32_t k = 0;
    auto emit = [&](uint32_t n) { ub_out(z + (k++) * 64 * sizeof(float), r, n); };
    Duplicate(r, 0.0f, 64);
    ReduceSum(r, a, w, N); emit(8);
    Duplicate(r, 0.0f, 64);
    ReduceMax(r, a, w, N, true); emit(8);
    Duplicate(r, 0.0f, 64);
    ReduceMin(r, a, w, 200, true); emit(8);
    // WholeReduceSum over 4 repeats of 64, mask 64, dst stride 1
    Duplicate(r, 0.0f, 64);
    WholeReduceSum(r, a, 64, 4, 1, 1, 8); emit(8);
    // WholeReduceMax with value+index pairs, mask 50
    Duplicate(r, 0.0f, 64);
    WholeReduceMax(r, a, 50, 4, 1, 1, 8, ReduceOrder::ORDER_VALUE_INDEX); emit(8);
    // BlockReduceSum / Max: 8 results per repeat, 2 repeats
    Duplicate(r, 0.0f, 64);
    BlockReduceSum(r, a, 2, 64, 1, 1, 8); emit(16);
    Duplicate(r, 0.0f, 64);
    BlockReduceMax(r, a, 2, 64, 1, 1, 8); emit(16);
    // half WholeReduceSum (2 repeats of 128)
    Duplicate(rh, (half)0.0f, 16);
    WholeReduceSum(rh, ah, 128, 2, 1, 1, 8);
    ub_out(z + (k++) * 64 * sizeof(float), rh, 16);
    // Brcb: 2 repeats x 8 elements, each into one block (128 floats, the last two slots)
    Brcb(r, a, 2, {1, 8}); emit(128);
}

// ---- DataCopyPad both ways, DataCopyParams with strides ----
extern "C" __global__ __aicore__ void k_copy(GM_ADDR x, GM_ADDR z1, GM_ADDR z2, GM_ADDR z3) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bu;
    pipe.InitBuffer(bu, 4096);
    LocalTensor<float> u = bu.Get<float>();
    GlobalTensor<float> gx, g1, g2, g3;
    gx.SetGlobalBuffer((__gm__ float*)x, N);
    g1.SetGlobalBuffer((__gm__ float*)z1, 64);
    g2.SetGlobalBuffer((__gm__ float*)z2, 64);
    g3.SetGlobalBuffer((__gm__ float*)z3, 64);
    // GM -> UB: 3 rows of 5 floats, GM gap 4 bytes, left pad 1, right pad 1, value -1
    Duplicate(u, 0.0f, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopyPad(u, gx, {3, 5 * sizeof(float), 4, 0, 0}, DataCopyPadExtParams<float>{true, 1, 1, -1.0f});
    PipeBarrier<PIPE_ALL>();
    DataCopy(g1, u, 64);
    // UB -> GM: 3 rows of 5 floats from 32-byte aligned UB rows, GM gap 8 bytes
    for (int i = 0; i < 64; ++i) u.SetValue(i, (float)i);
    DataCopyPad(g2, u, {3, 5 * sizeof(float), 0, 8, 0});
    // DataCopyParams: 2 blocks of 1x32B, src gap 1 block, dst gap 2 blocks (UB -> GM)
    DataCopy(g3, u, DataCopyParams{2, 1, 1, 2});
}

// ---- tiling data host -> kernel ----
namespace optiling {
BEGIN_TILING_DATA_DEF(EmuTiling)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint16_t, tileNum);
TILING_DATA_FIELD_DEF(float, scale);
TILING_DATA_FIELD_DEF_ARR(int32_t, 3, dims);
TILING_DATA_FIELD_DEF(int64_t, big);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(EmuOp, EmuTiling);
}  // namespace optiling

extern "C" __global__ __aicore__ void k_tiling(GM_ADDR z, GM_ADDR tiling) {
    GET_TILING_DATA(td, tiling);
    GET_TILING_DATA_MEMBER(optiling::EmuTiling, scale, sc, tiling);
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)z, 8);
    g.SetValue(0, (float)td.totalLength);
    g.SetValue(1, (float)td.tileNum);
    g.SetValue(2, td.scale);
    g.SetValue(3, (float)td.dims[0]);
    g.SetValue(4, (float)td.dims[2]);
    g.SetValue(5, (float)td.big);
    g.SetValue(6, sc);
    g.SetValue(7, TILING_KEY_IS(7) ? 1.0f : 0.0f);
}

// ---- SyncAll across blocks, SetAtomicAdd ----
extern "C" __global__ __aicore__ void k_syncall(GM_ADDR slots, GM_ADDR z) {
    GlobalTensor<int32_t> s, o;
    s.SetGlobalBuffer((__gm__ int32_t*)slots, 8);
    o.SetGlobalBuffer((__gm__ int32_t*)z, 8);
    int b = (int)GetBlockIdx();
    // late blocks write late: without a real barrier the early readers would miss them
    std::this_thread::sleep_for(std::chrono::milliseconds(10 * b));
    s.SetValue(b, b + 1);
    SyncAll();
    int32_t sum = 0;
    for (int i = 0; i < GetBlockNum(); ++i) sum += s.GetValue(i);
    o.SetValue(b, sum);
}
extern "C" __global__ __aicore__ void k_atomic(GM_ADDR x, GM_ADDR z) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qin;
    pipe.InitBuffer(qin, 1, N * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer((__gm__ float*)x, N);
    gz.SetGlobalBuffer((__gm__ float*)z, N);
    LocalTensor<float> t = qin.AllocTensor<float>();
    DataCopy(t, gx, N);
    qin.EnQue(t);
    t = qin.DeQue<float>();
    Muls(t, t, (float)(GetBlockIdx() + 1), N);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    SetAtomicAdd<float>();
    DataCopy(gz, t, N);
    SetAtomicNone();
    qin.FreeTensor(t);
}

// ---- host-side half / bfloat16_t stores ----
static void fp_conversions() {
    size_t n = 0;
    uint8_t* f32 = load("fp_f32", &n);
    size_t cnt = n / 4;
    std::vector<uint16_t> h(cnt), b(cnt);
    for (size_t i = 0; i < cnt; ++i) {
        half v = ((float*)f32)[i];
        bfloat16_t w = ((float*)f32)[i];
        std::memcpy(&h[i], &v, 2);
        std::memcpy(&b[i], &w, 2);
    }
    save("fp_f16", h.data(), cnt * 2);
    save("fp_bf16", b.data(), cnt * 2);
    uint8_t* f64 = load("fp_f64", &n);
    cnt = n / 8;
    std::vector<uint16_t> h64(cnt);
    std::vector<float> back(cnt);
    for (size_t i = 0; i < cnt; ++i) {
        half v = ((double*)f64)[i];
        std::memcpy(&h64[i], &v, 2);
        back[i] = (float)v;
    }
    save("fp_f64_f16", h64.data(), cnt * 2);
    save("fp_f16_back", back.data(), cnt * 4);
}

// ---- second tier: AddRelu, shifts, CreateVecIndex, Copy, Compare -> CmpMask, SetPadValue, sum register ----
// out layout (bytes): [0,1024) AddRelu f32 | [1024,1536) ShiftLeft i16 s=3 | [1536,2048) ShiftRight i16 s=5
// | [2048,2560) ShiftRight u16 s=5 | [2560,3072) ShiftRight i16 s=5 roundEn | [3072,3584) ShiftLeft i16 by tensor
// | [3584,4608) CreateVecIndex f32 from -7.5 | [4608,5632) Copy masked strided i32 | [5632,5648) GetCmpMask
// | [5664,5728) DataCopyPad isPad=false after SetPadValue(-2.0f) | [5728,5732) GetReduceRepeatSumSpr f32
// | [5760,5764) ReduceSum f32 via dst (total 5792)
extern "C" __global__ __aicore__ void k_tier2(GM_ADDR x, GM_ADDR y, GM_ADDR xi16, GM_ADDR yi16, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bi, bj, bo, bs, bc;
    LocalTensor<float> a = ub_in<float>(pipe, bx, x, N), b = ub_in<float>(pipe, by, y, N);
    LocalTensor<int16_t> si = ub_in<int16_t>(pipe, bi, xi16, N), sj = ub_in<int16_t>(pipe, bj, yi16, N);
    pipe.InitBuffer(bo, 8192);
    LocalTensor<uint8_t> o = bo.Get<uint8_t>();
    Duplicate(o.ReinterpretCast<int32_t>(), (int32_t)0, 2048);
    AddRelu(o.ReinterpretCast<float>(), a, b, (int32_t)N);
    ShiftLeft(o[1024].ReinterpretCast<int16_t>(), si, (int16_t)3, (int32_t)N);
    ShiftRight(o[1536].ReinterpretCast<int16_t>(), si, (int16_t)5, (int32_t)N);
    LocalTensor<uint16_t> su = si.ReinterpretCast<uint16_t>();
    ShiftRight(o[2048].ReinterpretCast<uint16_t>(), su, (uint16_t)5, (int32_t)N);
    uint64_t full = 128;
    ShiftRight(o[2560].ReinterpretCast<int16_t>(), si, (int16_t)5, full, (uint8_t)2, UnaryRepeatParams(), true);
    pipe.InitBuffer(bs, N * 2);
    LocalTensor<int16_t> cnt = bs.Get<int16_t>();
    for (uint32_t i = 0; i < N; ++i) cnt.SetValue(i, (int16_t)(sj.GetValue(i) & 15));
    ShiftLeft(o[3072].ReinterpretCast<int16_t>(), si, cnt, (int32_t)N);
    CreateVecIndex(o[3584].ReinterpretCast<float>(), -7.5f, N);
    // Copy: 40 lanes of 64 per repeat, 3 repeats, src blocks 2 apart and repeats 16 blocks apart, dst packed
    LocalTensor<int32_t> ai = a.ReinterpretCast<int32_t>();
    pipe.InitBuffer(bc, 16 * 32 * 3);
    LocalTensor<int32_t> csrc = bc.Get<int32_t>();
    for (uint32_t i = 0; i < 16 * 8 * 3; ++i) csrc.SetValue(i, (int32_t)(i * 7 + 1));
    Copy(o[4608].ReinterpretCast<int32_t>(), csrc, (uint64_t)40, (uint8_t)3, CopyRepeatParams(1, 2, 5, 16));
    (void)ai;
    // Compare into the CmpMask register: float LT over lanes 0..47 of one repeat
    Compare(a, b, CMPMODE::LT, (uint64_t)48, BinaryRepeatParams());
    GetCmpMask(o[5632]);
    // DataCopyPad without isPad: the padding takes the SetPadValue value
    SetPadValue(-2.0f);
    GlobalTensor<float> gx;
    gx.SetGlobalBuffer((__gm__ float*)x, N);
    PipeBarrier<PIPE_ALL>();
    DataCopyPad(o[5664].ReinterpretCast<float>(), gx, DataCopyExtParams(1, 11 * sizeof(float), 0, 0, 0),
                DataCopyPadExtParams<float>(false, 2, 3, 0.0f));
    PipeBarrier<PIPE_ALL>();
    LocalTensor<float> tmp = bc.Get<float>();
    ReduceSum(o[5760].ReinterpretCast<float>(), a, tmp, (int32_t)N);
    o[5728].ReinterpretCast<float>().SetValue(0, GetReduceRepeatSumSpr<float>());
    GlobalTensor<uint8_t> gz;
    gz.SetGlobalBuffer((__gm__ uint8_t*)z, 5792);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, o, 5792);
}

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    g_dir = argv[1];
    fp_conversions();
    {
        uint8_t *x = load("x"), *y = load("y"), *z = out(20 * N * 4);
        ICPU_RUN_KF(k_elementwise_f32, 1, x, y, z);
        save("elementwise_f32", z, 20 * N * 4);
    }
    {
        uint8_t *x = load("xh"), *y = load("yh"), *z = out(6 * N * 2 + N * 4);
        ICPU_RUN_KF(k_elementwise_f16, 1, x, y, z);
        save("elementwise_f16", z, 6 * N * 2 + N * 4);
    }
    {
        uint8_t *x = load("xi16"), *y = load("yi16"), *z = out(3 * N * 2);
        ICPU_RUN_KF(k_bitwise_i16, 1, x, y, z);
        save("bitwise_i16", z, 3 * N * 2);
    }
    {
        uint8_t *x = load("xcast"), *xh = load("xh"), *z16 = out(7 * N * 2), *z32 = out(7 * N * 4), *zm = out(N * 7);
        ICPU_RUN_KF(k_cast, 1, x, xh, z16, z32, zm);
        save("cast_f16", z16, 7 * N * 2);
        save("cast_i32", z32, 7 * N * 4);
        save("cast_misc", zm, N * 7);
    }
    {
        uint8_t *x = load("rx"), *y = load("ry"), *xh = load("rxh"), *yh = load("ryh"), *z = out(7 * 1024 * 4);
        ICPU_RUN_KF(k_repeat, 1, x, y, xh, yh, z);
        save("repeat", z, 7 * 1024 * 4);
    }
    {
        uint8_t *x = load("cx"), *y = load("cy"), *m = load("selmask"), *zb = out(8 * 32), *zs = out(4 * N * 4);
        ICPU_RUN_KF(k_cmpsel, 1, x, y, m, zb, zs);
        save("cmp_bits", zb, 8 * 32);
        save("select", zs, 4 * N * 4);
    }
    {
        uint8_t *x = load("x"), *xh = load("xh"), *z = out(10 * 64 * 4);
        ICPU_RUN_KF(k_reduce, 1, x, xh, z);
        save("reduce", z, 10 * 64 * 4);
    }
    {
        uint8_t *x = load("x"), *z1 = out(256), *z2 = out(256), *z3 = out(256);
        std::memset(z2, 0, 256);
        ICPU_RUN_KF(k_copy, 1, x, z1, z2, z3);
        save("copy_pad_in", z1, 256);
        save("copy_pad_out", z2, 256);
        save("copy_params", z3, 256);
    }
    {
        optiling::EmuTiling t;
        t.set_totalLength(16384);
        t.set_tileNum(8);
        t.set_scale(0.125f);
        int32_t dims[3] = {4, 5, -6};
        t.set_dims(dims);
        t.set_big(1ll << 40);
        uint8_t* tiling = out(t.GetDataSize());
        t.SaveToBuffer(tiling, t.GetDataSize());
        uint8_t* z = out(8 * 4);
        ICPU_SET_TILING_KEY(7);
        ICPU_RUN_KF(k_tiling, 1, z, tiling);
        save("tiling", z, 8 * 4);
    }
    {
        uint8_t *slots = out(8 * 4), *z = out(8 * 4);
        ICPU_RUN_KF(k_syncall, 8, slots, z);
        save("syncall", z, 8 * 4);
    }
    {
        uint8_t *x = load("x"), *z = out(N * 4);
        ICPU_RUN_KF(k_atomic, 8, x, z);
        save("atomic", z, N * 4);
    }
    {
        uint8_t *x = load("x"), *y = load("y"), *a = load("xi16"), *b = load("yi16"), *z = out(5792);
        ICPU_RUN_KF(k_tier2, 1, x, y, a, b, z);
        save("tier2", z, 5792);
    }
    std::printf("api_checks done\n");
    return 0;
}
