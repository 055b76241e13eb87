// z[r, :] = x[r, :] + b[:]  (bias row broadcast over a 128 x 256 float matrix).
// b is loaded once per core. The add uses the repeat form with one repeat per row:
// src1RepStride 0 makes every repeat read the same 64 bias values, and the 256 columns
// are covered by four column slices of 64 lanes each. 4 cores x 32 rows, tiles of 8 rows.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t ROWS = 128;
constexpr uint32_t COLS = 256;
constexpr uint32_t USE_CORE_NUM = 4;
constexpr uint32_t ROWS_PER_CORE = ROWS / USE_CORE_NUM;      // 32
constexpr uint32_t ROWS_PER_TILE = 8;
constexpr uint32_t TILE_ELEMS = ROWS_PER_TILE * COLS;        // 2048 floats = 8 KB
constexpr uint32_t TILE_COUNT = ROWS_PER_CORE / ROWS_PER_TILE;
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t LANES = 64;                               // floats per repeat
constexpr uint8_t ROW_STRIDE_BLOCKS = COLS * sizeof(float) / 32;  // 32 blocks from one row to the next

class KernelAddRowBroadcast {
public:
    __aicore__ inline KernelAddRowBroadcast() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR b, GM_ADDR z)
    {
        uint32_t offset = GetBlockIdx() * ROWS_PER_CORE * COLS;
        xGm.SetGlobalBuffer((__gm__ float *)x + offset, ROWS_PER_CORE * COLS);
        zGm.SetGlobalBuffer((__gm__ float *)z + offset, ROWS_PER_CORE * COLS);
        bGm.SetGlobalBuffer((__gm__ float *)b, COLS);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_ELEMS * sizeof(float));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_ELEMS * sizeof(float));
        pipe.InitBuffer(biasQueue, 1, COLS * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> bias = biasQueue.AllocTensor<float>();
        DataCopy(bias, bGm, COLS);
        biasQueue.EnQue(bias);
        bias = biasQueue.DeQue<float>();
        for (uint32_t i = 0; i < TILE_COUNT; i++) {
            CopyIn(i);
            Compute(bias);
            CopyOut(i);
        }
        biasQueue.FreeTensor(bias);
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        DataCopy(xLocal, xGm[progress * TILE_ELEMS], TILE_ELEMS);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(const LocalTensor<float> &bias)
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
        // dst/src0 move one row per repeat, src1 (the bias slice) stays put
        BinaryRepeatParams params(1, 1, 1, ROW_STRIDE_BLOCKS, ROW_STRIDE_BLOCKS, 0);
        for (uint32_t col = 0; col < COLS; col += LANES) {
            Add(zLocal[col], xLocal[col], bias[col], LANES, ROWS_PER_TILE, params);
        }
        outQueueZ.EnQue(zLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t progress)
    {
        LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
        DataCopy(zGm[progress * TILE_ELEMS], zLocal, TILE_ELEMS);
        outQueueZ.FreeTensor(zLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueZ;
    TQue<TPosition::VECIN, 1> biasQueue;
    GlobalTensor<float> xGm, bGm, zGm;
};

extern "C" __global__ __aicore__ void add_row_broadcast(GM_ADDR x, GM_ADDR b, GM_ADDR z)
{
    KernelAddRowBroadcast op;
    op.Init(x, b, z);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void add_row_broadcast_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *b, uint8_t *z)
{
    add_row_broadcast<<<blockDim, nullptr, stream>>>(x, b, z);
}
#endif
