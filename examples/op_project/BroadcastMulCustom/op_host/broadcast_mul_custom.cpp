#include "broadcast_mul_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_CORE_NUM = 8;
constexpr uint32_t HALF_SIZE = 2;
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t TILE_BYTES = 4096;  // x and y tiles, double-buffered: 16 KB; v stays resident
constexpr uint32_t MAX_COLS = 16384;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    BroadcastMulCustomTilingData tiling;
    const gert::Shape& xShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& vShape = context->GetInputShape(1)->GetOriginShape();
    const size_t dimNum = xShape.GetDimNum();
    if (dimNum == 0 || vShape.GetShapeSize() != xShape.GetDim(dimNum - 1)) {
        return ge::GRAPH_FAILED;  // v must match the last axis of x
    }
    const uint32_t cols = static_cast<uint32_t>(xShape.GetDim(dimNum - 1));
    if (cols == 0 || cols > MAX_COLS) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t rows = static_cast<uint32_t>(xShape.GetShapeSize() / cols);

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    coreNum = coreNum < MAX_CORE_NUM ? coreNum : MAX_CORE_NUM;
    const uint32_t blockDim = rows < coreNum ? rows : coreNum;
    const uint32_t formerRows = (rows + blockDim - 1) / blockDim;
    const uint32_t tailRows = rows / blockDim;
    const uint32_t formerCoreNum = (rows % blockDim == 0) ? blockDim : rows % blockDim;

    const uint32_t alignElems = BLOCK_BYTES / HALF_SIZE;
    const uint32_t colsAligned = (cols + alignElems - 1) / alignElems * alignElems;
    uint32_t rowsPerTile = TILE_BYTES / (colsAligned * HALF_SIZE);
    rowsPerTile = rowsPerTile == 0 ? 1 : rowsPerTile;
    rowsPerTile = rowsPerTile < formerRows ? rowsPerTile : formerRows;

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_colsAligned(colsAligned);
    tiling.set_formerCoreNum(formerCoreNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(tailRows);
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
class BroadcastMulCustom : public OpDef {
public:
    explicit BroadcastMulCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("v").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(BroadcastMulCustom);
} // namespace ops
