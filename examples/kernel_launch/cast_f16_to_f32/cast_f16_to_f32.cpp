// Widening cast half -> float (exact, RoundMode::CAST_NONE) on 32768 elements, 8 cores,
// in the mask + repeat form: a repeat converts 64 elements, i.e. reads 4 blocks of half
// (srcRepStride 4) and writes 8 blocks of float (dstRepStride 8).
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TOTAL_LENGTH = 32768;
constexpr uint32_t USE_CORE_NUM = 8;
constexpr uint32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;  // 4096
constexpr uint32_t TILE_LENGTH = 1024;
constexpr uint32_t TILE_COUNT = BLOCK_LENGTH / TILE_LENGTH;
constexpr int32_t BUFFER_NUM = 2;
constexpr uint64_t ELEMS_PER_REPEAT = 64;  // limited by the wider (float) operand
constexpr uint8_t REPEAT_TIMES = static_cast<uint8_t>(TILE_LENGTH / ELEMS_PER_REPEAT);

class KernelCastF16ToF32 {
public:
    __aicore__ inline KernelCastF16ToF32() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ half *)x + GetBlockIdx() * BLOCK_LENGTH, BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * BLOCK_LENGTH, BLOCK_LENGTH);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(float));
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
        DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        // dstBlkStride 1, srcBlkStride 1, dstRepStride 8 blocks, srcRepStride 4 blocks
        UnaryRepeatParams repeatParams(1, 1, 8, 4);
        Cast(yLocal, xLocal, RoundMode::CAST_NONE, ELEMS_PER_REPEAT, REPEAT_TIMES, repeatParams);
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
    GlobalTensor<half> xGm;
    GlobalTensor<float> yGm;
};

extern "C" __global__ __aicore__ void cast_f16_to_f32(GM_ADDR x, GM_ADDR y)
{
    KernelCastF16ToF32 op;
    op.Init(x, y);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void cast_f16_to_f32_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y)
{
    cast_f16_to_f32<<<blockDim, nullptr, stream>>>(x, y);
}
#endif
