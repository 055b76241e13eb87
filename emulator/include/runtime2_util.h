// Host shim (hand-written): `runtime2_util.h`, the runtime-2.0 spelling of the op-proto helper header
// (runtime_util.h): the op impl registry, the log and check macros, the ops-base InferShape helpers, and
// GetCompileInfoPtr (a TilingParse function's compile-info struct, as the context holds it).
#pragma once
#include "runtime_util.h"

namespace optiling {
template <typename T>
T* GetCompileInfoPtr(gert::TilingParseContext* context) {
    return context == nullptr ? nullptr : context->GetCompiledInfo<T>();
}
}  // namespace optiling
