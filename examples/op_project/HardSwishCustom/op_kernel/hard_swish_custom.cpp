// y = x * min(max(x + 3, 0), 6) / 6. Built once per dtype (DTYPE_X is half or float, as the op build defines it);
// half inputs are widened to float so the clamp and the product round once, on the way out.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_BYTES = 32;

template <typename T>
class KernelHardSwish {
public:
    __aicore__ inline KernelHardSwish() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t blockLength, uint32_t lastBlockLength,
                                uint32_t tileLength)
    {
        const uint32_t blockIdx = AscendC::GetBlockIdx();
        const uint64_t offset = static_cast<uint64_t>(blockLength) * blockIdx;
        coreLength = (blockIdx == AscendC::GetBlockNum() - 1) ? lastBlockLength : blockLength;
        this->tileLength = tileLength;
        tileNum = (coreLength + tileLength - 1) / tileLength;
        tailLength = coreLength - (tileNum - 1) * tileLength;

        xGm.SetGlobalBuffer((__gm__ T*)x + offset, coreLength);
        yGm.SetGlobalBuffer((__gm__ T*)y + offset, coreLength);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(valueBuf, tileLength * sizeof(float));
        pipe.InitBuffer(gateBuf, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tileNum; i++) {
            const uint32_t len = (i == tileNum - 1) ? tailLength : tileLength;
            CopyIn(i, len);
            Compute(len);
            CopyOut(i, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueue.AllocTensor<T>();
        const uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        if ((len * sizeof(T)) % BLOCK_BYTES == 0) {
            AscendC::DataCopy(xLocal, xGm[offset], len);
        } else {
            AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
            AscendC::DataCopyPad(xLocal, xGm[offset], params, pad);
        }
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueue.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueue.AllocTensor<T>();
        AscendC::LocalTensor<float> value;
        AscendC::LocalTensor<float> gate;
        if constexpr (std::is_same_v<T, float>) {
            value = xLocal;  // float works in place: the queues' own tiles
            gate = yLocal;
        } else {
            value = valueBuf.Get<float>();
            gate = gateBuf.Get<float>();
            AscendC::Cast(value, xLocal, AscendC::RoundMode::CAST_NONE, len);
        }
        AscendC::Adds(gate, value, 3.0f, len);
        AscendC::Maxs(gate, gate, 0.0f, len);
        AscendC::Mins(gate, gate, 6.0f, len);
        AscendC::Mul(gate, gate, value, len);
        AscendC::Muls(gate, gate, 1.0f / 6.0f, len);
        if constexpr (!std::is_same_v<T, float>) {
            AscendC::Cast(yLocal, gate, AscendC::RoundMode::CAST_RINT, len);
        }
        outQueue.EnQue<T>(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t progress, uint32_t len)
    {
        AscendC::LocalTensor<T> yLocal = outQueue.DeQue<T>();
        const uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        if ((len * sizeof(T)) % BLOCK_BYTES == 0) {
            AscendC::DataCopy(yGm[offset], yLocal, len);
        } else {
            AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[offset], yLocal, params);
        }
        outQueue.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> valueBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> gateBuf;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileNum = 0;
    uint32_t tailLength = 0;
};

extern "C" __global__ __aicore__ void hard_swish_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelHardSwish<DTYPE_X> op;
    op.Init(x, y, tilingData.blockLength, tilingData.lastBlockLength, tilingData.tileLength);
    op.Process();
}
