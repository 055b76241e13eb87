// l0op::ShiftCustom: allocates the result (the input's shape, by the op's InferShape) and queues the kernel.
#include "shift_custom_l0.h"
#include "opdev/make_op_executor.h"
#include "opdev/op_dfx.h"
#include "opdev/op_log.h"

// the launch names the attributes it passes (in the OpDef's order)
#define OP_ATTR_NAMES ::op::FVector<std::string>

namespace l0op {
OP_TYPE_REGISTER(ShiftCustom);

const aclTensor* ShiftCustom(const aclTensor* x, float shift, aclOpExecutor* executor)
{
    L0_DFX(ShiftCustom, x, shift);
    aclTensor* y = executor->AllocTensor(x->GetDataType(), op::Format::FORMAT_ND, op::Format::FORMAT_ND);
    CHECK_RET(y != nullptr, nullptr);
    auto shape = INFER_SHAPE(ShiftCustom, OP_INPUT(x), OP_OUTPUT(y), OP_ATTR(shift));
    CHECK_RET(shape == ACLNN_SUCCESS, nullptr);
    auto launched = ADD_TO_LAUNCHER_LIST_AICORE(
        ShiftCustom, OP_ATTR_NAMES({"shift"}), OP_INPUT(x), OP_OUTPUT(y), OP_ATTR(shift));
    OP_CHECK_ADD_TO_LAUNCHER_LIST_AICORE(launched != ACLNN_SUCCESS, return nullptr, "ShiftCustom launch failed");
    return y;
}
} // namespace l0op
