// Narrowing cast float -> half with round-to-nearest-even (RoundMode::CAST_RINT) on 10003
// elements, 4 cores. Core shares are whole 32-byte blocks of the *half* output (16 elements);
// the last core takes the remainder and its final tile is moved with DataCopyPad.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TOTAL_LENGTH = 10003;
constexpr uint32_t TILE_LENGTH = 1024;
constexpr uint32_t ALIGN_ELEMS = 16;  // one 32-byte block of half; two blocks of float
constexpr int32_t BUFFER_NUM = 2;

class KernelCastF32ToF16 {
public:
    __aicore__ inline KernelCastF32ToF16() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        uint32_t perCore = (TOTAL_LENGTH / ALIGN_ELEMS / GetBlockNum()) * ALIGN_ELEMS;
        uint32_t start = perCore * GetBlockIdx();
        coreLength = (GetBlockIdx() == GetBlockNum() - 1) ? TOTAL_LENGTH - start : perCore;

        xGm.SetGlobalBuffer((__gm__ float *)x + start, coreLength);
        yGm.SetGlobalBuffer((__gm__ half *)y + start, coreLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(half));
    }

    __aicore__ inline void Process()
    {
        uint32_t tiles = (coreLength + TILE_LENGTH - 1) / TILE_LENGTH;
        for (uint32_t i = 0; i < tiles; i++) {
            uint32_t offset = i * TILE_LENGTH;
            uint32_t length = (i == tiles - 1) ? coreLength - offset : TILE_LENGTH;
            CopyIn(offset, length);
            Compute(length);
            CopyOut(offset, length);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t length)
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t length)
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<half> yLocal = outQueueY.AllocTensor<half>();
        Cast(yLocal, xLocal, RoundMode::CAST_RINT, length);
        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t length)
    {
        LocalTensor<half> yLocal = outQueueY.DeQue<half>();
        DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(half)), 0, 0, 0};
        DataCopyPad(yGm[offset], yLocal, copyParams);
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueY;
    GlobalTensor<float> xGm;
    GlobalTensor<half> yGm;
    uint32_t coreLength = 0;
};

extern "C" __global__ __aicore__ void cast_f32_to_f16(GM_ADDR x, GM_ADDR y)
{
    KernelCastF32ToF16 op;
    op.Init(x, y);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void cast_f32_to_f16_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y)
{
    cast_f32_to_f16<<<blockDim, nullptr, stream>>>(x, y);
}
#endif
