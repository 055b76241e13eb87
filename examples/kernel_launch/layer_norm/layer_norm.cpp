// LayerNorm over the last axis of a float matrix:
//   y[r, :] = (x[r, :] - mean_r) / sqrt(var_r + eps) * gamma + beta
// Every core normalises rows / blockDim consecutive rows, one row per tile. gamma and beta
// are loaded once through their own queue and kept for the whole run. The two statistics
// come from ReduceSum; the scalar unit reads them after a V->S flag.
#include "kernel_operator.h"
#include "layer_norm_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t WORK_LENGTH = 64;  // 256 bytes: ReduceSum result + room for the rstd math

class KernelLayerNorm {
public:
    __aicore__ inline KernelLayerNorm() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, const LayerNormRowTiling &tiling)
    {
        cols = tiling.cols;
        epsilon = tiling.epsilon;
        rowsPerCore = tiling.rows / GetBlockNum();
        uint32_t firstRow = rowsPerCore * GetBlockIdx();

        xGm.SetGlobalBuffer((__gm__ float *)x + firstRow * cols, rowsPerCore * cols);
        yGm.SetGlobalBuffer((__gm__ float *)y + firstRow * cols, rowsPerCore * cols);
        gammaGm.SetGlobalBuffer((__gm__ float *)gamma, cols);
        betaGm.SetGlobalBuffer((__gm__ float *)beta, cols);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, cols * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, cols * sizeof(float));
        pipe.InitBuffer(paramQueue, 1, 2 * cols * sizeof(float));  // [gamma | beta]
        pipe.InitBuffer(squareBuf, cols * sizeof(float));
        pipe.InitBuffer(workBuf, WORK_LENGTH * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LoadParams();
        LocalTensor<float> params = paramQueue.DeQue<float>();
        for (uint32_t row = 0; row < rowsPerCore; row++) {
            CopyIn(row);
            Compute(params);
            CopyOut(row);
        }
        paramQueue.FreeTensor(params);
    }

private:
    __aicore__ inline void LoadParams()
    {
        LocalTensor<float> params = paramQueue.AllocTensor<float>();
        DataCopy(params, gammaGm, cols);
        DataCopy(params[cols], betaGm, cols);
        paramQueue.EnQue(params);
    }

    __aicore__ inline void CopyIn(uint32_t row)
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        DataCopy(xLocal, xGm[row * cols], cols);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline float ReadScalar(const LocalTensor<float> &t)
    {
        int32_t eventVToS = static_cast<int32_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(eventVToS);
        WaitFlag<HardEvent::V_S>(eventVToS);
        return t.GetValue(0);
    }

    __aicore__ inline void Compute(const LocalTensor<float> &params)
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        LocalTensor<float> square = squareBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        const float invCols = 1.0f / static_cast<float>(cols);

        ReduceSum(work, xLocal, work, cols);
        float mean = ReadScalar(work) * invCols;
        Adds(yLocal, xLocal, -mean, cols);             // x - mean
        Mul(square, yLocal, yLocal, cols);
        ReduceSum(work, square, work, cols);           // sum of squared deviations
        Muls(work, work, invCols, 8);                  // variance
        Adds(work, work, epsilon, 8);
        Rsqrt(work, work, 8);                          // 1 / sqrt(var + eps)
        float rstd = ReadScalar(work);
        Muls(yLocal, yLocal, rstd, cols);
        Mul(yLocal, yLocal, params, cols);             // * gamma
        Add(yLocal, yLocal, params[cols], cols);       // + beta

        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t row)
    {
        LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        DataCopy(yGm[row * cols], yLocal, cols);
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueY;
    TQue<TPosition::VECIN, 1> paramQueue;
    TBuf<TPosition::VECCALC> squareBuf;
    TBuf<TPosition::VECCALC> workBuf;
    GlobalTensor<float> xGm, gammaGm, betaGm, yGm;
    uint32_t cols = 0;
    uint32_t rowsPerCore = 0;
    float epsilon = 0.0f;
};

extern "C" __global__ __aicore__ void layer_norm(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR tiling)
{
    LayerNormRowTiling tilingData = *reinterpret_cast<__gm__ LayerNormRowTiling *>(tiling);
    KernelLayerNorm op;
    op.Init(x, gamma, beta, y, tilingData);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void layer_norm_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *gamma, uint8_t *beta, uint8_t *y,
                   uint8_t *tiling)
{
    layer_norm<<<blockDim, nullptr, stream>>>(x, gamma, beta, y, tiling);
}
#endif
