// aclnn_kernels/transdata.h: the framework's format conversions between ND-like and the private (5HD, 6HD, FRACTAL)
// formats. ReFormat (a relabel) runs on the host (impl/host/opapi_l0.h); TransData and TransDataSpecial are CANN's
// built-in TransData kernel: declared only, so a layer that names them on a path its example does not take builds, and
// one that takes it stops as unsupported naming the op (opapi.builtin_stubs defines them at link time).
#pragma once
#include "../impl/host/opapi.h"

namespace l0op {
const aclTensor* TransData(const aclTensor* x, op::Format dstPrimaryFormat, int64_t groups, aclOpExecutor* executor);
const aclTensor* TransDataSpecial(const aclTensor* x, op::Format dstPrimaryFormat, int64_t groups,
                                  aclOpExecutor* executor);
}  // namespace l0op
