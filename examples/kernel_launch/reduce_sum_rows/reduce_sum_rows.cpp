// Row sums: y[r] = sum_c x[r, c] for a float matrix of 64 rows x 256 columns.
// 4 cores take 16 rows each. A row is one tile (double-buffered input queue); ReduceSum
// leaves the row total in element 0 of a scratch tensor, the scalar unit moves it into
// the per-core result tile, and the 16 results leave the core in one 64-byte copy.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t ROWS = 64;
constexpr uint32_t COLS = 256;
constexpr uint32_t USE_CORE_NUM = 4;
constexpr uint32_t ROWS_PER_CORE = ROWS / USE_CORE_NUM;  // 16 floats out = 64 bytes
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t WORK_LENGTH = 64;                     // scratch for ReduceSum, 256 bytes

class KernelReduceSumRows {
public:
    __aicore__ inline KernelReduceSumRows() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        uint32_t firstRow = GetBlockIdx() * ROWS_PER_CORE;
        xGm.SetGlobalBuffer((__gm__ float *)x + firstRow * COLS, ROWS_PER_CORE * COLS);
        yGm.SetGlobalBuffer((__gm__ float *)y + firstRow, ROWS_PER_CORE);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, COLS * sizeof(float));
        pipe.InitBuffer(outQueueY, 1, ROWS_PER_CORE * sizeof(float));
        pipe.InitBuffer(workBuf, WORK_LENGTH * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        for (uint32_t row = 0; row < ROWS_PER_CORE; row++) {
            CopyIn(row);
            Compute(row, yLocal);
        }
        // the results were written by the scalar unit: make MTE3 wait for it
        int32_t eventSToMte3 = static_cast<int32_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(eventSToMte3);
        WaitFlag<HardEvent::S_MTE3>(eventSToMte3);
        outQueueY.EnQue(yLocal);
        CopyOut();
    }

private:
    __aicore__ inline void CopyIn(uint32_t row)
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        DataCopy(xLocal, xGm[row * COLS], COLS);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t row, LocalTensor<float> &yLocal)
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        // dst and sharedTmpBuffer may share memory; the sum lands in work[0]
        ReduceSum(work, xLocal, work, COLS);
        // the vector result is read by the scalar unit: wait for the vector pipe first
        int32_t eventVToS = static_cast<int32_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(eventVToS);
        WaitFlag<HardEvent::V_S>(eventVToS);
        yLocal.SetValue(row, work.GetValue(0));
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut()
    {
        LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        DataCopy(yGm, yLocal, ROWS_PER_CORE);
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, 1> outQueueY;
    TBuf<TPosition::VECCALC> workBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
};

extern "C" __global__ __aicore__ void reduce_sum_rows(GM_ADDR x, GM_ADDR y)
{
    KernelReduceSumRows op;
    op.Init(x, y);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void reduce_sum_rows_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y)
{
    reduce_sum_rows<<<blockDim, nullptr, stream>>>(x, y);
}
#endif
