// One test program for the high-level (library) APIs. Usage: highlevel_checks DIR
// Reads DIR/<name>.bin inputs written by pytest (numpy), runs one small kernel per API group, writes
// DIR/out_<name>.bin for pytest to compare against numpy, and prints host-side tiling facts as JSON lines.
#include <cstdio>
#include <fstream>
#include <string>

#include "kernel_operator.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"
#include "check_io.h"

using namespace AscendC;

constexpr uint32_t N = 256;       // element-wise length
constexpr uint32_t R = 8, C = 64;  // rows x cols of the row-wise APIs

template <typename T>
static LocalTensor<T> ub_new(TPipe& pipe, TBuf<TPosition::VECCALC>& buf, uint32_t n) {
    pipe.InitBuffer(buf, n * sizeof(T));
    return buf.Get<T>();
}

// ---- element-wise math and activations: 24 results of N floats, one after another ----
constexpr int kMath = 24;
extern "C" __global__ __aicore__ void k_math(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR w, GM_ADDR mask, GM_ADDR o) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bz, bw, bm, bt, br;
    LocalTensor<float> a = ub_in<float>(pipe, bx, x, N), b = ub_in<float>(pipe, by, y, N);
    LocalTensor<float> c = ub_in<float>(pipe, bz, z, N), d = ub_in<float>(pipe, bw, w, N);
    LocalTensor<uint8_t> m = ub_in<uint8_t>(pipe, bm, mask, N);
    LocalTensor<uint8_t> tmp = ub_new<uint8_t>(pipe, bt, 4096);
    LocalTensor<float> r = ub_new<float>(pipe, br, N * kMath);
    int k = 0;
    Acosh<float>(r[N * k++], c, tmp, N);      // 0: c >= 1
    Ceil<float, false>(r[N * k++], a, tmp, N);
    Frac<float>(r[N * k++], a, N);
    Rint<float>(r[N * k++], a);
    Erf<float, false>(r[N * k++], a, N);
    Fmod(r[N * k++], a, b, tmp, N);           // 5
    Power<float, false>(r[N * k++], b, a, tmp);  // b > 0
    Power<float, false>(r[N * k++], b, 3.0f, tmp);
    Fma(r[N * k++], a, b, d, N);
    ClampMin<float, false>(r[N * k++], a, tmp, -0.5f, N);
    ClampMax<float, false>(r[N * k++], a, tmp, 0.5f, N);  // 10
    Clamp(r[N * k++], a, d, 0.75f, N);
    Where<float>(r[N * k++], a, -7.0f, m, N);
    Sigmoid<float, false>(r[N * k++], a, N);
    Gelu(r[N * k++], a, N);
    Silu<float, false>(r[N * k++], a, N);     // 15
    Swish(r[N * k++], a, N, 1.702f);
    GeGLU<float, false>(r[N * k++], a, b, tmp, N);
    SwiGLU(r[N * k++], a, b, 0.5f, tmp, N);
    Exp<float, 10, false>(r[N * k++], a, tmp, N);
    Log<float, false>(r[N * k++], b, N);      // 20
    Arange<float>(r[N * k++], 1.5f, -0.25f, N);
    CumSum<float>(r[N * k], r[N * (k + 1)], a, CumSumInfo{16, 16});  // 22: rows of 16; 23 untouched (no lastRow)
    k++;
    Duplicate(r[N * k], 0.0f, N);
    Axpy(r[N * k++], a, 2.0f, tmp, N);        // 23: 0 + a * 2
    ub_out(o, r, N * kMath);
}

// ---- int16 Xor / BitwiseAnd, bool LogicalAnd, GM Fill ----
extern "C" __global__ __aicore__ void k_bits(GM_ADDR x, GM_ADDR y, GM_ADDR o16, GM_ADDR ob, GM_ADDR gm) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, br, bb;
    LocalTensor<int16_t> a = ub_in<int16_t>(pipe, bx, x, N), b = ub_in<int16_t>(pipe, by, y, N);
    LocalTensor<int16_t> r = ub_new<int16_t>(pipe, br, 3 * N);
    LocalTensor<bool> lb = ub_new<bool>(pipe, bb, 4 * N);
    Xor<int16_t, false>(r, a, b, N);
    BitwiseAnd(r[N], a, b, N);
    BitwiseNot(r[2 * N], a, N);
    LogicalAnd(lb, a, b, N);
    LogicalXor(lb[N], a, b, N);
    LogicalNot(lb[2 * N], b, N);
    LogicalAnds(lb[3 * N], a, (int16_t)0, N);
    ub_out(o16, r, 3 * N);
    ub_out(ob, lb.ReinterpretCast<uint8_t>(), 4 * N);
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)gm, 64);
    Fill(g, 64, 2.5f);
}

// ---- SoftMax family on [R, C] ----
extern "C" __global__ __aicore__ void k_softmax(GM_ADDR x, GM_ADDR gin, GM_ADDR o, GM_ADDR red) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bg, br, bs, bt;
    LocalTensor<float> a = ub_in<float>(pipe, bx, x, R * C), g = ub_in<float>(pipe, bg, gin, R * C);
    LocalTensor<float> r = ub_new<float>(pipe, br, 5 * R * C);
    LocalTensor<float> s = ub_new<float>(pipe, bs, 8 * R * 8);  // sum, max, expmax, gradfront, logsum, logmax, +2
    LocalTensor<uint8_t> tmp = ub_new<uint8_t>(pipe, bt, 8192);
    SoftMaxTiling t;
    t.srcM = R;
    t.srcK = C;
    SoftMaxShapeInfo shape{R, C, R, C};
    LocalTensor<float> sum = s, mx = s[R * 8], em = s[2 * R * 8], gf = s[3 * R * 8];
    SoftMax<float>(r, sum, mx, a, tmp, t, shape);
    // flash: first the left half of each row as a separate [R, C/2] pass, then the right half with update
    SoftMaxShapeInfo half{R, C / 2, R, C / 2};
    LocalTensor<float> fl = r[R * C], fr = r[R * C + R * C / 2];
    TBuf<TPosition::VECCALC> bl, brt, bfs, bfm;
    LocalTensor<float> xl = ub_new<float>(pipe, bl, R * C / 2), xr = ub_new<float>(pipe, brt, R * C / 2);
    for (uint32_t i = 0; i < R; ++i)
        for (uint32_t j = 0; j < C / 2; ++j) {
            xl.SetValue(i * C / 2 + j, a.GetValue(i * C + j));
            xr.SetValue(i * C / 2 + j, a.GetValue(i * C + C / 2 + j));
        }
    LocalTensor<float> fsum = ub_new<float>(pipe, bfs, R * 8), fmax = ub_new<float>(pipe, bfm, R * 8);
    SoftmaxFlashV2<float, false>(fl, fsum, fmax, xl, em, fsum, fmax, tmp, t, half);
    SoftmaxFlashV2<float, true>(fr, fsum, fmax, xr, em, fsum, fmax, tmp, t, half);
    LogSoftMax<float>(r[2 * R * C], s[4 * R * 8], s[5 * R * 8], a, tmp, LogSoftMaxTiling{}, shape);
    SoftmaxGradFront<float>(gf, g, r, tmp, t, shape);
    SoftmaxGrad<float>(r[3 * R * C], g, r, tmp, t, false, shape);
    // flash results land in r[R*C ...]: left half then right half, each [R, C/2]
    DataCopy(s[6 * R * 8], fsum, R * 8);
    DataCopy(s[7 * R * 8], fmax, R * 8);
    Duplicate(r[4 * R * C], 0.0f, R * C);
    ub_out(o, r, 5 * R * C);
    ub_out(red, s, 8 * R * 8);
}

// ---- LayerNorm / DeepNorm / LayerNormGrad / LayerNormGradBeta on [2, 4, 16]; Welford update ----
extern "C" __global__ __aicore__ void k_norm(GM_ADDR x, GM_ADDR dy, GM_ADDR gb, GM_ADDR o) {
    constexpr uint32_t B = 2, S = 4, H = 16, NN = B * S * H;
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bd, bg, br;
    LocalTensor<float> a = ub_in<float>(pipe, bx, x, NN), d = ub_in<float>(pipe, bd, dy, NN);
    LocalTensor<float> gam = ub_in<float>(pipe, bg, gb, 2 * H), bet = gam[H];
    LocalTensor<float> r = ub_new<float>(pipe, br, 4 * NN + 8 * 8 + 2 * H);
    LayerNormTiling lt;
    GetLayerNormNDTilingInfo(ge::Shape({B, S, H}), 0, 4, false, lt);
    LocalTensor<float> y = r, pdx = r[NN], rg = r[2 * NN], dn = r[3 * NN], mv = r[4 * NN];
    LayerNorm<float>(y, mv, mv[8], a, gam, bet, 1e-5f, lt);
    LayerNormGradTiling gt;
    GetLayerNormGradNDTilingInfo(ge::Shape({B, S, H}), 0, 4, false, gt);
    LayerNormGrad<float>(pdx, rg, d, a, mv[8], mv, gam, 1e-5f, gt);
    LayerNormGradBetaTiling bt;
    GetLayerNormGradBetaNDTilingInfo(ge::Shape({B, S, H}), 0, 4, false, bt);
    LayerNormGradBeta<float>(r[4 * NN + 64], r[4 * NN + 64 + H], rg, d, bt);
    DeepNormTiling dt;
    GetDeepNormTilingInfo(ge::Shape({B, S, H}), ge::Shape({B, S, H}), 0, 4, false, false, dt);
    DeepNorm<float>(dn, mv[16], mv[24], a, d, bet, gam, 0.5f, 1e-5f, dt);
    ub_out(o, r, 4 * NN + 64 + 2 * H);
}

// ---- reductions, broadcast, select / dropout, quantisation, philox ----
extern "C" __global__ __aicore__ void k_misc(GM_ADDR x, GM_ADDR mask, GM_ADDR xi, GM_ADDR o, GM_ADDR oq, GM_ADDR op) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bm, bi, br, bq, bp;
    LocalTensor<float> a = ub_in<float>(pipe, bx, x, R * C);
    LocalTensor<uint8_t> m = ub_in<uint8_t>(pipe, bm, mask, R * C);
    LocalTensor<int32_t> ai = ub_in<int32_t>(pipe, bi, xi, R * C);
    LocalTensor<float> r = ub_new<float>(pipe, br, 6 * R * C);
    Duplicate(r, 0.0f, 6 * R * C);
    Sum(r, a, SumParams{R, C, C - 3});                          // [0, R): rows, last 3 left out
    Mean(r[64], a, MeanParams{R, C, C - 5});
    uint32_t ar[2] = {R, C};
    ReduceMax<float, Pattern::Reduce::AR>(r[R * C], a, ar, true);  // R
    ReduceMax<float, Pattern::Reduce::RA>(r[R * C + 64], a, ar, true);  // C
    uint32_t srcShape[2] = {R, 1}, dstShape[2] = {R, C};
    Broadcast<float, 2, 1>(r[2 * R * C], a, dstShape, srcShape);  // first R values of a across each row
    SelectWithBytesMaskShapeInfo si;
    si.firstAxis = R;
    si.srcLastAxis = C;
    si.maskLastAxis = C;
    TBuf<TPosition::VECCALC> bt;
    LocalTensor<uint8_t> tmp = ub_new<uint8_t>(pipe, bt, 4096);
    Select(r[3 * R * C], a, 9.0f, m, tmp, si);
    DropOutShapeInfo di;
    di.firstAxis = R;
    di.srcLastAxis = C;
    di.maskLastAxis = C;
    DropOut(r[4 * R * C], a, m, tmp, 0.25f, di);
    static constexpr DequantizeConfig dq = {DequantizePolicy::PER_CHANNEL, false, 1};
    Dequantize<dq>(r[5 * R * C], ai, a, a, DequantizeParams{R, C, 0});  // scale = row 0 of a, per column
    ub_out(o, r, 6 * R * C);
    LocalTensor<int8_t> q = ub_new<int8_t>(pipe, bq, R * C);
    AscendQuant<float>(q, a, 20.0f, 0.5f, R * C);
    ub_out(oq, q, R * C);
    LocalTensor<uint32_t> p = ub_new<uint32_t>(pipe, bp, 16);
    PhiloxRandom<10>(p, {0u, 0u}, {0u, 0u, 0u, 0u}, 8);
    PhiloxRandom<10>(p[8], {0xa4093822u, 0x299f31d0u}, {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}, 4);
    for (uint32_t j = 12; j < 16; ++j) p.SetValue(j, 0u);
    ub_out(op, p, 16);
}


// ---- TopK, Sort / Extract, Transpose, Pad / UnPad, Welford ----
static_assert(Std::is_same_v<Std::remove_cv_t<const volatile int>, int> && Std::is_floating_point<float>::value,
              "AscendC::Std type traits");
extern "C" __global__ __aicore__ void k_order(GM_ADDR x, GM_ADDR nz, GM_ADDR ov, GM_ADDR oi, GM_ADDR ot, GM_ADDR ow) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bi, bf, bv, bo, bs, bt, bz, bp, bw;
    LocalTensor<float> a = ub_in<float>(pipe, bx, x, R * C);
    LocalTensor<int32_t> idx = ub_new<int32_t>(pipe, bi, C);
    LocalTensor<bool> fin = ub_new<bool>(pipe, bf, 32);
    for (uint32_t j = 0; j < 32; ++j) fin.SetValue(j, j == 1);  // row 1 is finished
    LocalTensor<float> v = ub_new<float>(pipe, bv, 2 * R * 8);
    LocalTensor<int32_t> oidx = ub_new<int32_t>(pipe, bo, 2 * R * 8);
    TopKInfo info;
    info.outter = R;
    info.inner = C;
    info.n = C;
    TopkTiling tt;
    TopK<float, false, false>(v, oidx, a, idx, fin, 5, tt, info, true);
    TopK<float, false, true>(v[R * 8], oidx[R * 8], a, idx, fin, 3, tt, info, false);
    ub_out(ov, v, 2 * R * 8);
    ub_out(oi, oidx, 2 * R * 8);
    // Sort: 4 repeats of 32 over the first 128 values, full sort, then Extract
    LocalTensor<float> sorted = ub_new<float>(pipe, bs, 256), tmp = ub_new<float>(pipe, bt, 256), concat;
    LocalTensor<uint32_t> sidx = ub_new<uint32_t>(pipe, bw, 2 * 128);
    for (uint32_t j = 0; j < 128; ++j) sidx.SetValue(j, 1000 + j);
    Concat(concat, a, tmp, 8);
    Sort<float, true>(sorted, concat, sidx, tmp, 4);
    LocalTensor<float> tout = ub_new<float>(pipe, bz, 4 * 512);
    Extract(tout, tout[1024].ReinterpretCast<uint32_t>(), sorted, 4);
    // Transpose NZ2ND_0213 of half data [1, 2, 32, 32] (given in NZ) and a 2-D [16, 32] transpose
    TBuf<TPosition::VECCALC> bn, bh;
    LocalTensor<half> hz = ub_in<half>(pipe, bn, nz, 2048), hd = ub_new<half>(pipe, bh, 2048 + 512);
    ConfusionTransposeTiling ct;
    GetTransposeTilingInfo(ge::Shape({1, 2, 32, 32}), 0, 2, 1, ct);
    Transpose(hd, hz, TransposeType::TRANSPOSE_NZ2ND_0213, ct);
    ConfusionTransposeTiling c2;
    GetTransposeTilingInfo(ge::Shape({16, 32}), 0, 2, 7, c2);
    Transpose(hd[2048], hz, TransposeType::TRANSPOSE_ND2ND_ONLY, c2);
    ub_out(ot, hd, 2048 + 512);
    // Pad rows of 5 valid (stride 8) by 1 left + 2 right to 8; UnPad rows of 64 by 8 left, 24 right
    LocalTensor<float> pad = tout[128], unp = tout[128 + 64];
    PadParams pp{1, 2, -1};
    PadTiling pt;
    PadTilingFunc(ge::Shape({8, 8}), ge::Shape({8, 5}), 0, 4, pt);
    Pad(pad, a, pp, pt);
    UnPadParams up{8, 24};
    UnPadTiling ut;
    UnPadTilingFunc(ge::Shape({8, 64}), 0, 4, ut);
    UnPad(unp, a, up, ut);
    // Welford: update 64 columns (the first 40 computed) with nRec 1/4, then finalize 8 partials with counts
    LocalTensor<float> wm = tout[512], wv = tout[576], fm = tout[640], fv = tout[648];
    LocalTensor<float> sums = ub_new<float>(pipe, bp, 128);
    for (uint32_t j = 0; j < 64; ++j) { sums.SetValue(j, 0.5f * j); sums.SetValue(64 + j, 2.0f + j); }
    static constexpr WelfordUpdateConfig inplace = {true};
    WelfordUpdate<float, float, false, inplace>(wm, wv, sums, sums[64], a, WelfordUpdateParam{1, 64, 40, 0.25f});
    LocalTensor<int32_t> cnt = idx;
    for (uint32_t j = 0; j < 8; ++j) cnt.SetValue(j, (int32_t)(j + 1));
    WelfordFinalizePara fp{1, 8, 0, 0, 0, 0, 0.125f, 1.0f / 36, 0.0f};
    WelfordFinalize<false>(fm, fv, a, a[8], cnt, fp);
    ub_out(ow, tout, 4 * 512);
}

// ---- RmsNorm, [A, R] LayerNorm with rstd, Normalize (same data as k_norm, seen as [8, 16]) ----
extern "C" __global__ __aicore__ void k_norm2(GM_ADDR x, GM_ADDR gb, GM_ADDR o) {
    constexpr uint32_t NN = 128;
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bg, br;
    LocalTensor<float> a = ub_in<float>(pipe, bx, x, NN);
    LocalTensor<float> gam = ub_in<float>(pipe, bg, gb, 32), bet = gam[16];
    LocalTensor<float> r = ub_new<float>(pipe, br, 752);
    Duplicate(r, 0.0f, 752);
    RmsNormTiling rt;
    GetRmsNormTilingInfo(ge::Shape({2, 4, 16}), ge::Shape({2, 4, 16}), 0, 4, rt);
    RmsNorm<float>(r, a, gam, 1e-6f, rt);
    LayerNormSeparateTiling st;
    GetLayerNormNDTilingInfo(ge::Shape({8, 16}), 0, 4, false, true, st);
    LayerNorm<float, float>(r[NN], r[3 * NN], r[3 * NN + 8], a, gam, bet, 1e-5f, LayerNormPara{8, 16, 16}, st);
    // Normalize with the LayerNorm mean and a made-up variance (the rstd output goes after it)
    LocalTensor<float> var = r[3 * NN + 16];
    for (uint32_t j = 0; j < 8; ++j) var.SetValue(j, 0.5f + j);
    static constexpr NormalizeConfig noBeta = {ReducePattern::AR, -1, true, false, false};
    Normalize<float, float, false, noBeta>(r[2 * NN], r[3 * NN + 24], r[3 * NN], var, a, gam, bet, 1e-5f,
                                           NormalizePara{8, 16, 16});
    // BatchNorm of [4, 2, 16] (gamma / beta per batch); GroupNorm of [2, 4, 16] in 2 groups
    BatchNormTiling bt;
    GetBatchNormNDTilingInfo(ge::Shape({4, 2, 16}), ge::Shape({4, 2, 16}), 0, 4, false, bt);
    BatchNorm<float>(r[416], r[544], r[576], a, gam, gam[8], 1e-5f, bt);
    GroupNormTiling gt;
    GetGroupNormNDTilingInfo(ge::Shape({2, 4, 4, 4}), 0, 4, false, 2, gt);
    GroupNorm<float>(r[608], r[736], r[744], a, gam, bet, 1e-5f, gt);
    ub_out(o, r, 752);
}

// ---- IsInf / IsNan on specials, Hypot ----
extern "C" __global__ __aicore__ void k_special(GM_ADDR x, GM_ADDR y, GM_ADDR o) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, br;
    LocalTensor<float> a = ub_in<float>(pipe, bx, x, N), b = ub_in<float>(pipe, by, y, N);
    LocalTensor<float> r = ub_new<float>(pipe, br, 3 * N);
    a.SetValue(0, INFINITY);
    a.SetValue(1, -INFINITY);
    a.SetValue(2, NAN);
    IsInf(r, a, N);
    IsNan(r[N], a, N);
    Hypot<float>(r[2 * N], a, b, N);
    ub_out(o, r, 3 * N);
}

// A library function whose dst overlaps its src, half a buffer ahead (as NPUKernelBench's MulSigmoidMulAdd does with
// GetWithOffset): the library computes through its temporary buffer, so dst is f of src as it was before the call.
extern "C" __global__ __aicore__ void k_overlap(GM_ADDR x, GM_ADDR o) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, br;
    LocalTensor<float> a = ub_in<float>(pipe, bx, x, N);
    LocalTensor<float> r = ub_new<float>(pipe, br, 2 * N);
    DataCopy(r, a, N);
    PipeBarrier<PIPE_V>();
    Sigmoid<float, false>(r[N / 2], r, N);
    ub_out(o, r[N / 2], N);
}

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    g_dir = argv[1];
    uint8_t* o = out(N * kMath * 4);
    ICPU_RUN_KF(k_math, 1, load("x"), load("y"), load("z"), load("w"), load("mask"), o);
    save("math", o, N * kMath * 4);

    uint8_t *o16 = out(3 * N * 2), *ob = out(4 * N), *gm = out(64 * 4);
    ICPU_RUN_KF(k_bits, 1, load("i16a"), load("i16b"), o16, ob, gm);
    save("bits16", o16, 3 * N * 2);
    save("logical", ob, 4 * N);
    save("fill", gm, 64 * 4);
    uint8_t* osp = out(3 * N * 4);
    ICPU_RUN_KF(k_special, 1, load("x"), load("y"), osp);
    save("special", osp, 3 * N * 4);
    uint8_t* oo = out(N * 4);
    ICPU_RUN_KF(k_overlap, 1, load("x"), oo);
    save("overlap", oo, N * 4);

    uint8_t *os = out(5 * R * C * 4), *red = out(8 * R * 8 * 4);
    ICPU_RUN_KF(k_softmax, 1, load("sx"), load("sg"), os, red);
    save("softmax", os, 5 * R * C * 4);
    save("softmax_red", red, 8 * R * 8 * 4);

    size_t nn = 2 * 4 * 16;
    uint8_t* on = out((4 * nn + 64 + 32) * 4);
    ICPU_RUN_KF(k_norm, 1, load("nx"), load("ndy"), load("ngb"), on);
    save("norm", on, (4 * nn + 64 + 32) * 4);
    uint8_t* on2 = out(752 * 4);
    ICPU_RUN_KF(k_norm2, 1, load("nx"), load("ngb"), on2);
    save("norm2", on2, 752 * 4);

    uint8_t *om = out(6 * R * C * 4), *oq = out(R * C), *op = out(16 * 4);
    ICPU_RUN_KF(k_misc, 1, load("sx"), load("smask"), load("sxi"), om, oq, op);
    save("misc", om, 6 * R * C * 4);
    save("quant", oq, R * C);
    save("philox", op, 16 * 4);

    uint8_t *ov = out(2 * R * 8 * 4), *oi = out(2 * R * 8 * 4), *ot = out((2048 + 512) * 2), *ow = out(4 * 512 * 4);
    ICPU_RUN_KF(k_order, 1, load("sx"), load("nz"), ov, oi, ot, ow);
    save("topk_v", ov, 2 * R * 8 * 4);
    save("topk_i", oi, 2 * R * 8 * 4);
    save("transpose", ot, (2048 + 512) * 2);
    save("order", ow, 4 * 512 * 4);

    // host side: tiling helpers and the platform
    uint32_t mx = 0, mn = 0;
    GetAcoshMaxMinTmpSize(ge::Shape({1024}), 4, false, mx, mn);
    SoftMaxTiling st;
    SoftMaxTilingFunc(ge::Shape({4, 8, 64}), 4, GetSoftMaxMinTmpSize(ge::Shape({4, 8, 64}), 4, false), st);
    uint64_t ub = 0;
    auto* plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    plat->GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t dims[3] = {2, 5, 7};
    ShapeInfo si(3, dims, DataFormat::ND);
    std::printf("{\"shapeinfo\": [%d, %d, %d], ", GetShapeSize(si), (int)si.originalShapeDim, GetShapeSize(ShapeInfo()));
    std::printf("\"acosh_max\": %u, \"acosh_min\": %u, \"sm_srcM\": %u, \"sm_srcK\": %u, \"sm_outMaxK\": %u, "
                "\"ub\": %llu, \"aiv\": %u, \"shape_size\": %lld}\n",
                mx, mn, st.srcM, st.srcK, st.outMaxK, (unsigned long long)ub, plat->GetCoreNumAiv(),
                (long long)TensorShape({2, 3, 4}).GetShapeSize());
    return 0;
}
