// y = x - max(x) - ln(sum(exp(x - max(x)))) along the last axis, float32.
// Subtracting the row max first keeps exp() from overflowing for large inputs.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t FLOAT_PER_BLOCK = 8;
constexpr uint32_t FLOAT_PER_REPEAT = 64;

class KernelLogSoftmax {
public:
    __aicore__ inline KernelLogSoftmax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t cols, uint32_t colsAligned, uint32_t rowsPerCore,
                                uint32_t lastCoreRows, uint32_t rowsPerTile)
    {
        const uint32_t blockIdx = AscendC::GetBlockIdx();
        const uint64_t rowStart = static_cast<uint64_t>(blockIdx) * rowsPerCore;
        this->rowCount = (blockIdx == AscendC::GetBlockNum() - 1) ? lastCoreRows : rowsPerCore;
        this->cols = cols;
        this->colsAligned = colsAligned;
        this->rowsPerTile = rowsPerTile;

        xGm.SetGlobalBuffer((__gm__ float*)x + rowStart * cols, static_cast<uint64_t>(rowCount) * cols);
        yGm.SetGlobalBuffer((__gm__ float*)y + rowStart * cols, static_cast<uint64_t>(rowCount) * cols);

        // ReduceMax also writes an index per repeat into its scratch, hence twice the repeats.
        const uint32_t repeats = (colsAligned + FLOAT_PER_REPEAT - 1) / FLOAT_PER_REPEAT;
        const uint32_t workElems = (2 * repeats + FLOAT_PER_BLOCK - 1) / FLOAT_PER_BLOCK * FLOAT_PER_BLOCK;
        pipe.InitBuffer(inQueueX, BUFFER_NUM, rowsPerTile * colsAligned * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, rowsPerTile * colsAligned * sizeof(float));
        pipe.InitBuffer(expBuf, colsAligned * sizeof(float));
        pipe.InitBuffer(workBuf, workElems * sizeof(float));
        pipe.InitBuffer(statBuf, FLOAT_PER_BLOCK * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tileNum = (rowCount + rowsPerTile - 1) / rowsPerTile;
        for (uint32_t i = 0; i < tileNum; i++) {
            const uint32_t firstRow = i * rowsPerTile;
            const uint32_t rowsThisTile = (i == tileNum - 1) ? rowCount - firstRow : rowsPerTile;
            CopyIn(firstRow, rowsThisTile);
            Compute(rowsThisTile);
            CopyOut(firstRow, rowsThisTile);
        }
    }

private:
    __aicore__ inline AscendC::DataCopyExtParams TileCopyParams(uint32_t rowsThisTile) const
    {
        return AscendC::DataCopyExtParams{static_cast<uint16_t>(rowsThisTile),
                                          static_cast<uint32_t>(cols * sizeof(float)), 0, 0, 0};
    }

    __aicore__ inline void CopyIn(uint32_t firstRow, uint32_t rowsThisTile)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[static_cast<uint64_t>(firstRow) * cols], TileCopyParams(rowsThisTile),
                             padParams);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline float ReadStat()
    {
        event_t vToS = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(vToS);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(vToS);
        return statBuf.Get<float>().GetValue(0);
    }

    __aicore__ inline void Compute(uint32_t rowsThisTile)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        AscendC::LocalTensor<float> expRow = expBuf.Get<float>();
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> stat = statBuf.Get<float>();

        for (uint32_t r = 0; r < rowsThisTile; r++) {
            AscendC::LocalTensor<float> xRow = xLocal[r * colsAligned];
            AscendC::LocalTensor<float> yRow = yLocal[r * colsAligned];
            AscendC::ReduceMax<float>(stat, xRow, work, cols, false);
            const float rowMax = ReadStat();
            AscendC::Adds(yRow, xRow, -rowMax, cols);
            AscendC::Exp(expRow, yRow, cols);
            AscendC::ReduceSum<float>(stat, expRow, work, cols);
            AscendC::Ln(stat, stat, 1);
            const float logSum = ReadStat();
            AscendC::Adds(yRow, yRow, -logSum, cols);
        }

        outQueueY.EnQue<float>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t firstRow, uint32_t rowsThisTile)
    {
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        AscendC::DataCopyPad(yGm[static_cast<uint64_t>(firstRow) * cols], yLocal, TileCopyParams(rowsThisTile));
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> expBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> workBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> statBuf;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    uint32_t rowCount = 0;
    uint32_t cols = 0;
    uint32_t colsAligned = 0;
    uint32_t rowsPerTile = 0;
};

extern "C" __global__ __aicore__ void log_softmax_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelLogSoftmax op;
    op.Init(x, y, tilingData.cols, tilingData.colsAligned, tilingData.rowsPerCore, tilingData.lastCoreRows,
            tilingData.rowsPerTile);
    op.Process();
}
