// y = 1 / (1 + exp(-x)) on float vectors, built from four vector primitives
// (Muls, Exp, Adds, Reciprocal) applied in place on the output tile. 8 cores.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TOTAL_LENGTH = 32768;
constexpr uint32_t USE_CORE_NUM = 8;
constexpr uint32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;  // 4096
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE_NUM = 4;
constexpr uint32_t TILE_LENGTH = BLOCK_LENGTH / TILE_NUM / BUFFER_NUM;  // 512 floats

class KernelSigmoidFp32 {
public:
    __aicore__ inline KernelSigmoidFp32() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * BLOCK_LENGTH, BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * BLOCK_LENGTH, BLOCK_LENGTH);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        constexpr uint32_t loopCount = TILE_NUM * BUFFER_NUM;
        for (uint32_t i = 0; i < loopCount; i++) {
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
        Muls(yLocal, xLocal, -1.0f, TILE_LENGTH);   // -x
        Exp(yLocal, yLocal, TILE_LENGTH);           // exp(-x)
        Adds(yLocal, yLocal, 1.0f, TILE_LENGTH);    // 1 + exp(-x)
        Reciprocal(yLocal, yLocal, TILE_LENGTH);    // 1 / (1 + exp(-x))
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
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
};

extern "C" __global__ __aicore__ void sigmoid_fp32(GM_ADDR x, GM_ADDR y)
{
    KernelSigmoidFp32 op;
    op.Init(x, y);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void sigmoid_fp32_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y)
{
    sigmoid_fp32<<<blockDim, nullptr, stream>>>(x, y);
}
#endif
