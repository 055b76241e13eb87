// z = alpha * x + y with the fused Axpy instruction (dst += src * scalar), on 9999 floats.
// y is loaded into the output tile and updated in place, so no third input buffer is needed.
// The core split and the final partial tile use DataCopyPad; 4 cores.
#include "kernel_operator.h"
#include "axpy_fp32_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_ELEMS = 8;

class KernelAxpyFp32 {
public:
    __aicore__ inline KernelAxpyFp32() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const AxpyFp32Tiling &tiling)
    {
        alpha = tiling.alpha;
        tileLength = tiling.tileLength;
        uint32_t blocks = (tiling.totalLength + BLOCK_ELEMS - 1) / BLOCK_ELEMS;
        uint32_t perCore = (blocks + GetBlockNum() - 1) / GetBlockNum() * BLOCK_ELEMS;
        uint32_t start = perCore * GetBlockIdx();
        coreLength = 0;
        if (start < tiling.totalLength) {
            coreLength = tiling.totalLength - start < perCore ? tiling.totalLength - start : perCore;
        }
        xGm.SetGlobalBuffer((__gm__ float *)x + start, coreLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + start, coreLength);
        zGm.SetGlobalBuffer((__gm__ float *)z + start, coreLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t offset = 0; offset < coreLength; offset += tileLength) {
            uint32_t length = coreLength - offset < tileLength ? coreLength - offset : tileLength;
            CopyIn(offset, length);
            Compute(length);
            CopyOut(offset, length);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t length)
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
        DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        DataCopyPad(yLocal, yGm[offset], copyParams, padParams);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }

    __aicore__ inline void Compute(uint32_t length)
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> yLocal = inQueueY.DeQue<float>();
        LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
        DataCopy(zLocal, yLocal, (length + BLOCK_ELEMS - 1) / BLOCK_ELEMS * BLOCK_ELEMS);  // UB -> UB
        Axpy(zLocal, xLocal, alpha, length);                                               // z += alpha * x
        outQueueZ.EnQue(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t length)
    {
        LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
        DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(float)), 0, 0, 0};
        DataCopyPad(zGm[offset], zLocal, copyParams);
        outQueueZ.FreeTensor(zLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueZ;
    GlobalTensor<float> xGm, yGm, zGm;
    float alpha = 0.0f;
    uint32_t tileLength = 0;
    uint32_t coreLength = 0;
};

extern "C" __global__ __aicore__ void axpy_fp32(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling)
{
    AxpyFp32Tiling tilingData = *reinterpret_cast<__gm__ AxpyFp32Tiling *>(tiling);
    KernelAxpyFp32 op;
    op.Init(x, y, z, tilingData);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void axpy_fp32_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *z, uint8_t *tiling)
{
    axpy_fp32<<<blockDim, nullptr, stream>>>(x, y, z, tiling);
}
#endif
