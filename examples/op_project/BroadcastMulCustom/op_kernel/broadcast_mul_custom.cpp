// y[n, c] = x[n, c] * v[c], half. v is loaded once per core and reused for every row.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

class KernelBroadcastMul {
public:
    __aicore__ inline KernelBroadcastMul() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR v, GM_ADDR y, uint32_t cols, uint32_t colsAligned,
                                uint32_t formerCoreNum, uint32_t formerRows, uint32_t tailRows, uint32_t rowsPerTile)
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
        this->colsAligned = colsAligned;
        this->rowsPerTile = rowsPerTile;

        xGm.SetGlobalBuffer((__gm__ half*)x + rowStart * cols, static_cast<uint64_t>(rowCount) * cols);
        yGm.SetGlobalBuffer((__gm__ half*)y + rowStart * cols, static_cast<uint64_t>(rowCount) * cols);
        vGm.SetGlobalBuffer((__gm__ half*)v, cols);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, rowsPerTile * colsAligned * sizeof(half));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, rowsPerTile * colsAligned * sizeof(half));
        pipe.InitBuffer(vBuf, colsAligned * sizeof(half));
    }

    __aicore__ inline void Process()
    {
        LoadVector();
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
    __aicore__ inline void LoadVector()
    {
        AscendC::LocalTensor<half> vLocal = vBuf.Get<half>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(cols * sizeof(half)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<half> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(vLocal, vGm, copyParams, padParams);
        // A TBuf has no queue to carry the MTE2 -> vector dependency, so set it by hand.
        event_t mte2ToV = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_V));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(mte2ToV);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(mte2ToV);
    }

    __aicore__ inline AscendC::DataCopyExtParams TileCopyParams(uint32_t rowsThisTile) const
    {
        // One block per row: GM rows are packed, UB rows start every colsAligned elements.
        return AscendC::DataCopyExtParams{static_cast<uint16_t>(rowsThisTile),
                                          static_cast<uint32_t>(cols * sizeof(half)), 0, 0, 0};
    }

    __aicore__ inline void CopyIn(uint32_t firstRow, uint32_t rowsThisTile)
    {
        AscendC::LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        AscendC::DataCopyPadExtParams<half> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[static_cast<uint64_t>(firstRow) * cols], TileCopyParams(rowsThisTile),
                             padParams);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t rowsThisTile)
    {
        AscendC::LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        AscendC::LocalTensor<half> yLocal = outQueueY.AllocTensor<half>();
        AscendC::LocalTensor<half> vLocal = vBuf.Get<half>();
        for (uint32_t r = 0; r < rowsThisTile; r++) {
            AscendC::Mul(yLocal[r * colsAligned], xLocal[r * colsAligned], vLocal, cols);
        }
        outQueueY.EnQue<half>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t firstRow, uint32_t rowsThisTile)
    {
        AscendC::LocalTensor<half> yLocal = outQueueY.DeQue<half>();
        AscendC::DataCopyPad(yGm[static_cast<uint64_t>(firstRow) * cols], yLocal, TileCopyParams(rowsThisTile));
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECIN> vBuf;  // DMA target: GM -> VECCALC is not a 910B path
    AscendC::GlobalTensor<half> xGm;
    AscendC::GlobalTensor<half> vGm;
    AscendC::GlobalTensor<half> yGm;
    uint32_t rowCount = 0;
    uint32_t cols = 0;
    uint32_t colsAligned = 0;
    uint32_t rowsPerTile = 0;
};

extern "C" __global__ __aicore__ void broadcast_mul_custom(GM_ADDR x, GM_ADDR v, GM_ADDR y, GM_ADDR workspace,
                                                           GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelBroadcastMul op;
    op.Init(x, v, y, tilingData.cols, tilingData.colsAligned, tilingData.formerCoreNum, tilingData.formerRows,
            tilingData.tailRows, tilingData.rowsPerTile);
    op.Process();
}
