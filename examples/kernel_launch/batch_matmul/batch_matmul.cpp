// Batched matmul with bias: C[b] = A[b] @ B[b] + bias for b < BATCH, A [BATCH, M, K] half, B [BATCH, K, N] half,
// bias [N] float (shared by every batch), C [BATCH, M, N] float. One batch per core: each core points the Matmul
// object at its own batch and lets IterateAll walk the base blocks of the single-core tiling the host computed
// (MatmulApiTiling).
#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#define ASCENDC_CUBE_ONLY
#include "lib/matmul_intf.h"

using namespace AscendC;

using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

extern "C" __global__ __aicore__ void batch_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tilingGm)
{
    TCubeTiling tiling;
    auto src = reinterpret_cast<__gm__ int32_t*>(tilingGm);
    int32_t* dst = reinterpret_cast<int32_t*>(&tiling);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(int32_t); ++i) {
        dst[i] = src[i];
    }
    TPipe pipe;
    Matmul<AType, BType, CType, BiasType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);

    const uint64_t batch = GetBlockIdx();
    const uint64_t aSize = (uint64_t)tiling.M * tiling.Ka, bSize = (uint64_t)tiling.Kb * tiling.N;
    const uint64_t cSize = (uint64_t)tiling.M * tiling.N;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> biasGm, cGm;
    aGm.SetGlobalBuffer((__gm__ half*)a + batch * aSize, aSize);
    bGm.SetGlobalBuffer((__gm__ half*)b + batch * bSize, bSize);
    biasGm.SetGlobalBuffer((__gm__ float*)bias, tiling.N);
    cGm.SetGlobalBuffer((__gm__ float*)c + batch * cSize, cSize);

    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    if (tiling.isBias) {
        mm.SetBias(biasGm);
    }
    mm.IterateAll(cGm);
    mm.End();
}

#ifndef ASCENDC_CPU_DEBUG
void batch_matmul_do(uint32_t blockDim, void* stream, uint8_t* a, uint8_t* b, uint8_t* bias, uint8_t* c,
                     uint8_t* tiling)
{
    batch_matmul<<<blockDim, nullptr, stream>>>(a, b, bias, c, tiling);
}
#endif
