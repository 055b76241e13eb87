// y[i] = x[i] * scalars[i] over a tensor list. x and y are dynamic params: each arrives as the framework's
// tensor-list descriptor (a byte offset to its pointer table, then one data pointer per tensor). The scalar list
// arrives as one tensor of tensorNum values (DTYPE_SCALARS: float for the float dtypes, int64 for int32).
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_BYTES = 32;

template <typename T>
__aicore__ inline __gm__ T* ListTensorAddr(GM_ADDR list, uint32_t index)
{
    __gm__ uint64_t* words = reinterpret_cast<__gm__ uint64_t*>(list);
    const uint64_t tableOffset = *words;  // bytes from the descriptor start to the pointer table
    return reinterpret_cast<__gm__ T*>(*(words + tableOffset / sizeof(uint64_t) + index));
}

template <typename T, typename S>
class KernelForeachMulScalarList {
public:
    __aicore__ inline KernelForeachMulScalarList() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scalars, GM_ADDR y, uint32_t tensorNum, uint32_t tileLength,
                                const uint32_t* tensorLength)
    {
        xList = x;
        yList = y;
        this->tensorNum = tensorNum;
        this->tileLength = tileLength;
        this->tensorLength = tensorLength;
        scalarGm.SetGlobalBuffer((__gm__ S*)scalars, tensorNum);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(workBuf, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = AscendC::GetBlockIdx(); i < tensorNum; i += AscendC::GetBlockNum()) {
            const S scalar = scalarGm.GetValue(i);
            xGm.SetGlobalBuffer(ListTensorAddr<T>(xList, i), tensorLength[i]);
            yGm.SetGlobalBuffer(ListTensorAddr<T>(yList, i), tensorLength[i]);
            const uint32_t tiles = (tensorLength[i] + tileLength - 1) / tileLength;
            for (uint32_t t = 0; t < tiles; ++t) {
                const uint64_t offset = static_cast<uint64_t>(t) * tileLength;
                const uint32_t len = (t == tiles - 1) ? tensorLength[i] - t * tileLength : tileLength;
                CopyIn(offset, len);
                Compute(scalar, len);
                CopyOut(offset, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueue.AllocTensor<T>();
        if ((len * sizeof(T)) % BLOCK_BYTES == 0) {
            AscendC::DataCopy(xLocal, xGm[offset], len);
        } else {
            AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
            AscendC::DataCopyPad(xLocal, xGm[offset], params, pad);
        }
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(S scalar, uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueue.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueue.AllocTensor<T>();
        if constexpr (std::is_same_v<T, half>) {
            // torch multiplies half in float and rounds once
            AscendC::LocalTensor<float> work = workBuf.Get<float>();
            AscendC::Cast(work, xLocal, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Muls(work, work, static_cast<float>(scalar), len);
            AscendC::Cast(yLocal, work, AscendC::RoundMode::CAST_RINT, len);
        } else {
            AscendC::Muls(yLocal, xLocal, static_cast<T>(scalar), len);
        }
        outQueue.EnQue<T>(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t offset, uint32_t len)
    {
        AscendC::LocalTensor<T> yLocal = outQueue.DeQue<T>();
        if ((len * sizeof(T)) % BLOCK_BYTES == 0) {
            AscendC::DataCopy(yGm[offset], yLocal, len);
        } else {
            AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[offset], yLocal, params);
        }
        outQueue.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> workBuf;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    AscendC::GlobalTensor<S> scalarGm;
    GM_ADDR xList = nullptr;
    GM_ADDR yList = nullptr;
    uint32_t tensorNum = 0;
    uint32_t tileLength = 0;
    const uint32_t* tensorLength = nullptr;
};

extern "C" __global__ __aicore__ void foreach_mul_scalar_list_custom(GM_ADDR x, GM_ADDR scalars, GM_ADDR y,
                                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelForeachMulScalarList<DTYPE_X, DTYPE_SCALARS> op;
    op.Init(x, scalars, y, tilingData.tensorNum, tilingData.tileLength, tilingData.tensorLength);
    op.Process();
}
