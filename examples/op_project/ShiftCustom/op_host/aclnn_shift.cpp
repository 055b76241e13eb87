// aclnnShift on the op-api framework: check the arguments, make the input contiguous (and ND, were it stored in a
// private format), run the kernel through l0op::ShiftCustom, copy its result into `out` (which may be a strided view).
#include "aclnn_shift.h"
#include "shift_custom_l0.h"
#include "aclnn_kernels/contiguous.h"
#include "aclnn_kernels/transdata.h"
#include "aclnn_kernels/common/op_error_check.h"
#include "opdev/common_types.h"
#include "opdev/data_type_utils.h"
#include "opdev/op_dfx.h"
#include "opdev/op_executor.h"
#include "opdev/op_log.h"
#include "opdev/shape_utils.h"

using namespace op;

static const std::initializer_list<DataType> SHIFT_DTYPES = {DataType::DT_FLOAT16, DataType::DT_FLOAT};

static aclnnStatus CheckShiftArgs(const aclTensor* self, const aclScalar* shift, const aclTensor* out)
{
    OP_CHECK_NULL(self, return ACLNN_ERR_PARAM_NULLPTR);
    OP_CHECK_NULL(shift, return ACLNN_ERR_PARAM_NULLPTR);
    OP_CHECK_NULL(out, return ACLNN_ERR_PARAM_NULLPTR);
    OP_CHECK_DTYPE_NOT_SUPPORT(self, SHIFT_DTYPES, return ACLNN_ERR_PARAM_INVALID);
    OP_CHECK_DTYPE_NOT_SAME(self, out, return ACLNN_ERR_PARAM_INVALID);
    OP_CHECK_MAX_DIM(self, 8, return ACLNN_ERR_PARAM_INVALID);
    OP_CHECK_SHAPE_NOT_EQUAL(self, out, return ACLNN_ERR_PARAM_INVALID);
    return ACLNN_SUCCESS;
}

extern "C" aclnnStatus aclnnShiftGetWorkspaceSize(const aclTensor* self, const aclScalar* shift, aclTensor* out,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor)
{
    L2_DFX_PHASE_1(aclnnShift, DFX_IN(self, shift), DFX_OUT(out));
    auto uniqueExecutor = CREATE_EXECUTOR();
    CHECK_RET(uniqueExecutor.get() != nullptr, ACLNN_ERR_INNER_CREATE_EXECUTOR);
    auto ret = CheckShiftArgs(self, shift, out);
    CHECK_RET(ret == ACLNN_SUCCESS, ret);
    if (self->IsEmpty()) {
        *workspaceSize = 0;
        uniqueExecutor.ReleaseTo(executor);
        return ACLNN_SUCCESS;
    }
    auto selfContiguous = l0op::Contiguous(self, uniqueExecutor.get());
    CHECK_RET(selfContiguous != nullptr, ACLNN_ERR_INNER_NULLPTR);
    if (IsPrivateFormat(selfContiguous->GetStorageFormat())) {  // the kernel reads ND
        selfContiguous = l0op::TransData(selfContiguous, Format::FORMAT_ND, 0, uniqueExecutor.get());
        CHECK_RET(selfContiguous != nullptr, ACLNN_ERR_INNER_NULLPTR);
    }
    auto shifted = l0op::ShiftCustom(selfContiguous, shift->ToFloat(), uniqueExecutor.get());
    CHECK_RET(shifted != nullptr, ACLNN_ERR_INNER_NULLPTR);
    if (shifted->IsFromWorkspace()) {  // the result lies in the executor's memory, not yet in `out`
        auto copied = l0op::ViewCopy(shifted, out, uniqueExecutor.get());
        CHECK_RET(copied != nullptr, ACLNN_ERR_INNER_NULLPTR);
    }
    *workspaceSize = uniqueExecutor->GetWorkspaceSize();
    uniqueExecutor.ReleaseTo(executor);
    return ACLNN_SUCCESS;
}

extern "C" aclnnStatus aclnnShift(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream)
{
    L2_DFX_PHASE_2(aclnnShift);
    return CommonOpExecutorRun(workspace, workspaceSize, executor, stream);
}
