// Forced into every translation unit of an op's hand-written aclnn layer (opproject/build.py, stage opapi): on a
// device such code moves data only through the executor's tasks; a runtime copy or fill of device memory it made
// itself (the output written from the host) is the `opapi_bypass` diagnostic, and is not done.
#pragma once
#include "../../acl/acl.h"
#include "../emu/diag.h"

namespace cbhost {
namespace opapi {
inline aclError layer_device_write(const char* call) {
    cbemu::report("opapi_bypass", cbemu::Sev::error, cbemu::SrcLoc("aclnn layer", 0),
                  "the hand-written aclnn layer calls %s itself: device memory is written by the executor's tasks "
                  "only, so the output may not be the kernel's",
                  call);
    return ACL_ERROR_INVALID_PARAM;
}
}  // namespace opapi
}  // namespace cbhost

#define aclrtMemcpy(...) ::cbhost::opapi::layer_device_write("aclrtMemcpy")
#define aclrtMemcpyAsync(...) ::cbhost::opapi::layer_device_write("aclrtMemcpyAsync")
#define aclrtMemset(...) ::cbhost::opapi::layer_device_write("aclrtMemset")
#define aclrtMemsetAsync(...) ::cbhost::opapi::layer_device_write("aclrtMemsetAsync")
