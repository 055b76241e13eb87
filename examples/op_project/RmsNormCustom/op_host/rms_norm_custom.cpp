#include "rms_norm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_CORE_NUM = 8;
constexpr uint32_t FLOAT_SIZE = 4;
constexpr uint32_t BLOCK_BYTES = 32;
// UB holds 2 x-rows, 2 y-rows, gamma and a squares row: 6 x 16 KB = 96 KB at the limit.
constexpr uint32_t MAX_COLS = 4096;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    RmsNormCustomTilingData tiling;
    const gert::Shape& xShape = context->GetInputShape(0)->GetOriginShape();
    const size_t dimNum = xShape.GetDimNum();
    if (dimNum == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t cols = static_cast<uint32_t>(xShape.GetDim(dimNum - 1));
    if (cols == 0 || cols > MAX_COLS) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t rows = static_cast<uint32_t>(xShape.GetShapeSize() / cols);
    const float* epsilon = context->GetAttrs()->GetAttrPointer<float>(0);

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    coreNum = coreNum < MAX_CORE_NUM ? coreNum : MAX_CORE_NUM;
    const uint32_t blockDim = rows < coreNum ? rows : coreNum;

    // Former cores take one row more than tail cores when rows do not divide evenly.
    const uint32_t formerRows = (rows + blockDim - 1) / blockDim;
    const uint32_t tailRows = rows / blockDim;
    const uint32_t formerCoreNum = (rows % blockDim == 0) ? blockDim : rows % blockDim;
    const uint32_t alignElems = BLOCK_BYTES / FLOAT_SIZE;

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_colsAligned((cols + alignElems - 1) / alignElems * alignElems);
    tiling.set_formerCoreNum(formerCoreNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(tailRows);
    tiling.set_epsilon(epsilon == nullptr ? 1e-6f : *epsilon);
    tiling.set_invCols(1.0f / static_cast<float>(cols));

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class RmsNormCustom : public OpDef {
public:
    explicit RmsNormCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-6f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(RmsNormCustom);
} // namespace ops
