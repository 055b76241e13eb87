#include "matmul_leaky_relu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// C tiles of 64 x 128: the fp32 tile is 32 KB in L0C, each AIV takes 32 rows of it (16 KB of UB).
// A K chunk of 64 keeps A and B at 8 KB and 16 KB per L1 / L0 buffer, double-buffered.
constexpr uint32_t BASE_M = 64;
constexpr uint32_t BASE_N = 128;
constexpr uint32_t BASE_K = 64;
constexpr uint32_t SLOTS = 2;  // C tiles in flight per core in the workspace (AIC writes one, AIVs read the other)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& aShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& bShape = context->GetInputShape(1)->GetOriginShape();
    if (aShape.GetDimNum() != 2 || bShape.GetDimNum() != 2 || aShape.GetDim(1) != bShape.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t M = static_cast<uint32_t>(aShape.GetDim(0));
    const uint32_t K = static_cast<uint32_t>(aShape.GetDim(1));
    const uint32_t N = static_cast<uint32_t>(bShape.GetDim(1));
    if (M == 0 || N == 0 || K == 0 || K > 65535 || N > 65535) {  // K and N are 16-bit ND2NZ source strides
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const float* alpha = attrs->GetAttrPointer<float>(0);

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t mTiles = (M + BASE_M - 1) / BASE_M;
    const uint32_t nTiles = (N + BASE_N - 1) / BASE_N;
    const uint32_t tiles = mTiles * nTiles;
    const uint32_t coreNum = ascendcPlatform.GetCoreNumAic();
    const uint32_t usedCoreNum = tiles < coreNum ? tiles : coreNum;

    MatmulLeakyReluCustomTilingData tiling;
    tiling.set_M(M);
    tiling.set_N(N);
    tiling.set_K(K);
    tiling.set_baseM(BASE_M);
    tiling.set_baseN(BASE_N);
    tiling.set_baseK(BASE_K);
    tiling.set_mTiles(mTiles);
    tiling.set_nTiles(nTiles);
    tiling.set_usedCoreNum(usedCoreNum);
    tiling.set_alpha(alpha == nullptr ? 0.01f : *alpha);

    // A mixed kernel is launched on logical cores: one AIC and its two AIVs per block.
    context->SetBlockDim(usedCoreNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // The fp32 C tiles pass from the AIC to its AIVs through the user workspace, SLOTS tiles per core.
    const size_t userWorkspace = static_cast<size_t>(usedCoreNum) * SLOTS * BASE_M * BASE_N * sizeof(float);
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = static_cast<size_t>(ascendcPlatform.GetLibApiWorkSpaceSize()) + userWorkspace;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* aShape = context->GetInputShape(0);
    const gert::Shape* bShape = context->GetInputShape(1);
    gert::Shape* yShape = context->GetOutputShape(0);
    yShape->SetDimNum(2);
    yShape->SetDim(0, aShape->GetDim(0));
    yShape->SetDim(1, bShape->GetDim(1));
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, ge::DT_FLOAT16);
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class MatmulLeakyReluCustom : public OpDef {
public:
    explicit MatmulLeakyReluCustom(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Attr("alpha").AttrType(OPTIONAL).Float(0.01f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MatmulLeakyReluCustom);
} // namespace ops
