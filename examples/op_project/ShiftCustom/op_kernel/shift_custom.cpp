// y = x + shift, one kernel binary per dtype (DTYPE_X). Each core takes blockLength elements (the last core what is
// left), in UB tiles; half is widened to float so the sum rounds once, on the way out.
#include "kernel_operator.h"

constexpr int32_t SHIFT_BUFFERS = 2;

template <typename T>
class ShiftKernel {
public:
    __aicore__ inline ShiftKernel() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t total, uint32_t blockLength, uint32_t tileLength,
                                float shift)
    {
        const uint32_t start = blockLength * AscendC::GetBlockIdx();
        length = total - start < blockLength ? total - start : blockLength;
        this->tileLength = tileLength;
        this->shift = shift;
        xGm.SetGlobalBuffer((__gm__ T*)x + start, length);
        yGm.SetGlobalBuffer((__gm__ T*)y + start, length);
        pipe.InitBuffer(inQueue, SHIFT_BUFFERS, tileLength * sizeof(T));
        pipe.InitBuffer(outQueue, SHIFT_BUFFERS, tileLength * sizeof(T));
        pipe.InitBuffer(work, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t done = 0; done < length; done += tileLength) {
            const uint32_t n = length - done < tileLength ? length - done : tileLength;
            AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
            AscendC::LocalTensor<T> xLocal = inQueue.AllocTensor<T>();
            AscendC::DataCopyPad(xLocal, xGm[done], params, AscendC::DataCopyPadExtParams<T>{false, 0, 0, 0});
            inQueue.EnQue(xLocal);

            xLocal = inQueue.DeQue<T>();
            AscendC::LocalTensor<T> yLocal = outQueue.AllocTensor<T>();
            if constexpr (std::is_same_v<T, float>) {
                AscendC::Adds(yLocal, xLocal, shift, n);
            } else {
                AscendC::LocalTensor<float> wide = work.Get<float>();
                AscendC::Cast(wide, xLocal, AscendC::RoundMode::CAST_NONE, n);
                AscendC::Adds(wide, wide, shift, n);
                AscendC::Cast(yLocal, wide, AscendC::RoundMode::CAST_RINT, n);
            }
            outQueue.EnQue<T>(yLocal);
            inQueue.FreeTensor(xLocal);

            yLocal = outQueue.DeQue<T>();
            AscendC::DataCopyPad(yGm[done], yLocal, params);
            outQueue.FreeTensor(yLocal);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, SHIFT_BUFFERS> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, SHIFT_BUFFERS> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> work;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    uint32_t length = 0;
    uint32_t tileLength = 0;
    float shift = 0.0f;
};

extern "C" __global__ __aicore__ void shift_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    if (workspace == nullptr) {  // a device always hands the system workspace the tiling reserved
        return;
    }
    GET_TILING_DATA(tilingData, tiling);
    ShiftKernel<DTYPE_X> op;
    op.Init(x, y, tilingData.totalLength, tilingData.blockLength, tilingData.tileLength, tilingData.shift);
    op.Process();
}
