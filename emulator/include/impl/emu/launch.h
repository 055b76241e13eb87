// Kernel launch on the CPU: ICPU_RUN_KF (tikicpulib), COTBUILDER_LAUNCH (what the verify stage
// rewrites `kernel<<<blockDim, l2ctrl, stream>>>(args...)` into), ACLRT_LAUNCH_KERNEL, GM memory.
#pragma once
#include <cstddef>

#include "../basic_api/misc.h"

namespace AscendC {
inline void* GmAlloc(size_t size) { return cbemu::gm_alloc(size); }
inline void GmFree(void* ptr) { cbemu::gm_free(ptr); }
}  // namespace AscendC

namespace cbemu {
// ACLRT_LAUNCH_KERNEL(kernel)(blockDim, stream, args...)
template <typename F>
struct AclrtLauncher {
    F f;
    const char* name;
    template <typename... Args>
    uint32_t operator()(uint32_t block_dim, void* /*stream*/, Args... args) const {
        run_kernel(name, f, block_dim, args...);
        return 0;
    }
};
template <typename F>
AclrtLauncher<F> aclrt_launcher(F f, const char* name) { return AclrtLauncher<F>{f, name}; }
}  // namespace cbemu

// Function spelling of the launch: safe for template kernels whose arguments contain commas,
// e.g. cotbuilder::launch(kernel<count, mask>, blockDim, x, y).
namespace cotbuilder {
template <typename F, typename... Args>
inline void launch(F func, uint32_t block_dim, Args... args) {
    ::cbemu::run_kernel("kernel", func, block_dim, args...);
}
}  // namespace cotbuilder

#define ICPU_RUN_KF(func, blockDim, ...) ::cbemu::run_kernel(#func, func, (uint32_t)(blockDim), ##__VA_ARGS__)
#define COTBUILDER_LAUNCH(func, blockDim, ...) ::cbemu::run_kernel(#func, func, (uint32_t)(blockDim), ##__VA_ARGS__)
#define ACLRT_LAUNCH_KERNEL(func) ::cbemu::aclrt_launcher(func, #func)
#define ICPU_SET_TILING_KEY(key) (::cbemu::tiling_key() = (uint64_t)(key))
#define TILING_KEY_IS(key) (::cbemu::tiling_key() == (uint64_t)(key))
