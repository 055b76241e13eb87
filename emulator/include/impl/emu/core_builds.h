// A mixed kernel built once per core type, as the device compiler builds it (docs: 编程指南 AIC/AIV 分离架构; the
// `__DAV_C220_CUBE__` / `__DAV_C220_VEC__` builds of a dav-c220 kernel): the cube build runs on the AIC cores, the
// vector build on the AIV cores, and in each `g_coreType`, `ASCEND_IS_AIC` and `ASCEND_IS_AIV` are constants (a
// kernel may use them as template arguments, or specialise a member template per core type). cotbuilder's verify
// compiles such a kernel twice with impl/emu/core_build.h forced in and gives the vector build's symbols names of
// their own (cotbuilder/verify/core_builds.py); each build registers its entry here under the entry's name, and a
// launch of either entry runs both (sched.h: run_kernel).
//
// The kernel's type comes from what the builds contain, as the device compiler infers it for a kernel that does not
// declare it: both builds -> mixed, 1 AIC : 2 AIV (the A2 default, KERNEL_TYPE_MIX_AIC_1_2); a build that could not be
// linked (it calls a function defined for the other core type only) is absent, and the kernel is that of the other.
// A `__mix__(a, b)` ratio on the entry still decides the ratio.
#pragma once
#include <cstring>
#include <map>
#include <mutex>
#include <string>

#include "cores.h"
#include "rt.h"

namespace cbemu {

struct CoreBuilds {
    const void* aic = nullptr;  // the entry of the cube build (nullptr: none)
    const void* aiv = nullptr;  // the entry of the vector build
};

// State (a function-local static in an inline accessor: one object per program, whichever build calls it).
inline std::map<std::string, CoreBuilds>& core_build_table() {
    static std::map<std::string, CoreBuilds> t;
    return t;
}
inline std::mutex& core_build_mutex() {
    static std::mutex m;
    return m;
}

// Called by each build's static initialiser (core_build.h): `core` is 1 for the cube build, 2 for the vector build.
CBEMU_RT int register_core_build(const char* entry, int core, const void* addr);

// The builds of the kernel whose entry (of either build) is `f`; both nullptr for a kernel built once.
CBEMU_RT CoreBuilds core_builds_of(const void* f);

// The launch's ratio: the entry's `__mix__` ratio if it has one, else what the builds present say.
inline MixRatio split_mix(MixRatio declared, const CoreBuilds& cb) {
    if (declared.aic || declared.aiv) return declared;
    if (cb.aic && cb.aiv) return {1, 2};
    return cb.aic ? MixRatio{1, 0} : MixRatio{0, 1};
}

}  // namespace cbemu

#if CBEMU_RT_BODY
namespace cbemu {

CBEMU_RT int register_core_build(const char* entry, int core, const void* addr) {
    std::lock_guard<std::mutex> g(core_build_mutex());
    CoreBuilds& b = core_build_table()[entry];
    (core == 1 ? b.aic : b.aiv) = addr;
    return core;
}

CBEMU_RT CoreBuilds core_builds_of(const void* f) {
    std::lock_guard<std::mutex> g(core_build_mutex());
    for (const auto& kv : core_build_table())
        if (kv.second.aic == f || kv.second.aiv == f) return kv.second;
    return {};
}

}  // namespace cbemu
#endif  // CBEMU_RT_BODY
