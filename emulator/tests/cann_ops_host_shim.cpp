// Host-shim pieces cann-ops op hosts rely on (tests/emulator/test_cann_ops_host_shim.py checks the printed lines):
// the platform description's core counts when nobody filled it, GET_TILINGKEY's digit order, the tiling template's
// members (tilingKey_, blockDim_, CalcTschBlockDim, debug strings), REPORT_INNER_ERR_MSG, typed InitValue scalars,
// AlogCheckDebugLevel, runtime_util.h's ops::InferShape4Elewise, runtime2_util.h's
// GetCompileInfoPtr, a project's own AlignUp beside the shim's.
#include <cstdio>
#include <string>

// A project's own log header defines OP_LOGE as a printf of a name before the toolkit's headers (cann-ops'
// op_tiling/op_log.h): the shims' own code (TilingRegistry, InferShape4Elewise) must still compile.
#define OP_LOGE(op_name, ...) std::printf(op_name, ##__VA_ARGS__)

#include "base/err_msg.h"
#include "op_tiling_context_builder.h"
#include "register/op_def_registry.h"
#include "runtime2_util.h"
#include "tiling/context/context_builder.h"
#include "runtime_util.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_base.h"
#include "tiling/tiling_type.h"
#include "util/math_util.h"

namespace optiling {
enum class Mode { LINEAR = 3, NEAREST = 5 };

// an ops-math host brings the ops-base helpers into this namespace beside the shim's own
using Ops::Base::CeilDiv;
using Ops::Base::FloorDiv;

// A project's own rounding helper, written for a toolkit without one (dequant_swiglu_quant's): it wins the call over
// the shim's AlignUp instead of making it ambiguous. Its results are odd, to show which one ran.
template <typename T>
inline auto AlignUp(T num, T rnd) -> decltype(num) {
    return rnd == 0 ? 0 : ((num + rnd - 1) / rnd * rnd) | 1;
}

// A template in the cann-ops shape: the key and block dim kept in the base class's members between the steps.
class KeyedTiling : public TilingBaseClass {
public:
    explicit KeyedTiling(gert::TilingContext* c) : TilingBaseClass(c) {}
    std::string shapes;

protected:
    bool IsCapable() override { return true; }
    ge::graphStatus GetPlatformInfo() override {
        ascendcPlatform_.reset(new platform_ascendc::PlatformAscendC(context_->GetPlatformInfo()));
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus GetShapeAttrsInfo() override {
        shapes = GetShapeDebugStr(context_->GetInputShape(0)->GetStorageShape());
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus DoOpTiling() override {
        blockDim_ = CalcTschBlockDim(40, ascendcPlatform_->GetCoreNumAic(), ascendcPlatform_->GetCoreNumAiv());
        tilingKey_ = GET_TILINGKEY(Mode::NEAREST, 2, 0, 1) % 1000000;
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus DoLibApiTiling() override { return ge::GRAPH_SUCCESS; }
    uint64_t GetTilingKey() const override { return tilingKey_; }
    ge::graphStatus GetWorkspaceSize() override { return ge::GRAPH_SUCCESS; }
    ge::graphStatus PostTiling() override {
        context_->SetBlockDim(blockDim_);
        return ge::GRAPH_SUCCESS;
    }
};
}  // namespace optiling

namespace ops {
class Padded : public OpDef {
public:
    explicit Padded(const char* name) : OpDef(name) {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).InitValue(
            {{ScalarType::FLOAT32, 0}, {ScalarType::FLOAT16, 0}});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_INT32, ge::DT_INT32}).InitValue({ScalarType::INT32, 2.5});
    }
};
// an older op host's InferShape registration through runtime_util.h
IMPL_OP_INFERSHAPE(Padded).InferShape(InferShape4Elewise);
}  // namespace ops

// a TilingParse function's compile info through runtime2_util.h
struct PaddedCompileInfo {
    uint32_t cores = 0;
};
static ge::graphStatus PaddedTilingParse(gert::TilingParseContext* context) {
    auto* info = optiling::GetCompileInfoPtr<PaddedCompileInfo>(context);
    if (info == nullptr) return ge::GRAPH_FAILED;
    info->cores = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();
    return ge::GRAPH_SUCCESS;
}

static int null_check(const char* name, const void* ptr) {
    if (ptr == nullptr) {
        REPORT_INNER_ERR_MSG("EZ9999", "op[%s], %s is nullptr!", name, "ptr");
        return 1;
    }
    return 0;
}

int main() {
    // a platform description nobody filled: the emulated SoC's counts (910B: 24 AI cores, 48 vector cores)
    fe::PlatFormInfos empty;
    std::printf("%u %u %u\n", empty.GetCoreNum(), empty.GetCoreNumByType("AiCore"), empty.GetCoreNumByType("VectorCore"));
    empty.SetCoreNumByCoreType("VectorCore");
    fe::PlatFormInfos set;
    set.SetCoreNum(5);
    std::printf("%u %u\n", empty.GetCoreNum(), set.GetCoreNum());

    // GET_TILINGKEY: one decimal digit per field, the first lowest, above the 10^19 marker
    static_assert(optiling::GET_TILINGKEY(1, 2, 3) == 10000000000000000321ULL, "digit order");
    // RecursiveSum: the same digits without the marker (reduction ops' axis-pattern keys)
    static_assert(optiling::RecursiveSum(4, 0, 2) == 204ULL && optiling::RecursiveSum() == 0ULL, "pattern key");
    std::printf("%llu\n", (unsigned long long)(optiling::GET_TILINGKEY(optiling::Mode::LINEAR, 0, 7) % 1000000000000ULL));

    // the template's members across its steps
    gert::StorageShape s;
    for (int64_t d : {4, 6}) {
        s.MutableOriginShape().AppendDim(d);
        s.MutableStorageShape().AppendDim(d);
    }
    gert::Tensor x(s, gert::StorageFormat(ge::FORMAT_ND, ge::FORMAT_ND), gert::kOnHost, ge::DT_FLOAT, nullptr);
    auto holder = gert::OpTilingContextBuilder().OpType("Padded").IONum(1, 1).InputTensors({&x}).Build();
    optiling::KeyedTiling t(holder.GetContext());
    int st = t.DoTiling();
    std::printf("%d %llu %u %s\n", st, (unsigned long long)holder.GetContext()->GetTilingKey(),
                holder.GetContext()->GetBlockDim(), t.shapes.c_str());

    // the error report reaches stderr under its code; typed initial values keep their type and number
    std::printf("%d\n", null_check("Padded", nullptr));
    ops::ScalarVar f{ops::ScalarType::FLOAT16, 1};
    ops::ScalarVar i{ops::ScalarType::INT32, 2.5};
    std::printf("%d %g %d %lld\n", (int)f.scalar_type, f.f, (int)i.scalar_type, (long long)i.i);
    ops::Padded def("Padded");

    // the project's AlignUp beside the shim's CeilDiv
    uint32_t n = 33;
    const uint32_t by = 32;
    std::printf("%u %u\n", optiling::AlignUp<uint32_t>(n, by), optiling::CeilDiv(7u, 2u));

    // TilingParse fills the compile info GetCompileInfoPtr hands it (the vector cores of the 910B)
    PaddedCompileInfo ci;
    auto parse = context_ascendc::ContextBuilder().CompileInfo(&ci).AddPlatformInfo(nullptr).BuildTilingContext();
    int parsed = PaddedTilingParse(parse->GetContext<gert::TilingParseContext>());
    std::printf("%d %u\n", parsed, ci.cores);

    // the device log's level check, as a DumpTilingInfo asks it: debug is off unless COTBUILDER_HOST_LOG=1
    std::printf("%d %d\n", AlogCheckDebugLevel(static_cast<int32_t>(OP), DLOG_DEBUG),
                AlogCheckDebugLevel(static_cast<int32_t>(OP), DLOG_ERROR));
    return 0;
}
