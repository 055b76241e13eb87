// y[i, :] = x[indices[i], :] for float32 rows and int32 indices.
// Out-of-range indices are clamped to [0, numRows - 1] so a bad index never reads outside x.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t INT32_PER_BLOCK = 8;

class KernelIndexSelect {
public:
    __aicore__ inline KernelIndexSelect() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR indices, GM_ADDR y, uint32_t numRows, uint32_t rowLength,
                                uint32_t rowLengthAligned, uint32_t indicesPerCore, uint32_t lastCoreIndices,
                                uint32_t rowsPerTile)
    {
        const uint32_t blockIdx = AscendC::GetBlockIdx();
        const uint64_t first = static_cast<uint64_t>(blockIdx) * indicesPerCore;
        this->indexCount = (blockIdx == AscendC::GetBlockNum() - 1) ? lastCoreIndices : indicesPerCore;
        this->numRows = numRows;
        this->rowLength = rowLength;
        this->rowLengthAligned = rowLengthAligned;
        this->rowsPerTile = rowsPerTile;

        xGm.SetGlobalBuffer((__gm__ float*)x, static_cast<uint64_t>(numRows) * rowLength);
        indicesGm.SetGlobalBuffer((__gm__ int32_t*)indices + first, indexCount);
        yGm.SetGlobalBuffer((__gm__ float*)y + first * rowLength, static_cast<uint64_t>(indexCount) * rowLength);

        const uint32_t idxAligned = (indicesPerCore + INT32_PER_BLOCK - 1) / INT32_PER_BLOCK * INT32_PER_BLOCK;
        pipe.InitBuffer(indexBuf, idxAligned * sizeof(int32_t));
        // Rows go GM -> UB -> GM untouched, so one bound VECIN/VECOUT queue serves both copies.
        pipe.InitBuffer(rowQueue, BUFFER_NUM, rowsPerTile * rowLengthAligned * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LoadIndices();
        const uint32_t tileNum = (indexCount + rowsPerTile - 1) / rowsPerTile;
        for (uint32_t i = 0; i < tileNum; i++) {
            const uint32_t firstRow = i * rowsPerTile;
            const uint32_t rowsThisTile = (i == tileNum - 1) ? indexCount - firstRow : rowsPerTile;
            GatherRows(firstRow, rowsThisTile);
            CopyOut(firstRow, rowsThisTile);
        }
    }

private:
    __aicore__ inline void LoadIndices()
    {
        AscendC::LocalTensor<int32_t> idxLocal = indexBuf.Get<int32_t>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(indexCount * sizeof(int32_t)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<int32_t> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(idxLocal, indicesGm, copyParams, padParams);
        // The scalar unit reads the indices: wait until the copy has landed.
        event_t mte2ToS = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_S));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(mte2ToS);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(mte2ToS);
    }

    __aicore__ inline void GatherRows(uint32_t firstRow, uint32_t rowsThisTile)
    {
        AscendC::LocalTensor<int32_t> idxLocal = indexBuf.Get<int32_t>();
        AscendC::LocalTensor<float> rows = rowQueue.AllocTensor<float>();
        AscendC::DataCopyExtParams rowParams{1, static_cast<uint32_t>(rowLength * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0};
        for (uint32_t r = 0; r < rowsThisTile; r++) {
            int32_t idx = idxLocal.GetValue(firstRow + r);
            if (idx < 0) {
                idx = 0;
            } else if (static_cast<uint32_t>(idx) >= numRows) {
                idx = static_cast<int32_t>(numRows - 1);
            }
            AscendC::DataCopyPad(rows[r * rowLengthAligned], xGm[static_cast<uint64_t>(idx) * rowLength], rowParams,
                                 padParams);
        }
        rowQueue.EnQue(rows);
    }

    __aicore__ inline void CopyOut(uint32_t firstRow, uint32_t rowsThisTile)
    {
        AscendC::LocalTensor<float> rows = rowQueue.DeQue<float>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rowsThisTile),
                                              static_cast<uint32_t>(rowLength * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[static_cast<uint64_t>(firstRow) * rowLength], rows, copyParams);
        rowQueue.FreeTensor(rows);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, BUFFER_NUM> rowQueue;
    AscendC::TBuf<AscendC::TPosition::VECIN> indexBuf;  // DMA target: GM -> VECCALC is not a 910B path
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<int32_t> indicesGm;
    AscendC::GlobalTensor<float> yGm;
    uint32_t indexCount = 0;
    uint32_t numRows = 0;
    uint32_t rowLength = 0;
    uint32_t rowLengthAligned = 0;
    uint32_t rowsPerTile = 0;
};

extern "C" __global__ __aicore__ void index_select_custom(GM_ADDR x, GM_ADDR indices, GM_ADDR y, GM_ADDR workspace,
                                                          GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelIndexSelect op;
    op.Init(x, indices, y, tilingData.numRows, tilingData.rowLength, tilingData.rowLengthAligned,
            tilingData.indicesPerCore, tilingData.lastCoreIndices, tilingData.rowsPerTile);
    op.Process();
}
