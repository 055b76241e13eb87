// z = |x| >= |y| ? x : y  (keep the element of larger magnitude, with its sign) on half
// vectors: Abs of both inputs, a tensor-tensor Compare into a bit mask, and Select in
// tensor-tensor mode. 8 cores x 4096 elements, tiles of 2048 (a multiple of the 128
// halves in one 256-byte repeat, as Compare requires).
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TOTAL_LENGTH = 32768;
constexpr uint32_t USE_CORE_NUM = 8;
constexpr uint32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;
constexpr uint32_t TILE_LENGTH = 2048;
constexpr uint32_t TILE_COUNT = BLOCK_LENGTH / TILE_LENGTH;
constexpr int32_t BUFFER_NUM = 2;

class KernelSelectMaxAbs {
public:
    __aicore__ inline KernelSelectMaxAbs() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z)
    {
        uint32_t offset = GetBlockIdx() * BLOCK_LENGTH;
        xGm.SetGlobalBuffer((__gm__ half *)x + offset, BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ half *)y + offset, BLOCK_LENGTH);
        zGm.SetGlobalBuffer((__gm__ half *)z + offset, BLOCK_LENGTH);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(absBuf, 2 * TILE_LENGTH * sizeof(half));  // [|x| | |y|]
        pipe.InitBuffer(maskBuf, TILE_LENGTH / 8);                 // one bit per element
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < TILE_COUNT; i++) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        LocalTensor<half> yLocal = inQueueY.AllocTensor<half>();
        DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
        DataCopy(yLocal, yGm[progress * TILE_LENGTH], TILE_LENGTH);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        LocalTensor<half> yLocal = inQueueY.DeQue<half>();
        LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
        LocalTensor<half> absAll = absBuf.Get<half>();
        LocalTensor<half> absX = absAll;
        LocalTensor<half> absY = absAll[TILE_LENGTH];
        LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();

        Abs(absX, xLocal, TILE_LENGTH);
        Abs(absY, yLocal, TILE_LENGTH);
        Compare(mask, absX, absY, CMPMODE::GE, TILE_LENGTH);
        Select(zLocal, mask, xLocal, yLocal, SELMODE::VSEL_TENSOR_TENSOR_MODE, TILE_LENGTH);

        outQueueZ.EnQue(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t progress)
    {
        LocalTensor<half> zLocal = outQueueZ.DeQue<half>();
        DataCopy(zGm[progress * TILE_LENGTH], zLocal, TILE_LENGTH);
        outQueueZ.FreeTensor(zLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueZ;
    TBuf<TPosition::VECCALC> absBuf;
    TBuf<TPosition::VECCALC> maskBuf;
    GlobalTensor<half> xGm, yGm, zGm;
};

extern "C" __global__ __aicore__ void select_max_abs(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    KernelSelectMaxAbs op;
    op.Init(x, y, z);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void select_max_abs_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *z)
{
    select_max_abs<<<blockDim, nullptr, stream>>>(x, y, z);
}
#endif
