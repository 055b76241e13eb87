// c = a @ b + bias with the high-level Matmul API: a [M, K] half, b [K, N] half, bias [N] float, c [M, N] float.
// The tiling library splits C into singleCoreM x singleCoreN blocks, one per core; cores on the bottom or right
// edge get a smaller block, passed to the Matmul object with SetTail.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace matmul;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

template <typename aType, typename bType, typename cType, typename biasType>
class MatmulBiasKernel {
public:
    __aicore__ inline MatmulBiasKernel() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, const TCubeTiling& tiling)
    {
        this->tiling = tiling;
        aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ aType*>(a), tiling.M * tiling.Ka);
        bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ bType*>(b), tiling.Kb * tiling.N);
        cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ cType*>(c), tiling.M * tiling.N);
        biasGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ biasType*>(bias), tiling.N);

        int32_t offsetA = 0;
        int32_t offsetB = 0;
        int32_t offsetC = 0;
        int32_t offsetBias = 0;
        CalcOffset(AscendC::GetBlockIdx(), offsetA, offsetB, offsetC, offsetBias);
        aGlobal = aGlobal[offsetA];
        bGlobal = bGlobal[offsetB];
        cGlobal = cGlobal[offsetC];
        biasGlobal = biasGlobal[offsetBias];
    }

    __aicore__ inline void Process()
    {
        if (AscendC::GetBlockIdx() >= static_cast<uint32_t>(tiling.usedCoreNum)) {
            return;  // the launch may have more blocks than the tiling uses
        }
        matmulObj.SetTensorA(aGlobal, false);
        matmulObj.SetTensorB(bGlobal, false);
        matmulObj.SetBias(biasGlobal);
        matmulObj.SetTail(tailM, tailN);
        matmulObj.IterateAll(cGlobal);
        matmulObj.End();
    }

    Matmul<MatmulType<AscendC::TPosition::GM, CubeFormat::ND, aType>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, bType>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, cType>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, biasType>>
        matmulObj;

private:
    __aicore__ inline void CalcOffset(uint32_t blockIdx, int32_t& offsetA, int32_t& offsetB, int32_t& offsetC,
                                      int32_t& offsetBias)
    {
        // Blocks are numbered down the M axis first, then across N.
        const uint32_t mBlocks = CeilDiv(tiling.M, tiling.singleCoreM);
        const uint32_t mIdx = blockIdx % mBlocks;
        const uint32_t nIdx = blockIdx / mBlocks;
        offsetA = mIdx * tiling.Ka * tiling.singleCoreM;
        offsetB = nIdx * tiling.singleCoreN;
        offsetC = mIdx * tiling.N * tiling.singleCoreM + nIdx * tiling.singleCoreN;
        offsetBias = nIdx * tiling.singleCoreN;

        const int32_t restM = tiling.M - mIdx * tiling.singleCoreM;
        const int32_t restN = tiling.N - nIdx * tiling.singleCoreN;
        tailM = restM < tiling.singleCoreM ? restM : tiling.singleCoreM;
        tailN = restN < tiling.singleCoreN ? restN : tiling.singleCoreN;
    }

    AscendC::GlobalTensor<aType> aGlobal;
    AscendC::GlobalTensor<bType> bGlobal;
    AscendC::GlobalTensor<cType> cGlobal;
    AscendC::GlobalTensor<biasType> biasGlobal;
    TCubeTiling tiling;
    int32_t tailM = 0;
    int32_t tailN = 0;
};

extern "C" __global__ __aicore__ void matmul_bias_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    MatmulBiasKernel<half, half, float, float> op;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.matmulObj, &tilingData.cubeTilingData);
    op.Init(a, b, bias, c, tilingData.cubeTilingData);
    if (TILING_KEY_IS(1)) {
        op.Process();
    }
}
