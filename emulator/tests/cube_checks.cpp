// Cube-unit kernels written for the emulator's tests (driven by tests/emulator/test_cube.py, which writes the inputs
// and compares the outputs with numpy). Usage: cube_checks DIR CASE
//
//   basic_*   the basic API end to end: GM -> L1 (DataCopy ND2NZ) -> L0A / L0B (LoadData, LoadDataWithTranspose)
//             -> Mmad (K in chunks accumulated in L0C, optional bias from the bias table) -> Fixpipe (ND, NZ,
//             relu, quantised), with the pipe syncs a real kernel needs;
//   hl_*      the high-level Matmul with a host tiling from MultiCoreMatmulTiling, over several cores, with tails;
//   mix_*     mixed AIC/AIV kernels: the AIC computes C into a GM workspace, CrossCoreSetFlag, the two AIVs add the
//             bias and apply relu;
//   bad_*     broken variants: each breaks one rule and must fail with its diagnostic.
#include <cstring>
#include <string>

#include "check_io.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/tiling_api.h"

using namespace AscendC;

// What the host tells the basic kernels (read from GM).
struct BasicArgs {
    uint32_t M, N, K, kChunk;
    uint32_t transB, useBias, relu, quant;  // quant: 0 none (out = L0C type), 1 F322F16, 2 DEQF16 (int32 -> half)
    uint32_t nzOut;                         // Fixpipe CFG_NZ instead of ND
    uint32_t variant;                       // 0 correct; 1 wrong Nz stride; 2 no B transpose; 3 L0A overflow;
                                            // 4 no MTE1 -> M sync; 5 no M -> FIX sync; 6 Fixpipe with
                                            // SetAtomicAdd (onto C as the host left it)
    uint64_t deq;                           // DEQF16 scale
};

constexpr uint32_t align_to(uint32_t x, uint32_t a) { return (x + a - 1) / a * a; }

// c = a @ b (+ bias): A [M, K] ND, B [K, N] ND (or [N, K] when transB), bias [N] float / int32.
template <typename T, typename Acc, typename Out>
__global__ __aicore__ void basic_mm(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR argsGm) {
    BasicArgs p;
    std::memcpy(&p, (const void*)argsGm, sizeof p);
    constexpr uint32_t C0 = 32 / sizeof(T);
    constexpr bool b8 = sizeof(T) == 1;
    const uint32_t M = p.M, N = p.N, K = p.K;
    const uint32_t Ma = align_to(M, 16), M1 = Ma / 16;
    // B rows in L1: K aligned to 32 for int8 (LoadDataWithTranspose works on 32 x 32 squares), else to 16
    const uint32_t Ka = align_to(K, b8 ? 32 : 16), K1 = align_to(K, C0) / C0;
    const uint32_t Na = align_to(N, b8 ? 32 : 16), N1 = Na / 16;
    const uint32_t kc = p.kChunk;

    GlobalTensor<T> aG, bG;
    GlobalTensor<Out> cG;
    aG.SetGlobalBuffer((__gm__ T*)a, (uint64_t)M * K);
    bG.SetGlobalBuffer((__gm__ T*)b, (uint64_t)K * N);
    cG.SetGlobalBuffer((__gm__ Out*)c, (uint64_t)Ma * Na);

    TPipe pipe;
    TBuf<TPosition::A1> a1;
    TBuf<TPosition::B1> b1;
    TBuf<TPosition::A2> a2;
    TBuf<TPosition::B2> b2;
    TBuf<TPosition::CO1> co1;
    pipe.InitBuffer(a1, align_to(K, C0) * Ma * sizeof(T));
    pipe.InitBuffer(b1, (p.transB ? align_to(K, C0) * Na : Ka * Na) * sizeof(T));
    uint32_t a2_bytes = p.variant == 3 ? 80 * 1024 : Ma * kc * sizeof(T);
    pipe.InitBuffer(a2, a2_bytes);  // @l0a_overflow
    pipe.InitBuffer(b2, kc * Na * sizeof(T));
    pipe.InitBuffer(co1, Ma * Na * sizeof(Acc));
    LocalTensor<T> aL1 = a1.Get<T>(), bL1 = b1.Get<T>(), aL0 = a2.Get<T>(), bL0 = b2.Get<T>();
    LocalTensor<Acc> cL0 = co1.Get<Acc>();

    // GM -> L1 in Nz: column blocks of C0 elements, each holding every row (rows aligned to 16)
    uint16_t strideA = (uint16_t)(p.variant == 1 ? 16 : Ma);  // variant 1: column blocks 16 rows apart (M > 16)
    if (M == 1)  // GEMV: the 1 x K row stays contiguous (the cube reads L0A as a plain row when m == 1)
        DataCopy(aL1, aG, K);
    else
        DataCopy(aL1, aG, Nd2NzParams{1, (uint16_t)M, (uint16_t)K, 0, (uint16_t)K, strideA, 1, 0});  // @nd2nz_overlap
    if (p.transB)
        DataCopy(bL1, bG, Nd2NzParams{1, (uint16_t)N, (uint16_t)K, 0, (uint16_t)K, (uint16_t)Na, 1, 0});
    else
        DataCopy(bL1, bG, Nd2NzParams{1, (uint16_t)K, (uint16_t)N, 0, (uint16_t)N, (uint16_t)Ka, 1, 0});

    LocalTensor<Acc> biasBT;
    TBuf<TPosition::C1> c1;
    TBuf<TPosition::C2> c2;
    if (p.useBias) {
        GlobalTensor<Acc> biasG;
        biasG.SetGlobalBuffer((__gm__ Acc*)bias, N);
        pipe.InitBuffer(c1, align_to(N, 16) * sizeof(Acc));
        pipe.InitBuffer(c2, align_to(N, 16) * sizeof(Acc));
        LocalTensor<Acc> biasL1 = c1.Get<Acc>();
        biasBT = c2.Get<Acc>();
        DataCopy(biasL1, biasG, align_to(N, 16));
        SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID1);
        WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID1);
        DataCopy(biasBT, biasL1, DataCopyParams{1, (uint16_t)(align_to(N, 16) * sizeof(Acc) / 64), 0, 0});
    }
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);

    for (uint32_t k0 = 0; k0 < K; k0 += kc) {
        const uint32_t kk = K - k0 < kc ? K - k0 : kc;      // this chunk's k
        const uint32_t c1s = k0 / C0, c1n = align_to(kk, C0) / C0;
        if (k0 > 0) {  // the previous Mmad must have read L0A / L0B before they are overwritten
            SetFlag<HardEvent::M_MTE1>(EVENT_ID0);
            WaitFlag<HardEvent::M_MTE1>(EVENT_ID0);
        }
        // L1 -> L0A: Nz -> Zz, one row of fractals per 16 rows of A (Mmad reads fractal (m1, k1) at m1 * K1 + k1)
        if (M == 1)
            LoadData(aL0, aL1, LoadData2DParams{(uint16_t)(k0 * sizeof(T) / 512), (uint8_t)(kk * sizeof(T) / 512), 1, 0,
                                                0, false, 0});
        else
            for (uint32_t m1 = 0; m1 < M1; ++m1)
                LoadData(aL0[m1 * c1n * 16 * C0], aL1, LoadData2DParams{(uint16_t)(c1s * M1 + m1), (uint8_t)c1n,
                                                                       (uint16_t)M1, 0, 0, false, 0});
        // L1 -> L0B: Zn, fractal (k1, n1) row-major over the grid, each stored n-major
        if (p.transB) {
            // the Nz of B^T already stores each fractal n-major: fractals k1 * N1 .. k1 * N1 + N1 - 1
            for (uint32_t k1 = 0; k1 < c1n; ++k1)
                LoadData(bL0[k1 * N1 * 16 * C0], bL1,
                         LoadData2DParams{(uint16_t)((c1s + k1) * N1), (uint8_t)N1, 1, 0, 0, false, 0});
        } else if (b8) {
            // 32 x 32 squares (two stacked 16 x 32 fractals) transposed into two Zn fractals each
            const uint32_t kr = Ka / 32, n32 = Na / 32;
            for (uint32_t k1 = 0; k1 < c1n; ++k1)
                LoadDataWithTranspose(bL0[k1 * N1 * 16 * C0], bL1,
                                      LoadData2dTransposeParams{(uint16_t)(c1s + k1), (uint8_t)n32, (uint16_t)kr, 1,
                                                                0, 0});
        } else {
            // 16 x 16 fractals of the Nz of B, each transposed (variant 2 forgets the transpose)
            const uint32_t kr = Ka / 16;
            for (uint32_t k1 = 0; k1 < c1n; ++k1)
                LoadData(bL0[k1 * N1 * 256], bL1, LoadData2DParams{(uint16_t)(c1s + k1), (uint8_t)N1, (uint16_t)kr, 0,
                                                                  0, p.variant != 2, 0});
        }
        if (p.variant != 4) {  // variant 4: Mmad may start before LoadData has filled L0A / L0B
            SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
            WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
        }
        MmadParams mp;
        mp.m = (uint16_t)M, mp.n = (uint16_t)N, mp.k = (uint16_t)kk;
        mp.cmatrixInitVal = k0 == 0;
        mp.cmatrixSource = false;
        if (k0 == 0 && p.useBias) Mmad(cL0, aL0, bL0, biasBT, mp);
        else Mmad(cL0, aL0, bL0, mp);  // @race_mte1_m
        PipeBarrier<PIPE_M>();
    }
    if (p.variant != 5) {  // variant 5: Fixpipe may read L0C before the last Mmad has written it
        SetFlag<HardEvent::M_FIX>(EVENT_ID0);
        WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    }
    QuantMode_t q = p.quant == 1 ? QuantMode_t::F322F16 : p.quant == 2 ? QuantMode_t::DEQF16 : QuantMode_t::NoQuant;
    if (p.nzOut) {
        // NZ out: Z columns of 16 rows-aligned-to-16 apart (dstStride in 32-byte blocks)
        FixpipeParamsV220 fp{(uint16_t)Na, (uint16_t)M, (uint16_t)Ma, (uint32_t)(Ma * 16 * sizeof(Out) / 32),
                             (bool)p.relu, q, (int64_t)p.deq, 1, 0, 0, 0};
        Fixpipe<Out, Acc, CFG_NZ>(cG, cL0, fp);
    } else {
        FixpipeParamsV220 fp{(uint16_t)N, (uint16_t)M, (uint16_t)Ma, N, (bool)p.relu, q, (int64_t)p.deq, 1, 0, 0, 0};
        if (p.variant == 6) SetAtomicAdd<Out>();
        Fixpipe<Out, Acc, CFG_ROW_MAJOR>(cG, cL0, fp);  // @race_m_fix
        if (p.variant == 6) SetAtomicNone();
    }
    PipeBarrier<PIPE_ALL>();
}

// ---- the high-level Matmul: C = A @ B (+ bias) over the cores the tiling uses, tails by SetTail ----
template <typename AT, typename CT, bool TRANS_B, bool BIAS>
class HlKernel {
public:
    using A = MatmulType<TPosition::GM, CubeFormat::ND, AT>;
    using B = MatmulType<TPosition::GM, CubeFormat::ND, AT, TRANS_B>;
    using C = MatmulType<TPosition::GM, CubeFormat::ND, CT>;
    using BiasT = typename std::conditional<std::is_same<AT, int8_t>::value, int32_t, float>::type;
    using Bias = MatmulType<TPosition::GM, CubeFormat::ND, BiasT>;
    Matmul<A, B, C, Bias> mm;

    __aicore__ inline void Run(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, const TCubeTiling& t, uint64_t deq) {
        int32_t blk = (int32_t)GetBlockIdx();
        if (blk >= t.usedCoreNum) return;
        int32_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
        int32_t mi = blk % mBlocks, ni = blk / mBlocks;
        GlobalTensor<AT> aG, bG;
        GlobalTensor<CT> cG;
        GlobalTensor<BiasT> biasG;
        aG.SetGlobalBuffer((__gm__ AT*)a + (int64_t)mi * t.singleCoreM * t.Ka);
        bG.SetGlobalBuffer((__gm__ AT*)b + (TRANS_B ? (int64_t)ni * t.singleCoreN * t.Kb : (int64_t)ni * t.singleCoreN));
        cG.SetGlobalBuffer((__gm__ CT*)c + (int64_t)mi * t.singleCoreM * t.N + (int64_t)ni * t.singleCoreN);
        biasG.SetGlobalBuffer((__gm__ BiasT*)bias + (int64_t)ni * t.singleCoreN);
        int32_t tailM = t.M - mi * t.singleCoreM, tailN = t.N - ni * t.singleCoreN;
        mm.SetTail(tailM < t.singleCoreM ? tailM : t.singleCoreM, tailN < t.singleCoreN ? tailN : t.singleCoreN);
        mm.SetTensorA(aG);
        mm.SetTensorB(bG, TRANS_B);
        if (BIAS) mm.SetBias(biasG);
        if (deq) mm.SetQuantScalar(deq);
        mm.IterateAll(cG);
        mm.End();
    }
};

#define ASCENDC_CUBE_ONLY
template <typename AT, typename CT, bool TRANS_B, bool BIAS>
__global__ __aicore__ void hl_mm(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tilingGm, uint64_t deq) {
    TCubeTiling t;
    std::memcpy(&t, (const void*)tilingGm, sizeof t);
    TPipe pipe;
    HlKernel<AT, CT, TRANS_B, BIAS> k;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), k.mm, &t);
    k.Run(a, b, bias, c, t, deq);
}

// Batched: batch x ([M, K] @ [K, N]) with IterateBatch over the NORMAL layout, one core.
__global__ __aicore__ void hl_batch(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm, uint32_t batch) {
    TCubeTiling t;
    std::memcpy(&t, (const void*)tilingGm, sizeof t);
    TPipe pipe;
    using A = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>;
    using C = MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::NORMAL>;
    Matmul<A, A, C> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    GlobalTensor<half> aG, bG;
    GlobalTensor<float> cG;
    aG.SetGlobalBuffer((__gm__ half*)a);
    bG.SetGlobalBuffer((__gm__ half*)b);
    cG.SetGlobalBuffer((__gm__ float*)c);
    mm.SetTensorA(aG);
    mm.SetTensorB(bG);
    mm.IterateBatch(cG, batch, batch, false);
    mm.End();
}
// A GM operand whose buffer holds only half of A: the reads past it are reported at the call that makes them (on the
// hardware the Matmul reads whatever lies there).
__global__ __aicore__ void hl_short_a(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm) {
    TCubeTiling t;
    std::memcpy(&t, (const void*)tilingGm, sizeof t);
    TPipe pipe;
    using A = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using C = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    Matmul<A, A, C> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    GlobalTensor<half> aG, bG;
    GlobalTensor<float> cG;
    aG.SetGlobalBuffer((__gm__ half*)a, (uint64_t)t.M * t.Ka / 2);
    bG.SetGlobalBuffer((__gm__ half*)b, (uint64_t)t.Ka * t.N);
    cG.SetGlobalBuffer((__gm__ float*)c, (uint64_t)t.M * t.N);
    mm.SetTensorA(aG);
    mm.SetTensorB(bG);
    mm.IterateAll(cG);  // @short_a
    mm.End();
}
#undef ASCENDC_CUBE_ONLY

// Mixed through the library (no ASCENDC_CUBE_ONLY: the AIC serves, the AIVs compute): Iterate + GetTensorC into
// VECIN, then the vector epilogue on each block: + bias row, relu.
__global__ __aicore__ void hl_mix_epilogue(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tilingGm) {
    TCubeTiling t;
    std::memcpy(&t, (const void*)tilingGm, sizeof t);
    TPipe pipe;
    using A = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using C = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
    Matmul<A, A, C> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    int32_t blk = (int32_t)GetBlockIdx();
    if (blk >= t.usedCoreNum) return;
    int32_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
    int32_t mi = blk % mBlocks, ni = blk / mBlocks;
    GlobalTensor<half> aG, bG;
    GlobalTensor<float> cG, biasG;
    aG.SetGlobalBuffer((__gm__ half*)a + (int64_t)mi * t.singleCoreM * t.Ka);
    bG.SetGlobalBuffer((__gm__ half*)b + (int64_t)ni * t.singleCoreN);
    cG.SetGlobalBuffer((__gm__ float*)c);
    biasG.SetGlobalBuffer((__gm__ float*)bias);
    mm.SetTensorA(aG);
    mm.SetTensorB(bG);
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> biasBuf;
    uint32_t bm = t.baseM, bn = t.baseN;
    pipe.InitBuffer(inQ, 1, bm * bn * sizeof(float));
    pipe.InitBuffer(outQ, 1, bm * bn * sizeof(float));
    pipe.InitBuffer(biasBuf, bn * sizeof(float));
    LocalTensor<float> biasL = biasBuf.Get<float>();
    while (mm.Iterate()) {
        LocalTensor<float> blockC = inQ.AllocTensor<float>();
        mm.GetTensorC(blockC, 0, true);  // sequential: the block as baseM x baseN rows
        inQ.EnQue(blockC);
        blockC = inQ.DeQue<float>();
        MatrixOffset off = mm.GetOffsetC();
        int64_t row0 = (int64_t)mi * t.singleCoreM + off.row, col0 = (int64_t)ni * t.singleCoreN + off.col;
        DataCopy(biasL, biasG[col0], bn);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        LocalTensor<float> outL = outQ.AllocTensor<float>();
        for (int32_t r = 0; r < off.height; ++r) Add(outL[r * bn], blockC[r * bn], biasL, bn);
        Relu(outL, outL, bm * bn);
        outQ.EnQue(outL);
        outL = outQ.DeQue<float>();
        for (int32_t r = 0; r < off.height; ++r)
            DataCopyPad(cG[(row0 + r) * t.N + col0], outL[r * bn],
                        DataCopyExtParams{1, (uint32_t)(off.width * sizeof(float)), 0, 0, 0});
        inQ.FreeTensor(blockC);
        outQ.FreeTensor(outL);
    }
    mm.End();
}

// ---- a mixed kernel by hand: the AIC does C = A @ B (one 64 x 64 tile per logical core, K = 64) into a GM
// workspace and tells its AIVs (mode 2); each AIV waits, then adds the bias and applies relu to its half of the
// rows. variant 1 forgets the AIV's CrossCoreWaitFlag; variant 2 waits on a flag nobody sets. ----
constexpr uint32_t MIX_T = 64;
constexpr uint16_t MIX_FLAG = 3;
__global__ __mix__(1, 2) void mix_mm_bias_relu(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR ws,
                                               uint32_t variant) {
    const uint32_t core = (uint32_t)GetBlockIdx() / (ASCEND_IS_AIV ? 2 : 1);
    GlobalTensor<float> wsG;
    wsG.SetGlobalBuffer((__gm__ float*)ws + core * MIX_T * MIX_T, MIX_T * MIX_T);
    if ASCEND_IS_AIC {
        GlobalTensor<half> aG, bG;
        aG.SetGlobalBuffer((__gm__ half*)a + core * MIX_T * MIX_T, MIX_T * MIX_T);  // A tile of this core
        bG.SetGlobalBuffer((__gm__ half*)b, MIX_T * MIX_T);
        LocalMemAllocator<Hardware::L1> l1;
        LocalMemAllocator<Hardware::L0A> l0a;
        LocalMemAllocator<Hardware::L0B> l0b;
        LocalMemAllocator<Hardware::L0C> l0c;
        LocalTensor<half> aL1 = l1.Alloc<TPosition::A1, half>(MIX_T * MIX_T);
        LocalTensor<half> bL1 = l1.Alloc<TPosition::B1, half>(MIX_T * MIX_T);
        LocalTensor<half> aL0 = l0a.Alloc<TPosition::A2, half>(MIX_T * MIX_T);
        LocalTensor<half> bL0 = l0b.Alloc<TPosition::B2, half>(MIX_T * MIX_T);
        LocalTensor<float> cL0 = l0c.Alloc<TPosition::CO1, float>(MIX_T * MIX_T);
        DataCopy(aL1, aG, Nd2NzParams{1, MIX_T, MIX_T, 0, MIX_T, MIX_T, 1, 0});
        DataCopy(bL1, bG, Nd2NzParams{1, MIX_T, MIX_T, 0, MIX_T, MIX_T, 1, 0});
        SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
        for (uint32_t i = 0; i < MIX_T / 16; ++i) {
            LoadData(aL0[i * MIX_T * 16], aL1[i * 256], LoadData2DParams{0, MIX_T / 16, MIX_T / 16, 0, 0, false, 0});
            LoadData(bL0[i * MIX_T * 16], bL1[i * 256], LoadData2DParams{0, MIX_T / 16, MIX_T / 16, 0, 0, true, 0});
        }
        SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
        WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
        Mmad(cL0, aL0, bL0, MmadParams{MIX_T, MIX_T, MIX_T, 0, false, true});
        SetFlag<HardEvent::M_FIX>(EVENT_ID0);
        WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
        Fixpipe<float, float, CFG_ROW_MAJOR>(wsG, cL0, FixpipeParamsV220{MIX_T, MIX_T, MIX_T, MIX_T, false});
        CrossCoreSetFlag<2, PIPE_FIX>(MIX_FLAG);
    }
    if ASCEND_IS_AIV {
        const uint32_t rows = MIX_T / 2, sub = (uint32_t)GetSubBlockIdx();
        TPipe pipe;
        TBuf<TPosition::VECCALC> xb, bb;
        pipe.InitBuffer(xb, rows * MIX_T * sizeof(float));
        pipe.InitBuffer(bb, MIX_T * sizeof(float));
        LocalTensor<float> x = xb.Get<float>(), bL = bb.Get<float>();
        GlobalTensor<float> biasG, cG;
        biasG.SetGlobalBuffer((__gm__ float*)bias, MIX_T);
        cG.SetGlobalBuffer((__gm__ float*)c + core * MIX_T * MIX_T + sub * rows * MIX_T, rows * MIX_T);
        if (variant == 2) CrossCoreWaitFlag(MIX_FLAG + 1);  // @sync_deadlock
        if (variant != 1) CrossCoreWaitFlag(MIX_FLAG);
        DataCopy(bL, biasG, MIX_T);
        DataCopy(x, wsG[sub * rows * MIX_T], rows * MIX_T);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        for (uint32_t r = 0; r < rows; ++r) Add(x[r * MIX_T], x[r * MIX_T], bL, MIX_T);
        Relu(x, x, rows * MIX_T);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
        DataCopy(cG, x, rows * MIX_T);
    }
}

// ---- broken kernels for single diagnostics ----
__global__ __aicore__ void bad_misaligned_fractal(GM_ADDR) {
    TPipe pipe;
    TBuf<TPosition::A1> a1;
    TBuf<TPosition::A2> a2;
    pipe.InitBuffer(a1, 4096);
    pipe.InitBuffer(a2, 4096);
    LocalTensor<half> aL1 = a1.Get<half>(), aL0 = a2.Get<half>();
    Fill(aL1, InitConstValueParams<half>{1, 8, 0, half(1.0f)});
    LoadData(aL0[128], aL1, LoadData2DParams{0, 1, 1, 0, 0, false, 0});  // @misaligned_fractal
}
__global__ __aicore__ void bad_position(GM_ADDR) {
    TPipe pipe;
    TBuf<TPosition::A1> a1;
    TBuf<TPosition::B2> b2;
    TBuf<TPosition::CO1> co1;
    pipe.InitBuffer(a1, 512);
    pipe.InitBuffer(b2, 512);
    pipe.InitBuffer(co1, 1024);
    LocalTensor<half> aL1 = a1.Get<half>(), bL0 = b2.Get<half>();
    LocalTensor<float> cL0 = co1.Get<float>();
    Mmad(cL0, aL1, bL0, MmadParams{16, 16, 16, 0, false, true});  // @bad_position
}
__global__ __aicore__ void bad_fractal_shape(GM_ADDR out) {
    TPipe pipe;
    TBuf<TPosition::CO1> co1;
    pipe.InitBuffer(co1, 64 * 64 * 4);
    LocalTensor<float> cL0 = co1.Get<float>();
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)out, 64 * 64);
    // NZ out needs whole 16-column fractals: nSize 40 is not one
    Fixpipe<float, float, CFG_NZ>(g, cL0, FixpipeParamsV220{40, 16, 16, 16, false});  // @fractal_shape
}
#define ASCENDC_CUBE_ONLY
__global__ __aicore__ void bad_matmul_tiling(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm) {
    TCubeTiling t;
    std::memcpy(&t, (const void*)tilingGm, sizeof t);
    t.baseK = 256;  // baseM 128 x baseK 256 x 2 bytes x dbL0A 2 = 128 KB: twice L0A
    t.dbL0A = 2;
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);  // @matmul_tiling
    (void)a, (void)b, (void)c;
}
#undef ASCENDC_CUBE_ONLY

// ---- host ----
static int64_t host_tiling(TCubeTiling& t, int32_t M, int32_t N, int32_t K, int32_t dim, matmul_tiling::DataType in,
                           matmul_tiling::DataType out, bool transB, bool bias) {
    namespace mt = matmul_tiling;
    mt::MultiCoreMatmulTiling api(*platform_ascendc::PlatformAscendCManager::GetInstance());
    api.SetDim(dim);
    api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, in, false);
    api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, in, transB);
    api.SetCType(mt::TPosition::GM, mt::CubeFormat::ND, out);
    api.SetBiasType(mt::TPosition::GM, mt::CubeFormat::ND,
                    in == mt::DataType::DT_INT8 ? mt::DataType::DT_INT32 : mt::DataType::DT_FLOAT);
    api.SetOrgShape(M, N, K);
    api.SetShape(M, N, K);
    api.EnableBias(bias);
    api.SetBufferSpace(-1, -1, -1);
    return api.GetTiling(t);
}

static uint8_t* gm_of(const void* src, size_t n) {
    uint8_t* p = (uint8_t*)GmAlloc(n);
    std::memcpy(p, src, n);
    return p;
}

int main(int argc, char** argv) {
    if (argc < 3) return 2;
    g_dir = argv[1];
    std::string c = argv[2];
    BasicArgs p{};
    auto basic = [&](uint32_t M, uint32_t N, uint32_t K, uint32_t kc) {
        p.M = M, p.N = N, p.K = K, p.kChunk = kc;
    };
    if (c.rfind("basic_", 0) == 0 || c.rfind("bad_basic_", 0) == 0) {
        uint8_t *a = load("a"), *b = load("b"), *bias = load("bias");
        std::string k = c.substr(c.find("basic_") + 6);
        size_t out_bytes = 0;
        if (k == "f16_longk") basic(16, 32, 4096, 256);
        else if (k == "f16_tails") basic(30, 40, 70, 80);
        else if (k == "f16_transb") basic(48, 32, 96, 96), p.transB = 1;
        else if (k == "f16_bias_relu") basic(32, 64, 64, 64), p.useBias = 1, p.relu = 1;
        else if (k == "f16_to_f16_nz") basic(32, 32, 48, 48), p.quant = 1, p.nzOut = 1;
        else if (k == "f32") basic(20, 24, 40, 24), p.transB = 1;
        else if (k == "i8") basic(32, 64, 96, 64);
        else if (k == "i8_bias") basic(40, 64, 80, 64), p.useBias = 1;
        else if (k == "i8_deq") basic(32, 64, 64, 64), p.quant = 2, p.deq = 0x3C800000;  // 1/64 as float bits
        else if (k == "gemv") basic(1, 64, 256, 256);
        else if (k == "wrong_nz_stride") basic(30, 32, 48, 48), p.variant = 1;
        else if (k == "no_transpose") basic(32, 32, 32, 32), p.variant = 2;
        else if (k == "l0a_overflow") basic(32, 32, 32, 32), p.variant = 3;
        else if (k == "synced") basic(32, 32, 64, 32);
        else if (k == "no_sync_load_mmad") basic(32, 32, 64, 32), p.variant = 4;
        else if (k == "no_sync_mmad_fixpipe") basic(32, 32, 64, 32), p.variant = 5;
        else if (k == "atomic_cleared" || k == "atomic_uncleared") basic(32, 32, 64, 32), p.variant = 6;
        else return 2;
        uint8_t* args = gm_of(&p, sizeof p);
        bool i8 = k.rfind("i8", 0) == 0, f32 = k == "f32";
        uint32_t Ma = align_to(p.M, 16), Na = align_to(p.N, 32);
        out_bytes = (size_t)Ma * Na * 4;
        uint8_t* cbuf = out(out_bytes);  // GmAlloc: zeroed
        if (k == "atomic_uncleared") std::memset(cbuf, 0xFF, out_bytes);  // as aclrtMalloc memory holds it here
        if (i8 && p.quant == 2) ICPU_RUN_KF((basic_mm<int8_t, int32_t, half>), 1, a, b, bias, cbuf, args);
        else if (i8) ICPU_RUN_KF((basic_mm<int8_t, int32_t, int32_t>), 1, a, b, bias, cbuf, args);
        else if (f32) ICPU_RUN_KF((basic_mm<float, float, float>), 1, a, b, bias, cbuf, args);
        else if (p.quant == 1) ICPU_RUN_KF((basic_mm<half, float, half>), 1, a, b, bias, cbuf, args);
        else ICPU_RUN_KF((basic_mm<half, float, float>), 1, a, b, bias, cbuf, args);
        save("c", cbuf, out_bytes);
        return 0;
    }
    if (c.rfind("hl_", 0) == 0) {
        uint8_t *a = load("a"), *b = load("b"), *bias = load("bias");
        size_t shape_n = 0;
        int32_t* shape = (int32_t*)load("shape", &shape_n);  // M, N, K, dim, batch
        int32_t M = shape[0], N = shape[1], K = shape[2], dim = shape[3], batch = shape[4];
        TCubeTiling t;
        using DT = matmul_tiling::DataType;
        bool i8 = c.find("_i8") != std::string::npos, transB = c.find("_transb") != std::string::npos;
        bool withBias = c.find("_bias") != std::string::npos;
        DT out_t = i8 ? (c.find("_deq") != std::string::npos ? DT::DT_FLOAT16 : DT::DT_INT32) : DT::DT_FLOAT;
        if (host_tiling(t, M, N, K, dim, i8 ? DT::DT_INT8 : DT::DT_FLOAT16, out_t, transB, withBias) != 0) {
            std::fprintf(stderr, "GetTiling failed\n");
            return 5;
        }
        std::printf("tiling used=%d single=%d,%d,%d base=%d,%d,%d order=%d\n", t.usedCoreNum, t.singleCoreM,
                    t.singleCoreN, t.singleCoreK, t.baseM, t.baseN, t.baseK, t.iterateOrder);
        uint8_t* tg = gm_of(&t, sizeof t);
        size_t out_bytes = (size_t)M * N * 4 * (batch > 0 ? batch : 1);
        uint8_t* cbuf = out(out_bytes);
        uint32_t used = (uint32_t)t.usedCoreNum;
        if (c == "hl_mix_epilogue") used = (used + 1) / 2;  // logical cores: each runs two AIV clients
        if (c == "hl_f16") ICPU_RUN_KF((hl_mm<half, float, false, false>), used, a, b, bias, cbuf, tg, (uint64_t)0);
        else if (c == "hl_f16_transb_bias")
            ICPU_RUN_KF((hl_mm<half, float, true, true>), used, a, b, bias, cbuf, tg, (uint64_t)0);
        else if (c == "hl_i8") ICPU_RUN_KF((hl_mm<int8_t, int32_t, false, false>), used, a, b, bias, cbuf, tg, (uint64_t)0);
        else if (c == "hl_i8_deq")
            ICPU_RUN_KF((hl_mm<int8_t, half, false, false>), used, a, b, bias, cbuf, tg, (uint64_t)0x3C800000);
        else if (c == "hl_mix_epilogue") ICPU_RUN_KF(hl_mix_epilogue, used, a, b, bias, cbuf, tg);
        else if (c == "hl_batch") ICPU_RUN_KF(hl_batch, 1, a, b, cbuf, tg, (uint32_t)batch);
        else if (c == "hl_bad_tiling") ICPU_RUN_KF(bad_matmul_tiling, 1, a, b, cbuf, tg);
        else if (c == "hl_short_a") ICPU_RUN_KF(hl_short_a, 1, a, b, cbuf, tg);
        else return 2;
        save("c", cbuf, out_bytes);
        return 0;
    }
    if (c.rfind("mix_", 0) == 0) {
        uint8_t *a = load("a"), *b = load("b"), *bias = load("bias");
        uint32_t cores = 2, variant = c == "mix_no_wait" ? 1 : c == "mix_deadlock" ? 2 : 0;
        uint8_t* ws = out((size_t)cores * MIX_T * MIX_T * 4);
        uint8_t* cbuf = out((size_t)cores * MIX_T * MIX_T * 4);
        ICPU_RUN_KF(mix_mm_bias_relu, cores, a, b, bias, cbuf, ws, variant);
        save("c", cbuf, (size_t)cores * MIX_T * MIX_T * 4);
        return 0;
    }
    uint8_t* scratch = out(64 * 64 * 4);
    if (c == "misaligned_fractal") ICPU_RUN_KF(bad_misaligned_fractal, 1, scratch);
    else if (c == "bad_position") ICPU_RUN_KF(bad_position, 1, scratch);
    else if (c == "fractal_shape") ICPU_RUN_KF(bad_fractal_shape, 1, scratch);
    else return 2;
    return 0;
}
