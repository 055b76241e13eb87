// The aclnn two-phase API's shared types (docs: aclnn API reference, "两段式接口"): aclnnStatus and its codes,
// aclOpExecutor, and the argument objects of acl_meta.h. The op-specific aclnn<Op>GetWorkspaceSize / aclnn<Op>
// pair is generated per op by cotbuilder from the op's OpDef, as msOpGen does.
#pragma once
#include <cstdint>

#include "../acl/acl.h"
#include "acl_meta.h"

typedef int32_t aclnnStatus;
constexpr aclnnStatus ACLNN_SUCCESS = 0;
constexpr aclnnStatus ACLNN_ERR_PARAM_NULLPTR = 161001;
constexpr aclnnStatus ACLNN_ERR_PARAM_INVALID = 161002;
constexpr aclnnStatus ACLNN_ERR_RUNTIME_ERROR = 361001;
constexpr aclnnStatus ACLNN_ERR_INNER = 561000;
constexpr aclnnStatus ACLNN_ERR_INNER_INFERSHAPE_ERROR = 561001;
constexpr aclnnStatus ACLNN_ERR_INNER_TILING_ERROR = 561002;
constexpr aclnnStatus ACLNN_ERR_INNER_FIND_KERNEL_ERROR = 561003;

struct aclOpExecutor;
