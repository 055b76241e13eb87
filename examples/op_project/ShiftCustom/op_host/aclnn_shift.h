// aclnnShift: out = self + shift (float16 / float32), the hand-written two-phase API of ShiftCustom.
#ifndef ACLNN_SHIFT_H
#define ACLNN_SHIFT_H
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif
ACLNN_API aclnnStatus aclnnShiftGetWorkspaceSize(const aclTensor* self, const aclScalar* shift, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnShift(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif // ACLNN_SHIFT_H
