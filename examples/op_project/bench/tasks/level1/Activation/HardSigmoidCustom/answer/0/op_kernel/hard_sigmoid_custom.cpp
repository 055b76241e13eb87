// y = min(max(x / 6 + 0.5, 0), 1). One binary per dtype (DTYPE_X); half is computed in float and rounded once.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_BYTES = 32;

template <typename T>
class KernelHardSigmoid {
public:
    __aicore__ inline KernelHardSigmoid() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t blockLength, uint32_t lastBlockLength,
                                uint32_t tileLength)
    {
        const uint32_t blockIdx = AscendC::GetBlockIdx();
        coreLength = (blockIdx == AscendC::GetBlockNum() - 1) ? lastBlockLength : blockLength;
        this->tileLength = tileLength;
        tileNum = (coreLength + tileLength - 1) / tileLength;
        tailLength = coreLength - (tileNum - 1) * tileLength;
        xGm.SetGlobalBuffer((__gm__ T*)x + static_cast<uint64_t>(blockLength) * blockIdx, coreLength);
        yGm.SetGlobalBuffer((__gm__ T*)y + static_cast<uint64_t>(blockLength) * blockIdx, coreLength);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(workBuf, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tileNum; ++i) {
            const uint32_t len = (i == tileNum - 1) ? tailLength : tileLength;
            const uint64_t offset = static_cast<uint64_t>(i) * tileLength;
            AscendC::LocalTensor<T> xLocal = inQueue.AllocTensor<T>();
            if ((len * sizeof(T)) % BLOCK_BYTES == 0) {
                AscendC::DataCopy(xLocal, xGm[offset], len);
            } else {
                AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
                AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
                AscendC::DataCopyPad(xLocal, xGm[offset], params, pad);
            }
            inQueue.EnQue(xLocal);
            Compute(len);
            AscendC::LocalTensor<T> yLocal = outQueue.DeQue<T>();
            if ((len * sizeof(T)) % BLOCK_BYTES == 0) {
                AscendC::DataCopy(yGm[offset], yLocal, len);
            } else {
                AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
                AscendC::DataCopyPad(yGm[offset], yLocal, params);
            }
            outQueue.FreeTensor(yLocal);
        }
    }

private:
    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueue.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueue.AllocTensor<T>();
        AscendC::LocalTensor<float> work;
        if constexpr (std::is_same_v<T, float>) {
            work = yLocal;
            AscendC::Muls(work, xLocal, 1.0f / 6.0f, len);
        } else {
            work = workBuf.Get<float>();
            AscendC::Cast(work, xLocal, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Muls(work, work, 1.0f / 6.0f, len);
        }
        AscendC::Adds(work, work, 0.5f, len);
        AscendC::Maxs(work, work, 0.0f, len);
        AscendC::Mins(work, work, 1.0f, len);
        if constexpr (!std::is_same_v<T, float>) {
            AscendC::Cast(yLocal, work, AscendC::RoundMode::CAST_RINT, len);
        }
        outQueue.EnQue<T>(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> workBuf;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileNum = 0;
    uint32_t tailLength = 0;
};

extern "C" __global__ __aicore__ void hard_sigmoid_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelHardSigmoid<DTYPE_X> op;
    op.Init(x, y, tilingData.blockLength, tilingData.lastBlockLength, tilingData.tileLength);
    op.Process();
}
