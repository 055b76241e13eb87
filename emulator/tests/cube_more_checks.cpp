// More cube-path kernels written for the emulator's tests (driven by tests/emulator/test_cube_more.py, which
// writes the inputs and compares the outputs with numpy). Usage: cube_more_checks DIR CASE
//
//   expr_*      the whole-tensor operator forms of the vector APIs (`dst = x + y`, `bits = x >= y`);
//   partial_*   a Matmul with MatmulConfig.isPartialOutput: each Iterate gives one baseK slice of one block;
//   nbatch_*    Matmul::IterateNBatch into the SetWorkspace buffer;
//   tri_*       Matmul with TrianUpper / TrianLowerMatmulPolicy: the base blocks off the kept triangle are left alone;
//   cb_*        Matmul with MatmulCallBackFunc copy-in functions (CopyA1 / CopyB1) that fetch each base block from a
//               buffer of their own (the operands given to SetTensorA / SetTensorB are decoys);
//   layout      Coord / Layout (MakeCoord, MakeShape, MakeStride, MakeLayout, layout(coord)) and the integer Ceil.
#include <cstring>
#include <string>

#include "check_io.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/tiling_api.h"

using namespace AscendC;

// ---- operator forms: out = x + y, x - y, x * y (three rows of n floats) and the bits of x >= y, x < y ----
__global__ __aicore__ void expr_ops(GM_ADDR x, GM_ADDR y, GM_ADDR out, GM_ADDR bits, uint32_t n, uint32_t variant) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb, ob, kb, sb;
    LocalTensor<float> xl = ub_in<float>(pipe, xb, x, n), yl = ub_in<float>(pipe, yb, y, n);
    pipe.InitBuffer(ob, n * sizeof(float));
    pipe.InitBuffer(kb, 2 * n / 8);
    LocalTensor<float> o = ob.Get<float>();
    LocalTensor<uint8_t> k = kb.Get<uint8_t>();
    if (variant == 1) {  // dst holds a quarter of the operands: the whole-tensor Add runs past it
        pipe.InitBuffer(sb, n);
        LocalTensor<float> small = sb.Get<float>();
        small = xl + yl;  // @expr_short_dst
        return;
    }
    o = xl + yl;
    ub_out(out, o, n);
    o = xl - yl;
    ub_out(out + n * sizeof(float), o, n);
    o = xl * yl;
    ub_out(out + 2 * n * sizeof(float), o, n);
    k = xl >= yl;
    LocalTensor<uint8_t> k2 = k[n / 8];
    k2 = xl < yl;
    ub_out(bits, k, 2 * n / 8);
}

// ---- isPartialOutput: every Iterate's slice goes out sequentially (baseM x baseN each) with its block offset ----
__aicore__ inline constexpr MatmulConfig PartialCfg(bool on) {
    MatmulConfig c = CFG_MDL;
    c.isPartialOutput = on;
    return c;
}
constexpr MatmulConfig CFG_PARTIAL = PartialCfg(true);
constexpr MatmulConfig CFG_WHOLE = PartialCfg(false);

template <const MatmulConfig& CFG>
__global__ __aicore__ void partial_mm(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR offs, GM_ADDR tilingGm) {
    TCubeTiling t;
    std::memcpy(&t, (const void*)tilingGm, sizeof t);
    TPipe pipe;
    using A = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using C = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    Matmul<A, A, C, C, CFG> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    GlobalTensor<half> aG, bG;
    GlobalTensor<float> cG, biasG;
    aG.SetGlobalBuffer((__gm__ half*)a);
    bG.SetGlobalBuffer((__gm__ half*)b);
    cG.SetGlobalBuffer((__gm__ float*)c);
    biasG.SetGlobalBuffer((__gm__ float*)bias);
    mm.SetTensorA(aG);
    mm.SetTensorB(bG);
    if (bias) mm.SetBias(biasG);  // @partial_bias
    int32_t* o = (int32_t*)offs;
    uint32_t i = 0;
    while (mm.Iterate()) {
        mm.GetTensorC(cG[i * t.baseM * t.baseN], 0, true);
        MatrixOffset off = mm.GetOffsetC();
        o[4 * i] = off.row, o[4 * i + 1] = off.col, o[4 * i + 2] = off.height, o[4 * i + 3] = off.width;
        ++i;
    }
    mm.End();
}

// ---- IterateNBatch: `loops` x (batch A x batch B) matrices in the NORMAL layout into the workspace, then copied out
__global__ __aicore__ void nbatch_mm(GM_ADDR a, GM_ADDR b, GM_ADDR ws, GM_ADDR tilingGm, uint32_t loops,
                                     uint32_t batch, uint32_t variant) {
    TCubeTiling t;
    std::memcpy(&t, (const void*)tilingGm, sizeof t);
    TPipe pipe;
    using A = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>;
    using C = MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::NORMAL>;
    Matmul<A, A, C> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    GlobalTensor<half> aG, bG;
    GlobalTensor<float> wsG;
    aG.SetGlobalBuffer((__gm__ half*)a);
    bG.SetGlobalBuffer((__gm__ half*)b);
    uint32_t n = loops * batch * t.M * t.N;
    wsG.SetGlobalBuffer((__gm__ float*)ws, n);
    mm.SetTensorA(aG);
    mm.SetTensorB(bG);
    if (variant != 1) mm.SetWorkspace(wsG);
    mm.IterateNBatch(loops, batch, batch, false);  // @nbatch_no_workspace
    mm.End();
}

// ---- triangular policies: IterateAll into a C the host filled with a sentinel ----
template <template <const auto&, typename...> class POLICY>
__global__ __aicore__ void tri_mm(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm) {
    TCubeTiling t;
    std::memcpy(&t, (const void*)tilingGm, sizeof t);
    TPipe pipe;
    using A = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using C = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    Matmul<A, A, C, C, CFG_NORM, MatmulCallBackFunc<nullptr, nullptr, nullptr>, POLICY> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    GlobalTensor<half> aG, bG;
    GlobalTensor<float> cG;
    aG.SetGlobalBuffer((__gm__ half*)a);
    bG.SetGlobalBuffer((__gm__ half*)b);
    cG.SetGlobalBuffer((__gm__ float*)c);
    mm.SetTensorA(aG);
    mm.SetTensorB(bG);
    mm.IterateAll(cG);
    mm.End();
}

// ---- copy-in callbacks: the real A / B live in a buffer whose address comes through SetSelfDefineData, their row
// length through SetUserDefInfo; each call copies one base block ND -> Nz into L1. g_cb_wrong_stride: the Nz column
// stride is the block's height instead of its 16-aligned height (wrong when a block's height is not a multiple of 16).
static bool g_cb_wrong_stride = false;
struct CbData {
    uint64_t a, b;  // GM addresses of the real A (M x K) and B (K x N), half
    uint64_t baseM, baseK, baseN;
};
static void cb_copy(const LocalTensor<int8_t>& l1, uint64_t src, int row, int col, int h, int w, uint64_t ld,
                    uint64_t bh, uint64_t bw) {
    GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half*)src);
    LocalTensor<half> dst = l1.ReinterpretCast<half>();
    uint16_t c0stride = g_cb_wrong_stride ? (uint16_t)h : (uint16_t)((h + 15) / 16 * 16);
    DataCopy(dst, g[(uint64_t)row * bh * ld + (uint64_t)col * bw],
             Nd2NzParams{1, (uint16_t)h, (uint16_t)w, 0, (uint16_t)ld, c0stride, 1, 0});
}
static void cb_a1(const LocalTensor<int8_t>& aMatrix, const __gm__ void*, int row, int col, int useM, int useK,
                  const uint64_t tilingPtr, const uint64_t dataPtr) {
    const CbData* d = (const CbData*)dataPtr;
    cb_copy(aMatrix, d->a, row, col, useM, useK, tilingPtr >> 32, d->baseM, d->baseK);
}
static void cb_b1(const LocalTensor<int8_t>& bMatrix, const __gm__ void*, int row, int col, int useK, int useN,
                  const uint64_t tilingPtr, const uint64_t dataPtr) {
    const CbData* d = (const CbData*)dataPtr;
    cb_copy(bMatrix, d->b, row, col, useK, useN, tilingPtr & 0xFFFFFFFFu, d->baseK, d->baseN);
}
template <class CB>
__global__ __aicore__ void cb_mm(GM_ADDR a, GM_ADDR b, GM_ADDR decoy, GM_ADDR c, GM_ADDR data, GM_ADDR tilingGm) {
    TCubeTiling t;
    std::memcpy(&t, (const void*)tilingGm, sizeof t);
    TPipe pipe;
    using A = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using C = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    Matmul<A, A, C, C, CFG_NORM, CB> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    CbData* d = (CbData*)data;
    d->baseM = t.baseM, d->baseK = t.baseK, d->baseN = t.baseN;
    GlobalTensor<half> aG, bG;
    GlobalTensor<float> cG;
    aG.SetGlobalBuffer((__gm__ half*)(CB::copy_a1 != nullptr ? decoy : a));  // an operand with a callback: a decoy
    bG.SetGlobalBuffer((__gm__ half*)(CB::copy_b1 != nullptr ? decoy : b));
    cG.SetGlobalBuffer((__gm__ float*)c);
    mm.SetUserDefInfo(((uint64_t)t.Ka << 32) | (uint64_t)t.N);  // the row lengths of A and B
    mm.SetSelfDefineData((uint64_t)(uintptr_t)d);
    mm.SetTensorA(aG);
    mm.SetTensorB(bG);
    mm.IterateAll(cG);
    mm.End();
}

// ---- layouts: the element index of coordinate (i, j, k) under a row-major 3-D layout given by dims (and a
// nested 2-D one), and the tile counts Ceil(dim, tile) ----
__global__ __aicore__ void layout_idx(GM_ADDR dims, GM_ADDR out) {
    const int64_t* d = (const int64_t*)dims;  // d0, d1, d2, tile
    int64_t* o = (int64_t*)out;
    auto layout = MakeLayout(MakeShape(d[0], d[1], d[2]), MakeStride(d[1] * d[2], d[2], (int64_t)1));
    auto nested = MakeLayout(MakeShape(d[0], MakeShape(d[1], d[2])), MakeStride(d[1] * d[2], MakeStride(d[2], 1)));
    int64_t n = 0;
    for (int64_t i = 0; i < d[0]; i += 3)
        for (int64_t j = 0; j < d[1]; j += 2)
            for (int64_t k = 0; k < d[2]; k += 5) {
                Coord<int64_t, int64_t, int64_t> c = MakeCoord(i, j, k);
                o[n++] = layout(c);
                o[n++] = nested(MakeCoord(i, MakeCoord(j, k)));
            }
    for (int64_t x = 0; x < 3; ++x) o[n++] = Ceil(d[x], d[3]);
    o[n++] = Ceil(d[0], (int64_t)0);
}

static int64_t host_tiling(TCubeTiling& t, int32_t M, int32_t N, int32_t K) {
    namespace mt = matmul_tiling;
    mt::MultiCoreMatmulTiling api(*platform_ascendc::PlatformAscendCManager::GetInstance());
    api.SetDim(1);
    api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16, false);
    api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16, false);
    api.SetCType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
    api.SetBiasType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
    api.SetOrgShape(M, N, K);
    api.SetShape(M, N, K);
    api.EnableBias(false);
    api.SetBufferSpace(-1, -1, -1);
    return api.GetTiling(t);
}

int main(int argc, char** argv) {
    if (argc < 3) return 2;
    g_dir = argv[1];
    std::string c = argv[2];
    if (c.rfind("expr_", 0) == 0) {
        size_t bytes = 0;
        uint8_t *x = load("x", &bytes), *y = load("y");
        uint32_t n = (uint32_t)(bytes / sizeof(float));
        uint8_t *o = out(3 * bytes), *k = out(2 * n / 8);
        ICPU_RUN_KF(expr_ops, 1, x, y, o, k, n, (uint32_t)(c == "expr_short_dst"));
        save("c", o, 3 * bytes);
        save("bits", k, 2 * n / 8);
        return 0;
    }
    if (c == "layout") {
        uint8_t *dims = load("dims"), *o = out(4096 * sizeof(int64_t));
        ICPU_RUN_KF(layout_idx, 1, dims, o);
        save("c", o, 4096 * sizeof(int64_t));
        return 0;
    }
    uint8_t *a = load("a"), *b = load("b");
    int32_t* shape = (int32_t*)load("shape");  // M, N, K, loops, batch
    int32_t M = shape[0], N = shape[1], K = shape[2], loops = shape[3], batch = shape[4];
    TCubeTiling t;
    if (host_tiling(t, M, N, K) != 0) {
        std::fprintf(stderr, "GetTiling failed\n");
        return 5;
    }
    std::printf("tiling single=%d,%d,%d base=%d,%d,%d order=%d\n", t.singleCoreM, t.singleCoreN, t.singleCoreK,
                t.baseM, t.baseN, t.baseK, t.iterateOrder);
    uint8_t* tg = (uint8_t*)GmAlloc(sizeof t);
    std::memcpy(tg, &t, sizeof t);
    if (c.rfind("partial_", 0) == 0) {
        size_t slices = (size_t)((M + t.baseM - 1) / t.baseM) * ((N + t.baseN - 1) / t.baseN) *
                        ((K + t.baseK - 1) / t.baseK);
        size_t cbytes = slices * t.baseM * t.baseN * sizeof(float);
        uint8_t *cbuf = out(cbytes), *offs = out(slices * 4 * sizeof(int32_t));
        uint8_t* bias = c == "partial_bias" ? out(N * sizeof(float)) : nullptr;
        if (c == "partial_whole") ICPU_RUN_KF(partial_mm<CFG_WHOLE>, 1, a, b, bias, cbuf, offs, tg);
        else ICPU_RUN_KF(partial_mm<CFG_PARTIAL>, 1, a, b, bias, cbuf, offs, tg);
        save("c", cbuf, cbytes);
        save("offs", offs, slices * 4 * sizeof(int32_t));
        return 0;
    }
    if (c.rfind("cb_", 0) == 0) {
        uint8_t* decoy = load("decoy");  // zeros: a Matmul that ignored the callbacks would give C = 0
        CbData d{(uint64_t)(uintptr_t)a, (uint64_t)(uintptr_t)b, 0, 0, 0};
        uint8_t* data = (uint8_t*)GmAlloc(sizeof d);
        std::memcpy(data, &d, sizeof d);
        uint8_t* cbuf = out((size_t)M * N * sizeof(float));
        g_cb_wrong_stride = c == "cb_wrong_stride";
        if (c == "cb_b") ICPU_RUN_KF((cb_mm<MatmulCallBackFunc<nullptr, nullptr, cb_b1>>), 1, a, b, decoy, cbuf, data, tg);
        else if (c == "cb_ab") ICPU_RUN_KF((cb_mm<MatmulCallBackFunc<nullptr, cb_a1, cb_b1>>), 1, a, b, decoy, cbuf, data, tg);
        else ICPU_RUN_KF((cb_mm<MatmulCallBackFunc<nullptr, cb_a1, nullptr>>), 1, a, b, decoy, cbuf, data, tg);
        save("c", cbuf, (size_t)M * N * sizeof(float));
        return 0;
    }
    if (c.rfind("tri_", 0) == 0) {
        uint8_t* cbuf = load("c0");  // the sentinel-filled C
        using namespace AscendC::Impl::Detail;
        if (c == "tri_upper") ICPU_RUN_KF(tri_mm<TrianUpperMatmulPolicy>, 1, a, b, cbuf, tg);
        else if (c == "tri_lower") ICPU_RUN_KF(tri_mm<TrianLowerMatmulPolicy>, 1, a, b, cbuf, tg);
        else ICPU_RUN_KF(tri_mm<MatmulPolicy>, 1, a, b, cbuf, tg);
        save("c", cbuf, (size_t)M * N * sizeof(float));
        return 0;
    }
    size_t cbytes = (size_t)loops * batch * M * N * sizeof(float);
    uint8_t* ws = out(cbytes);
    ICPU_RUN_KF(nbatch_mm, 1, a, b, ws, tg, (uint32_t)loops, (uint32_t)batch,
                (uint32_t)(c == "nbatch_no_workspace"));
    save("c", ws, cbytes);  // the C matrices IterateNBatch left in the workspace
    return 0;
}
