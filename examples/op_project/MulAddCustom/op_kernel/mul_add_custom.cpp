// z = x * y + w, elementwise, for half and float (dtype chosen by the tiling key).
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;  // double buffering: copy tile i+1 while computing tile i
constexpr uint32_t BLOCK_BYTES = 32;

template <typename T>
class KernelMulAdd {
public:
    __aicore__ inline KernelMulAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR w, GM_ADDR z, uint32_t blockLength,
                                uint32_t lastBlockLength, uint32_t tileLength)
    {
        const uint32_t blockIdx = AscendC::GetBlockIdx();
        const uint64_t offset = static_cast<uint64_t>(blockLength) * blockIdx;
        // The host gives every core blockLength elements except the last, which takes the rest.
        this->coreLength = (blockIdx == AscendC::GetBlockNum() - 1) ? lastBlockLength : blockLength;
        this->tileLength = tileLength;
        this->tileNum = (this->coreLength + tileLength - 1) / tileLength;
        this->tailLength = this->coreLength - (this->tileNum - 1) * tileLength;

        xGm.SetGlobalBuffer((__gm__ T*)x + offset, this->coreLength);
        yGm.SetGlobalBuffer((__gm__ T*)y + offset, this->coreLength);
        wGm.SetGlobalBuffer((__gm__ T*)w + offset, this->coreLength);
        zGm.SetGlobalBuffer((__gm__ T*)z + offset, this->coreLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(inQueueW, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(T));
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
    __aicore__ inline void LoadTile(AscendC::LocalTensor<T>& dst, AscendC::GlobalTensor<T>& src, uint32_t progress,
                                    uint32_t len)
    {
        const uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        if ((len * sizeof(T)) % BLOCK_BYTES == 0) {
            AscendC::DataCopy(dst, src[offset], len);
        } else {
            // Tail tile: DataCopy would round the length down to 32 bytes, so use the padded copy.
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(dst, src[offset], copyParams, padParams);
        }
    }

    __aicore__ inline void CopyIn(uint32_t progress, uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        AscendC::LocalTensor<T> yLocal = inQueueY.AllocTensor<T>();
        AscendC::LocalTensor<T> wLocal = inQueueW.AllocTensor<T>();
        LoadTile(xLocal, xGm, progress, len);
        LoadTile(yLocal, yGm, progress, len);
        LoadTile(wLocal, wGm, progress, len);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
        inQueueW.EnQue(wLocal);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = inQueueY.DeQue<T>();
        AscendC::LocalTensor<T> wLocal = inQueueW.DeQue<T>();
        AscendC::LocalTensor<T> zLocal = outQueueZ.AllocTensor<T>();
        AscendC::Mul(zLocal, xLocal, yLocal, len);
        AscendC::Add(zLocal, zLocal, wLocal, len);
        outQueueZ.EnQue<T>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
        inQueueW.FreeTensor(wLocal);
    }

    __aicore__ inline void CopyOut(uint32_t progress, uint32_t len)
    {
        AscendC::LocalTensor<T> zLocal = outQueueZ.DeQue<T>();
        const uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        if ((len * sizeof(T)) % BLOCK_BYTES == 0) {
            AscendC::DataCopy(zGm[offset], zLocal, len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(zGm[offset], zLocal, copyParams);
        }
        outQueueZ.FreeTensor(zLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueY;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueW;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueZ;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    AscendC::GlobalTensor<T> wGm;
    AscendC::GlobalTensor<T> zGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileNum = 0;
    uint32_t tailLength = 0;
};

extern "C" __global__ __aicore__ void mul_add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR w, GM_ADDR z, GM_ADDR workspace,
                                                     GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (TILING_KEY_IS(1)) {
        KernelMulAdd<half> op;
        op.Init(x, y, w, z, tilingData.blockLength, tilingData.lastBlockLength, tilingData.tileLength);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        KernelMulAdd<float> op;
        op.Init(x, y, w, z, tilingData.blockLength, tilingData.lastBlockLength, tilingData.tileLength);
        op.Process();
    }
}
