// GENERATED from emulator/legality.json by `python -m cotbuilder.apidocs legality-header --write`; do not
// edit. The docs' supported element types per basic API, type parameter and SoC (bits: kTypeNames order),
// and the vector Cast's (src, dst) pairs with their round modes. Enforced by impl/emu/legality.h.
#pragma once
#include <cstdint>

namespace cbemu {
namespace legal {

inline constexpr const char* kSocNames[] = {"ascend910b", "ascend310p", "ascend310b"};
inline constexpr const char* kTypeNames[] = {"half", "bfloat16_t", "float", "double", "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "int4b_t", "bool"};
inline constexpr const char* kRoundModes[] = {"CAST_NONE", "CAST_RINT", "CAST_FLOOR", "CAST_CEIL", "CAST_ROUND", "CAST_TRUNC", "CAST_ODD"};
constexpr uint32_t kRoundModeIgnored = 1u << 31;

struct Rule {
    uint32_t soc[3];  // allowed type bits; 0: not documented, not checked
};

inline constexpr Rule Abs_Core = {{0x0u, 0x5u, 0x0u}};
#define CBEMU_LEGAL_DOC_Abs_Core "SIMD-API/基础API/Memory矢量计算/基础算术/Abs.md"
inline constexpr Rule Abs_T = {{0x5u, 0x5u, 0x45u}};
#define CBEMU_LEGAL_DOC_Abs_T "SIMD-API/基础API/Memory矢量计算/基础算术/Abs.md"
inline constexpr Rule Add_Core = {{0x0u, 0x145u, 0x0u}};
#define CBEMU_LEGAL_DOC_Add_Core "SIMD-API/基础API/Memory矢量计算/基础算术/Add.md"
inline constexpr Rule Add_T = {{0x145u, 0x145u, 0x145u}};
#define CBEMU_LEGAL_DOC_Add_T "SIMD-API/基础API/Memory矢量计算/基础算术/Add.md"
inline constexpr Rule AddRelu_T = {{0x45u, 0x45u, 0x5u}};
#define CBEMU_LEGAL_DOC_AddRelu_T "SIMD-API/基础API/Memory矢量计算/复合计算/AddRelu.md"
inline constexpr Rule Adds_Core = {{0x0u, 0x145u, 0x0u}};
#define CBEMU_LEGAL_DOC_Adds_Core "SIMD-API/基础API/Memory矢量计算/基础算术/Adds.md"
inline constexpr Rule Adds_T = {{0x145u, 0x145u, 0x145u}};
#define CBEMU_LEGAL_DOC_Adds_T "SIMD-API/基础API/Memory矢量计算/基础算术/Adds.md"
inline constexpr Rule Adds_U = {{0x145u, 0x145u, 0x145u}};
#define CBEMU_LEGAL_DOC_Adds_U "SIMD-API/基础API/Memory矢量计算/基础算术/Adds.md"
inline constexpr Rule And_Core = {{0x0u, 0xc0u, 0x0u}};
#define CBEMU_LEGAL_DOC_And_Core "SIMD-API/基础API/Memory矢量计算/逻辑计算/And.md"
inline constexpr Rule And_T = {{0xc0u, 0xc0u, 0xc0u}};
#define CBEMU_LEGAL_DOC_And_T "SIMD-API/基础API/Memory矢量计算/逻辑计算/And.md"
inline constexpr Rule BilinearInterpolation_T = {{0x1u, 0x1u, 0x0u}};
#define CBEMU_LEGAL_DOC_BilinearInterpolation_T "SIMD-API/基础API/Memory矢量计算/基础算术/BilinearInterpolation(ISASI).md"
inline constexpr Rule Brcb_Core = {{0x0u, 0x3c5u, 0x0u}};
#define CBEMU_LEGAL_DOC_Brcb_Core "SIMD-API/基础API/Memory矢量计算/数据填充/Brcb.md"
inline constexpr Rule Brcb_T = {{0x3c7u, 0x3c5u, 0x0u}};
#define CBEMU_LEGAL_DOC_Brcb_T "SIMD-API/基础API/Memory矢量计算/数据填充/Brcb.md"
inline constexpr Rule BroadCastVecToMM_T = {{0x0u, 0x105u, 0x0u}};
#define CBEMU_LEGAL_DOC_BroadCastVecToMM_T "SIMD-API/基础API/矩阵计算（ISASI）/矩阵计算的搬入/BroadCastVecToMM(ISASI).md"
inline constexpr Rule Cast_T = {{0x3u, 0x1u, 0x0u}};
#define CBEMU_LEGAL_DOC_Cast_T "SIMD-API/基础API/标量计算/Cast（float转half-int32_t）.md"
inline constexpr Rule Cast_valueIn = {{0x4u, 0x4u, 0x0u}};
#define CBEMU_LEGAL_DOC_Cast_valueIn "SIMD-API/基础API/标量计算/Cast（float转half-int32_t）.md"
inline constexpr Rule Compare_T = {{0x105u, 0x5u, 0x5u}};
#define CBEMU_LEGAL_DOC_Compare_T "SIMD-API/基础API/Memory矢量计算/比较与选择/Compare.md"
inline constexpr Rule Compare_U = {{0x30u, 0x30u, 0x30u}};
#define CBEMU_LEGAL_DOC_Compare_U "SIMD-API/基础API/Memory矢量计算/比较与选择/Compare.md"
inline constexpr Rule Compares_T = {{0x105u, 0x5u, 0x3c5u}};
#define CBEMU_LEGAL_DOC_Compares_T "SIMD-API/基础API/Memory矢量计算/比较与选择/Compares.md"
inline constexpr Rule Compares_U = {{0x20u, 0x20u, 0x20u}};
#define CBEMU_LEGAL_DOC_Compares_U "SIMD-API/基础API/Memory矢量计算/比较与选择/Compares.md"
inline constexpr Rule Copy_T = {{0x3c7u, 0x0u, 0x3c7u}};
#define CBEMU_LEGAL_DOC_Copy_T "SIMD-API/基础API/Memory矢量计算/数据搬运/Copy（UBToUB掩码式高维数据搬运）.md"
inline constexpr Rule CreateVecIndex_T = {{0x145u, 0x0u, 0x145u}};
#define CBEMU_LEGAL_DOC_CreateVecIndex_T "SIMD-API/基础API/Memory矢量计算/数据填充/CreateVecIndex.md"
inline constexpr Rule DataCachePreload_cacheOffset = {{0x440u, 0x440u, 0x440u}};
#define CBEMU_LEGAL_DOC_DataCachePreload_cacheOffset "SIMD-API/基础API/缓存控制/DataCachePreload.md"
inline constexpr Rule DataCachePreload_src = {{0x800u, 0x800u, 0x800u}};
#define CBEMU_LEGAL_DOC_DataCachePreload_src "SIMD-API/基础API/缓存控制/DataCachePreload.md"
inline constexpr Rule DataCopy_T = {{0x1fffu, 0xffdu, 0xfffu}};
#define CBEMU_LEGAL_DOC_DataCopy_T "SIMD-API/基础API/Memory矢量计算/数据搬运/DataCopy（GMToUB随路转换ND2NZ搬运）.md"
inline constexpr Rule DataCopy_dst = {{0x104u, 0x0u, 0x0u}};
#define CBEMU_LEGAL_DOC_DataCopy_dst "SIMD-API/基础API/矩阵计算（ISASI）/矩阵计算的搬入/DataCopy（L1ToBiasTable-Buffer数据搬运）.md"
inline constexpr Rule DataCopy_src = {{0x105u, 0x0u, 0x0u}};
#define CBEMU_LEGAL_DOC_DataCopy_src "SIMD-API/基础API/矩阵计算（ISASI）/矩阵计算的搬入/DataCopy（L1ToBiasTable-Buffer数据搬运）.md"
inline constexpr Rule DataCopyPad_T = {{0xfffu, 0x0u, 0x3f7u}};
#define CBEMU_LEGAL_DOC_DataCopyPad_T "SIMD-API/基础API/Memory矢量计算/数据搬运/DataCopyPad（GMToUB非对齐数据搬运）.md"
inline constexpr Rule Div_Core = {{0x0u, 0x5u, 0x0u}};
#define CBEMU_LEGAL_DOC_Div_Core "SIMD-API/基础API/Memory矢量计算/基础算术/Div.md"
inline constexpr Rule Div_T = {{0x5u, 0x5u, 0x5u}};
#define CBEMU_LEGAL_DOC_Div_T "SIMD-API/基础API/Memory矢量计算/基础算术/Div.md"
inline constexpr Rule DumpAccChkPoint_Core = {{0x0u, 0x2ff7u, 0x0u}};
#define CBEMU_LEGAL_DOC_DumpAccChkPoint_Core "SIMD-API/基础API/调试接口/上板打印/DumpAccChkPoint.md"
inline constexpr Rule DumpAccChkPoint_T = {{0x2ff7u, 0x2ff7u, 0x0u}};
#define CBEMU_LEGAL_DOC_DumpAccChkPoint_T "SIMD-API/基础API/调试接口/上板打印/DumpAccChkPoint.md"
inline constexpr Rule DumpTensor_Core = {{0x0u, 0x2ff7u, 0x0u}};
#define CBEMU_LEGAL_DOC_DumpTensor_Core "SIMD-API/基础API/调试接口/上板打印/DumpTensor.md"
inline constexpr Rule DumpTensor_T = {{0x2ff7u, 0x2ff7u, 0x2ff7u}};
#define CBEMU_LEGAL_DOC_DumpTensor_T "SIMD-API/基础API/调试接口/上板打印/DumpTensor.md"
inline constexpr Rule Duplicate_Core = {{0x0u, 0x3c7u, 0x0u}};
#define CBEMU_LEGAL_DOC_Duplicate_Core "SIMD-API/基础API/Memory矢量计算/数据填充/Duplicate.md"
inline constexpr Rule Duplicate_T = {{0x3c7u, 0x3c7u, 0x3c7u}};
#define CBEMU_LEGAL_DOC_Duplicate_T "SIMD-API/基础API/Memory矢量计算/数据填充/Duplicate.md"
inline constexpr Rule Exp_T = {{0x5u, 0x5u, 0x5u}};
#define CBEMU_LEGAL_DOC_Exp_T "SIMD-API/基础API/Memory矢量计算/基础算术/Exp.md"
inline constexpr Rule FusedMulAdd_T = {{0x5u, 0x5u, 0x5u}};
#define CBEMU_LEGAL_DOC_FusedMulAdd_T "SIMD-API/基础API/Memory矢量计算/复合计算/FusedMulAdd.md"
inline constexpr Rule Gather_T = {{0x3c7u, 0x3c5u, 0x3f5u}};
#define CBEMU_LEGAL_DOC_Gather_T "SIMD-API/基础API/Memory矢量计算/离散与聚合/Gather.md"
inline constexpr Rule Gatherb_T = {{0x280u, 0x0u, 0x7f7u}};
#define CBEMU_LEGAL_DOC_Gatherb_T "SIMD-API/基础API/Memory矢量计算/离散与聚合/Gatherb(ISASI).md"
inline constexpr Rule GetReduceRepeatMaxMinSpr_T = {{0x5u, 0x5u, 0x0u}};
#define CBEMU_LEGAL_DOC_GetReduceRepeatMaxMinSpr_T "SIMD-API/基础API/Memory矢量计算/归约计算辅助配置接口/GetReduceRepeatMaxMinSpr(ISASI).md"
inline constexpr Rule GetReduceRepeatSumSpr_T = {{0x5u, 0x0u, 0x0u}};
#define CBEMU_LEGAL_DOC_GetReduceRepeatSumSpr_T "SIMD-API/基础API/Memory矢量计算/归约计算辅助配置接口/GetReduceRepeatSumSpr(ISASI).md"
inline constexpr Rule LeakyRelu_T = {{0x5u, 0x5u, 0x5u}};
#define CBEMU_LEGAL_DOC_LeakyRelu_T "SIMD-API/基础API/Memory矢量计算/基础算术/LeakyRelu.md"
inline constexpr Rule LeakyRelu_U = {{0x5u, 0x5u, 0x5u}};
#define CBEMU_LEGAL_DOC_LeakyRelu_U "SIMD-API/基础API/Memory矢量计算/基础算术/LeakyRelu.md"
inline constexpr Rule Ln_T = {{0x5u, 0x5u, 0x5u}};
#define CBEMU_LEGAL_DOC_Ln_T "SIMD-API/基础API/Memory矢量计算/基础算术/Ln.md"
inline constexpr Rule LoadData_T = {{0x13f7u, 0x10f1u, 0x13f7u}};
#define CBEMU_LEGAL_DOC_LoadData_T "SIMD-API/基础API/矩阵计算（ISASI）/矩阵计算的搬入/LoadData_2D.md"
inline constexpr Rule LoadDataUnzip_T = {{0x0u, 0x10u, 0x0u}};
#define CBEMU_LEGAL_DOC_LoadDataUnzip_T "SIMD-API/基础API/矩阵计算（ISASI）/矩阵搬入辅助配置接口/LoadDataUnzip.md"
inline constexpr Rule LoadDataWithSparse_T = {{0x30u, 0x0u, 0x0u}};
#define CBEMU_LEGAL_DOC_LoadDataWithSparse_T "SIMD-API/基础API/矩阵计算（ISASI）/矩阵计算的搬入/LoadDataWithSparse.md"
inline constexpr Rule LoadDataWithTranspose_Buffer = {{0x1337u, 0x0u, 0x0u}};
#define CBEMU_LEGAL_DOC_LoadDataWithTranspose_Buffer "SIMD-API/基础API/矩阵计算（ISASI）/矩阵计算的搬入/LoadDataWithTranspose.md"
inline constexpr Rule LoadDataWithTranspose_T = {{0x0u, 0x0u, 0x1337u}};
#define CBEMU_LEGAL_DOC_LoadDataWithTranspose_T "SIMD-API/基础API/矩阵计算（ISASI）/矩阵计算的搬入/LoadDataWithTranspose.md"
inline constexpr Rule Max_Core = {{0x0u, 0x145u, 0x0u}};
#define CBEMU_LEGAL_DOC_Max_Core "SIMD-API/基础API/Memory矢量计算/基础算术/Max.md"
inline constexpr Rule Max_T = {{0x145u, 0x145u, 0x145u}};
#define CBEMU_LEGAL_DOC_Max_T "SIMD-API/基础API/Memory矢量计算/基础算术/Max.md"
inline constexpr Rule Maxs_Core = {{0x0u, 0x145u, 0x0u}};
#define CBEMU_LEGAL_DOC_Maxs_Core "SIMD-API/基础API/Memory矢量计算/基础算术/Maxs.md"
inline constexpr Rule Maxs_T = {{0x145u, 0x145u, 0x145u}};
#define CBEMU_LEGAL_DOC_Maxs_T "SIMD-API/基础API/Memory矢量计算/基础算术/Maxs.md"
inline constexpr Rule Maxs_U = {{0x145u, 0x145u, 0x145u}};
#define CBEMU_LEGAL_DOC_Maxs_U "SIMD-API/基础API/Memory矢量计算/基础算术/Maxs.md"
inline constexpr Rule Min_Core = {{0x0u, 0x145u, 0x0u}};
#define CBEMU_LEGAL_DOC_Min_Core "SIMD-API/基础API/Memory矢量计算/基础算术/Min.md"
inline constexpr Rule Min_T = {{0x145u, 0x145u, 0x145u}};
#define CBEMU_LEGAL_DOC_Min_T "SIMD-API/基础API/Memory矢量计算/基础算术/Min.md"
inline constexpr Rule Mins_Core = {{0x0u, 0x145u, 0x0u}};
#define CBEMU_LEGAL_DOC_Mins_Core "SIMD-API/基础API/Memory矢量计算/基础算术/Mins.md"
inline constexpr Rule Mins_T = {{0x145u, 0x145u, 0x145u}};
#define CBEMU_LEGAL_DOC_Mins_T "SIMD-API/基础API/Memory矢量计算/基础算术/Mins.md"
inline constexpr Rule Mins_U = {{0x145u, 0x145u, 0x145u}};
#define CBEMU_LEGAL_DOC_Mins_U "SIMD-API/基础API/Memory矢量计算/基础算术/Mins.md"
inline constexpr Rule MrgSort_T = {{0x5u, 0x0u, 0x5u}};
#define CBEMU_LEGAL_DOC_MrgSort_T "SIMD-API/基础API/Memory矢量计算/排序组合（ISASI）/MrgSort.md"
inline constexpr Rule MrgSort4_T = {{0x0u, 0x5u, 0x0u}};
#define CBEMU_LEGAL_DOC_MrgSort4_T "SIMD-API/基础API/Memory矢量计算/排序组合（ISASI）/MrgSort4.md"
inline constexpr Rule Mul_Core = {{0x0u, 0x145u, 0x0u}};
#define CBEMU_LEGAL_DOC_Mul_Core "SIMD-API/基础API/Memory矢量计算/基础算术/Mul.md"
inline constexpr Rule Mul_T = {{0x145u, 0x145u, 0x145u}};
#define CBEMU_LEGAL_DOC_Mul_T "SIMD-API/基础API/Memory矢量计算/基础算术/Mul.md"
inline constexpr Rule MulAddRelu_T = {{0x5u, 0x5u, 0x5u}};
#define CBEMU_LEGAL_DOC_MulAddRelu_T "SIMD-API/基础API/Memory矢量计算/复合计算/MulAddRelu.md"
inline constexpr Rule Muls_Core = {{0x0u, 0x145u, 0x0u}};
#define CBEMU_LEGAL_DOC_Muls_Core "SIMD-API/基础API/Memory矢量计算/基础算术/Muls.md"
inline constexpr Rule Muls_T = {{0x145u, 0x145u, 0x145u}};
#define CBEMU_LEGAL_DOC_Muls_T "SIMD-API/基础API/Memory矢量计算/基础算术/Muls.md"
inline constexpr Rule Muls_U = {{0x145u, 0x145u, 0x145u}};
#define CBEMU_LEGAL_DOC_Muls_U "SIMD-API/基础API/Memory矢量计算/基础算术/Muls.md"
inline constexpr Rule Not_Core = {{0x0u, 0xc0u, 0x0u}};
#define CBEMU_LEGAL_DOC_Not_Core "SIMD-API/基础API/Memory矢量计算/逻辑计算/Not.md"
inline constexpr Rule Not_T = {{0xc0u, 0xc0u, 0xc0u}};
#define CBEMU_LEGAL_DOC_Not_T "SIMD-API/基础API/Memory矢量计算/逻辑计算/Not.md"
inline constexpr Rule Or_Core = {{0x0u, 0xc0u, 0x0u}};
#define CBEMU_LEGAL_DOC_Or_Core "SIMD-API/基础API/Memory矢量计算/逻辑计算/Or.md"
inline constexpr Rule Or_T = {{0xc0u, 0xc0u, 0xc0u}};
#define CBEMU_LEGAL_DOC_Or_T "SIMD-API/基础API/Memory矢量计算/逻辑计算/Or.md"
inline constexpr Rule PopStackBuffer_T = {{0xff5u, 0xff5u, 0xff5u}};
#define CBEMU_LEGAL_DOC_PopStackBuffer_T "SIMD-API/基础API/资源管理/PopStackBuffer.md"
inline constexpr Rule ProposalConcat_T = {{0x0u, 0x5u, 0x0u}};
#define CBEMU_LEGAL_DOC_ProposalConcat_T "SIMD-API/基础API/Memory矢量计算/排序组合（ISASI）/ProposalConcat.md"
inline constexpr Rule ProposalExtract_T = {{0x0u, 0x5u, 0x0u}};
#define CBEMU_LEGAL_DOC_ProposalExtract_T "SIMD-API/基础API/Memory矢量计算/排序组合（ISASI）/ProposalExtract.md"
inline constexpr Rule ReadGmByPassDCache_T = {{0xff0u, 0x0u, 0x0u}};
#define CBEMU_LEGAL_DOC_ReadGmByPassDCache_T "SIMD-API/基础API/标量计算/ReadGmByPassDCache(ISASI).md"
inline constexpr Rule Reciprocal_Core = {{0x0u, 0x5u, 0x0u}};
#define CBEMU_LEGAL_DOC_Reciprocal_Core "SIMD-API/基础API/Memory矢量计算/基础算术/Reciprocal.md"
inline constexpr Rule Reciprocal_T = {{0x5u, 0x5u, 0x5u}};
#define CBEMU_LEGAL_DOC_Reciprocal_T "SIMD-API/基础API/Memory矢量计算/基础算术/Reciprocal.md"
inline constexpr Rule ReduceDataBlock_T = {{0x5u, 0x5u, 0x5u}};
#define CBEMU_LEGAL_DOC_ReduceDataBlock_T "SIMD-API/基础API/Memory矢量计算/归约计算/ReduceDataBlock.md"
inline constexpr Rule ReduceMax_T = {{0x5u, 0x5u, 0x5u}};
#define CBEMU_LEGAL_DOC_ReduceMax_T "SIMD-API/基础API/Memory矢量计算/归约计算/ReduceMax.md"
inline constexpr Rule ReduceMin_T = {{0x5u, 0x5u, 0x5u}};
#define CBEMU_LEGAL_DOC_ReduceMin_T "SIMD-API/基础API/Memory矢量计算/归约计算/ReduceMin.md"
inline constexpr Rule ReducePairElem_T = {{0x5u, 0x5u, 0x5u}};
#define CBEMU_LEGAL_DOC_ReducePairElem_T "SIMD-API/基础API/Memory矢量计算/归约计算/ReducePairElem.md"
inline constexpr Rule ReduceRepeat_T = {{0x5u, 0x5u, 0x5u}};
#define CBEMU_LEGAL_DOC_ReduceRepeat_T "SIMD-API/基础API/Memory矢量计算/归约计算/ReduceRepeat.md"
inline constexpr Rule ReduceSum_T = {{0x5u, 0x5u, 0x5u}};
#define CBEMU_LEGAL_DOC_ReduceSum_T "SIMD-API/基础API/Memory矢量计算/归约计算/ReduceSum.md"
inline constexpr Rule Relu_Core = {{0x0u, 0x105u, 0x0u}};
#define CBEMU_LEGAL_DOC_Relu_Core "SIMD-API/基础API/Memory矢量计算/基础算术/Relu.md"
inline constexpr Rule Relu_T = {{0x105u, 0x105u, 0x105u}};
#define CBEMU_LEGAL_DOC_Relu_T "SIMD-API/基础API/Memory矢量计算/基础算术/Relu.md"
inline constexpr Rule RpSort16_T = {{0x0u, 0x5u, 0x0u}};
#define CBEMU_LEGAL_DOC_RpSort16_T "SIMD-API/基础API/Memory矢量计算/排序组合（ISASI）/RpSort16.md"
inline constexpr Rule Rsqrt_T = {{0x5u, 0x5u, 0x5u}};
#define CBEMU_LEGAL_DOC_Rsqrt_T "SIMD-API/基础API/Memory矢量计算/基础算术/Rsqrt.md"
inline constexpr Rule Scatter_T = {{0x0u, 0x285u, 0x3f5u}};
#define CBEMU_LEGAL_DOC_Scatter_T "SIMD-API/基础API/Memory矢量计算/离散与聚合/Scatter(ISASI).md"
inline constexpr Rule Select_T = {{0x5u, 0x5u, 0x5u}};
#define CBEMU_LEGAL_DOC_Select_T "SIMD-API/基础API/Memory矢量计算/比较与选择/Select.md"
inline constexpr Rule Select_U = {{0xaa0u, 0xaa0u, 0xaa0u}};
#define CBEMU_LEGAL_DOC_Select_U "SIMD-API/基础API/Memory矢量计算/比较与选择/Select.md"
inline constexpr Rule SetAtomicAdd_T = {{0x157u, 0x45u, 0x145u}};
#define CBEMU_LEGAL_DOC_SetAtomicAdd_T "SIMD-API/基础API/原子操作/SetAtomicAdd.md"
inline constexpr Rule SetAtomicMax_T = {{0x157u, 0x0u, 0x0u}};
#define CBEMU_LEGAL_DOC_SetAtomicMax_T "SIMD-API/基础API/原子操作/SetAtomicMax(ISASI).md"
inline constexpr Rule SetAtomicMin_T = {{0x157u, 0x0u, 0x0u}};
#define CBEMU_LEGAL_DOC_SetAtomicMin_T "SIMD-API/基础API/原子操作/SetAtomicMin(ISASI).md"
inline constexpr Rule SetAtomicType_T = {{0x157u, 0x45u, 0x145u}};
#define CBEMU_LEGAL_DOC_SetAtomicType_T "SIMD-API/基础API/原子操作/SetAtomicType.md"
inline constexpr Rule SetDeqScale_T = {{0x800u, 0x800u, 0x0u}};
#define CBEMU_LEGAL_DOC_SetDeqScale_T "SIMD-API/基础API/Memory矢量计算/类型转换辅助配置接口/SetDeqScale.md"
inline constexpr Rule SetFixPipeAddr_LocalTensor = {{0x0u, 0x0u, 0x1u}};
#define CBEMU_LEGAL_DOC_SetFixPipeAddr_LocalTensor "SIMD-API/基础API/矩阵计算（ISASI）/矩阵搬出辅助配置接口/SetFixPipeAddr.md"
inline constexpr Rule SetFixPipeClipRelu_T = {{0x0u, 0x0u, 0x800u}};
#define CBEMU_LEGAL_DOC_SetFixPipeClipRelu_T "SIMD-API/基础API/矩阵计算（ISASI）/矩阵搬出辅助配置接口/SetFixPipeClipRelu.md"
inline constexpr Rule SetFixPipeConfig_T = {{0x800u, 0x0u, 0x800u}};
#define CBEMU_LEGAL_DOC_SetFixPipeConfig_T "SIMD-API/基础API/矩阵计算（ISASI）/矩阵搬出辅助配置接口/SetFixPipeConfig.md"
inline constexpr Rule SetPadValue_T = {{0xfffu, 0x0u, 0x0u}};
#define CBEMU_LEGAL_DOC_SetPadValue_T "SIMD-API/基础API/Memory矢量计算/数据搬运辅助配置接口/SetPadValue(ISASI).md"
inline constexpr Rule SetStoreAtomicConfig_T = {{0x157u, 0x0u, 0x157u}};
#define CBEMU_LEGAL_DOC_SetStoreAtomicConfig_T "SIMD-API/基础API/原子操作/SetStoreAtomicConfig(ISASI).md"
inline constexpr Rule ShiftLeft_T = {{0x3c0u, 0x0u, 0x3c0u}};
#define CBEMU_LEGAL_DOC_ShiftLeft_T "SIMD-API/基础API/Memory矢量计算/逻辑计算/ShiftLeft.md"
inline constexpr Rule ShiftLeft_U = {{0x3c0u, 0x0u, 0x3c0u}};
#define CBEMU_LEGAL_DOC_ShiftLeft_U "SIMD-API/基础API/Memory矢量计算/逻辑计算/ShiftLeft.md"
inline constexpr Rule ShiftRight_T = {{0x3c0u, 0x0u, 0x3c0u}};
#define CBEMU_LEGAL_DOC_ShiftRight_T "SIMD-API/基础API/Memory矢量计算/逻辑计算/ShiftRight.md"
inline constexpr Rule ShiftRight_U = {{0x3c0u, 0x0u, 0x3c0u}};
#define CBEMU_LEGAL_DOC_ShiftRight_U "SIMD-API/基础API/Memory矢量计算/逻辑计算/ShiftRight.md"
inline constexpr Rule Sqrt_T = {{0x5u, 0x5u, 0x5u}};
#define CBEMU_LEGAL_DOC_Sqrt_T "SIMD-API/基础API/Memory矢量计算/基础算术/Sqrt.md"
inline constexpr Rule Sub_Core = {{0x0u, 0x145u, 0x0u}};
#define CBEMU_LEGAL_DOC_Sub_Core "SIMD-API/基础API/Memory矢量计算/基础算术/Sub.md"
inline constexpr Rule Sub_T = {{0x145u, 0x145u, 0x145u}};
#define CBEMU_LEGAL_DOC_Sub_T "SIMD-API/基础API/Memory矢量计算/基础算术/Sub.md"
inline constexpr Rule SubRelu_T = {{0x45u, 0x45u, 0x5u}};
#define CBEMU_LEGAL_DOC_SubRelu_T "SIMD-API/基础API/Memory矢量计算/复合计算/SubRelu.md"
inline constexpr Rule SyncAll_gmWorkspace = {{0x100u, 0x100u, 0x0u}};
#define CBEMU_LEGAL_DOC_SyncAll_gmWorkspace "SIMD-API/基础API/同步控制/核间同步/SyncAll.md"
inline constexpr Rule SyncAll_ubWorkspace = {{0x100u, 0x100u, 0x0u}};
#define CBEMU_LEGAL_DOC_SyncAll_ubWorkspace "SIMD-API/基础API/同步控制/核间同步/SyncAll.md"
inline constexpr Rule TransDataTo5HD_T = {{0x3f5u, 0x3f5u, 0x3f5u}};
#define CBEMU_LEGAL_DOC_TransDataTo5HD_T "SIMD-API/基础API/Memory矢量计算/数据排布转换/TransDataTo5HD.md"
inline constexpr Rule Transpose_T = {{0x3f5u, 0x3f5u, 0xc1u}};
#define CBEMU_LEGAL_DOC_Transpose_T "SIMD-API/基础API/Memory矢量计算/数据排布转换/Transpose.md"
inline constexpr Rule VectorPadding_T = {{0x0u, 0x3c5u, 0x0u}};
#define CBEMU_LEGAL_DOC_VectorPadding_T "SIMD-API/基础API/Memory矢量计算/数据填充/VectorPadding(ISASI).md"
inline constexpr Rule WriteGmByPassDCache_T = {{0xff0u, 0x0u, 0x0u}};
#define CBEMU_LEGAL_DOC_WriteGmByPassDCache_T "SIMD-API/基础API/标量计算/WriteGmByPassDCache(ISASI).md"

struct CastRule {
    uint32_t src, dst;
    uint32_t modes[3];  // round-mode bits (kRoundModes order); 0: pair not listed
};
inline constexpr CastRule kCast[] = {
    {1, 2, {0x1u, 0x0u, 0x1u}},  // bfloat16_t -> float
    {1, 8, {0x3eu, 0x0u, 0x3eu}},  // bfloat16_t -> int32_t
    {2, 1, {0x3eu, 0x0u, 0x3eu}},  // float -> bfloat16_t
    {2, 2, {0x3eu, 0x0u, 0x3eu}},  // float -> float
    {2, 0, {0x7fu, 0x41u, 0x7fu}},  // float -> half
    {2, 6, {0x3eu, 0x0u, 0x3eu}},  // float -> int16_t
    {2, 8, {0x3eu, 0x0u, 0x3eu}},  // float -> int32_t
    {2, 10, {0x3eu, 0x3eu, 0x3eu}},  // float -> int64_t
    {0, 2, {0x1u, 0x1u, 0x1u}},  // half -> float
    {0, 6, {0x3eu, 0x2u, 0x3eu}},  // half -> int16_t
    {0, 8, {0x3eu, 0x3eu, 0x3eu}},  // half -> int32_t
    {0, 12, {0x3fu, 0x1u, 0x0u}},  // half -> int4b_t
    {0, 4, {0x3fu, 0x3du, 0x3fu}},  // half -> int8_t
    {0, 5, {0x3fu, 0x3du, 0x3fu}},  // half -> uint8_t
    {6, 2, {0x1u, 0x0u, 0x1u}},  // int16_t -> float
    {6, 0, {0x3fu, 0x1u, 0x3fu}},  // int16_t -> half
    {8, 2, {0x3fu, 0x1u, 0x3fu}},  // int32_t -> float
    {8, 0, {0x80000000u, 0x80000000u, 0x1u}},  // int32_t -> half
    {8, 6, {0x1u, 0x1u, 0x1u}},  // int32_t -> int16_t
    {8, 10, {0x1u, 0x0u, 0x1u}},  // int32_t -> int64_t
    {12, 0, {0x1u, 0x0u, 0x0u}},  // int4b_t -> half
    {10, 2, {0x3eu, 0x0u, 0x3eu}},  // int64_t -> float
    {10, 8, {0x1u, 0x0u, 0x1u}},  // int64_t -> int32_t
    {4, 0, {0x1u, 0x1u, 0x1u}},  // int8_t -> half
    {5, 0, {0x1u, 0x1u, 0x1u}},  // uint8_t -> half
};
#define CBEMU_LEGAL_DOC_Cast "SIMD-API/基础API/Memory矢量计算/类型转换/Cast.md"

}  // namespace legal
}  // namespace cbemu
