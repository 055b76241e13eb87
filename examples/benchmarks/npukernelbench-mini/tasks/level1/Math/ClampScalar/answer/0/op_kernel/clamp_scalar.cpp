#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelClampScalar {
public:
    __aicore__ inline KernelClampScalar() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ClampScalarTilingData &tiling)
    {
        this->blockLength = tiling.totalLength / GetBlockNum();
        this->tileNum = tiling.tileNum;
        this->tileLength = this->blockLength / this->tileNum / BUFFER_NUM;
        this->lower = tiling.lower;
        this->upper = tiling.upper;
        xGm.SetGlobalBuffer((__gm__ half *)x + this->blockLength * GetBlockIdx(), this->blockLength);
        yGm.SetGlobalBuffer((__gm__ half *)y + this->blockLength * GetBlockIdx(), this->blockLength);
        pipe.InitBuffer(xQueue, BUFFER_NUM, this->tileLength * sizeof(half));
        pipe.InitBuffer(yQueue, BUFFER_NUM, this->tileLength * sizeof(half));

    }
    __aicore__ inline void Process()
    {
        int32_t loopCount = this->tileNum * BUFFER_NUM;
        for (int32_t i = 0; i < loopCount; i++) {
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(int32_t progress)
    {
        LocalTensor<half> xLocal = xQueue.AllocTensor<half>();
        DataCopy(xLocal, xGm[progress * this->tileLength], this->tileLength);
        xQueue.EnQue(xLocal);
    }
    __aicore__ inline void Compute(int32_t progress)
    {
        LocalTensor<half> xLocal = xQueue.DeQue<half>();
        LocalTensor<half> yLocal = yQueue.AllocTensor<half>();
        Maxs(yLocal, xLocal, (half)this->lower, this->tileLength);
        Mins(yLocal, yLocal, (half)this->upper, this->tileLength);
        yQueue.EnQue<half>(yLocal);
        xQueue.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(int32_t progress)
    {
        LocalTensor<half> yLocal = yQueue.DeQue<half>();
        DataCopy(yGm[progress * this->tileLength], yLocal, this->tileLength);
        yQueue.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQueue;

    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
    uint32_t blockLength;
    uint32_t tileNum;
    uint32_t tileLength;
    float lower;
    float upper;
};

extern "C" __global__ __aicore__ void clamp_scalar(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelClampScalar op;
    op.Init(x, y, tilingData);
    op.Process();
}
