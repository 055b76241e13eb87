// y = x / sqrt(mean(x^2, last axis) + epsilon) * gamma, float32, one row per pipeline step.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t FLOAT_PER_BLOCK = 8;
constexpr uint32_t FLOAT_PER_REPEAT = 64;

class KernelRmsNorm {
public:
    __aicore__ inline KernelRmsNorm() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, uint32_t cols, uint32_t colsAligned,
                                uint32_t formerCoreNum, uint32_t formerRows, uint32_t tailRows, float epsilon,
                                float invCols)
    {
        const uint32_t blockIdx = AscendC::GetBlockIdx();
        uint64_t rowStart = 0;
        if (blockIdx < formerCoreNum) {
            rowCount = formerRows;
            rowStart = static_cast<uint64_t>(blockIdx) * formerRows;
        } else {
            rowCount = tailRows;
            rowStart = static_cast<uint64_t>(formerCoreNum) * formerRows +
                       static_cast<uint64_t>(blockIdx - formerCoreNum) * tailRows;
        }
        this->cols = cols;
        this->epsilon = epsilon;
        this->invCols = invCols;

        xGm.SetGlobalBuffer((__gm__ float*)x + rowStart * cols, static_cast<uint64_t>(rowCount) * cols);
        yGm.SetGlobalBuffer((__gm__ float*)y + rowStart * cols, static_cast<uint64_t>(rowCount) * cols);
        gammaGm.SetGlobalBuffer((__gm__ float*)gamma, cols);

        const uint32_t repeats = (colsAligned + FLOAT_PER_REPEAT - 1) / FLOAT_PER_REPEAT;
        const uint32_t workElems = (repeats + FLOAT_PER_BLOCK - 1) / FLOAT_PER_BLOCK * FLOAT_PER_BLOCK;
        pipe.InitBuffer(inQueueX, BUFFER_NUM, colsAligned * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, colsAligned * sizeof(float));
        pipe.InitBuffer(gammaQueue, 1, colsAligned * sizeof(float));
        pipe.InitBuffer(squareBuf, colsAligned * sizeof(float));
        pipe.InitBuffer(workBuf, workElems * sizeof(float));
        pipe.InitBuffer(statBuf, FLOAT_PER_BLOCK * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LoadGamma();
        AscendC::LocalTensor<float> gammaLocal = gammaQueue.DeQue<float>();
        for (uint32_t r = 0; r < rowCount; r++) {
            CopyIn(r);
            Compute(gammaLocal);
            CopyOut(r);
        }
        gammaQueue.FreeTensor(gammaLocal);
    }

private:
    __aicore__ inline AscendC::DataCopyExtParams RowCopyParams() const
    {
        return AscendC::DataCopyExtParams{1, static_cast<uint32_t>(cols * sizeof(float)), 0, 0, 0};
    }

    __aicore__ inline void LoadGamma()
    {
        // gamma is shared by every row: load it once and keep it for the whole core.
        AscendC::LocalTensor<float> gammaLocal = gammaQueue.AllocTensor<float>();
        AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(gammaLocal, gammaGm, RowCopyParams(), padParams);
        gammaQueue.EnQue(gammaLocal);
    }

    __aicore__ inline void CopyIn(uint32_t row)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[static_cast<uint64_t>(row) * cols], RowCopyParams(), padParams);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(const AscendC::LocalTensor<float>& gammaLocal)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        AscendC::LocalTensor<float> square = squareBuf.Get<float>();
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> stat = statBuf.Get<float>();

        AscendC::Mul(square, xLocal, xLocal, cols);
        AscendC::ReduceSum<float>(stat, square, work, cols);
        // rstd = 1 / sqrt(sum * invCols + epsilon), computed on the vector unit in lane 0.
        AscendC::Muls(stat, stat, invCols, 1);
        AscendC::Adds(stat, stat, epsilon, 1);
        AscendC::Rsqrt(stat, stat, 1);
        event_t vToS = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(vToS);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(vToS);
        const float rstd = stat.GetValue(0);

        AscendC::Muls(yLocal, xLocal, rstd, cols);
        AscendC::Mul(yLocal, yLocal, gammaLocal, cols);

        outQueueY.EnQue<float>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t row)
    {
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        AscendC::DataCopyPad(yGm[static_cast<uint64_t>(row) * cols], yLocal, RowCopyParams());
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> gammaQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> squareBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> workBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> statBuf;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> gammaGm;
    AscendC::GlobalTensor<float> yGm;
    uint32_t rowCount = 0;
    uint32_t cols = 0;
    float epsilon = 0.0f;
    float invCols = 0.0f;
};

extern "C" __global__ __aicore__ void rms_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR workspace,
                                                      GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelRmsNorm op;
    op.Init(x, gamma, y, tilingData.cols, tilingData.colsAligned, tilingData.formerCoreNum, tilingData.formerRows,
            tilingData.tailRows, tilingData.epsilon, tilingData.invCols);
    op.Process();
}
