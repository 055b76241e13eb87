// softplus(x) = ln(1 + exp(x)) on 7001 floats with 2 cores, computed in mask COUNTER mode:
// SetMaskCount + SetVectorMask(n) make the next vector instructions process exactly n
// elements, however many repeats that takes, so a ragged last tile needs no special path
// in the compute stage. The instructions are called with isSetMask = false so that they keep
// the mask set here; SetMaskNorm + ResetMask restore the default mode afterwards.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TOTAL_LENGTH = 7001;
constexpr uint32_t TILE_LENGTH = 2048;
constexpr uint32_t BLOCK_ELEMS = 8;
constexpr int32_t BUFFER_NUM = 2;

class KernelSoftplusFp32 {
public:
    __aicore__ inline KernelSoftplusFp32() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        uint32_t blocks = (TOTAL_LENGTH + BLOCK_ELEMS - 1) / BLOCK_ELEMS;
        uint32_t perCore = (blocks + GetBlockNum() - 1) / GetBlockNum() * BLOCK_ELEMS;
        uint32_t start = perCore * GetBlockIdx();
        coreLength = start >= TOTAL_LENGTH ? 0 : (TOTAL_LENGTH - start < perCore ? TOTAL_LENGTH - start : perCore);
        xGm.SetGlobalBuffer((__gm__ float *)x + start, coreLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + start, coreLength);
        pipe.InitBuffer(inQueue, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t offset = 0; offset < coreLength; offset += TILE_LENGTH) {
            uint32_t length = coreLength - offset < TILE_LENGTH ? coreLength - offset : TILE_LENGTH;
            CopyIn(offset, length);
            Compute(length);
            CopyOut(offset, length);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t length)
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t length)
    {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        UnaryRepeatParams params(1, 1, 8, 8);

        SetMaskCount();
        SetVectorMask<float, MaskMode::COUNTER>(0, length);
        // in counter mode the repeat count is derived from the mask, so 1 is passed
        Exp<float, false>(yLocal, xLocal, MASK_PLACEHOLDER, 1, params);
        Adds<float, false>(yLocal, yLocal, 1.0f, MASK_PLACEHOLDER, 1, params);
        Ln<float, false>(yLocal, yLocal, MASK_PLACEHOLDER, 1, params);
        SetMaskNorm();
        ResetMask();

        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t length)
    {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[offset], yLocal, copyParams);
        outQueue.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueue;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint32_t coreLength = 0;
};

extern "C" __global__ __aicore__ void softplus_fp32(GM_ADDR x, GM_ADDR y)
{
    KernelSoftplusFp32 op;
    op.Init(x, y);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void softplus_fp32_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y)
{
    softplus_fp32<<<blockDim, nullptr, stream>>>(x, y);
}
#endif
