// cotbuilder CPU emulator: the high-level API tiling structs (hl_tiling_types.h) and the Matmul tiling struct TCubeTiling shared by host and kernel (docs: 高阶API/矩阵计算/
// Matmul-Tiling类/TCubeTiling结构体.md). One standard-layout struct of int32 fields in the documented order:
// the host's optiling::TCubeTiling (set_/get_, SaveToBuffer, GetDataSize) and the kernel's AscendC::tiling::
// TCubeTiling / TCubeTiling are the same type, so a kernel that copies the tiling word by word reads what
// GetTiling wrote. Hand-written (a toolkit header at its real path).
#ifndef COTBUILDER_KERNEL_TILING_H
#define COTBUILDER_KERNEL_TILING_H
#include <cstdint>

#include "../register/tilingdata_base.h"
#include "../tiling/hl_tiling_types.h"  // the high-level API tiling structs as kernels see them

namespace AscendC {
namespace tiling {
BEGIN_TILING_DATA_DEF(TCubeTiling)
TILING_DATA_FIELD_DEF(int32_t, usedCoreNum);
TILING_DATA_FIELD_DEF(int32_t, M);
TILING_DATA_FIELD_DEF(int32_t, N);
TILING_DATA_FIELD_DEF(int32_t, Ka);
TILING_DATA_FIELD_DEF(int32_t, Kb);
TILING_DATA_FIELD_DEF(int32_t, singleCoreM);
TILING_DATA_FIELD_DEF(int32_t, singleCoreN);
TILING_DATA_FIELD_DEF(int32_t, singleCoreK);
TILING_DATA_FIELD_DEF(int32_t, baseM);
TILING_DATA_FIELD_DEF(int32_t, baseN);
TILING_DATA_FIELD_DEF(int32_t, baseK);
TILING_DATA_FIELD_DEF(int32_t, depthA1);
TILING_DATA_FIELD_DEF(int32_t, depthB1);
TILING_DATA_FIELD_DEF(int32_t, stepM);
TILING_DATA_FIELD_DEF(int32_t, stepN);
TILING_DATA_FIELD_DEF(int32_t, isBias);
TILING_DATA_FIELD_DEF(int32_t, transLength);
TILING_DATA_FIELD_DEF(int32_t, iterateOrder);
TILING_DATA_FIELD_DEF(int32_t, shareMode);
TILING_DATA_FIELD_DEF(int32_t, shareL1Size);
TILING_DATA_FIELD_DEF(int32_t, shareL0CSize);
TILING_DATA_FIELD_DEF(int32_t, shareUbSize);
TILING_DATA_FIELD_DEF(int32_t, batchM);
TILING_DATA_FIELD_DEF(int32_t, batchN);
TILING_DATA_FIELD_DEF(int32_t, singleBatchM);
TILING_DATA_FIELD_DEF(int32_t, singleBatchN);
TILING_DATA_FIELD_DEF(int32_t, stepKa);
TILING_DATA_FIELD_DEF(int32_t, stepKb);
TILING_DATA_FIELD_DEF(int32_t, depthAL1CacheUB);
TILING_DATA_FIELD_DEF(int32_t, depthBL1CacheUB);
TILING_DATA_FIELD_DEF(int32_t, dbL0A);
TILING_DATA_FIELD_DEF(int32_t, dbL0B);
TILING_DATA_FIELD_DEF(int32_t, dbL0C);
TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoB);
TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoS);
TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoN);
TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoG);
TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoD);
TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoB);
TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoS);
TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoN);
TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoG);
TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoD);
TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoB);
TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoS1);
TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoN);
TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoG);
TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoS2);
TILING_DATA_FIELD_DEF(int32_t, BatchNum);
TILING_DATA_FIELD_DEF(int32_t, mxTypePara);
END_TILING_DATA_DEF;
}  // namespace tiling
}  // namespace AscendC

using TCubeTiling = AscendC::tiling::TCubeTiling;
namespace optiling {
using TCubeTiling = AscendC::tiling::TCubeTiling;
}

#endif  // COTBUILDER_KERNEL_TILING_H
