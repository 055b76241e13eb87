// RMSNorm over the last axis of a half matrix (64 rows x 512 columns):
//   y[r, :] = x[r, :] / sqrt(mean(x[r, :]^2) + eps) * gamma
// Rows are widened to float for the statistics and the scaling, then rounded back to half.
// 8 cores x 8 rows, one row per tile, double-buffered half queues; gamma is cast to float once.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t ROWS = 64;
constexpr uint32_t COLS = 512;
constexpr uint32_t USE_CORE_NUM = 8;
constexpr uint32_t ROWS_PER_CORE = ROWS / USE_CORE_NUM;
constexpr int32_t BUFFER_NUM = 2;
constexpr float EPSILON = 1e-6f;
constexpr uint32_t WORK_LENGTH = 64;

class KernelRmsNorm {
public:
    __aicore__ inline KernelRmsNorm() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR y)
    {
        uint32_t firstRow = GetBlockIdx() * ROWS_PER_CORE;
        xGm.SetGlobalBuffer((__gm__ half *)x + firstRow * COLS, ROWS_PER_CORE * COLS);
        yGm.SetGlobalBuffer((__gm__ half *)y + firstRow * COLS, ROWS_PER_CORE * COLS);
        gammaGm.SetGlobalBuffer((__gm__ half *)gamma, COLS);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, COLS * sizeof(half));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, COLS * sizeof(half));
        pipe.InitBuffer(gammaQueue, 1, COLS * sizeof(half));
        pipe.InitBuffer(floatBuf, 3 * COLS * sizeof(float));  // [x | x^2 | gamma] as float
        pipe.InitBuffer(workBuf, WORK_LENGTH * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        PrepareGamma();
        for (uint32_t row = 0; row < ROWS_PER_CORE; row++) {
            CopyIn(row);
            Compute();
            CopyOut(row);
        }
    }

private:
    __aicore__ inline void PrepareGamma()
    {
        LocalTensor<half> gammaLocal = gammaQueue.AllocTensor<half>();
        DataCopy(gammaLocal, gammaGm, COLS);
        gammaQueue.EnQue(gammaLocal);
        gammaLocal = gammaQueue.DeQue<half>();
        LocalTensor<float> gammaFloat = floatBuf.GetWithOffset<float>(COLS, 2 * COLS * sizeof(float));
        Cast(gammaFloat, gammaLocal, RoundMode::CAST_NONE, COLS);
        gammaQueue.FreeTensor(gammaLocal);
    }

    __aicore__ inline void CopyIn(uint32_t row)
    {
        LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        DataCopy(xLocal, xGm[row * COLS], COLS);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        LocalTensor<half> yLocal = outQueueY.AllocTensor<half>();
        LocalTensor<float> xFloat = floatBuf.GetWithOffset<float>(COLS, 0);
        LocalTensor<float> square = floatBuf.GetWithOffset<float>(COLS, COLS * sizeof(float));
        LocalTensor<float> gammaFloat = floatBuf.GetWithOffset<float>(COLS, 2 * COLS * sizeof(float));
        LocalTensor<float> work = workBuf.Get<float>();

        Cast(xFloat, xLocal, RoundMode::CAST_NONE, COLS);
        Mul(square, xFloat, xFloat, COLS);
        ReduceSum(work, square, work, COLS);
        Muls(work, work, 1.0f / static_cast<float>(COLS), 8);  // mean square
        Adds(work, work, EPSILON, 8);
        Rsqrt(work, work, 8);
        int32_t eventVToS = static_cast<int32_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(eventVToS);
        WaitFlag<HardEvent::V_S>(eventVToS);
        float invRms = work.GetValue(0);

        Muls(xFloat, xFloat, invRms, COLS);
        Mul(xFloat, xFloat, gammaFloat, COLS);
        Cast(yLocal, xFloat, RoundMode::CAST_RINT, COLS);

        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t row)
    {
        LocalTensor<half> yLocal = outQueueY.DeQue<half>();
        DataCopy(yGm[row * COLS], yLocal, COLS);
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueY;
    TQue<TPosition::VECIN, 1> gammaQueue;
    TBuf<TPosition::VECCALC> floatBuf;
    TBuf<TPosition::VECCALC> workBuf;
    GlobalTensor<half> xGm, gammaGm, yGm;
};

extern "C" __global__ __aicore__ void rms_norm(GM_ADDR x, GM_ADDR gamma, GM_ADDR y)
{
    KernelRmsNorm op;
    op.Init(x, gamma, y);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void rms_norm_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *gamma, uint8_t *y)
{
    rms_norm<<<blockDim, nullptr, stream>>>(x, gamma, y);
}
#endif
