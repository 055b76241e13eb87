#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelGreaterEqual {
public:
    __aicore__ inline KernelGreaterEqual() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR y, const GreaterEqualTilingData &tiling)
    {
        this->blockLength = tiling.totalLength / GetBlockNum();
        this->tileNum = tiling.tileNum;
        this->tileLength = this->blockLength / this->tileNum / BUFFER_NUM;
        aGm.SetGlobalBuffer((__gm__ half *)a + this->blockLength * GetBlockIdx(), this->blockLength);
        bGm.SetGlobalBuffer((__gm__ half *)b + this->blockLength * GetBlockIdx(), this->blockLength);
        yGm.SetGlobalBuffer((__gm__ int8_t *)y + this->blockLength * GetBlockIdx(), this->blockLength);
        pipe.InitBuffer(aQueue, BUFFER_NUM, this->tileLength * sizeof(half));
        pipe.InitBuffer(bQueue, BUFFER_NUM, this->tileLength * sizeof(half));
        pipe.InitBuffer(yQueue, BUFFER_NUM, this->tileLength * sizeof(int8_t));
        pipe.InitBuffer(maskBuf, this->tileLength * sizeof(half));
        pipe.InitBuffer(oneBuf, this->tileLength * sizeof(half));
        pipe.InitBuffer(zeroBuf, this->tileLength * sizeof(half));
        pipe.InitBuffer(selBuf, this->tileLength * sizeof(half));
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
        LocalTensor<half> aLocal = aQueue.AllocTensor<half>();
        DataCopy(aLocal, aGm[progress * this->tileLength], this->tileLength);
        aQueue.EnQue(aLocal);
        LocalTensor<half> bLocal = bQueue.AllocTensor<half>();
        DataCopy(bLocal, bGm[progress * this->tileLength], this->tileLength);
        bQueue.EnQue(bLocal);
    }
    __aicore__ inline void Compute(int32_t progress)
    {
        LocalTensor<half> aLocal = aQueue.DeQue<half>();
        LocalTensor<half> bLocal = bQueue.DeQue<half>();
        LocalTensor<int8_t> yLocal = yQueue.AllocTensor<int8_t>();
        LocalTensor<half> selLocal = selBuf.Get<half>();
        LocalTensor<uint8_t> maskLocal = maskBuf.Get<uint8_t>();
        LocalTensor<half> oneLocal = oneBuf.Get<half>();
        LocalTensor<half> zeroLocal = zeroBuf.Get<half>();
        Duplicate(oneLocal, (half)1.0, this->tileLength);
        Duplicate(zeroLocal, (half)0.0, this->tileLength);
        Compare(maskLocal, aLocal, bLocal, CMPMODE::GE, this->tileLength);
        Select(selLocal, maskLocal, oneLocal, zeroLocal, SELMODE::VSEL_TENSOR_TENSOR_MODE, this->tileLength);
        Cast(yLocal, selLocal, RoundMode::CAST_NONE, this->tileLength);
        yQueue.EnQue<int8_t>(yLocal);
        aQueue.FreeTensor(aLocal);
        bQueue.FreeTensor(bLocal);
    }
    __aicore__ inline void CopyOut(int32_t progress)
    {
        LocalTensor<int8_t> yLocal = yQueue.DeQue<int8_t>();
        DataCopy(yGm[progress * this->tileLength], yLocal, this->tileLength);
        yQueue.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> aQueue;
    TQue<QuePosition::VECIN, BUFFER_NUM> bQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQueue;
    TBuf<QuePosition::VECCALC> maskBuf;
    TBuf<QuePosition::VECCALC> oneBuf;
    TBuf<QuePosition::VECCALC> zeroBuf;
    TBuf<QuePosition::VECCALC> selBuf;
    GlobalTensor<half> aGm;
    GlobalTensor<half> bGm;
    GlobalTensor<int8_t> yGm;
    uint32_t blockLength;
    uint32_t tileNum;
    uint32_t tileLength;
};

extern "C" __global__ __aicore__ void greater_equal(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelGreaterEqual op;
    op.Init(a, b, y, tilingData);
    op.Process();
}
