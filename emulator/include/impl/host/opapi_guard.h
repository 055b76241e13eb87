// Who wrote device memory, in a program built with a hand-written op-api layer. On a device the layer's host code
// cannot touch device memory except through the runtime (aclrtMemcpy ...) and the kernels its executor launches;
// here device memory is host memory, so a layer could compute the output on the CPU and write it itself. The guard
// keeps a digest of every GM allocation, updated only by the acl runtime's calls (acl.h's hook) and by the
// framework's own work (its tasks in phase 2, the tensors it fills in phase 1); at each of those points it first
// checks that nothing else changed any allocation. A change it cannot account for is the `opapi_bypass`
// diagnostic: the output was not (only) the kernel's.
#pragma once
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>

#include "../../acl/acl.h"
#include "../emu/diag.h"
#include "../emu/runtime.h"

namespace cbhost {
namespace opapi {

struct Guard {
    bool active = false;
    std::map<uintptr_t, uint64_t> digest;  // allocation base -> digest of its bytes when last accounted for
    int kernel_launches = 0;              // l0 kernel launches the framework ran, the whole process
    int reported = 0;
};
inline Guard& guard() {
    static Guard g;
    return g;
}

inline uint64_t digest_of(const uint8_t* p, size_t n) {
    uint64_t h = 1469598103934665603ull ^ n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        std::memcpy(&w, p + i, 8);
        h = (h ^ w) * 1099511628211ull;
        h ^= h >> 29;
    }
    for (; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

inline std::map<uintptr_t, size_t> allocations() {
    std::lock_guard<std::mutex> g(cbemu::gm_registry().m);
    return cbemu::gm_registry().allocs;
}

// Record the current bytes of one allocation (the one holding p) as accounted for.
inline void accept_one(const void* p) {
    uintptr_t base = 0;
    size_t size = 0;
    if (!p || !cbemu::hz::gm_allocation(p, base, size)) return;
    guard().digest[base] = digest_of(reinterpret_cast<const uint8_t*>(base), size);
}
inline void accept_all() {
    auto& d = guard().digest;
    d.clear();
    for (const auto& [base, size] : allocations()) d[base] = digest_of(reinterpret_cast<const uint8_t*>(base), size);
}
// Every allocation still as last accounted for; an allocation not seen before is taken as it is.
inline void check_all(const char* where) {
    if (!guard().active) return;
    auto& d = guard().digest;
    for (const auto& [base, size] : allocations()) {
        uint64_t now = digest_of(reinterpret_cast<const uint8_t*>(base), size);
        auto it = d.find(base);
        if (it == d.end()) {
            d[base] = now;
            continue;
        }
        if (it->second != now && guard().reported++ < 3)
            cbemu::report("opapi_bypass", cbemu::Sev::error, cbemu::SrcLoc("aclnn layer", 0),
                          "device memory at %#lx (%zu bytes) changed outside the acl runtime and the op-api "
                          "framework's tasks (seen %s): the hand-written aclnn layer wrote it itself, so the "
                          "output is not the kernel's",
                          (unsigned long)base, size, where);
        it->second = now;
    }
}

inline void acl_hook(int phase, const char* call, const void* dst) {
    if (phase == 0) {
        check_all(call);
    } else if (std::strcmp(call, "aclrtFree") == 0) {
        accept_all();
    } else {
        accept_one(dst);
    }
}

// Called once by the program's generated kernel registration when it is built with a hand-written op-api layer.
inline void at_exit() {
    check_all("at exit");
    if (guard().kernel_launches == 0)
        cbemu::report("opapi_bypass", cbemu::Sev::error, cbemu::SrcLoc("aclnn layer", 0),
                      "the program ran no kernel of the op through the op-api framework (no l0 launch reached "
                      "ADD_TO_LAUNCHER_LIST_AICORE and ran): whatever it wrote is not the kernel's output");
}
inline bool activate_guard() {
    guard().active = true;
    cbemu_acl_hook() = acl_hook;
    accept_all();
    std::atexit(at_exit);
    return true;
}

}  // namespace opapi
}  // namespace cbhost
