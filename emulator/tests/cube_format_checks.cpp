// High-level Matmul output formats and the host tiling's core split, written for the emulator's tests (driven by
// tests/emulator/test_cube_formats.py). Usage: cube_format_checks DIR CASE
//
//   nd_align       C = A @ B with C in CubeFormat::ND_ALIGN: rows of N floats go out padded to 32 bytes, the
//                  padding columns written as zeros;
//   nz_split       C in CubeFormat::NZ (float) with MatmulConfig::isEnableChannelSplit: 16 x 8 fractals;
//   nz_plain       the same without channel split: 16 x 16 fractals;
//   split M N K D [BM BN BK]  print the core split GetTiling makes for an M x N x K fp16 matmul over D cores
//                  (with SetFixSplit(BM, BN, BK) when given);
//   static_db      print the L0 double buffers GetMatmulApiTiling picks for 256 x 128 x 128 and 128 x 128 x 64
//                  fp16 base blocks.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "check_io.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/tiling_api.h"

using namespace AscendC;

__aicore__ inline constexpr MatmulConfig SplitCfg() {
    MatmulConfig c = CFG_NORM;
    c.isEnableChannelSplit = true;
    return c;
}
constexpr static MatmulConfig SPLIT_CFG = SplitCfg();

#define ASCENDC_CUBE_ONLY
template <CubeFormat CF, bool SPLIT>
__global__ __aicore__ void one_core_mm(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm) {
    TCubeTiling t;
    std::memcpy(&t, (const void*)tilingGm, sizeof t);
    TPipe pipe;
    using A = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using C = MatmulType<TPosition::GM, CF, float>;
    using Bias = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    Matmul<A, A, C, Bias, SPLIT ? SPLIT_CFG : CFG_NORM> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    GlobalTensor<half> aG, bG;
    GlobalTensor<float> cG;
    aG.SetGlobalBuffer((__gm__ half*)a, (uint64_t)t.M * t.Ka);
    bG.SetGlobalBuffer((__gm__ half*)b, (uint64_t)t.Kb * t.N);
    cG.SetGlobalBuffer((__gm__ float*)c, (uint64_t)(t.M + 16) * (t.N + 16));
    mm.SetTensorA(aG);
    mm.SetTensorB(bG);
    mm.IterateAll(cG);
    mm.End();
}
#undef ASCENDC_CUBE_ONLY

static int64_t tiling_of(TCubeTiling& t, int32_t M, int32_t N, int32_t K, int32_t dim, matmul_tiling::CubeFormat cf,
                         const int32_t* fix = nullptr) {
    namespace mt = matmul_tiling;
    mt::MultiCoreMatmulTiling api(*platform_ascendc::PlatformAscendCManager::GetInstance());
    api.SetDim(dim);
    api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16, false);
    api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16, false);
    api.SetCType(mt::TPosition::GM, cf, mt::DataType::DT_FLOAT);
    api.SetOrgShape(M, N, K);
    api.SetShape(M, N, K);
    api.EnableBias(false);
    api.SetBufferSpace(-1, -1, -1);
    if (fix) api.SetFixSplit(fix[0], fix[1], fix[2]);
    return api.GetTiling(t);
}

int main(int argc, char** argv) {
    if (argc < 3) return 2;
    g_dir = argv[1];
    std::string c = argv[2];
    TCubeTiling t;
    if (c == "split" && (argc == 7 || argc == 10)) {
        int32_t fix[3] = {argc == 10 ? atoi(argv[7]) : 0, argc == 10 ? atoi(argv[8]) : 0, argc == 10 ? atoi(argv[9]) : 0};
        if (tiling_of(t, atoi(argv[3]), atoi(argv[4]), atoi(argv[5]), atoi(argv[6]), matmul_tiling::CubeFormat::ND,
                      argc == 10 ? fix : nullptr))
            return 5;
        std::printf("used=%d singleCoreM=%d singleCoreN=%d\n", t.usedCoreNum, t.singleCoreM, t.singleCoreN);
        return 0;
    }
    if (c == "static_db") {
        using A = MatmulType<TPosition::GM, CubeFormat::ND, half>;
        using C = MatmulType<TPosition::GM, CubeFormat::ND, float>;
        constexpr MatmulShapeParams big = {256, 1024, 128, 256, 128, 128};
        constexpr MatmulShapeParams small = {128, 128, 64, 128, 128, 64};
        constexpr auto tb = GetMatmulApiTiling<A, A, C, C>(GetMMConfig<MatmulConfigMode::CONFIG_NORM>(big));
        constexpr auto ts = GetMatmulApiTiling<A, A, C, C>(GetMMConfig<MatmulConfigMode::CONFIG_NORM>(small));
        std::printf("big dbL0A=%d dbL0B=%d small dbL0A=%d dbL0B=%d\n", tb.dbL0A, tb.dbL0B, ts.dbL0A, ts.dbL0B);
        return 0;
    }
    size_t shape_n = 0;
    int32_t* shape = (int32_t*)load("shape", &shape_n);  // M, N, K
    int32_t M = shape[0], N = shape[1], K = shape[2];
    namespace mt = matmul_tiling;
    mt::CubeFormat cf = c == "nd_align" ? mt::CubeFormat::ND_ALIGN : mt::CubeFormat::NZ;
    if (tiling_of(t, M, N, K, 1, cf) != 0) return 5;
    uint8_t *a = load("a"), *b = load("b"), *tg = out(sizeof t);
    std::memcpy(tg, &t, sizeof t);
    size_t out_bytes = (size_t)(M + 16) * (N + 16) * sizeof(float);
    uint8_t* cbuf = out(out_bytes);
    if (c == "nd_align") ICPU_RUN_KF((one_core_mm<CubeFormat::ND_ALIGN, false>), 1, a, b, cbuf, tg);
    else if (c == "nz_split") ICPU_RUN_KF((one_core_mm<CubeFormat::NZ, true>), 1, a, b, cbuf, tg);
    else if (c == "nz_plain") ICPU_RUN_KF((one_core_mm<CubeFormat::NZ, false>), 1, a, b, cbuf, tg);
    else return 2;
    save("c", cbuf, out_bytes);
    return 0;
}
