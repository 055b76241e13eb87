// Sum of all 32768 elements of a float vector into y[0], across 8 cores.
// Each core accumulates its tiles element-wise into one UB accumulator (Add), reduces the
// accumulator once with ReduceSum, and adds its partial sum to GM with an atomic-add copy.
// The output is one 32-byte block [sum, 0, ..., 0]; the host zeroes it before the launch.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TOTAL_LENGTH = 32768;
constexpr uint32_t USE_CORE_NUM = 8;
constexpr uint32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;  // 4096
constexpr uint32_t TILE_LENGTH = 1024;
constexpr uint32_t TILE_COUNT = BLOCK_LENGTH / TILE_LENGTH;
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t OUT_LENGTH = 8;                              // one block of float
constexpr uint32_t WORK_LENGTH = 64;

class KernelSumAllAtomic {
public:
    __aicore__ inline KernelSumAllAtomic() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * BLOCK_LENGTH, BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ float *)y, OUT_LENGTH);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(outQueueY, 1, OUT_LENGTH * sizeof(float));
        pipe.InitBuffer(accBuf, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(workBuf, WORK_LENGTH * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, TILE_LENGTH);
        for (uint32_t i = 0; i < TILE_COUNT; i++) {
            CopyIn(i);
            Accumulate(acc);
        }
        Finish(acc);
        CopyOut();
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Accumulate(LocalTensor<float> &acc)
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        Add(acc, acc, xLocal, TILE_LENGTH);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void Finish(LocalTensor<float> &acc)
    {
        LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        Duplicate(yLocal, 0.0f, OUT_LENGTH);
        ReduceSum(work, acc, work, TILE_LENGTH);
        int32_t eventVToS = static_cast<int32_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(eventVToS);
        WaitFlag<HardEvent::V_S>(eventVToS);
        yLocal.SetValue(0, work.GetValue(0));
        int32_t eventSToMte3 = static_cast<int32_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(eventSToMte3);
        WaitFlag<HardEvent::S_MTE3>(eventSToMte3);
        outQueueY.EnQue(yLocal);
    }

    __aicore__ inline void CopyOut()
    {
        LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        // every core adds into the same block; the atomic mode makes the adds not race
        SetAtomicAdd<float>();
        DataCopy(yGm, yLocal, OUT_LENGTH);
        SetAtomicNone();
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, 1> outQueueY;
    TBuf<TPosition::VECCALC> accBuf;
    TBuf<TPosition::VECCALC> workBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
};

extern "C" __global__ __aicore__ void sum_all_atomic(GM_ADDR x, GM_ADDR y)
{
    KernelSumAllAtomic op;
    op.Init(x, y);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void sum_all_atomic_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y)
{
    sum_all_atomic<<<blockDim, nullptr, stream>>>(x, y);
}
#endif
