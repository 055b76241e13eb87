// l0 API of ShiftCustom: one AI Core launch of the op's kernel.
#ifndef SHIFT_CUSTOM_L0_H
#define SHIFT_CUSTOM_L0_H
#include "opdev/op_executor.h"

namespace l0op {
const aclTensor* ShiftCustom(const aclTensor* x, float shift, aclOpExecutor* executor);
}
#endif // SHIFT_CUSTOM_L0_H
