// y = x >= 0 ? x : slope * x (LeakyRelu) on 12345 floats with 4 cores.
// The work is dealt out in 32-byte blocks: the first (blocks % cores) cores take one block
// more than the others, and the last block of the last core may be partial. Ragged tiles
// go through DataCopyPad in both directions.
#include "kernel_operator.h"
#include "leaky_relu_fp32_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_ELEMS = 32 / sizeof(float);

class KernelLeakyReluFp32 {
public:
    __aicore__ inline KernelLeakyReluFp32() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const LeakyReluFp32Tiling &tiling)
    {
        slope = tiling.negativeSlope;
        tileLength = tiling.tileLength;
        uint32_t totalBlocks = (tiling.totalLength + BLOCK_ELEMS - 1) / BLOCK_ELEMS;
        uint32_t baseBlocks = totalBlocks / GetBlockNum();
        uint32_t bigCores = totalBlocks % GetBlockNum();
        uint32_t idx = GetBlockIdx();
        uint32_t myBlocks = baseBlocks + (idx < bigCores ? 1 : 0);
        uint32_t startBlock = idx * baseBlocks + (idx < bigCores ? idx : bigCores);
        uint32_t start = startBlock * BLOCK_ELEMS;
        uint32_t end = start + myBlocks * BLOCK_ELEMS;
        if (end > tiling.totalLength) {
            end = tiling.totalLength;  // the final block of the whole vector is partial
        }
        coreLength = end > start ? end - start : 0;

        xGm.SetGlobalBuffer((__gm__ float *)x + start, coreLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + start, coreLength);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t offset = 0; offset < coreLength; offset += tileLength) {
            uint32_t length = coreLength - offset < tileLength ? coreLength - offset : tileLength;
            CopyIn(offset, length);
            Compute(length);
            CopyOut(offset, length);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t length)
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        if (length % BLOCK_ELEMS == 0) {
            DataCopy(xLocal, xGm[offset], length);
        } else {
            DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
            DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        }
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t length)
    {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        LeakyRelu(yLocal, xLocal, slope, length);
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t length)
    {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        if (length % BLOCK_ELEMS == 0) {
            DataCopy(yGm[offset], yLocal, length);
        } else {
            DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(float)), 0, 0, 0};
            DataCopyPad(yGm[offset], yLocal, copyParams);
        }
        outQueue.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueue;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    float slope = 0.0f;
    uint32_t tileLength = 0;
    uint32_t coreLength = 0;
};

extern "C" __global__ __aicore__ void leaky_relu_fp32(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    // copy the tiling struct out of GM once; the fields are read many times below
    LeakyReluFp32Tiling tilingData = *reinterpret_cast<__gm__ LeakyReluFp32Tiling *>(tiling);
    KernelLeakyReluFp32 op;
    op.Init(x, y, tilingData);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void leaky_relu_fp32_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *tiling)
{
    leaky_relu_fp32<<<blockDim, nullptr, stream>>>(x, y, tiling);
}
#endif
