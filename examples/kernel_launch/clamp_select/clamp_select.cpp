// y = min(max(x, lo), hi) on float vectors, written with comparisons and selections:
//   mask = x >= lo  (CompareScalar) ; t = mask ? x : lo  (Select, tensor-scalar mode)
//   mask = t <= hi                  ; y = mask ? t : hi
// The comparison result is a bit mask (one bit per element) in a uint8_t tensor. A count
// given to CompareScalar must cover whole 256-byte repeats, so tiles are multiples of 64 floats.
// 4 cores x 4096 elements, tiles of 1024.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TOTAL_LENGTH = 16384;
constexpr uint32_t USE_CORE_NUM = 4;
constexpr uint32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;
constexpr uint32_t TILE_LENGTH = 1024;
constexpr uint32_t TILE_COUNT = BLOCK_LENGTH / TILE_LENGTH;
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MASK_BYTES = 256;  // >= TILE_LENGTH / 8 bits, kept at a whole repeat
constexpr float CLAMP_LO = -1.5f;
constexpr float CLAMP_HI = 2.0f;

class KernelClampSelect {
public:
    __aicore__ inline KernelClampSelect() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * BLOCK_LENGTH, BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * BLOCK_LENGTH, BLOCK_LENGTH);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(maskBuf, MASK_BYTES);
        pipe.InitBuffer(lowBuf, TILE_LENGTH * sizeof(float));
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
        DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
        LocalTensor<float> clampedLow = lowBuf.Get<float>();

        CompareScalar(mask, xLocal, CLAMP_LO, CMPMODE::GE, TILE_LENGTH);
        Select(clampedLow, mask, xLocal, CLAMP_LO, SELMODE::VSEL_TENSOR_SCALAR_MODE, TILE_LENGTH);
        CompareScalar(mask, clampedLow, CLAMP_HI, CMPMODE::LE, TILE_LENGTH);
        Select(yLocal, mask, clampedLow, CLAMP_HI, SELMODE::VSEL_TENSOR_SCALAR_MODE, TILE_LENGTH);

        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t progress)
    {
        LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        DataCopy(yGm[progress * TILE_LENGTH], yLocal, TILE_LENGTH);
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueY;
    TBuf<TPosition::VECCALC> maskBuf;
    TBuf<TPosition::VECCALC> lowBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
};

extern "C" __global__ __aicore__ void clamp_select(GM_ADDR x, GM_ADDR y)
{
    KernelClampSelect op;
    op.Init(x, y);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void clamp_select_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y)
{
    clamp_select<<<blockDim, nullptr, stream>>>(x, y);
}
#endif
