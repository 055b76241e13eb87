// The aclnn two-phase API's shared types (docs: aclnn API reference, "两段式接口"): aclnnStatus and its codes,
// aclOpExecutor, and the argument objects of acl_meta.h. The op-specific aclnn<Op>GetWorkspaceSize / aclnn<Op>
// pair is generated per op by cotbuilder from the op's OpDef, as msOpGen does.
#pragma once
#include <cstdint>

#include "../acl/acl.h"
#include "acl_meta.h"  // aclnnStatus

constexpr aclnnStatus ACLNN_SUCCESS = 0;
constexpr aclnnStatus ACLNN_ERR_PARAM_NULLPTR = 161001;
constexpr aclnnStatus ACLNN_ERR_PARAM_INVALID = 161002;
constexpr aclnnStatus ACLNN_ERR_RUNTIME_ERROR = 361001;
constexpr aclnnStatus ACLNN_ERR_INNER = 561000;
constexpr aclnnStatus ACLNN_ERR_INNER_INFERSHAPE_ERROR = 561001;
constexpr aclnnStatus ACLNN_ERR_INNER_TILING_ERROR = 561002;
constexpr aclnnStatus ACLNN_ERR_INNER_FIND_KERNEL_ERROR = 561003;
constexpr aclnnStatus ACLNN_ERR_INNER_CREATE_EXECUTOR = 561101;
constexpr aclnnStatus ACLNN_ERR_INNER_NOT_TRANS_EXECUTOR = 561102;
constexpr aclnnStatus ACLNN_ERR_INNER_NULLPTR = 561103;
constexpr aclnnStatus ACLNN_ERR_INNER_WRONG_ATTR_INFO_SIZE = 561104;
constexpr aclnnStatus ACLNN_ERR_INNER_KEY_CONFILICT = 561105;
constexpr aclnnStatus ACLNN_ERR_INNER_INVALID_IMPL_MODE = 561106;
constexpr aclnnStatus ACLNN_ERR_INNER_OPP_PATH_NOT_FOUND = 561107;
constexpr aclnnStatus ACLNN_ERR_INNER_LOAD_JSON_FAILED = 561108;
constexpr aclnnStatus ACLNN_ERR_INNER_JSON_VALUE_NOT_FOUND = 561109;
constexpr aclnnStatus ACLNN_ERR_INNER_JSON_FORMAT_INVALID = 561110;
constexpr aclnnStatus ACLNN_ERR_INNER_OPP_KERNEL_PKG_NOT_FOUND = 561112;

struct aclOpExecutor;
