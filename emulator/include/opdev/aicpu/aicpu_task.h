// opdev/aicpu/aicpu_task.h: an l0 op's AI CPU task description. AI CPU kernels are not emulated: a layer that
// reaches ADD_TO_LAUNCHER_LIST_AICPU stops the run as unsupported, naming the op (impl/host/opapi_executor.h).
#pragma once
#include "../../impl/host/opapi.h"

namespace ge {
#ifndef CBHOST_UNKNOWN_SHAPE_TYPE
#define CBHOST_UNKNOWN_SHAPE_TYPE
enum UnknowShapeOpType { DEPEND_IN_SHAPE = 1, DEPEND_CONST_VALUE = 2, DEPEND_SHAPE_RANGE = 3, DEPEND_COMPUTE = 4 };
#endif
}  // namespace ge

namespace op {
namespace internal {
class AicpuTaskSpace {
public:
    explicit AicpuTaskSpace(const char* op_type, int shape_type = 0, bool = false) : type_(op_type), shape_(shape_type) {}
    const char* Type() const { return type_; }

private:
    const char* type_;
    int shape_;
};
}  // namespace internal
}  // namespace op

#define OP_ATTR_NAMES(...) ::cbhost::opapi::make_group(::cbhost::opapi::kNone)
