#include "hard_swish_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_CORE_NUM = 16;
constexpr uint32_t BLOCK_BYTES = 32;
// UB budget per core: in/out queues double-buffered in the input dtype plus two float work tiles.
// With 2048-element tiles: half 2*2*4 KB + 2*8 KB = 32 KB, float 2*2*8 KB + 2*8 KB = 48 KB.
constexpr uint32_t TILE_ELEMS = 2048;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    HardSwishCustomTilingData tiling;
    const uint32_t totalLength = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    if (totalLength == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    coreNum = coreNum < MAX_CORE_NUM ? coreNum : MAX_CORE_NUM;

    // Cores start on 32-byte boundaries; only the last one may end inside a block.
    const uint32_t alignElems = BLOCK_BYTES / typeSize;
    const uint32_t blocks = (totalLength + alignElems - 1) / alignElems;
    uint32_t blockDim = blocks < coreNum ? blocks : coreNum;
    const uint32_t blockLength = (blocks + blockDim - 1) / blockDim * alignElems;
    blockDim = (totalLength + blockLength - 1) / blockLength;

    tiling.set_totalLength(totalLength);
    tiling.set_blockLength(blockLength);
    tiling.set_lastBlockLength(totalLength - blockLength * (blockDim - 1));
    tiling.set_tileLength(blockLength < TILE_ELEMS ? blockLength : TILE_ELEMS);

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
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
class HardSwishCustom : public OpDef {
public:
    explicit HardSwishCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(HardSwishCustom);
} // namespace ops
