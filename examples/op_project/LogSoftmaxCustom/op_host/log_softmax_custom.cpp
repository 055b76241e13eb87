#include "log_softmax_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_CORE_NUM = 8;
constexpr uint32_t FLOAT_SIZE = 4;
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t TILE_BYTES = 4096;  // x and y tiles, double-buffered: 16 KB, plus one exp row
constexpr uint32_t MAX_COLS = 8192;    // the row reductions need a whole row in UB

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    LogSoftmaxCustomTilingData tiling;
    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    const size_t dimNum = shape.GetDimNum();
    if (dimNum == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t cols = static_cast<uint32_t>(shape.GetDim(dimNum - 1));
    if (cols == 0 || cols > MAX_COLS) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / cols);

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    coreNum = coreNum < MAX_CORE_NUM ? coreNum : MAX_CORE_NUM;
    uint32_t blockDim = rows < coreNum ? rows : coreNum;
    const uint32_t rowsPerCore = (rows + blockDim - 1) / blockDim;
    blockDim = (rows + rowsPerCore - 1) / rowsPerCore;  // drop cores that would get no rows

    const uint32_t alignElems = BLOCK_BYTES / FLOAT_SIZE;
    const uint32_t colsAligned = (cols + alignElems - 1) / alignElems * alignElems;
    uint32_t rowsPerTile = TILE_BYTES / (colsAligned * FLOAT_SIZE);
    rowsPerTile = rowsPerTile == 0 ? 1 : rowsPerTile;
    rowsPerTile = rowsPerTile < rowsPerCore ? rowsPerTile : rowsPerCore;

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_colsAligned(colsAligned);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_lastCoreRows(rows - rowsPerCore * (blockDim - 1));
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
class LogSoftmaxCustom : public OpDef {
public:
    explicit LogSoftmaxCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LogSoftmaxCustom);
} // namespace ops
