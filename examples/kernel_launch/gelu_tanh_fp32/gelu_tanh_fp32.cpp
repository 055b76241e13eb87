// GELU, tanh approximation, on float vectors:
//   gelu(x) = 0.5 x (1 + tanh(u)),  u = sqrt(2/pi) (x + 0.044715 x^3)
// Using 0.5 (1 + tanh(u)) = 1 / (1 + exp(-2u)), the kernel evaluates
//   gelu(x) = x / (1 + exp(-2u))
// with one scratch tile from a TBuf (VECCALC). 4 cores, double-buffered queues.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TOTAL_LENGTH = 16384;
constexpr uint32_t USE_CORE_NUM = 4;
constexpr uint32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;  // 4096
constexpr uint32_t TILE_LENGTH = 1024;
constexpr uint32_t TILE_COUNT = BLOCK_LENGTH / TILE_LENGTH;
constexpr int32_t BUFFER_NUM = 2;
constexpr float GELU_COEFF = 0.044715f;
constexpr float NEG_TWO_SQRT_2_OVER_PI = -1.5957691216057308f;  // -2 * sqrt(2 / pi)

class KernelGeluTanhFp32 {
public:
    __aicore__ inline KernelGeluTanhFp32() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * BLOCK_LENGTH, BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * BLOCK_LENGTH, BLOCK_LENGTH);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(tmpBuf, TILE_LENGTH * sizeof(float));
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
        LocalTensor<float> t = tmpBuf.Get<float>();

        Mul(t, xLocal, xLocal, TILE_LENGTH);                  // x^2
        Muls(t, t, GELU_COEFF, TILE_LENGTH);                  // 0.044715 x^2
        Adds(t, t, 1.0f, TILE_LENGTH);                        // 1 + 0.044715 x^2
        Mul(t, t, xLocal, TILE_LENGTH);                       // x + 0.044715 x^3
        Muls(t, t, NEG_TWO_SQRT_2_OVER_PI, TILE_LENGTH);      // -2u
        Exp(t, t, TILE_LENGTH);                               // exp(-2u)
        Adds(t, t, 1.0f, TILE_LENGTH);                        // 1 + exp(-2u)
        Div(yLocal, xLocal, t, TILE_LENGTH);                  // x / (1 + exp(-2u))

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
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
};

extern "C" __global__ __aicore__ void gelu_tanh_fp32(GM_ADDR x, GM_ADDR y)
{
    KernelGeluTanhFp32 op;
    op.Init(x, y);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void gelu_tanh_fp32_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y)
{
    gelu_tanh_fp32<<<blockDim, nullptr, stream>>>(x, y);
}
#endif
