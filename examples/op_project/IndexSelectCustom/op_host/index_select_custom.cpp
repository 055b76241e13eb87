#include "index_select_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_CORE_NUM = 8;
constexpr uint32_t FLOAT_SIZE = 4;
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t TILE_BYTES = 8192;          // gathered-row tile, double-buffered: 16 KB
constexpr uint32_t MAX_INDICES_PER_CORE = 8192; // a core keeps all its indices in UB (32 KB)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    IndexSelectCustomTilingData tiling;
    const gert::Shape& xShape = context->GetInputShape(0)->GetOriginShape();
    const uint32_t numIndices = static_cast<uint32_t>(context->GetInputShape(1)->GetOriginShape().GetShapeSize());
    if (xShape.GetDimNum() == 0 || xShape.GetDim(0) == 0 || numIndices == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t numRows = static_cast<uint32_t>(xShape.GetDim(0));
    const uint32_t rowLength = static_cast<uint32_t>(xShape.GetShapeSize() / numRows);

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    coreNum = coreNum < MAX_CORE_NUM ? coreNum : MAX_CORE_NUM;
    uint32_t blockDim = numIndices < coreNum ? numIndices : coreNum;
    const uint32_t indicesPerCore = (numIndices + blockDim - 1) / blockDim;
    if (indicesPerCore > MAX_INDICES_PER_CORE) {
        return ge::GRAPH_FAILED;
    }
    blockDim = (numIndices + indicesPerCore - 1) / indicesPerCore;

    const uint32_t alignElems = BLOCK_BYTES / FLOAT_SIZE;
    const uint32_t rowLengthAligned = (rowLength + alignElems - 1) / alignElems * alignElems;
    uint32_t rowsPerTile = TILE_BYTES / (rowLengthAligned * FLOAT_SIZE);
    rowsPerTile = rowsPerTile == 0 ? 1 : rowsPerTile;
    rowsPerTile = rowsPerTile < indicesPerCore ? rowsPerTile : indicesPerCore;

    tiling.set_numRows(numRows);
    tiling.set_rowLength(rowLength);
    tiling.set_rowLengthAligned(rowLengthAligned);
    tiling.set_numIndices(numIndices);
    tiling.set_indicesPerCore(indicesPerCore);
    tiling.set_lastCoreIndices(numIndices - indicesPerCore * (blockDim - 1));
    tiling.set_rowsPerTile(rowsPerTile);

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
// y = x[indices]: the first axis of x is replaced by the number of indices.
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xShape = context->GetInputShape(0);
    const gert::Shape* idxShape = context->GetInputShape(1);
    gert::Shape* yShape = context->GetOutputShape(0);
    *yShape = *xShape;
    yShape->SetDim(0, idxShape->GetShapeSize());
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class IndexSelectCustom : public OpDef {
public:
    explicit IndexSelectCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("indices").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(IndexSelectCustom);
} // namespace ops
