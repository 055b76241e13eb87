#include "mul_add_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_CORE_NUM = 8;      // small demo op: more cores would only add launch overhead
constexpr uint32_t BLOCK_BYTES = 32;      // UB and DMA granularity
constexpr uint32_t TILE_BYTES = 8192;     // 4 queues x 2 buffers x 8 KB = 64 KB of UB
constexpr uint64_t TILING_KEY_HALF = 1;
constexpr uint64_t TILING_KEY_FLOAT = 2;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MulAddCustomTilingData tiling;
    const uint32_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    const ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    const uint32_t typeSize = (dtype == ge::DT_FLOAT16) ? 2 : 4;
    if (totalLength == 0) {
        return ge::GRAPH_FAILED;
    }

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    coreNum = coreNum < MAX_CORE_NUM ? coreNum : MAX_CORE_NUM;

    // Split on 32-byte blocks so every core starts on an aligned GM address;
    // only the last core can end mid-block.
    const uint32_t alignElems = BLOCK_BYTES / typeSize;
    const uint32_t alignedBlocks = (totalLength + alignElems - 1) / alignElems;
    uint32_t blockDim = alignedBlocks < coreNum ? alignedBlocks : coreNum;
    const uint32_t blockLength = (alignedBlocks + blockDim - 1) / blockDim * alignElems;
    blockDim = (totalLength + blockLength - 1) / blockLength;  // no core may be left empty
    const uint32_t lastBlockLength = totalLength - blockLength * (blockDim - 1);
    const uint32_t maxTile = TILE_BYTES / typeSize;
    const uint32_t tileLength = blockLength < maxTile ? blockLength : maxTile;

    tiling.set_totalLength(totalLength);
    tiling.set_blockLength(blockLength);
    tiling.set_lastBlockLength(lastBlockLength);
    tiling.set_tileLength(tileLength);

    context->SetBlockDim(blockDim);
    context->SetTilingKey(dtype == ge::DT_FLOAT16 ? TILING_KEY_HALF : TILING_KEY_FLOAT);
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
    const gert::Shape* xShape = context->GetInputShape(0);
    gert::Shape* zShape = context->GetOutputShape(0);
    *zShape = *xShape;
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class MulAddCustom : public OpDef {
public:
    explicit MulAddCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("w")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MulAddCustom);
} // namespace ops
