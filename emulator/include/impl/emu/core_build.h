// Forced into each build of a kernel built once per core type (core_builds.h), after the emulator's headers:
// CBEMU_CORE_BUILD is 1 for the cube build (the device compiler's `__DAV_C220_CUBE__`), 2 for the vector build
// (`__DAV_C220_VEC__`). In each, the core type is a constant, as on the device. The build's own translation unit
// ends with CBEMU_REGISTER_CORE_BUILD(entry), which registers the entry of this build.
#pragma once
#include "../basic_api/cross_core.h"

#if CBEMU_CORE_BUILD == 1
#undef g_coreType
#define g_coreType ::AscendC::AIC
#undef ASCEND_IS_AIC
#define ASCEND_IS_AIC (true)
#undef ASCEND_IS_AIV
#define ASCEND_IS_AIV (false)
#elif CBEMU_CORE_BUILD == 2
#undef g_coreType
#define g_coreType ::AscendC::AIV
#undef ASCEND_IS_AIC
#define ASCEND_IS_AIC (false)
#undef ASCEND_IS_AIV
#define ASCEND_IS_AIV (true)
#else
#error "impl/emu/core_build.h needs CBEMU_CORE_BUILD 1 (cube build) or 2 (vector build)"
#endif

#define CBEMU_CORE_BUILD_STR2(x) #x
#define CBEMU_CORE_BUILD_STR(x) CBEMU_CORE_BUILD_STR2(x)
#define CBEMU_REGISTER_CORE_BUILD(entry)                                                              \
    static const int cbemu_core_build_registered_ =                                                  \
        ::cbemu::register_core_build(CBEMU_CORE_BUILD_STR(entry), CBEMU_CORE_BUILD, (const void*)&entry)
