// z = alpha * x + beta * y (float): Muls the first operand, Axpy the second into it.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_BYTES = 32;

class KernelAxpby {
public:
    __aicore__ inline KernelAxpby() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t blockLength, uint32_t lastBlockLength,
                                uint32_t tileLength, float alpha, float beta)
    {
        const uint32_t blockIdx = AscendC::GetBlockIdx();
        const uint64_t offset = static_cast<uint64_t>(blockLength) * blockIdx;
        coreLength = (blockIdx == AscendC::GetBlockNum() - 1) ? lastBlockLength : blockLength;
        this->tileLength = tileLength;
        tileNum = (coreLength + tileLength - 1) / tileLength;
        tailLength = coreLength - (tileNum - 1) * tileLength;
        this->alpha = alpha;
        this->beta = beta;
        xGm.SetGlobalBuffer((__gm__ float*)x + offset, coreLength);
        yGm.SetGlobalBuffer((__gm__ float*)y + offset, coreLength);
        zGm.SetGlobalBuffer((__gm__ float*)z + offset, coreLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(float));
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
    __aicore__ inline void Load(AscendC::LocalTensor<float>& dst, AscendC::GlobalTensor<float>& src, uint64_t offset,
                                uint32_t len)
    {
        if ((len * sizeof(float)) % BLOCK_BYTES == 0) {
            AscendC::DataCopy(dst, src[offset], len);
        } else {
            AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0};
            AscendC::DataCopyPad(dst, src[offset], params, pad);
        }
    }

    __aicore__ inline void CopyIn(uint32_t progress, uint32_t len)
    {
        const uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
        Load(xLocal, xGm, offset, len);
        Load(yLocal, yGm, offset, len);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = inQueueY.DeQue<float>();
        AscendC::LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
        AscendC::Muls(zLocal, xLocal, alpha, len);
        AscendC::Axpy(zLocal, yLocal, beta, len);
        outQueueZ.EnQue<float>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t progress, uint32_t len)
    {
        const uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        AscendC::LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
        if ((len * sizeof(float)) % BLOCK_BYTES == 0) {
            AscendC::DataCopy(zGm[offset], zLocal, len);
        } else {
            AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPad(zGm[offset], zLocal, params);
        }
        outQueueZ.FreeTensor(zLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueY;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueZ;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    AscendC::GlobalTensor<float> zGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileNum = 0;
    uint32_t tailLength = 0;
    float alpha = 1.0f;
    float beta = 1.0f;
};

extern "C" __global__ __aicore__ void axpby_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAxpby op;
    op.Init(x, y, z, tilingData.blockLength, tilingData.lastBlockLength, tilingData.tileLength, tilingData.alpha,
            tilingData.beta);
    op.Process();
}
