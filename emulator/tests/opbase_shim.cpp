// The ops-base host shim (util/*.h, infershape_*_util.h, op_host/tiling_base_class.h, op_kernel/*_util.h) as op
// host code calls it: prints one result per line; tests/emulator/test_opbase_shim.py checks them.
#include <cstdio>
#include <vector>

#include "infershape_broadcast_util.h"
#include "infershape_elewise_util.h"
#include "op_host/tiling_base_class.h"
#include "op_infer_shape_context_builder.h"
#include "op_kernel/platform_util.h"
#include "util/const_util.h"
#include "util/math_util.h"
#include "util/platform_util.h"
#include "util/shape_util.h"

// kernel code folds these into its own constants
static constexpr uint32_t BLOCK = Ops::Base::GetUbBlockSize();
static_assert(BLOCK == 32 && Ops::Base::CeilDiv(7, 2) == 4 && Ops::Base::FloorAlign(37, 16) == 32, "constexpr");

class TwoStepTiling : public Ops::Base::TilingBaseClass {
public:
    explicit TwoStepTiling(gert::TilingContext* c) : Ops::Base::TilingBaseClass(c) {}
    std::vector<const char*> steps;

protected:
    bool IsCapable() override { return true; }
    ge::graphStatus GetPlatformInfo() override { return step("platform"); }
    ge::graphStatus GetShapeAttrsInfo() override { return step("shape"); }
    ge::graphStatus DoOpTiling() override { return step("op"); }
    ge::graphStatus DoLibApiTiling() override { return step("lib"); }
    uint64_t GetTilingKey() const override { return 7; }
    ge::graphStatus GetWorkspaceSize() override { return step("workspace"); }
    ge::graphStatus PostTiling() override { return step("post"); }

private:
    ge::graphStatus step(const char* s) {
        steps.push_back(s);
        return ge::GRAPH_SUCCESS;
    }
};

static gert::Tensor host_tensor(std::vector<int64_t> dims, ge::DataType dt, void* data) {
    gert::StorageShape s;
    for (int64_t d : dims) {
        s.MutableOriginShape().AppendDim(d);
        s.MutableStorageShape().AppendDim(d);
    }
    return gert::Tensor(s, gert::StorageFormat(ge::FORMAT_ND, ge::FORMAT_ND), gert::kOnHost, dt, data);
}

int main() {
    using namespace Ops::Base;
    std::printf("%lld %lld %lld %lld\n", (long long)CeilDiv(int64_t(10), 3), (long long)FloorDiv(int64_t(10), 3),
                (long long)CeilAlign(uint32_t(33), 32), (long long)CeilDiv(int64_t(5), 0));
    gert::Shape scalar;
    std::printf("%s %s %s\n", ToString(EnsureNotScalar(scalar)).c_str(), ToString(gert::Shape({2, 3})).c_str(),
                ToString(ge::DT_FLOAT16).c_str());
    gert::Shape unk;
    SetUnknownRank(unk);
    gert::Shape dyn;
    SetUnknownShape(2, dyn);
    std::printf("%d %d %s\n", IsUnknownRank(unk), IsUnknownShape(dyn), ToString(dyn).c_str());

    // element-wise and broadcast InferShape through the UT context builder, with a const input read as a shape
    int32_t perm[3] = {4, 1, 6};
    gert::Tensor a = host_tensor({4, 1, 6}, ge::DT_FLOAT, nullptr);
    gert::Tensor b = host_tensor({5, 1}, ge::DT_FLOAT, nullptr);
    gert::Tensor c = host_tensor({3}, ge::DT_INT32, perm);
    auto holder = gert::OpInferShapeContextBuilder()
                      .OpType("Add")
                      .IONum(3, 1)
                      .InputTensors({&a, &b, &c})
                      .OutputTensorDesc(0, ge::DT_FLOAT, ge::FORMAT_ND, ge::FORMAT_ND)
                      .Build();
    gert::InferShapeContext* ctx = holder.GetContext();
    int st4 = InferShape4Broadcast(ctx, 2);  // (one call per statement: printf's arguments have no order)
    std::printf("%d %s\n", st4, ToString(*ctx->GetOutputShape(0)).c_str());
    st4 = InferShape4Elewise(ctx);
    std::printf("%d %s\n", st4, ToString(*ctx->GetOutputShape(0)).c_str());
    gert::Shape fromConst;
    int64_t first = 0;
    bool gotShape = GetConstIntToShape(ctx, 2, fromConst);
    bool gotInt = GetConstInt(ctx, 2, first);
    std::printf("%d %s %d %lld\n", gotShape, ToString(fromConst).c_str(), gotInt, (long long)first);
    gert::Tensor d = host_tensor({3, 2}, ge::DT_FLOAT, nullptr);
    auto bad = gert::OpInferShapeContextBuilder().OpType("Add").IONum(2, 1).InputTensors({&a, &d}).Build();
    std::fflush(stdout);
    std::printf("%d\n", InferShape4Broadcast(bad.GetContext()) == ge::GRAPH_SUCCESS);

    // the tiling template runs its steps in order and sets the key
    auto tc = gert::OpTilingContextBuilder().OpType("Add").IONum(1, 1).InputTensors({&a}).Build();
    TwoStepTiling t(tc.GetContext());
    ge::graphStatus st = t.DoTiling();
    std::printf("%d %llu", st, (unsigned long long)tc.GetContext()->GetTilingKey());
    for (const char* s : t.steps) std::printf(" %s", s);
    std::printf("\n%lld %lld %d\n", (long long)GetUbBlockSize(tc.GetContext()),
                (long long)GetAivCoreNum(tc.GetContext()), IsRegbaseSocVersion(tc.GetContext()));
    return 0;
}
