// y = half(x * scale): scale in float, then one round-to-nearest-even narrowing cast.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_BYTES = 32;

class KernelFloatToHalfScale {
public:
    __aicore__ inline KernelFloatToHalfScale() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t blockLength, uint32_t lastBlockLength,
                                uint32_t tileLength, float scale)
    {
        const uint32_t blockIdx = AscendC::GetBlockIdx();
        const uint64_t offset = static_cast<uint64_t>(blockLength) * blockIdx;
        this->coreLength = (blockIdx == AscendC::GetBlockNum() - 1) ? lastBlockLength : blockLength;
        this->tileLength = tileLength;
        this->tileNum = (this->coreLength + tileLength - 1) / tileLength;
        this->tailLength = this->coreLength - (this->tileNum - 1) * tileLength;
        this->scale = scale;

        xGm.SetGlobalBuffer((__gm__ float*)x + offset, this->coreLength);
        yGm.SetGlobalBuffer((__gm__ half*)y + offset, this->coreLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(half));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tileNum; i++) {
            const uint32_t len = (i == tileNum - 1) ? tailLength : tileLength;
            CopyIn(i, len);
            Compute(len);
            CopyOut(i, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t len)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        const uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        if ((len * sizeof(float)) % BLOCK_BYTES == 0) {
            AscendC::DataCopy(xLocal, xGm[offset], len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        }
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<half> yLocal = outQueueY.AllocTensor<half>();
        AscendC::Muls(xLocal, xLocal, scale, len);
        AscendC::Cast(yLocal, xLocal, AscendC::RoundMode::CAST_RINT, len);
        outQueueY.EnQue<half>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t progress, uint32_t len)
    {
        AscendC::LocalTensor<half> yLocal = outQueueY.DeQue<half>();
        const uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        if ((len * sizeof(half)) % BLOCK_BYTES == 0) {
            AscendC::DataCopy(yGm[offset], yLocal, len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(half)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[offset], yLocal, copyParams);
        }
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<half> yGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileNum = 0;
    uint32_t tailLength = 0;
    float scale = 1.0f;
};

extern "C" __global__ __aicore__ void float_to_half_scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelFloatToHalfScale op;
    op.Init(x, y, tilingData.blockLength, tilingData.lastBlockLength, tilingData.tileLength, tilingData.scale);
    op.Process();
}
