#include "float_to_half_scale_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_CORE_NUM = 8;
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t HALF_SIZE = 2;
constexpr uint32_t FLOAT_SIZE = 4;
constexpr uint32_t TILE_BYTES = 8192;  // float input tile; the half output tile is half of it

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    FloatToHalfScaleTilingData tiling;
    const uint32_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    if (totalLength == 0) {
        return ge::GRAPH_FAILED;
    }
    const float* scale = context->GetAttrs()->GetAttrPointer<float>(0);

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    coreNum = coreNum < MAX_CORE_NUM ? coreNum : MAX_CORE_NUM;

    // Align core boundaries to 32 bytes of the narrower (half) output; that is 64 bytes of the float input.
    const uint32_t alignElems = BLOCK_BYTES / HALF_SIZE;
    const uint32_t alignedBlocks = (totalLength + alignElems - 1) / alignElems;
    uint32_t blockDim = alignedBlocks < coreNum ? alignedBlocks : coreNum;
    const uint32_t blockLength = (alignedBlocks + blockDim - 1) / blockDim * alignElems;
    blockDim = (totalLength + blockLength - 1) / blockLength;
    const uint32_t maxTile = TILE_BYTES / FLOAT_SIZE;

    tiling.set_totalLength(totalLength);
    tiling.set_blockLength(blockLength);
    tiling.set_lastBlockLength(totalLength - blockLength * (blockDim - 1));
    tiling.set_tileLength(blockLength < maxTile ? blockLength : maxTile);
    tiling.set_scale(scale == nullptr ? 1.0f : *scale);

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
    context->SetOutputDataType(0, ge::DT_FLOAT16);
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class FloatToHalfScale : public OpDef {
public:
    explicit FloatToHalfScale(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(FloatToHalfScale);
} // namespace ops
