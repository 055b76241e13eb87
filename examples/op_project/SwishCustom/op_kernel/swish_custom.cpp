// y = x * sigmoid(beta * x) = x / (1 + exp(-beta * x)); half in and out, float inside
// so exp and the division keep full precision before the single final rounding.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_BYTES = 32;

class KernelSwish {
public:
    __aicore__ inline KernelSwish() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t blockLength, uint32_t lastBlockLength,
                                uint32_t tileLength, float beta)
    {
        const uint32_t blockIdx = AscendC::GetBlockIdx();
        const uint64_t offset = static_cast<uint64_t>(blockLength) * blockIdx;
        this->coreLength = (blockIdx == AscendC::GetBlockNum() - 1) ? lastBlockLength : blockLength;
        this->tileLength = tileLength;
        this->tileNum = (this->coreLength + tileLength - 1) / tileLength;
        this->tailLength = this->coreLength - (this->tileNum - 1) * tileLength;
        this->negBeta = -beta;

        xGm.SetGlobalBuffer((__gm__ half*)x + offset, this->coreLength);
        yGm.SetGlobalBuffer((__gm__ half*)y + offset, this->coreLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(half));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(half));
        pipe.InitBuffer(xFloatBuf, tileLength * sizeof(float));
        pipe.InitBuffer(denomBuf, tileLength * sizeof(float));
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
        AscendC::LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        const uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        if ((len * sizeof(half)) % BLOCK_BYTES == 0) {
            AscendC::DataCopy(xLocal, xGm[offset], len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(half)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<half> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        }
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        AscendC::LocalTensor<half> yLocal = outQueueY.AllocTensor<half>();
        AscendC::LocalTensor<float> xFloat = xFloatBuf.Get<float>();
        AscendC::LocalTensor<float> denom = denomBuf.Get<float>();

        AscendC::Cast(xFloat, xLocal, AscendC::RoundMode::CAST_NONE, len);  // widening is exact
        AscendC::Muls(denom, xFloat, negBeta, len);
        AscendC::Exp(denom, denom, len);
        AscendC::Adds(denom, denom, 1.0f, len);
        AscendC::Div(xFloat, xFloat, denom, len);
        AscendC::Cast(yLocal, xFloat, AscendC::RoundMode::CAST_RINT, len);

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
    AscendC::TBuf<AscendC::TPosition::VECCALC> xFloatBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> denomBuf;
    AscendC::GlobalTensor<half> xGm;
    AscendC::GlobalTensor<half> yGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileNum = 0;
    uint32_t tailLength = 0;
    float negBeta = -1.0f;
};

extern "C" __global__ __aicore__ void swish_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelSwish op;
    op.Init(x, y, tilingData.blockLength, tilingData.lastBlockLength, tilingData.tileLength, tilingData.beta);
    op.Process();
}
