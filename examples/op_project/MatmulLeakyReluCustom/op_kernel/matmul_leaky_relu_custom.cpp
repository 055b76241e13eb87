// y = leaky_relu(a @ b, alpha): a [M, K] half, b [K, N] half, y [M, N] half. A mixed AIC/AIV kernel.
// C is cut into baseM x baseN tiles, dealt round-robin to the logical cores. On each core the AIC computes a tile
// with the basic cube API (ND -> NZ copies into L1, LoadData into L0A / L0B, Mmad accumulating the K chunks in
// L0C at fp32) and Fixpipes it into one of two GM workspace slots; CrossCoreSetFlag tells its two AIVs, which each
// take half of the tile's rows, apply leaky_relu in fp32, round to half and store them, then hand the slot back.
// With two slots the AIC computes the next tile while the AIVs finish the last one.
#include "kernel_operator.h"

constexpr uint16_t FLAG_TILE_READY = 4;  // AIC -> its AIVs: a C tile is in its workspace slot
constexpr uint16_t FLAG_SLOT_FREE = 5;   // AIVs -> their AIC: both halves of a slot have been read
constexpr uint32_t SLOTS = 2;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t FRACTAL = 16;           // rows / columns of a half fractal
constexpr uint32_t FRACTAL_ELEMS = 256;    // 16 x 16 halves = 512 bytes

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

__aicore__ inline uint32_t AlignUp(uint32_t a, uint32_t b)
{
    return CeilDiv(a, b) * b;
}

// The tiling fields the kernel reads (copied out of the tiling data in the entry).
struct MmTiling {
    uint32_t M, N, K, baseM, baseN, baseK, mTiles, nTiles, usedCoreNum;
    float alpha;
};

// The tiles of one logical core, in the order both its AIC and its AIVs walk them.
struct TileWalk {
    __aicore__ inline void Init(const MmTiling& t, uint32_t core)
    {
        tiling = t;
        coreIdx = core;
        const uint32_t tiles = t.mTiles * t.nTiles;
        count = core < tiles ? CeilDiv(tiles - core, t.usedCoreNum) : 0;
    }
    // tile number i of this core: origin and extent in C
    __aicore__ inline void Get(uint32_t i, uint32_t& m0, uint32_t& n0, uint32_t& mLen, uint32_t& nLen) const
    {
        const uint32_t tile = coreIdx + i * tiling.usedCoreNum;
        m0 = (tile / tiling.nTiles) * tiling.baseM;
        n0 = (tile % tiling.nTiles) * tiling.baseN;
        mLen = tiling.M - m0 < tiling.baseM ? tiling.M - m0 : tiling.baseM;
        nLen = tiling.N - n0 < tiling.baseN ? tiling.N - n0 : tiling.baseN;
    }
    __aicore__ inline uint64_t SlotOffset(uint32_t i) const
    {
        return (static_cast<uint64_t>(coreIdx) * SLOTS + i % SLOTS) * tiling.baseM * tiling.baseN;
    }
    MmTiling tiling;
    uint32_t coreIdx = 0;
    uint32_t count = 0;
};

class CubeStage {
public:
    __aicore__ inline CubeStage() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR workspace, const MmTiling& t)
    {
        tiling = t;
        walk.Init(t, AscendC::GetBlockIdx());
        aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), static_cast<uint64_t>(t.M) * t.K);
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), static_cast<uint64_t>(t.K) * t.N);
        wsGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(workspace),
                             static_cast<uint64_t>(t.usedCoreNum) * SLOTS * t.baseM * t.baseN);
        pipe.InitBuffer(inQueueA1, BUFFER_NUM, t.baseM * t.baseK * sizeof(half));
        pipe.InitBuffer(inQueueB1, BUFFER_NUM, t.baseK * t.baseN * sizeof(half));
        pipe.InitBuffer(inQueueA2, BUFFER_NUM, t.baseM * t.baseK * sizeof(half));
        pipe.InitBuffer(inQueueB2, BUFFER_NUM, t.baseK * t.baseN * sizeof(half));
        pipe.InitBuffer(outQueueCO1, 1, t.baseM * t.baseN * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        const uint32_t kChunks = CeilDiv(tiling.K, tiling.baseK);
        for (uint32_t i = 0; i < walk.count; i++) {
            uint32_t m0, n0, mLen, nLen;
            walk.Get(i, m0, n0, mLen, nLen);
            AscendC::LocalTensor<float> cLocal = outQueueCO1.AllocTensor<float>();
            for (uint32_t kc = 0; kc < kChunks; kc++) {
                const uint32_t k0 = kc * tiling.baseK;
                const uint32_t kLen = tiling.K - k0 < tiling.baseK ? tiling.K - k0 : tiling.baseK;
                CopyIn(m0, n0, k0, mLen, nLen, kLen);
                SplitA(mLen, kLen);
                SplitB(nLen, kLen);
                Compute(cLocal, mLen, nLen, kLen, kc == 0);
            }
            outQueueCO1.EnQue<float>(cLocal);
            CopyOut(i, mLen, nLen);
        }
    }

private:
    // ND tiles of A [mLen, kLen] and B [kLen, nLen] into L1 as NZ (column blocks of 16 halves, rows 16-aligned).
    __aicore__ inline void CopyIn(uint32_t m0, uint32_t n0, uint32_t k0, uint32_t mLen, uint32_t nLen, uint32_t kLen)
    {
        const uint32_t mAlign = AlignUp(mLen, FRACTAL);
        const uint32_t kAlign = AlignUp(kLen, FRACTAL);
        AscendC::LocalTensor<half> aL1 = inQueueA1.AllocTensor<half>();
        AscendC::Nd2NzParams aParams{1, static_cast<uint16_t>(mLen), static_cast<uint16_t>(kLen), 0,
                                     static_cast<uint16_t>(tiling.K), static_cast<uint16_t>(mAlign), 1, 0};
        AscendC::DataCopy(aL1, aGm[static_cast<uint64_t>(m0) * tiling.K + k0], aParams);
        inQueueA1.EnQue(aL1);

        AscendC::LocalTensor<half> bL1 = inQueueB1.AllocTensor<half>();
        if (kLen != kAlign) {
            // B's rows past kLen are K padding: zero them, as ND2NZ pads only A's columns (the D axis)
            const uint16_t blocks = static_cast<uint16_t>(kAlign * AlignUp(nLen, FRACTAL) * sizeof(half) / BLOCK_BYTES);
            AscendC::InitConstValue(bL1, AscendC::InitConstValueParams<half>{1, blocks, 0, static_cast<half>(0)});
            // into L1 the fill runs on MTE2, like the copy below, which writes the same bytes: a barrier on that
            // pipe keeps the copy from overtaking the fill
            AscendC::PipeBarrier<PIPE_MTE2>();
        }
        AscendC::Nd2NzParams bParams{1, static_cast<uint16_t>(kLen), static_cast<uint16_t>(nLen), 0,
                                     static_cast<uint16_t>(tiling.N), static_cast<uint16_t>(kAlign), 1, 0};
        AscendC::DataCopy(bL1, bGm[static_cast<uint64_t>(k0) * tiling.N + n0], bParams);
        inQueueB1.EnQue(bL1);
    }

    // A: L1 NZ -> L0A ZZ, one row of fractals (K1 of them, M1 apart in L1) per LoadData.
    __aicore__ inline void SplitA(uint32_t mLen, uint32_t kLen)
    {
        const uint32_t m1 = CeilDiv(mLen, FRACTAL);
        const uint32_t k1 = CeilDiv(kLen, FRACTAL);
        AscendC::LocalTensor<half> aL1 = inQueueA1.DeQue<half>();
        AscendC::LocalTensor<half> aL0 = inQueueA2.AllocTensor<half>();
        for (uint32_t i = 0; i < m1; i++) {
            AscendC::LoadData2DParams p{0, static_cast<uint8_t>(k1), static_cast<uint16_t>(m1), 0, 0, false, 0};
            AscendC::LoadData(aL0[i * k1 * FRACTAL_ELEMS], aL1[i * FRACTAL_ELEMS], p);
        }
        inQueueA2.EnQue(aL0);
        inQueueA1.FreeTensor(aL1);
    }

    // B: L1 NZ [kLen, nLen] -> L0B ZN, each fractal transposed on the way.
    __aicore__ inline void SplitB(uint32_t nLen, uint32_t kLen)
    {
        const uint32_t n1 = CeilDiv(nLen, FRACTAL);
        const uint32_t k1 = CeilDiv(kLen, FRACTAL);
        AscendC::LocalTensor<half> bL1 = inQueueB1.DeQue<half>();
        AscendC::LocalTensor<half> bL0 = inQueueB2.AllocTensor<half>();
        for (uint32_t i = 0; i < k1; i++) {
            AscendC::LoadData2DParams p{0, static_cast<uint8_t>(n1), static_cast<uint16_t>(k1), 0, 0, true, 0};
            AscendC::LoadData(bL0[i * n1 * FRACTAL_ELEMS], bL1[i * FRACTAL_ELEMS], p);
        }
        inQueueB2.EnQue(bL0);
        inQueueB1.FreeTensor(bL1);
    }

    __aicore__ inline void Compute(const AscendC::LocalTensor<float>& cLocal, uint32_t mLen, uint32_t nLen,
                                   uint32_t kLen, bool first)
    {
        AscendC::LocalTensor<half> aL0 = inQueueA2.DeQue<half>();
        AscendC::LocalTensor<half> bL0 = inQueueB2.DeQue<half>();
        // the first K chunk starts C from zero, the others accumulate onto it in L0C (fp32)
        AscendC::MmadParams p{static_cast<uint16_t>(mLen), static_cast<uint16_t>(nLen), static_cast<uint16_t>(kLen),
                              0, false, first};
        AscendC::Mmad(cLocal, aL0, bL0, p);
        inQueueA2.FreeTensor(aL0);
        inQueueB2.FreeTensor(bL0);
    }

    // L0C NZ -> the tile's workspace slot as ND rows of baseN floats, then tell the AIVs.
    __aicore__ inline void CopyOut(uint32_t i, uint32_t mLen, uint32_t nLen)
    {
        AscendC::LocalTensor<float> cLocal = outQueueCO1.DeQue<float>();
        if (i >= SLOTS) {
            AscendC::CrossCoreWaitFlag(FLAG_SLOT_FREE);  // the AIVs have read tile i - SLOTS out of this slot
        }
        AscendC::FixpipeParamsV220 p{static_cast<uint16_t>(nLen), static_cast<uint16_t>(mLen),
                                     static_cast<uint16_t>(AlignUp(mLen, FRACTAL)), tiling.baseN, false};
        AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(wsGm[walk.SlotOffset(i)], cLocal, p);
        AscendC::CrossCoreSetFlag<2, PIPE_FIX>(FLAG_TILE_READY);
        outQueueCO1.FreeTensor(cLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::A1, BUFFER_NUM> inQueueA1;
    AscendC::TQue<AscendC::TPosition::B1, BUFFER_NUM> inQueueB1;
    AscendC::TQue<AscendC::TPosition::A2, BUFFER_NUM> inQueueA2;
    AscendC::TQue<AscendC::TPosition::B2, BUFFER_NUM> inQueueB2;
    AscendC::TQue<AscendC::TPosition::CO1, 1> outQueueCO1;
    AscendC::GlobalTensor<half> aGm;
    AscendC::GlobalTensor<half> bGm;
    AscendC::GlobalTensor<float> wsGm;
    MmTiling tiling;
    TileWalk walk;
};

class VectorStage {
public:
    __aicore__ inline VectorStage() {}
    __aicore__ inline void Init(GM_ADDR y, GM_ADDR workspace, const MmTiling& t)
    {
        tiling = t;
        subIdx = AscendC::GetSubBlockIdx();
        walk.Init(t, AscendC::GetBlockIdx() / AscendC::GetSubBlockNum());
        yGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y), static_cast<uint64_t>(t.M) * t.N);
        wsGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(workspace),
                             static_cast<uint64_t>(t.usedCoreNum) * SLOTS * t.baseM * t.baseN);
        const uint32_t halfRows = t.baseM / 2;
        pipe.InitBuffer(inQueueC, BUFFER_NUM, halfRows * t.baseN * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, halfRows * t.baseN * sizeof(half));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < walk.count; i++) {
            uint32_t m0, n0, mLen, nLen;
            walk.Get(i, m0, n0, mLen, nLen);
            // rows [r0, r0 + rows) of the tile are this AIV's: the first AIV takes the larger half
            const uint32_t firstRows = (mLen + 1) / 2;
            const uint32_t r0 = subIdx == 0 ? 0 : firstRows;
            const uint32_t rows = subIdx == 0 ? firstRows : mLen - firstRows;
            AscendC::CrossCoreWaitFlag(FLAG_TILE_READY);
            if (rows > 0) {
                CopyIn(i, r0, rows, nLen);
                Compute(i, rows, nLen);
                CopyOut(m0 + r0, n0, rows, nLen);
            } else {
                ReleaseSlot(i);
            }
        }
    }

private:
    __aicore__ inline void ReleaseSlot(uint32_t i)
    {
        if (i + SLOTS < walk.count) {  // the AIC waits for the slot only when it has another tile to put there
            AscendC::CrossCoreSetFlag<2, PIPE_MTE2>(FLAG_SLOT_FREE);
        }
    }

    __aicore__ inline void CopyIn(uint32_t i, uint32_t r0, uint32_t rows, uint32_t nLen)
    {
        AscendC::LocalTensor<float> cLocal = inQueueC.AllocTensor<float>();
        // rows of nLen floats, baseN apart in the slot and in UB
        AscendC::DataCopyExtParams p{static_cast<uint16_t>(rows), static_cast<uint32_t>(nLen * sizeof(float)),
                                     static_cast<uint32_t>((tiling.baseN - nLen) * sizeof(float)),
                                     static_cast<uint32_t>((tiling.baseN * sizeof(float) -
                                                            AlignUp(nLen * sizeof(float), BLOCK_BYTES)) /
                                                           BLOCK_BYTES),
                                     0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        AscendC::DataCopyPad(cLocal, wsGm[walk.SlotOffset(i) + static_cast<uint64_t>(r0) * tiling.baseN], p, pad);
        inQueueC.EnQue(cLocal);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t rows, uint32_t nLen)
    {
        AscendC::LocalTensor<float> cLocal = inQueueC.DeQue<float>();
        ReleaseSlot(i);  // the copy out of the workspace has finished
        AscendC::LocalTensor<half> yLocal = outQueueY.AllocTensor<half>();
        if (nLen == tiling.baseN) {
            AscendC::LeakyRelu(cLocal, cLocal, tiling.alpha, rows * nLen);
            AscendC::Cast(yLocal, cLocal, AscendC::RoundMode::CAST_RINT, rows * nLen);
        } else {
            for (uint32_t r = 0; r < rows; r++) {  // a right-edge tile: only the first nLen of each row are C
                AscendC::LeakyRelu(cLocal[r * tiling.baseN], cLocal[r * tiling.baseN], tiling.alpha, nLen);
                AscendC::Cast(yLocal[r * tiling.baseN], cLocal[r * tiling.baseN], AscendC::RoundMode::CAST_RINT,
                              nLen);
            }
        }
        outQueueY.EnQue<half>(yLocal);
        inQueueC.FreeTensor(cLocal);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t col, uint32_t rows, uint32_t nLen)
    {
        AscendC::LocalTensor<half> yLocal = outQueueY.DeQue<half>();
        AscendC::DataCopyExtParams p{static_cast<uint16_t>(rows), static_cast<uint32_t>(nLen * sizeof(half)),
                                     static_cast<uint32_t>((tiling.baseN * sizeof(half) -
                                                            AlignUp(nLen * sizeof(half), BLOCK_BYTES)) /
                                                           BLOCK_BYTES),
                                     static_cast<uint32_t>((tiling.N - nLen) * sizeof(half)), 0};
        AscendC::DataCopyPad(yGm[static_cast<uint64_t>(row) * tiling.N + col], yLocal, p);
        outQueueY.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueC;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::GlobalTensor<half> yGm;
    AscendC::GlobalTensor<float> wsGm;
    MmTiling tiling;
    TileWalk walk;
    uint32_t subIdx = 0;
};

extern "C" __global__ __aicore__ void matmul_leaky_relu_custom(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR workspace,
                                                               GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(tilingData, tiling);
    const MmTiling t{tilingData.M,      tilingData.N,      tilingData.K,           tilingData.baseM,
                     tilingData.baseN,  tilingData.baseK,  tilingData.mTiles,      tilingData.nTiles,
                     tilingData.usedCoreNum, tilingData.alpha};
    GM_ADDR userWorkspace = AscendC::GetUserWorkspace(workspace);
    if ASCEND_IS_AIC {
        CubeStage op;
        op.Init(a, b, userWorkspace, t);
        op.Process();
    }
    if ASCEND_IS_AIV {
        VectorStage op;
        op.Init(y, userWorkspace, t);
        op.Process();
    }
}
