#include "hard_sigmoid_custom_tiling.h"
#include "register/op_def_registry.h"
#include "graph/utils/type_utils.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint64_t UB_RESERVED = 8 * 1024;  // kept free of tiles

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    HardSigmoidCustomTilingData tiling;
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
    const uint64_t totalLength = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    if (typeSize == 0 || totalLength == 0) {
        return ge::GRAPH_FAILED;
    }
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint32_t coreNum = platform.GetCoreNum();

    const uint64_t alignElems = BLOCK_BYTES / typeSize;
    const uint64_t blocks = (totalLength + alignElems - 1) / alignElems;
    uint64_t blockDim = blocks < coreNum ? blocks : coreNum;
    const uint64_t blockLength = (blocks + blockDim - 1) / blockDim * alignElems;
    blockDim = (totalLength + blockLength - 1) / blockLength;
    // The largest 32-byte multiple of elements whose buffers fit the UB: in and out queues (double-buffered, the
    // dtype) and one float work tile.
    const uint64_t perElem = BUFFER_NUM * 2 * typeSize + sizeof(float);
    uint64_t tileLength = ((ubSize - UB_RESERVED) / perElem) / alignElems * alignElems;
    tileLength = tileLength < blockLength ? tileLength : blockLength;

    tiling.set_blockLength(static_cast<uint32_t>(blockLength));
    tiling.set_lastBlockLength(static_cast<uint32_t>(totalLength - blockLength * (blockDim - 1)));
    tiling.set_tileLength(static_cast<uint32_t>(tileLength));
    context->SetBlockDim(static_cast<uint32_t>(blockDim));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class HardSigmoidCustom : public OpDef {
public:
    explicit HardSigmoidCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(HardSigmoidCustom);
} // namespace ops
