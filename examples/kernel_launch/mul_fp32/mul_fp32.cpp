// z = x * y on float vectors, with the sizes taken from a tiling struct in GM
// instead of compile-time constants, so one binary serves any evenly divisible length.
#include "kernel_operator.h"
#include "mul_fp32_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// The tiling struct lives in GM; the scalar unit copies it word by word into registers/stack.
__aicore__ inline void LoadTiling(MulFp32Tiling &tiling, GM_ADDR tilingGm)
{
    __gm__ uint32_t *src = reinterpret_cast<__gm__ uint32_t *>(tilingGm);
    uint32_t *dst = reinterpret_cast<uint32_t *>(&tiling);
    for (uint32_t i = 0; i < sizeof(MulFp32Tiling) / sizeof(uint32_t); i++) {
        dst[i] = src[i];
    }
}

class KernelMulFp32 {
public:
    __aicore__ inline KernelMulFp32() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const MulFp32Tiling &tiling)
    {
        blockLength = tiling.totalLength / GetBlockNum();
        tileNum = tiling.tileNum;
        tileLength = blockLength / tileNum / BUFFER_NUM;

        uint32_t offset = blockLength * GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ float *)x + offset, blockLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + offset, blockLength);
        zGm.SetGlobalBuffer((__gm__ float *)z + offset, blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        int32_t loopCount = tileNum * BUFFER_NUM;
        for (int32_t i = 0; i < loopCount; i++) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(int32_t progress)
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
        DataCopy(xLocal, xGm[progress * tileLength], tileLength);
        DataCopy(yLocal, yGm[progress * tileLength], tileLength);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> yLocal = inQueueY.DeQue<float>();
        LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
        Mul(zLocal, xLocal, yLocal, tileLength);
        outQueueZ.EnQue(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }

    __aicore__ inline void CopyOut(int32_t progress)
    {
        LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
        DataCopy(zGm[progress * tileLength], zLocal, tileLength);
        outQueueZ.FreeTensor(zLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueZ;
    GlobalTensor<float> xGm, yGm, zGm;
    uint32_t blockLength = 0;
    uint32_t tileNum = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void mul_fp32(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling)
{
    MulFp32Tiling tilingData;
    LoadTiling(tilingData, tiling);
    KernelMulFp32 op;
    op.Init(x, y, z, tilingData);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void mul_fp32_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *z, uint8_t *tiling)
{
    mul_fp32<<<blockDim, nullptr, stream>>>(x, y, z, tiling);
}
#endif
