// The cores of one launch: plain blocks (the vector kernels: every block a vector core), cube-only and vector-only
// kernels, and mixed AIC/AIV kernels (docs: 工具接口/系统资源与变量/GetBlockIdx.md, GetBlockNum.md, GetTaskRatio.md,
// GetSubBlockIdx(ISASI).md; Kernel-Tiling/设置Kernel类型.md; 同步控制/核间同步/CrossCoreSetFlag(ISASI).md and
// 关键特性说明.md).
//
// A mixed launch of numBlocks logical cores runs numBlocks AIC cores and numBlocks * r AIV cores (r = 2 for
// `__mix__(1, 2)` / KERNEL_TYPE_MIX_AIC_1_2, 1 for 1:1). The type is known
//   - at launch, for a kernel declared `__mix__(a, b)`: the qualifier marks its code (qualifiers.h), which the
//     launch reads at the kernel's address;
//   - when the kernel states it, `KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2)`, or registers a Matmul object
//     outside ASCENDC_CUBE_ONLY (the library's default is a mixed kernel whose AIVs call the cube): the block that
//     finds out becomes the AIC core of its logical core and starts its AIV partners, which run the kernel from its
//     first line as the hardware's AIV cores do.
// This file: who a core is. The scheduler (sched.h) runs every core of a launch as one of its blocks; the mixed-kernel
// API (mixed.h) types cores, starts AIV partners and carries the CrossCore flags.
#pragma once
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>


// The kernel types of KERNEL_TASK_TYPE_DEFAULT (spelled unqualified by kernels).
enum KernelMetaType : uint8_t {
    KERNEL_TYPE_AIV_ONLY,
    KERNEL_TYPE_AIC_ONLY,
    KERNEL_TYPE_MIX_AIV_1_0,
    KERNEL_TYPE_MIX_AIC_1_0,
    KERNEL_TYPE_MIX_AIC_1_1,
    KERNEL_TYPE_MIX_AIC_1_2,
    KERNEL_TYPE_AICORE,
    KERNEL_TYPE_VECTORCORE,
    KERNEL_TYPE_MIX_AICORE,
    KERNEL_TYPE_MIX_VECTOR_CORE,
    KERNEL_TYPE_MAX,
};

namespace cbemu {

enum class CoreKind : uint8_t { PLAIN = 0, AIC, AIV };
inline const char* core_kind_name(CoreKind k) { return k == CoreKind::AIC ? "AIC" : k == CoreKind::AIV ? "AIV" : "core"; }

struct CoreId {
    CoreKind kind = CoreKind::PLAIN;
    int logical = 0;  // the logical AI core (0 .. numBlocks-1)
    int sub = 0;      // AIV index inside its logical core
    int aiv_per = 0;  // AIVs per logical core in a mixed launch (0: not mixed)
    bool has_aic = false;
    bool saw_is_aic = false, saw_is_aiv = false;  // a plain block tested ASCEND_IS_AIC / ASCEND_IS_AIV
};
inline CoreId& core_id() {
    thread_local CoreId c;
    return c;
}

// The ratio a kernel's code says: `__mix__(aic, aiv)` starts it with 8 + 4 * aic + aiv no-ops (qualifiers.h).
struct MixRatio {
    int aic = 0, aiv = 0;
};
inline int leading_nops(const void* f) {
#if defined(__x86_64__) || defined(__i386__)
    const unsigned char* p = (const unsigned char*)f;
    if (p[0] == 0xf3 && p[1] == 0x0f && p[2] == 0x1e && (p[3] == 0xfa || p[3] == 0xfb)) p += 4;  // endbr
    int n = 0;
    while (n < 32 && p[n] == 0x90) ++n;
    return n;
#elif defined(__aarch64__)
    const uint32_t* p = (const uint32_t*)f;
    if ((p[0] & 0xFFFFFF3Fu) == 0xD503241Fu) ++p;  // bti
    int n = 0;
    while (n < 32 && p[n] == 0xD503201Fu) ++n;
    return n;
#else
    (void)f;
    return 0;
#endif
}
template <typename F>
inline MixRatio mix_ratio_of(F func) {
    if constexpr (std::is_pointer<F>::value && std::is_function<typename std::remove_pointer<F>::type>::value) {
        int n = leading_nops((const void*)func) - 8;
        if (n >= 0 && n <= 7 && (n >> 2) <= 1 && (n & 3) <= 2 && n != 0) return {n >> 2, n & 3};
    }
    return {};
}

// The block index / count a core reports (GetBlockIdx.md): AIV cores of a 1:2 launch count 0 .. 2*numBlocks-1.
inline int block_index_of(const CoreId& id) {
    return id.kind == CoreKind::AIV && id.aiv_per > 1 ? id.logical * id.aiv_per + id.sub : id.logical;
}

}  // namespace cbemu
