// Row maxima: y[r] = max_c x[r, c] for a half matrix of 32 rows x 1024 columns, 2 cores.
// ReduceMax (no index) needs a scratch tensor for its first-round results: 1024 halves are
// 8 repeats of 128, each producing a (value, index) pair -> 16 halves, one 32-byte block.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t ROWS = 32;
constexpr uint32_t COLS = 1024;
constexpr uint32_t USE_CORE_NUM = 2;
constexpr uint32_t ROWS_PER_CORE = ROWS / USE_CORE_NUM;   // 16 halves out = 32 bytes
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t ELEMS_PER_REPEAT = 256 / sizeof(half);  // 128
constexpr uint32_t ELEMS_PER_BLOCK = 32 / sizeof(half);    // 16
// scratch size from the ReduceMax rule: first-round outputs (2 per repeat) rounded to a block
constexpr uint32_t TMP_LENGTH =
    (2 * COLS / ELEMS_PER_REPEAT + ELEMS_PER_BLOCK - 1) / ELEMS_PER_BLOCK * ELEMS_PER_BLOCK;

class KernelReduceMaxRows {
public:
    __aicore__ inline KernelReduceMaxRows() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        uint32_t firstRow = GetBlockIdx() * ROWS_PER_CORE;
        xGm.SetGlobalBuffer((__gm__ half *)x + firstRow * COLS, ROWS_PER_CORE * COLS);
        yGm.SetGlobalBuffer((__gm__ half *)y + firstRow, ROWS_PER_CORE);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, COLS * sizeof(half));
        pipe.InitBuffer(outQueueY, 1, ROWS_PER_CORE * sizeof(half));
        pipe.InitBuffer(maxBuf, ELEMS_PER_BLOCK * sizeof(half));
        pipe.InitBuffer(tmpBuf, TMP_LENGTH * sizeof(half));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<half> yLocal = outQueueY.AllocTensor<half>();
        for (uint32_t row = 0; row < ROWS_PER_CORE; row++) {
            CopyIn(row);
            Compute(row, yLocal);
        }
        int32_t eventSToMte3 = static_cast<int32_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(eventSToMte3);
        WaitFlag<HardEvent::S_MTE3>(eventSToMte3);
        outQueueY.EnQue(yLocal);
        CopyOut();
    }

private:
    __aicore__ inline void CopyIn(uint32_t row)
    {
        LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        DataCopy(xLocal, xGm[row * COLS], COLS);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t row, LocalTensor<half> &yLocal)
    {
        LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        LocalTensor<half> maxLocal = maxBuf.Get<half>();
        LocalTensor<half> tmpLocal = tmpBuf.Get<half>();
        ReduceMax(maxLocal, xLocal, tmpLocal, COLS, false);
        int32_t eventVToS = static_cast<int32_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(eventVToS);
        WaitFlag<HardEvent::V_S>(eventVToS);
        yLocal.SetValue(row, maxLocal.GetValue(0));
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut()
    {
        LocalTensor<half> yLocal = outQueueY.DeQue<half>();
        DataCopy(yGm, yLocal, ROWS_PER_CORE);
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, 1> outQueueY;
    TBuf<TPosition::VECCALC> maxBuf;
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
};

extern "C" __global__ __aicore__ void reduce_max_rows(GM_ADDR x, GM_ADDR y)
{
    KernelReduceMaxRows op;
    op.Init(x, y);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void reduce_max_rows_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y)
{
    reduce_max_rows<<<blockDim, nullptr, stream>>>(x, y);
}
#endif
