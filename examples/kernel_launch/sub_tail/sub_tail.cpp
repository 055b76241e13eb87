// z = x - y on float vectors whose length is not a multiple of the core count or the tile.
// Each core takes a 32-byte aligned share; the last core takes what is left. Inside a core,
// full tiles move with DataCopy and the final partial tile with DataCopyPad, which pads the
// UB side up to 32 bytes on the way in and writes back only the valid bytes on the way out.
#include "kernel_operator.h"
#include "sub_tail_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t ALIGN_ELEMS = 32 / sizeof(float);  // elements per 32-byte block (rounded to with AlignUp)

__aicore__ inline void LoadTiling(SubTailTiling &tiling, GM_ADDR tilingGm)
{
    __gm__ uint32_t *src = reinterpret_cast<__gm__ uint32_t *>(tilingGm);
    uint32_t *dst = reinterpret_cast<uint32_t *>(&tiling);
    for (uint32_t i = 0; i < sizeof(SubTailTiling) / sizeof(uint32_t); i++) {
        dst[i] = src[i];
    }
}

class KernelSubTail {
public:
    __aicore__ inline KernelSubTail() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const SubTailTiling &tiling)
    {
        // share per core, rounded up so that every core but the last starts on a whole block
        uint32_t perCore = AlignUp((tiling.totalLength + GetBlockNum() - 1) / GetBlockNum(), ALIGN_ELEMS);
        uint32_t start = perCore * GetBlockIdx();
        coreLength = 0;
        if (start < tiling.totalLength) {
            coreLength = (tiling.totalLength - start < perCore) ? tiling.totalLength - start : perCore;
        }
        tileLength = tiling.tileLength;
        tileCount = (coreLength + tileLength - 1) / tileLength;
        lastTileLength = coreLength - (tileCount > 0 ? (tileCount - 1) * tileLength : 0);

        xGm.SetGlobalBuffer((__gm__ float *)x + start, coreLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + start, coreLength);
        zGm.SetGlobalBuffer((__gm__ float *)z + start, coreLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tileCount; i++) {
            uint32_t length = (i == tileCount - 1) ? lastTileLength : tileLength;
            CopyIn(i, length);
            Compute(length);
            CopyOut(i, length);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t length)
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
        uint32_t offset = progress * tileLength;
        if (length % ALIGN_ELEMS == 0) {
            DataCopy(xLocal, xGm[offset], length);
            DataCopy(yLocal, yGm[offset], length);
        } else {
            // one block of `length` floats; the UB copy is padded with zeros up to 32 bytes
            DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(float)), 0, 0, 0};
            uint8_t padElems = static_cast<uint8_t>(AlignUp(length, ALIGN_ELEMS) - length);
            DataCopyPadExtParams<float> padParams{true, 0, padElems, 0.0f};
            DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
            DataCopyPad(yLocal, yGm[offset], copyParams, padParams);
        }
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }

    __aicore__ inline void Compute(uint32_t length)
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> yLocal = inQueueY.DeQue<float>();
        LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
        Sub(zLocal, xLocal, yLocal, length);
        outQueueZ.EnQue(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t progress, uint32_t length)
    {
        LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
        uint32_t offset = progress * tileLength;
        if (length % ALIGN_ELEMS == 0) {
            DataCopy(zGm[offset], zLocal, length);
        } else {
            // only the valid bytes reach GM, so the neighbouring core's data is never touched
            DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(float)), 0, 0, 0};
            DataCopyPad(zGm[offset], zLocal, copyParams);
        }
        outQueueZ.FreeTensor(zLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueZ;
    GlobalTensor<float> xGm, yGm, zGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileCount = 0;
    uint32_t lastTileLength = 0;
};

extern "C" __global__ __aicore__ void sub_tail(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling)
{
    SubTailTiling tilingData;
    LoadTiling(tilingData, tiling);
    KernelSubTail op;
    op.Init(x, y, z, tilingData);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void sub_tail_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *z, uint8_t *tiling)
{
    sub_tail<<<blockDim, nullptr, stream>>>(x, y, z, tiling);
}
#endif
