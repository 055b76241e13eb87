// Row sums of a float matrix with 64 columns: one row is exactly one vector repeat
// (256 bytes), so WholeReduceSum reduces 16 rows in a single call and writes their sums
// contiguously (dstRepStride 1). 512 rows over 8 cores, tiles of 16 rows, double-buffered.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t ROWS = 512;
constexpr uint32_t COLS = 64;                               // = elements per repeat for float
constexpr uint32_t USE_CORE_NUM = 8;
constexpr uint32_t ROWS_PER_CORE = ROWS / USE_CORE_NUM;     // 64
constexpr uint32_t ROWS_PER_TILE = 16;                      // 16 sums = 64 bytes out per tile
constexpr uint32_t TILE_COUNT = ROWS_PER_CORE / ROWS_PER_TILE;
constexpr int32_t BUFFER_NUM = 2;

class KernelWholeReduceSum {
public:
    __aicore__ inline KernelWholeReduceSum() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        uint32_t firstRow = GetBlockIdx() * ROWS_PER_CORE;
        xGm.SetGlobalBuffer((__gm__ float *)x + firstRow * COLS, ROWS_PER_CORE * COLS);
        yGm.SetGlobalBuffer((__gm__ float *)y + firstRow, ROWS_PER_CORE);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, ROWS_PER_TILE * COLS * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, ROWS_PER_TILE * sizeof(float));
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
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        DataCopy(xLocal, xGm[progress * ROWS_PER_TILE * COLS], ROWS_PER_TILE * COLS);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        // mask = 64 lanes, one repeat per row; dstRepStride 1 element,
        // srcBlkStride 1 block, srcRepStride 8 blocks (the next row)
        WholeReduceSum(yLocal, xLocal, static_cast<int32_t>(COLS), ROWS_PER_TILE, 1, 1, 8);
        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t progress)
    {
        LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        DataCopy(yGm[progress * ROWS_PER_TILE], yLocal, ROWS_PER_TILE);
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueY;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
};

extern "C" __global__ __aicore__ void whole_reduce_sum(GM_ADDR x, GM_ADDR y)
{
    KernelWholeReduceSum op;
    op.Init(x, y);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void whole_reduce_sum_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y)
{
    whole_reduce_sum<<<blockDim, nullptr, stream>>>(x, y);
}
#endif
