#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelSoftsign {
public:
    __aicore__ inline KernelSoftsign() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SoftsignTilingData &tiling)
    {
        this->blockLength = tiling.totalLength / GetBlockNum();
        this->tileNum = tiling.tileNum;
        this->tileLength = this->blockLength / this->tileNum / BUFFER_NUM;
        xGm.SetGlobalBuffer((__gm__ half *)x + this->blockLength * GetBlockIdx(), this->blockLength);
        yGm.SetGlobalBuffer((__gm__ half *)y + this->blockLength * GetBlockIdx(), this->blockLength);
        pipe.InitBuffer(xQueue, BUFFER_NUM, this->tileLength * sizeof(half));
        pipe.InitBuffer(yQueue, BUFFER_NUM, this->tileLength * sizeof(half));
        pipe.InitBuffer(denBuf, this->tileLength * sizeof(half));
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
        LocalTensor<half> denLocal = denBuf.Get<half>();
        Abs(denLocal, xLocal, this->tileLength);
        Adds(denLocal, denLocal, (half)1.0, this->tileLength);
        Div(yLocal, xLocal, denLocal, this->tileLength);
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
    TBuf<QuePosition::VECCALC> denBuf;
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
    uint32_t blockLength;
    uint32_t tileNum;
    uint32_t tileLength;
};

extern "C" __global__ __aicore__ void softsign(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelSoftsign op;
    op.Init(x, y, tilingData);
    op.Process();
}
