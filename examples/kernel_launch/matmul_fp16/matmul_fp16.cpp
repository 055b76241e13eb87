// C = A @ B with the cube unit's basic API: A [M, K] half, B [K, N] half, C [M, N] float.
// Each core takes coreRows rows of C. Its rows of A and all of B go to L1 in the Nz fractal layout (DataCopy with
// ND2NZ); then for every baseN-wide column tile of C, K is walked in baseK steps: the A and B blocks are moved from
// L1 into L0A (Zz) and L0B (Zn, every 16 x 16 fractal transposed) with LoadData, Mmad accumulates into L0C (fp32),
// and Fixpipe writes the finished tile to GM as row-major float.
#include "kernel_operator.h"
#include "matmul_fp16_tiling.h"

using namespace AscendC;

constexpr uint32_t FRACTAL = 16;  // rows (and half columns) of a fractal

class KernelMatmulFp16 {
public:
    __aicore__ inline KernelMatmulFp16() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm)
    {
        auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
        uint32_t* dst = reinterpret_cast<uint32_t*>(&tiling);
        for (uint32_t i = 0; i < sizeof(MatmulFp16Tiling) / sizeof(uint32_t); ++i) {
            dst[i] = src[i];
        }
        rows = tiling.coreRows;
        uint32_t row0 = GetBlockIdx() * rows;
        aGm.SetGlobalBuffer((__gm__ half*)a + row0 * tiling.K, rows * tiling.K);
        bGm.SetGlobalBuffer((__gm__ half*)b, tiling.K * tiling.N);
        cGm.SetGlobalBuffer((__gm__ float*)c + row0 * tiling.N, rows * tiling.N);
        pipe.InitBuffer(aL1Buf, rows * tiling.K * sizeof(half));
        pipe.InitBuffer(bL1Buf, tiling.K * tiling.N * sizeof(half));
        pipe.InitBuffer(aL0Buf, rows * tiling.baseK * sizeof(half));
        pipe.InitBuffer(bL0Buf, tiling.baseK * tiling.baseN * sizeof(half));
        pipe.InitBuffer(cL0Buf, rows * tiling.baseN * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        CopyInL1();
        for (uint32_t n0 = 0; n0 < tiling.N; n0 += tiling.baseN) {
            for (uint32_t k0 = 0; k0 < tiling.K; k0 += tiling.baseK) {
                SplitToL0(n0, k0);
                Compute(k0 == 0);
            }
            CopyOut(n0);
        }
    }

private:
    __aicore__ inline void CopyInL1()
    {
        LocalTensor<half> aL1 = aL1Buf.Get<half>();
        LocalTensor<half> bL1 = bL1Buf.Get<half>();
        // ND -> Nz: column blocks of 16 halves, each holding all rows (rows are already multiples of 16)
        DataCopy(aL1, aGm, Nd2NzParams{1, (uint16_t)rows, (uint16_t)tiling.K, 0, (uint16_t)tiling.K,
                                        (uint16_t)rows, 1, 0});
        DataCopy(bL1, bGm, Nd2NzParams{1, (uint16_t)tiling.K, (uint16_t)tiling.N, 0, (uint16_t)tiling.N,
                                        (uint16_t)tiling.K, 1, 0});
        SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    }

    __aicore__ inline void SplitToL0(uint32_t n0, uint32_t k0)
    {
        LocalTensor<half> aL1 = aL1Buf.Get<half>();
        LocalTensor<half> bL1 = bL1Buf.Get<half>();
        LocalTensor<half> aL0 = aL0Buf.Get<half>();
        LocalTensor<half> bL0 = bL0Buf.Get<half>();
        const uint32_t m1 = rows / FRACTAL, k1 = tiling.baseK / FRACTAL, n1 = tiling.baseN / FRACTAL;
        const uint32_t kTotal1 = tiling.K / FRACTAL;
        // wait until the previous Mmad has read L0A / L0B before overwriting them
        SetFlag<HardEvent::M_MTE1>(EVENT_ID0);
        WaitFlag<HardEvent::M_MTE1>(EVENT_ID0);
        // A: fractal (i, k) of the Nz block sits at (k0/16 + k) * m1 + i; L0A wants row i of fractals together
        for (uint32_t i = 0; i < m1; ++i) {
            LoadData(aL0[i * k1 * FRACTAL * FRACTAL], aL1,
                     LoadData2DParams{(uint16_t)((k0 / FRACTAL) * m1 + i), (uint8_t)k1, (uint16_t)m1, 0, 0, false, 0});
        }
        // B: fractal (k, j) sits at (n0/16 + j) * kTotal1 + k0/16 + k; L0B wants row k of fractals, each transposed
        for (uint32_t k = 0; k < k1; ++k) {
            LoadData(bL0[k * n1 * FRACTAL * FRACTAL], bL1,
                     LoadData2DParams{(uint16_t)((n0 / FRACTAL) * kTotal1 + k0 / FRACTAL + k), (uint8_t)n1,
                                      (uint16_t)kTotal1, 0, 0, true, 0});
        }
        SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
        WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
    }

    __aicore__ inline void Compute(bool first)
    {
        LocalTensor<half> aL0 = aL0Buf.Get<half>();
        LocalTensor<half> bL0 = bL0Buf.Get<half>();
        LocalTensor<float> cL0 = cL0Buf.Get<float>();
        // the first K step initialises L0C, the next ones accumulate into it
        Mmad(cL0, aL0, bL0, MmadParams{(uint16_t)rows, (uint16_t)tiling.baseN, (uint16_t)tiling.baseK, 0, false, first});
        PipeBarrier<PIPE_M>();
    }

    __aicore__ inline void CopyOut(uint32_t n0)
    {
        LocalTensor<float> cL0 = cL0Buf.Get<float>();
        SetFlag<HardEvent::M_FIX>(EVENT_ID0);
        WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
        // Nz (16 x 16 fp32 fractals) -> row-major rows of N floats
        Fixpipe<float, float, CFG_ROW_MAJOR>(cGm[n0], cL0,
            FixpipeParamsV220{(uint16_t)tiling.baseN, (uint16_t)rows, (uint16_t)rows, tiling.N, false});
        // the next tile's first Mmad overwrites L0C: Fixpipe must have read it
        SetFlag<HardEvent::FIX_M>(EVENT_ID0);
        WaitFlag<HardEvent::FIX_M>(EVENT_ID0);
    }

    TPipe pipe;
    TBuf<TPosition::A1> aL1Buf;
    TBuf<TPosition::B1> bL1Buf;
    TBuf<TPosition::A2> aL0Buf;
    TBuf<TPosition::B2> bL0Buf;
    TBuf<TPosition::CO1> cL0Buf;
    GlobalTensor<half> aGm;
    GlobalTensor<half> bGm;
    GlobalTensor<float> cGm;
    MatmulFp16Tiling tiling;
    uint32_t rows = 0;
};

extern "C" __global__ __aicore__ void matmul_fp16(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling)
{
    KernelMatmulFp16 op;
    op.Init(a, b, c, tiling);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void matmul_fp16_do(uint32_t blockDim, void* stream, uint8_t* a, uint8_t* b, uint8_t* c, uint8_t* tiling)
{
    matmul_fp16<<<blockDim, nullptr, stream>>>(a, b, c, tiling);
}
#endif
