// SiLU (swish) on half vectors: y = x * sigmoid(x) = x / (1 + exp(-x)).
// The tile is widened to float for the arithmetic (exp(-x) overflows half already at x < -11)
// and narrowed back with round-to-nearest-even. 4 cores, double-buffered half queues,
// two float scratch tiles carved from one TBuf with GetWithOffset.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TOTAL_LENGTH = 16384;
constexpr uint32_t USE_CORE_NUM = 4;
constexpr uint32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;  // 4096
constexpr uint32_t TILE_LENGTH = 1024;
constexpr uint32_t TILE_COUNT = BLOCK_LENGTH / TILE_LENGTH;
constexpr int32_t BUFFER_NUM = 2;

class KernelSiluFp16 {
public:
    __aicore__ inline KernelSiluFp16() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ half *)x + GetBlockIdx() * BLOCK_LENGTH, BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ half *)y + GetBlockIdx() * BLOCK_LENGTH, BLOCK_LENGTH);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        // [ x as float | denominator as float ]
        pipe.InitBuffer(calcBuf, 2 * TILE_LENGTH * sizeof(float));
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
        LocalTensor<half> yLocal = outQueueY.AllocTensor<half>();
        LocalTensor<float> xFloat = calcBuf.GetWithOffset<float>(TILE_LENGTH, 0);
        LocalTensor<float> den = calcBuf.GetWithOffset<float>(TILE_LENGTH, TILE_LENGTH * sizeof(float));

        Cast(xFloat, xLocal, RoundMode::CAST_NONE, TILE_LENGTH);  // half -> float is exact
        Muls(den, xFloat, -1.0f, TILE_LENGTH);
        Exp(den, den, TILE_LENGTH);
        Adds(den, den, 1.0f, TILE_LENGTH);
        Div(den, xFloat, den, TILE_LENGTH);                       // x / (1 + exp(-x))
        Cast(yLocal, den, RoundMode::CAST_RINT, TILE_LENGTH);     // float -> half, nearest even

        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t progress)
    {
        LocalTensor<half> yLocal = outQueueY.DeQue<half>();
        DataCopy(yGm[progress * TILE_LENGTH], yLocal, TILE_LENGTH);
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueY;
    TBuf<TPosition::VECCALC> calcBuf;
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
};

extern "C" __global__ __aicore__ void silu_fp16(GM_ADDR x, GM_ADDR y)
{
    KernelSiluFp16 op;
    op.Init(x, y);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void silu_fp16_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y)
{
    silu_fp16<<<blockDim, nullptr, stream>>>(x, y);
}
#endif
