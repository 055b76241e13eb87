// Quantised matmul with the high-level Matmul API: A [M, K] int8, B [K, N] int8 accumulate exactly in int32 on the
// cube; on the way out every column n is dequantised to half with its own scale (SetQuantVector: one uint64 per
// column whose low 32 bits are the fp32 scale). The host's MultiCoreMatmulTiling splits C over the cores; a core on
// the bottom / right edge gets a smaller block, given to the Matmul object with SetTail.
#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#define ASCENDC_CUBE_ONLY  // the cube does everything: no vector core takes part
#include "lib/matmul_intf.h"

using namespace AscendC;

class KernelInt8Dequant {
public:
    __aicore__ inline KernelInt8Dequant() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR scale, GM_ADDR c, const TCubeTiling& t)
    {
        tiling = t;
        const int32_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
        const int32_t mIdx = GetBlockIdx() % mBlocks, nIdx = GetBlockIdx() / mBlocks;
        aGm.SetGlobalBuffer((__gm__ int8_t*)a + mIdx * t.singleCoreM * t.Ka);
        bGm.SetGlobalBuffer((__gm__ int8_t*)b + nIdx * t.singleCoreN);
        scaleGm.SetGlobalBuffer((__gm__ uint64_t*)scale + nIdx * t.singleCoreN);
        cGm.SetGlobalBuffer((__gm__ half*)c + mIdx * t.singleCoreM * t.N + nIdx * t.singleCoreN);
        const int32_t restM = t.M - mIdx * t.singleCoreM, restN = t.N - nIdx * t.singleCoreN;
        tailM = restM < t.singleCoreM ? restM : t.singleCoreM;
        tailN = restN < t.singleCoreN ? restN : t.singleCoreN;
    }
    __aicore__ inline void Process()
    {
        if (GetBlockIdx() >= (uint32_t)tiling.usedCoreNum) {
            return;
        }
        mm.SetTail(tailM, tailN);
        mm.SetTensorA(aGm);
        mm.SetTensorB(bGm);
        mm.SetQuantVector(scaleGm);
        mm.IterateAll(cGm);
        mm.End();
    }

    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, int8_t>, MatmulType<TPosition::GM, CubeFormat::ND, int8_t>,
           MatmulType<TPosition::GM, CubeFormat::ND, half>>
        mm;

private:
    TCubeTiling tiling;
    GlobalTensor<int8_t> aGm, bGm;
    GlobalTensor<uint64_t> scaleGm;
    GlobalTensor<half> cGm;
    int32_t tailM = 0, tailN = 0;
};

extern "C" __global__ __aicore__ void matmul_int8_dequant(GM_ADDR a, GM_ADDR b, GM_ADDR scale, GM_ADDR c,
                                                          GM_ADDR tilingGm)
{
    TCubeTiling tiling;
    auto src = reinterpret_cast<__gm__ int32_t*>(tilingGm);
    int32_t* dst = reinterpret_cast<int32_t*>(&tiling);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(int32_t); ++i) {
        dst[i] = src[i];
    }
    TPipe pipe;
    KernelInt8Dequant op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &tiling);
    op.Init(a, b, scale, c, tiling);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void matmul_int8_dequant_do(uint32_t blockDim, void* stream, uint8_t* a, uint8_t* b, uint8_t* scale, uint8_t* c,
                            uint8_t* tiling)
{
    matmul_int8_dequant<<<blockDim, nullptr, stream>>>(a, b, scale, c, tiling);
}
#endif
