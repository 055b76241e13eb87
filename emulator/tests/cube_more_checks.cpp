// More cube-path kernels written for the emulator's tests (driven by tests/emulator/test_cube_more.py, which
// writes the inputs and compares the outputs with numpy). Usage: cube_more_checks DIR CASE
//
//   expr_*      the whole-tensor operator forms of the vector APIs (`dst = x + y`, `bits = x >= y`);
//   partial_*   a Matmul with MatmulConfig.isPartialOutput: each Iterate gives one baseK slice of one block;
//   nbatch_*    Matmul::IterateNBatch into the SetWorkspace buffer;
//   tri_*       Matmul with TrianUpper / TrianLowerMatmulPolicy: the base blocks off the kept triangle are left alone;
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
