// y = x * scale + shift on half vectors: the vector-scalar instructions Muls and Adds with
// scalars delivered in the tiling struct (as float, narrowed to half once per core).
#include "kernel_operator.h"
#include "scale_shift_fp16_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelScaleShiftFp16 {
public:
    __aicore__ inline KernelScaleShiftFp16() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ScaleShiftFp16Tiling &tiling)
    {
        blockLength = tiling.blockLength;
        tileLength = tiling.tileLength;
        scale = static_cast<half>(tiling.scale);
        shift = static_cast<half>(tiling.shift);
        xGm.SetGlobalBuffer((__gm__ half *)x + blockLength * GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ half *)y + blockLength * GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(half));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(half));
    }

    __aicore__ inline void Process()
    {
        uint32_t tiles = blockLength / tileLength;
        for (uint32_t i = 0; i < tiles; i++) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        DataCopy(xLocal, xGm[progress * tileLength], tileLength);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        LocalTensor<half> yLocal = outQueueY.AllocTensor<half>();
        Muls(yLocal, xLocal, scale, tileLength);
        Adds(yLocal, yLocal, shift, tileLength);
        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t progress)
    {
        LocalTensor<half> yLocal = outQueueY.DeQue<half>();
        DataCopy(yGm[progress * tileLength], yLocal, tileLength);
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueY;
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    half scale;
    half shift;
};

extern "C" __global__ __aicore__ void scale_shift_fp16(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    ScaleShiftFp16Tiling tilingData = *reinterpret_cast<__gm__ ScaleShiftFp16Tiling *>(tiling);
    KernelScaleShiftFp16 op;
    op.Init(x, y, tilingData);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void scale_shift_fp16_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *tiling)
{
    scale_shift_fp16<<<blockDim, nullptr, stream>>>(x, y, tiling);
}
#endif
