// Harness shim (hand-written): EXEC_NPU_CMD on the emulated aclnn layer (cotbuilder/npu_helper.h).
#pragma once
#include "cotbuilder/npu_helper.h"

// ConvertType: the helper's conversion of one binding argument to its aclnn type (an IntArrayRef to an aclIntArray,
// a Tensor to an aclTensor, ...), which bindings also call themselves before EXEC_NPU_CMD.
template <typename T>
inline auto ConvertType(const T& value) -> decltype(::cotbuilder_bind::convert(value)) {
    return ::cotbuilder_bind::convert(value);
}
