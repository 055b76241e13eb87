#include "reduce_mean_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t FLOAT_SIZE = 4;
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t TILE_BYTES = 8192;     // one input tile; double-buffered -> 16 KB of UB
constexpr uint32_t MAX_COLS = 8192;       // a whole row must fit in one tile (single-pass reduce)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ReduceMeanCustomTilingData tiling;
    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    const size_t dimNum = shape.GetDimNum();
    if (dimNum == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t cols = static_cast<uint32_t>(shape.GetDim(dimNum - 1));
    const uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / cols);
    if (cols == 0 || cols > MAX_COLS || rows == 0) {
        return ge::GRAPH_FAILED;
    }

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    coreNum = coreNum < REDUCE_MEAN_MAX_CORES ? coreNum : REDUCE_MEAN_MAX_CORES;
    const uint32_t blockDim = rows < coreNum ? rows : coreNum;

    // The first (rows % blockDim) cores take one extra row.
    uint32_t rowStart[REDUCE_MEAN_MAX_CORES] = {0};
    uint32_t rowCount[REDUCE_MEAN_MAX_CORES] = {0};
    const uint32_t baseRows = rows / blockDim;
    const uint32_t extraRows = rows % blockDim;
    uint32_t next = 0;
    for (uint32_t i = 0; i < blockDim; i++) {
        rowStart[i] = next;
        rowCount[i] = baseRows + (i < extraRows ? 1 : 0);
        next += rowCount[i];
    }

    const uint32_t alignElems = BLOCK_BYTES / FLOAT_SIZE;
    const uint32_t colsAligned = (cols + alignElems - 1) / alignElems * alignElems;
    uint32_t rowsPerTile = TILE_BYTES / (colsAligned * FLOAT_SIZE);
    rowsPerTile = rowsPerTile == 0 ? 1 : rowsPerTile;
    rowsPerTile = rowsPerTile < rowCount[0] ? rowsPerTile : rowCount[0];

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_colsAligned(colsAligned);
    tiling.set_rowsPerTile(rowsPerTile);
    tiling.set_invCols(1.0f / static_cast<float>(cols));
    tiling.set_coreRowStart(rowStart);
    tiling.set_coreRowCount(rowCount);

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
// y drops the last axis of x (keep_dims = false).
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xShape = context->GetInputShape(0);
    gert::Shape* yShape = context->GetOutputShape(0);
    const size_t dimNum = xShape->GetDimNum();
    yShape->SetDimNum(dimNum - 1);
    for (size_t i = 0; i + 1 < dimNum; i++) {
        yShape->SetDim(i, xShape->GetDim(i));
    }
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class ReduceMeanCustom : public OpDef {
public:
    explicit ReduceMeanCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ReduceMeanCustom);
} // namespace ops
