#include "foreach_mul_scalar_list_custom_tiling.h"
#include "register/op_def_registry.h"
#include "graph/utils/type_utils.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint64_t UB_RESERVED = 8 * 1024;

// One core per tensor of the list (round robin when there are more tensors than cores).
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ForeachMulScalarListCustomTilingData tiling;
    uint32_t tensorNum = 0;
    while (tensorNum <= MAX_LIST_TENSORS && context->GetDynamicInputShape(0, tensorNum) != nullptr) {
        ++tensorNum;
    }
    if (tensorNum == 0 || tensorNum > MAX_LIST_TENSORS) {
        return ge::GRAPH_FAILED;
    }
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(context->GetDynamicInputDesc(0, 0)->GetDataType(), typeSize);
    if (typeSize == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t lengths[MAX_LIST_TENSORS] = {0};
    for (uint32_t i = 0; i < tensorNum; ++i) {
        lengths[i] = static_cast<uint32_t>(context->GetDynamicInputShape(0, i)->GetStorageShape().GetShapeSize());
    }
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint32_t coreNum = platform.GetCoreNum();
    // in and out queues (double-buffered, the dtype) and one float work tile
    const uint64_t alignElems = BLOCK_BYTES / typeSize;
    const uint64_t perElem = BUFFER_NUM * 2 * typeSize + sizeof(float);
    const uint64_t tileLength = ((ubSize - UB_RESERVED) / perElem) / alignElems * alignElems;

    tiling.set_tensorNum(tensorNum);
    tiling.set_tileLength(static_cast<uint32_t>(tileLength));
    tiling.set_tensorLength(lengths);
    context->SetBlockDim(tensorNum < coreNum ? tensorNum : coreNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class ForeachMulScalarListCustom : public OpDef {
public:
    explicit ForeachMulScalarListCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(DYNAMIC)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        // a host scalar list: the framework hands the kernel one tensor of tensorNum values in this dtype
        this->Input("scalars")
            .ScalarList()
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_INT64})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(DYNAMIC)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ForeachMulScalarListCustom);
} // namespace ops
