// Embedding-style row gather: out[i, :] = table[index[i], :] for a float table of
// 512 rows x 64 columns and 128 int32 indices. The scalar unit reads each index straight
// from GM (GlobalTensor::GetValue); the row then travels GM -> UB -> GM through a TQueBind
// that ties the VECIN side of the copy to the VECOUT side (no compute in between).
// 4 cores x 32 indices, two buffers so that the next row load overlaps the previous store.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TABLE_ROWS = 512;
constexpr uint32_t COLS = 64;
constexpr uint32_t INDEX_NUM = 128;
constexpr uint32_t USE_CORE_NUM = 4;
constexpr uint32_t INDEX_PER_CORE = INDEX_NUM / USE_CORE_NUM;  // 32
constexpr int32_t BUFFER_NUM = 2;

class KernelGatherRows {
public:
    __aicore__ inline KernelGatherRows() {}

    __aicore__ inline void Init(GM_ADDR table, GM_ADDR index, GM_ADDR out)
    {
        uint32_t first = GetBlockIdx() * INDEX_PER_CORE;
        tableGm.SetGlobalBuffer((__gm__ float *)table, TABLE_ROWS * COLS);
        indexGm.SetGlobalBuffer((__gm__ int32_t *)index + first, INDEX_PER_CORE);
        outGm.SetGlobalBuffer((__gm__ float *)out + first * COLS, INDEX_PER_CORE * COLS);
        pipe.InitBuffer(rowQueue, BUFFER_NUM, COLS * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < INDEX_PER_CORE; i++) {
            int32_t row = indexGm.GetValue(i);
            // an index outside the table would read another tensor's memory: clamp it
            if (row < 0) {
                row = 0;
            } else if (row >= static_cast<int32_t>(TABLE_ROWS)) {
                row = TABLE_ROWS - 1;
            }
            CopyIn(static_cast<uint32_t>(row));
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t row)
    {
        LocalTensor<float> rowLocal = rowQueue.AllocTensor<float>();
        DataCopy(rowLocal, tableGm[row * COLS], COLS);
        rowQueue.EnQue(rowLocal);
    }

    __aicore__ inline void CopyOut(uint32_t i)
    {
        LocalTensor<float> rowLocal = rowQueue.DeQue<float>();
        DataCopy(outGm[i * COLS], rowLocal, COLS);
        rowQueue.FreeTensor(rowLocal);
    }

private:
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, BUFFER_NUM> rowQueue;
    GlobalTensor<float> tableGm;
    GlobalTensor<int32_t> indexGm;
    GlobalTensor<float> outGm;
};

extern "C" __global__ __aicore__ void gather_rows(GM_ADDR table, GM_ADDR index, GM_ADDR out)
{
    KernelGatherRows op;
    op.Init(table, index, out);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void gather_rows_do(uint32_t blockDim, void *stream, uint8_t *table, uint8_t *index, uint8_t *out)
{
    gather_rows<<<blockDim, nullptr, stream>>>(table, index, out);
}
#endif
