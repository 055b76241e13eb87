// Row softmax of a float matrix (64 rows x 512 columns), numerically stable:
//   m = max(x_r);  e = exp(x_r - m);  y_r = e / sum(e)
// One row per tile, 4 cores x 16 rows. The row maximum and the row sum come back to the
// scalar unit and are spread over a whole row with Duplicate for the Sub and the Div.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t ROWS = 64;
constexpr uint32_t COLS = 512;
constexpr uint32_t USE_CORE_NUM = 4;
constexpr uint32_t ROWS_PER_CORE = ROWS / USE_CORE_NUM;
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t ELEMS_PER_REPEAT = 256 / sizeof(float);  // 64
constexpr uint32_t ELEMS_PER_BLOCK = 32 / sizeof(float);    // 8
// ReduceMax scratch: two first-round outputs per repeat, rounded up to a block
constexpr uint32_t REDUCE_TMP_LENGTH =
    (2 * COLS / ELEMS_PER_REPEAT + ELEMS_PER_BLOCK - 1) / ELEMS_PER_BLOCK * ELEMS_PER_BLOCK;

class KernelSoftmaxRows {
public:
    __aicore__ inline KernelSoftmaxRows() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        uint32_t firstRow = GetBlockIdx() * ROWS_PER_CORE;
        xGm.SetGlobalBuffer((__gm__ float *)x + firstRow * COLS, ROWS_PER_CORE * COLS);
        yGm.SetGlobalBuffer((__gm__ float *)y + firstRow * COLS, ROWS_PER_CORE * COLS);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, COLS * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, COLS * sizeof(float));
        pipe.InitBuffer(bcastBuf, COLS * sizeof(float));
        pipe.InitBuffer(reduceBuf, ELEMS_PER_BLOCK * sizeof(float));
        pipe.InitBuffer(tmpBuf, REDUCE_TMP_LENGTH * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t row = 0; row < ROWS_PER_CORE; row++) {
            CopyIn(row);
            Compute();
            CopyOut(row);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t row)
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        DataCopy(xLocal, xGm[row * COLS], COLS);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline float FirstElement(const LocalTensor<float> &t)
    {
        int32_t eventVToS = static_cast<int32_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(eventVToS);
        WaitFlag<HardEvent::V_S>(eventVToS);
        return t.GetValue(0);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        LocalTensor<float> bcast = bcastBuf.Get<float>();
        LocalTensor<float> reduced = reduceBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();

        ReduceMax(reduced, xLocal, tmp, COLS, false);
        float rowMax = FirstElement(reduced);
        Duplicate(bcast, rowMax, COLS);
        Sub(yLocal, xLocal, bcast, COLS);
        Exp(yLocal, yLocal, COLS);

        ReduceSum(reduced, yLocal, tmp, COLS);
        float rowSum = FirstElement(reduced);
        Duplicate(bcast, rowSum, COLS);
        Div(yLocal, yLocal, bcast, COLS);

        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t row)
    {
        LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        DataCopy(yGm[row * COLS], yLocal, COLS);
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueY;
    TBuf<TPosition::VECCALC> bcastBuf;
    TBuf<TPosition::VECCALC> reduceBuf;
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
};

extern "C" __global__ __aicore__ void softmax_rows(GM_ADDR x, GM_ADDR y)
{
    KernelSoftmaxRows op;
    op.Init(x, y);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void softmax_rows_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y)
{
    softmax_rows<<<blockDim, nullptr, stream>>>(x, y);
}
#endif
