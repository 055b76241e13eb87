#include "axpby_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_CORE_NUM = 8;
constexpr uint32_t ALIGN_ELEMS = 8;      // float elements in one 32-byte block
constexpr uint32_t TILE_ELEMS = 4096;    // 3 queues x 2 buffers x 16 KB = 96 KB of UB

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    AxpbyCustomTilingData tiling;
    const uint32_t totalLength = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    if (totalLength == 0 || context->GetInputShape(1)->GetStorageShape().GetShapeSize() != totalLength) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const float* alpha = attrs->GetAttrPointer<float>(0);
    const float* beta = attrs->GetAttrPointer<float>(1);

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    coreNum = coreNum < MAX_CORE_NUM ? coreNum : MAX_CORE_NUM;
    const uint32_t blocks = (totalLength + ALIGN_ELEMS - 1) / ALIGN_ELEMS;
    uint32_t blockDim = blocks < coreNum ? blocks : coreNum;
    const uint32_t blockLength = (blocks + blockDim - 1) / blockDim * ALIGN_ELEMS;
    blockDim = (totalLength + blockLength - 1) / blockLength;

    tiling.set_totalLength(totalLength);
    tiling.set_blockLength(blockLength);
    tiling.set_lastBlockLength(totalLength - blockLength * (blockDim - 1));
    tiling.set_tileLength(blockLength < TILE_ELEMS ? blockLength : TILE_ELEMS);
    tiling.set_alpha(alpha == nullptr ? 1.0f : *alpha);
    tiling.set_beta(beta == nullptr ? 1.0f : *beta);

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class AxpbyCustom : public OpDef {
public:
    explicit AxpbyCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("alpha").AttrType(OPTIONAL).Float(1.0f);
        this->Attr("beta").AttrType(OPTIONAL).Float(1.0f);

        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AxpbyCustom);
} // namespace ops
