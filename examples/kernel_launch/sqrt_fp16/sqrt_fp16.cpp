// y = sqrt(x) on half vectors of an arbitrary length (5000 here): 4 cores, DataCopyPad on
// the last partial tile of each core. Tiling values come in as a struct in GM.
#include "kernel_operator.h"
#include "sqrt_fp16_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_ELEMS = 32 / sizeof(half);  // 16 halves per 32-byte block

class KernelSqrtFp16 {
public:
    __aicore__ inline KernelSqrtFp16() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR tilingGm)
    {
        __gm__ SqrtFp16Tiling *tiling = reinterpret_cast<__gm__ SqrtFp16Tiling *>(tilingGm);
        uint32_t totalLength = tiling->totalLength;
        tileLength = tiling->tileLength;

        // whole blocks are dealt out first; the leftover elements go to the last core
        uint32_t totalBlocks = totalLength / BLOCK_ELEMS;
        uint32_t blocksPerCore = totalBlocks / GetBlockNum();
        uint32_t start = blocksPerCore * BLOCK_ELEMS * GetBlockIdx();
        coreLength = blocksPerCore * BLOCK_ELEMS;
        if (GetBlockIdx() == GetBlockNum() - 1) {
            coreLength = totalLength - start;
        }
        tileCount = (coreLength + tileLength - 1) / tileLength;

        xGm.SetGlobalBuffer((__gm__ half *)x + start, coreLength);
        yGm.SetGlobalBuffer((__gm__ half *)y + start, coreLength);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(half));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(half));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tileCount; i++) {
            uint32_t offset = i * tileLength;
            uint32_t length = (coreLength - offset < tileLength) ? coreLength - offset : tileLength;
            CopyIn(offset, length);
            Compute(length);
            CopyOut(offset, length);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t length)
    {
        LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
        // DataCopyPad handles both the aligned and the ragged case; the padding lanes
        // get 1.0 so that sqrt never sees garbage
        DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(half)), 0, 0, 0};
        uint32_t padded = (length + BLOCK_ELEMS - 1) / BLOCK_ELEMS * BLOCK_ELEMS;
        DataCopyPadExtParams<half> padParams{true, 0, static_cast<uint8_t>(padded - length), static_cast<half>(1.0f)};
        DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t length)
    {
        LocalTensor<half> xLocal = inQueue.DeQue<half>();
        LocalTensor<half> yLocal = outQueue.AllocTensor<half>();
        Sqrt(yLocal, xLocal, length);
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t length)
    {
        LocalTensor<half> yLocal = outQueue.DeQue<half>();
        DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(half)), 0, 0, 0};
        DataCopyPad(yGm[offset], yLocal, copyParams);
        outQueue.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueue;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileCount = 0;
};

extern "C" __global__ __aicore__ void sqrt_fp16(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    KernelSqrtFp16 op;
    op.Init(x, y, tiling);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void sqrt_fp16_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *tiling)
{
    sqrt_fp16<<<blockDim, nullptr, stream>>>(x, y, tiling);
}
#endif
