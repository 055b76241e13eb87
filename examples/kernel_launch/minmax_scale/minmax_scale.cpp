// Global min-max scaling of a float vector: y = (x - min(x)) / (max(x) - min(x)), 8 cores.
// The statistics span all cores, so the kernel runs in two phases around a barrier:
//   1. each core folds its slice into running Min/Max tiles, reduces them (ReduceMin /
//      ReduceMax) and publishes its two values in the user workspace, one 32-byte block each;
//   2. SyncAll (software form: flags in GM workspace, scratch in UB), then every core loads
//      all partial blocks, reduces them to the global min/max and rescales its own slice.
// Workspace layout (user part, zeroed by the host):
//   [ sync flags: blockNum x 8 int32 | partial mins: blockNum x 8 float | partial maxes: same ]
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TOTAL_LENGTH = 32768;
constexpr uint32_t USE_CORE_NUM = 8;
constexpr uint32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;  // 4096
constexpr uint32_t TILE_LENGTH = 1024;
constexpr uint32_t TILE_COUNT = BLOCK_LENGTH / TILE_LENGTH;
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t SLOT = 8;                                   // one 32-byte block per core
constexpr uint32_t REDUCE_TMP = 64;                            // ReduceMin/Max scratch (floats)

class KernelMinmaxScale {
public:
    __aicore__ inline KernelMinmaxScale() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR workspace)
    {
        blockNum = GetBlockNum();
        xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * BLOCK_LENGTH, BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * BLOCK_LENGTH, BLOCK_LENGTH);
        GM_ADDR user = GetUserWorkspace(workspace);
        syncGm.SetGlobalBuffer((__gm__ int32_t *)user, blockNum * SLOT);
        minGm.SetGlobalBuffer((__gm__ float *)user + blockNum * SLOT, blockNum * SLOT);
        maxGm.SetGlobalBuffer((__gm__ float *)user + 2 * blockNum * SLOT, blockNum * SLOT);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(accBuf, 2 * TILE_LENGTH * sizeof(float));  // [running min | running max]
        pipe.InitBuffer(statQueue, 1, 2 * USE_CORE_NUM * SLOT * sizeof(float));
        pipe.InitBuffer(tmpBuf, 2 * REDUCE_TMP * sizeof(float));
        pipe.InitBuffer(syncBuf, USE_CORE_NUM * SLOT * sizeof(int32_t));
    }

    __aicore__ inline void Process()
    {
        LocalMinMax();
        PublishPartials();
        LocalTensor<int32_t> syncLocal = syncBuf.Get<int32_t>();
        SyncAll(syncGm, syncLocal);
        GlobalMinMax();
        for (uint32_t i = 0; i < TILE_COUNT; i++) {
            CopyIn(i);
            Scale();
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

    __aicore__ inline void LocalMinMax()
    {
        LocalTensor<float> runMin = accBuf.GetWithOffset<float>(TILE_LENGTH, 0);
        LocalTensor<float> runMax = accBuf.GetWithOffset<float>(TILE_LENGTH, TILE_LENGTH * sizeof(float));
        for (uint32_t i = 0; i < TILE_COUNT; i++) {
            CopyIn(i);
            LocalTensor<float> xLocal = inQueueX.DeQue<float>();
            if (i == 0) {
                DataCopy(runMin, xLocal, TILE_LENGTH);  // UB -> UB: the first tile seeds both
                DataCopy(runMax, xLocal, TILE_LENGTH);
            } else {
                Min(runMin, runMin, xLocal, TILE_LENGTH);
                Max(runMax, runMax, xLocal, TILE_LENGTH);
            }
            inQueueX.FreeTensor(xLocal);
        }
    }

    __aicore__ inline void PublishPartials()
    {
        LocalTensor<float> runMin = accBuf.GetWithOffset<float>(TILE_LENGTH, 0);
        LocalTensor<float> runMax = accBuf.GetWithOffset<float>(TILE_LENGTH, TILE_LENGTH * sizeof(float));
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> stats = statQueue.AllocTensor<float>();
        ReduceMin(stats, runMin, tmp, TILE_LENGTH, false);
        ReduceMax(stats[SLOT], runMax, tmp, TILE_LENGTH, false);
        int32_t eventVToS = static_cast<int32_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(eventVToS);
        WaitFlag<HardEvent::V_S>(eventVToS);
        float localMin = stats.GetValue(0);
        float localMax = stats.GetValue(SLOT);
        // repeat each value over its whole block, so that any later reduction may read all lanes
        Duplicate(stats, localMin, SLOT);
        Duplicate(stats[SLOT], localMax, SLOT);
        statQueue.EnQue(stats);
        stats = statQueue.DeQue<float>();
        // statQueue is a VECIN queue: its EnQue/DeQue order MTE2 before V, not this V write before the MTE3 copy
        int32_t eventVToMte3 = static_cast<int32_t>(pipe.FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(eventVToMte3);
        WaitFlag<HardEvent::V_MTE3>(eventVToMte3);
        DataCopy(minGm[GetBlockIdx() * SLOT], stats, SLOT);
        DataCopy(maxGm[GetBlockIdx() * SLOT], stats[SLOT], SLOT);
        statQueue.FreeTensor(stats);
        // the partial blocks must have reached GM before this core signals the barrier
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void GlobalMinMax()
    {
        LocalTensor<float> all = statQueue.AllocTensor<float>();
        DataCopy(all, minGm, blockNum * SLOT);
        DataCopy(all[blockNum * SLOT], maxGm, blockNum * SLOT);
        statQueue.EnQue(all);
        all = statQueue.DeQue<float>();
        // result and scratch may share memory, the source may not: one scratch half per statistic
        LocalTensor<float> minTmp = tmpBuf.GetWithOffset<float>(REDUCE_TMP, 0);
        LocalTensor<float> maxTmp = tmpBuf.GetWithOffset<float>(REDUCE_TMP, REDUCE_TMP * sizeof(float));
        ReduceMin(minTmp, all, minTmp, blockNum * SLOT, false);
        ReduceMax(maxTmp, all[blockNum * SLOT], maxTmp, blockNum * SLOT, false);
        int32_t eventVToS = static_cast<int32_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(eventVToS);
        WaitFlag<HardEvent::V_S>(eventVToS);
        globalMin = minTmp.GetValue(0);
        float globalMax = maxTmp.GetValue(0);
        statQueue.FreeTensor(all);
        float range = globalMax - globalMin;
        invRange = range > 0.0f ? 1.0f / range : 0.0f;
    }

    __aicore__ inline void Scale()
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        Adds(yLocal, xLocal, -globalMin, TILE_LENGTH);
        Muls(yLocal, yLocal, invRange, TILE_LENGTH);
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
    TQue<TPosition::VECIN, 1> statQueue;
    TBuf<TPosition::VECCALC> accBuf;
    TBuf<TPosition::VECCALC> tmpBuf;
    TBuf<TPosition::VECCALC> syncBuf;
    GlobalTensor<float> xGm, yGm, minGm, maxGm;
    GlobalTensor<int32_t> syncGm;
    uint32_t blockNum = 0;
    float globalMin = 0.0f;
    float invRange = 0.0f;
};

extern "C" __global__ __aicore__ void minmax_scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace)
{
    KernelMinmaxScale op;
    op.Init(x, y, workspace);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void minmax_scale_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *workspace)
{
    minmax_scale<<<blockDim, nullptr, stream>>>(x, y, workspace);
}
#endif
