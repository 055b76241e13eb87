// y = max(x, 0) on half vectors: 8 cores x 4096 elements, tiles of 512, double buffered.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t TOTAL_LENGTH = 32768;
constexpr uint32_t CORE_NUM = 8;
constexpr uint32_t BLOCK_LENGTH = TOTAL_LENGTH / CORE_NUM;
constexpr uint32_t TILE_LENGTH = 512;
constexpr uint32_t TILE_COUNT = BLOCK_LENGTH / TILE_LENGTH;
constexpr int32_t BUFFER_NUM = 2;
}  // namespace

class KernelReluFp16 {
public:
    __aicore__ inline KernelReluFp16() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        const uint32_t base = GetBlockIdx() * BLOCK_LENGTH;
        xGm.SetGlobalBuffer((__gm__ half *)x + base, BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ half *)y + base, BLOCK_LENGTH);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(half));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t tile = 0; tile < TILE_COUNT; ++tile) {
            CopyIn(tile);
            Compute();
            CopyOut(tile);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t tile)
    {
        LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        DataCopy(xLocal, xGm[tile * TILE_LENGTH], TILE_LENGTH);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        LocalTensor<half> yLocal = outQueueY.AllocTensor<half>();
        Relu(yLocal, xLocal, TILE_LENGTH);
        outQueueY.EnQue<half>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t tile)
    {
        LocalTensor<half> yLocal = outQueueY.DeQue<half>();
        DataCopy(yGm[tile * TILE_LENGTH], yLocal, TILE_LENGTH);
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueY;
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
};

extern "C" __global__ __aicore__ void relu_fp16(GM_ADDR x, GM_ADDR y)
{
    KernelReluFp16 op;
    op.Init(x, y);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void relu_fp16_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y)
{
    relu_fp16<<<blockDim, nullptr, stream>>>(x, y);
}
#endif
