// y[r] = mean(x[r, :]) over the last axis, float32. Each core owns a contiguous range of rows;
// a tile is several whole rows, each padded to a 32-byte pitch in UB by DataCopyPad.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t FLOAT_PER_BLOCK = 8;    // 32 bytes of float
constexpr uint32_t FLOAT_PER_REPEAT = 64;  // 256 bytes of float per vector repeat

class KernelReduceMean {
public:
    __aicore__ inline KernelReduceMean() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t cols, uint32_t colsAligned, uint32_t rowsPerTile,
                                float invCols, uint32_t rowStart, uint32_t rowCount)
    {
        this->cols = cols;
        this->colsAligned = colsAligned;
        this->rowsPerTile = rowsPerTile;
        this->invCols = invCols;
        this->rowCount = rowCount;

        xGm.SetGlobalBuffer((__gm__ float*)x + static_cast<uint64_t>(rowStart) * cols,
                            static_cast<uint64_t>(rowCount) * cols);
        yGm.SetGlobalBuffer((__gm__ float*)y + rowStart, rowCount);

        const uint32_t outAligned = (rowsPerTile + FLOAT_PER_BLOCK - 1) / FLOAT_PER_BLOCK * FLOAT_PER_BLOCK;
        // ReduceSum's scratch: one partial per 256-byte repeat, rounded up to a 32-byte block.
        const uint32_t repeats = (colsAligned + FLOAT_PER_REPEAT - 1) / FLOAT_PER_REPEAT;
        const uint32_t workElems = (repeats + FLOAT_PER_BLOCK - 1) / FLOAT_PER_BLOCK * FLOAT_PER_BLOCK;
        pipe.InitBuffer(inQueueX, BUFFER_NUM, rowsPerTile * colsAligned * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, outAligned * sizeof(float));
        pipe.InitBuffer(workBuf, workElems * sizeof(float));
        pipe.InitBuffer(sumBuf, FLOAT_PER_BLOCK * sizeof(float));
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
    __aicore__ inline void CopyIn(uint32_t firstRow, uint32_t rowsThisTile)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        // One block per row; each block is padded up to colsAligned in UB.
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rowsThisTile),
                                              static_cast<uint32_t>(cols * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[static_cast<uint64_t>(firstRow) * cols], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t rowsThisTile)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> sum = sumBuf.Get<float>();

        for (uint32_t r = 0; r < rowsThisTile; r++) {
            // Only the first cols elements of the padded row take part in the sum.
            AscendC::ReduceSum<float>(sum, xLocal[r * colsAligned], work, cols);
            // The scalar unit reads the vector result: wait for the vector pipe first.
            event_t vToS = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
            AscendC::SetFlag<AscendC::HardEvent::V_S>(vToS);
            AscendC::WaitFlag<AscendC::HardEvent::V_S>(vToS);
            yLocal.SetValue(r, sum.GetValue(0));
        }
        // ... and the vector pipe reads what the scalar unit wrote.
        event_t sToV = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::S_V));
        AscendC::SetFlag<AscendC::HardEvent::S_V>(sToV);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(sToV);
        AscendC::Muls(yLocal, yLocal, invCols, rowsThisTile);

        outQueueY.EnQue<float>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t firstRow, uint32_t rowsThisTile)
    {
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(rowsThisTile * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[firstRow], yLocal, copyParams);
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> workBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> sumBuf;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    uint32_t cols = 0;
    uint32_t colsAligned = 0;
    uint32_t rowsPerTile = 0;
    uint32_t rowCount = 0;
    float invCols = 0.0f;
};

extern "C" __global__ __aicore__ void reduce_mean_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    const uint32_t blockIdx = AscendC::GetBlockIdx();
    KernelReduceMean op;
    op.Init(x, y, tilingData.cols, tilingData.colsAligned, tilingData.rowsPerTile, tilingData.invCols,
            tilingData.coreRowStart[blockIdx], tilingData.coreRowCount[blockIdx]);
    op.Process();
}
