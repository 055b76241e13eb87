// A host runtime so samples' acl host code runs against the emulator (docs: acl_rt.h of the ACL runtime): device
// memory is GM allocated with GmAlloc (bounds-checked), streams are synchronous, every call with valid arguments
// succeeds. aclTensor and friends (aclnn/acl_meta.h) come with the generated aclnn headers, as in CANN.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "../impl/emu/runtime.h"
#include "acl_base.h"

typedef void* aclrtStream;
typedef void* aclrtContext;
typedef void* aclrtEvent;

typedef enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_DEVICE_TO_DEVICE,
    ACL_MEMCPY_DEFAULT,
} aclrtMemcpyKind;

typedef enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST,
    ACL_MEM_MALLOC_HUGE_ONLY,
    ACL_MEM_MALLOC_NORMAL_ONLY,
    ACL_MEM_MALLOC_HUGE_FIRST_P2P,
    ACL_MEM_MALLOC_HUGE_ONLY_P2P,
    ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
} aclrtMemMallocPolicy;

// The device's float overflow mode (aclrtFloatOverflowMode): Inf/NaN by default on A2 / A3, saturation on request.
// Kept in the environment, where every kernel launch of this process reads it (runtime.h launch_ctrl).
typedef enum aclrtFloatOverflowMode {
    ACL_RT_OVERFLOW_MODE_SATURATION = 0,
    ACL_RT_OVERFLOW_MODE_INFNAN,
    ACL_RT_OVERFLOW_MODE_UNDEF,
} aclrtFloatOverflowMode;
inline aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode) {
    if (mode != ACL_RT_OVERFLOW_MODE_SATURATION && mode != ACL_RT_OVERFLOW_MODE_INFNAN) return ACL_ERROR_INVALID_PARAM;
    setenv("COTBUILDER_SAT_MODE", mode == ACL_RT_OVERFLOW_MODE_SATURATION ? "saturation" : "infnan", 1);
    return ACL_SUCCESS;
}
inline aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode* mode) {
    if (!mode) return ACL_ERROR_INVALID_PARAM;
    *mode = cbemu::saturation_requested() ? ACL_RT_OVERFLOW_MODE_SATURATION : ACL_RT_OVERFLOW_MODE_INFNAN;
    return ACL_SUCCESS;
}

inline aclError aclInit(const char*) { return ACL_SUCCESS; }
inline aclError aclFinalize() { return ACL_SUCCESS; }
inline aclError aclrtSetDevice(int32_t) { return ACL_SUCCESS; }
inline aclError aclrtResetDevice(int32_t) { return ACL_SUCCESS; }
inline aclError aclrtGetDevice(int32_t* id) { if (id) *id = 0; return ACL_SUCCESS; }
inline aclError aclrtCreateContext(aclrtContext* c, int32_t) { if (c) *c = nullptr; return ACL_SUCCESS; }
inline aclError aclrtDestroyContext(aclrtContext) { return ACL_SUCCESS; }
// one emulated device, one context: setting it changes nothing, reading it gives the one CreateContext gave (null)
inline aclError aclrtSetCurrentContext(aclrtContext) { return ACL_SUCCESS; }
inline aclError aclrtGetCurrentContext(aclrtContext* c) { if (!c) return ACL_ERROR_INVALID_PARAM; *c = nullptr; return ACL_SUCCESS; }
inline aclError aclrtCreateStream(aclrtStream* s) { if (s) *s = nullptr; return ACL_SUCCESS; }
inline aclError aclrtDestroyStream(aclrtStream) { return ACL_SUCCESS; }
inline aclError aclrtSynchronizeStream(aclrtStream) { return ACL_SUCCESS; }
inline aclError aclrtSynchronizeDevice() { return ACL_SUCCESS; }
// Who wrote device memory: a program built with a hand-written op-api layer installs a hook that accounts for every
// write the runtime makes (impl/host/opapi_guard.h), so a write made by none of these calls nor by the framework's
// tasks - the layer computing the output itself - is seen. phase 0: before the call (dst: the memory it will
// write), 1: after it; a null hook (every other program) costs one test.
inline void (*&cbemu_acl_hook())(int phase, const char* call, const void* dst) {
    static void (*hook)(int, const char*, const void*) = nullptr;
    return hook;
}
inline void cbemu_acl_note(int phase, const char* call, const void* dst) {
    if (auto* hook = cbemu_acl_hook()) hook(phase, call, dst);
}
// Device memory as the runtime documents it: the size rounded up to 32 bytes, plus 32 bytes.
inline aclError aclrtMalloc(void** p, size_t size, aclrtMemMallocPolicy) {
    if (!p) return ACL_ERROR_INVALID_PARAM;
    // not cleared: the memory holds the poison byte
    *p = cbemu::gm_alloc((size + 31) / 32 * 32 + 32, /*zeroed=*/false);
    cbemu_acl_note(1, "aclrtMalloc", *p);
    return *p ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
}
inline aclError aclrtFree(void* p) {
    cbemu_acl_note(0, "aclrtFree", nullptr);
    cbemu::gm_free(p);
    cbemu_acl_note(1, "aclrtFree", nullptr);
    return ACL_SUCCESS;
}
inline aclError aclrtMallocHost(void** p, size_t size) {
    if (!p) return ACL_ERROR_INVALID_PARAM;
    *p = std::malloc(size ? size : 1);
    return *p ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
}
inline aclError aclrtFreeHost(void* p) { std::free(p); return ACL_SUCCESS; }
inline aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind) {
    if (count > destMax || (count && (!dst || !src))) return ACL_ERROR_INVALID_PARAM;
    cbemu_acl_note(0, "aclrtMemcpy", dst);
    std::memmove(dst, src, count);
    cbemu_acl_note(1, "aclrtMemcpy", dst);
    return ACL_SUCCESS;
}
inline aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                                 aclrtStream) {
    return aclrtMemcpy(dst, destMax, src, count, kind);
}
inline aclError aclrtMemset(void* dst, size_t destMax, int32_t value, size_t count) {
    if (count > destMax || (count && !dst)) return ACL_ERROR_INVALID_PARAM;
    cbemu_acl_note(0, "aclrtMemset", dst);
    std::memset(dst, value, count);
    cbemu_acl_note(1, "aclrtMemset", dst);
    return ACL_SUCCESS;
}
inline aclError aclrtMemsetAsync(void* dst, size_t destMax, int32_t value, size_t count, aclrtStream) {
    return aclrtMemset(dst, destMax, value, count);
}
inline aclError aclrtCreateEvent(aclrtEvent* e) { if (e) *e = nullptr; return ACL_SUCCESS; }
inline aclError aclrtDestroyEvent(aclrtEvent) { return ACL_SUCCESS; }
inline aclError aclrtRecordEvent(aclrtEvent, aclrtStream) { return ACL_SUCCESS; }
inline aclError aclrtSynchronizeEvent(aclrtEvent) { return ACL_SUCCESS; }
inline aclError aclrtEventElapsedTime(float* ms, aclrtEvent, aclrtEvent) { if (ms) *ms = 0; return ACL_SUCCESS; }
inline aclError aclrtGetDeviceCount(uint32_t* n) { if (n) *n = 1; return ACL_SUCCESS; }
inline const char* aclrtGetSocName() {
    const char* s = std::getenv("COTBUILDER_SOC");
    return (s && std::strncmp(s, "ascend310p", 10) == 0) ? "Ascend310P1" : "Ascend910B1";
}

namespace cbhost {
// The last failure message of the emulated aclnn layer (what aclGetRecentErrMsg returns).
inline std::string& last_error() {
    static std::string e;
    return e;
}
}  // namespace cbhost
inline const char* aclGetRecentErrMsg() { return cbhost::last_error().c_str(); }

#ifndef CHECK_ACL
#define CHECK_ACL(x) do { aclError __ret = (x); (void)__ret; } while (0)
#endif
