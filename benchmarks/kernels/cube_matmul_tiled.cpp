// C = A @ B, A [M, K] half, B [K, N] half, C [M, N] float, with the cube unit's basic API on one AIC core: C in
// 128 x 128 tiles, K in steps of 256 (a 128 x 256 half block fills L0A's 64 KB, a 256 x 128 one L0B's). Every pipe
// hand-off is synced with SetFlag / WaitFlag, so the pipe-hazard model has something to check on each step.
// Used by benchmarks/bench_cube_matmul.py.   Usage: cube_matmul_tiled DIR M N K   (reads DIR/a.bin, DIR/b.bin)
#include <cstdio>
#include <cstdlib>
#include <string>

#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TM = 128, TN = 128, TK = 256;

__global__ __aicore__ void cube_matmul_tiled(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t M, uint32_t N, uint32_t K) {
    GlobalTensor<half> aG, bG;
    GlobalTensor<float> cG;
    aG.SetGlobalBuffer((__gm__ half*)a, (uint64_t)M * K);
    bG.SetGlobalBuffer((__gm__ half*)b, (uint64_t)K * N);
    cG.SetGlobalBuffer((__gm__ float*)c, (uint64_t)M * N);
    TPipe pipe;
    TBuf<TPosition::A1> a1;
    TBuf<TPosition::B1> b1;
    TBuf<TPosition::A2> a2;
    TBuf<TPosition::B2> b2;
    TBuf<TPosition::CO1> co1;
    pipe.InitBuffer(a1, TM * TK * sizeof(half));
    pipe.InitBuffer(b1, TK * TN * sizeof(half));
    pipe.InitBuffer(a2, TM * TK * sizeof(half));
    pipe.InitBuffer(b2, TK * TN * sizeof(half));
    pipe.InitBuffer(co1, TM * TN * sizeof(float));
    LocalTensor<half> aL1 = a1.Get<half>(), bL1 = b1.Get<half>(), aL0 = a2.Get<half>(), bL0 = b2.Get<half>();
    LocalTensor<float> cL0 = co1.Get<float>();
    const uint32_t M1 = TM / 16, K1 = TK / 16, N1 = TN / 16;
    for (uint32_t m0 = 0; m0 < M; m0 += TM) {
        for (uint32_t n0 = 0; n0 < N; n0 += TN) {
            for (uint32_t k0 = 0; k0 < K; k0 += TK) {
                // L1 is free again once the previous LoadData has read it
                SetFlag<HardEvent::MTE1_MTE2>(EVENT_ID0);
                WaitFlag<HardEvent::MTE1_MTE2>(EVENT_ID0);
                DataCopy(aL1, aG[(uint64_t)m0 * K + k0], Nd2NzParams{1, TM, TK, 0, (uint16_t)K, TM, 1, 0});
                DataCopy(bL1, bG[(uint64_t)k0 * N + n0], Nd2NzParams{1, TK, TN, 0, (uint16_t)N, TK, 1, 0});
                SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
                WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
                // L0A / L0B are free once the previous Mmad has read them
                SetFlag<HardEvent::M_MTE1>(EVENT_ID0);
                WaitFlag<HardEvent::M_MTE1>(EVENT_ID0);
                for (uint32_t m1 = 0; m1 < M1; ++m1)  // Nz -> Zz: fractal (m1, k1) at m1 * K1 + k1
                    LoadData(aL0[m1 * K1 * 256], aL1, LoadData2DParams{(uint16_t)m1, (uint8_t)K1, (uint16_t)M1, 0,
                                                                       0, false, 0});
                for (uint32_t k1 = 0; k1 < K1; ++k1)  // Nz -> Zn: each 16 x 16 fractal transposed
                    LoadData(bL0[k1 * N1 * 256], bL1, LoadData2DParams{(uint16_t)k1, (uint8_t)N1, (uint16_t)K1, 0,
                                                                       0, true, 0});
                SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
                WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
                if (k0 == 0) {  // L0C is overwritten: the previous tile's Fixpipe must have read it
                    SetFlag<HardEvent::FIX_M>(EVENT_ID0);
                    WaitFlag<HardEvent::FIX_M>(EVENT_ID0);
                }
                MmadParams mp;
                mp.m = TM, mp.n = TN, mp.k = TK;
                mp.cmatrixInitVal = k0 == 0;
                mp.cmatrixSource = false;
                Mmad(cL0, aL0, bL0, mp);  // (128 / 16) * (128 / 16) >= 10: accumulation needs no PipeBarrier
            }
            SetFlag<HardEvent::M_FIX>(EVENT_ID0);
            WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
            FixpipeParamsV220 fp{(uint16_t)TN, (uint16_t)TM, (uint16_t)TM, N, false, QuantMode_t::NoQuant, 0, 1, 0, 0, 0};
            Fixpipe<float, float, CFG_ROW_MAJOR>(cG[(uint64_t)m0 * N + n0], cL0, fp);
        }
    }
    PipeBarrier<PIPE_ALL>();
}

static uint8_t* load(const std::string& path, size_t n) {
    uint8_t* p = (uint8_t*)GmAlloc(n);
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f || std::fread(p, 1, n, f) != n) std::exit(2);
    std::fclose(f);
    return p;
}

int main(int argc, char** argv) {
    if (argc < 5) return 2;
    std::string dir = argv[1];
    uint32_t M = std::atoi(argv[2]), N = std::atoi(argv[3]), K = std::atoi(argv[4]);
    uint8_t* a = load(dir + "/a.bin", (size_t)M * K * 2);
    uint8_t* b = load(dir + "/b.bin", (size_t)K * N * 2);
    uint8_t* c = (uint8_t*)GmAlloc((size_t)M * N * 4);
    AscendC::SetKernelMode(KernelMode::AIC_MODE);
    ICPU_RUN_KF(cube_matmul_tiled, 1, a, b, c, M, N, K);
    FILE* f = std::fopen((dir + "/c.bin").c_str(), "wb");
    std::fwrite(c, 1, (size_t)M * N * 4, f);
    std::fclose(f);
    return 0;
}
