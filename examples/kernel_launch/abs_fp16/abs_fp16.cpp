// y = |x| on half vectors, written with the mask + repeat form of the vector API:
// one repeat handles 256 bytes (128 halves), so a 2048-element tile is 16 repeats
// with contiguous blocks (block stride 1) and contiguous repeats (repeat stride 8 blocks).
// A single core processes the whole vector.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TOTAL_LENGTH = 8192;
constexpr uint32_t TILE_LENGTH = 2048;
constexpr uint32_t TILE_COUNT = TOTAL_LENGTH / TILE_LENGTH;
constexpr int32_t BUFFER_NUM = 2;
constexpr uint64_t ELEMS_PER_REPEAT = 256 / sizeof(half);                      // 128
constexpr uint8_t REPEAT_TIMES = static_cast<uint8_t>(TILE_LENGTH / ELEMS_PER_REPEAT);  // 16

class KernelAbsFp16 {
public:
    __aicore__ inline KernelAbsFp16() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ half *)x, TOTAL_LENGTH);
        yGm.SetGlobalBuffer((__gm__ half *)y, TOTAL_LENGTH);
        pipe.InitBuffer(inQueue, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(outQueue, BUFFER_NUM, TILE_LENGTH * sizeof(half));
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
        LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
        DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<half> xLocal = inQueue.DeQue<half>();
        LocalTensor<half> yLocal = outQueue.AllocTensor<half>();
        // dstBlkStride, srcBlkStride, dstRepStride, srcRepStride (blocks of 32 bytes)
        UnaryRepeatParams repeatParams(1, 1, 8, 8);
        Abs(yLocal, xLocal, ELEMS_PER_REPEAT, REPEAT_TIMES, repeatParams);
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t progress)
    {
        LocalTensor<half> yLocal = outQueue.DeQue<half>();
        DataCopy(yGm[progress * TILE_LENGTH], yLocal, TILE_LENGTH);
        outQueue.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueue;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
};

extern "C" __global__ __aicore__ void abs_fp16(GM_ADDR x, GM_ADDR y)
{
    KernelAbsFp16 op;
    op.Init(x, y);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void abs_fp16_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y)
{
    abs_fp16<<<blockDim, nullptr, stream>>>(x, y);
}
#endif
