// runtime/context.h of the device runtime, the part an aclnn layer reads: a context's system options
// (rtCtxGetSysParamOpt). The emulated device runs one context with deterministic computation off, the runtime's
// default (aclrtCtxSetSysParamOpt / ACL_OPT_DETERMINISTIC is 0 until a program sets it).
#pragma once
#include <cstdint>

typedef int32_t rtError_t;
constexpr rtError_t RT_ERROR_NONE = 0;
typedef enum tagRtSysParamOpt {
    SYS_OPT_DETERMINISTIC = 0,
    SYS_OPT_ENABLE_DEBUG_KERNEL = 1,
    SYS_OPT_RESERVED = 2,
} rtSysParamOpt;
inline rtError_t rtCtxGetSysParamOpt(rtSysParamOpt opt, int64_t* value) {
    if (!value) return 1;
    (void)opt;
    *value = 0;
    return RT_ERROR_NONE;
}
