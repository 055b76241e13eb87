// A minimal host runtime so samples' acl host code runs against the emulator: device memory is
// GM allocated with GmAlloc (bounds-checked), streams are synchronous, every call succeeds.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "../impl/emu/fp.h"
#include "../impl/emu/runtime.h"

typedef int aclError;
typedef void* aclrtStream;
typedef void* aclrtContext;
typedef void* aclrtEvent;
constexpr aclError ACL_SUCCESS = 0;
constexpr aclError ACL_ERROR_INVALID_PARAM = 100000;

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

inline aclError aclInit(const char*) { return ACL_SUCCESS; }
inline aclError aclFinalize() { return ACL_SUCCESS; }
inline aclError aclrtSetDevice(int32_t) { return ACL_SUCCESS; }
inline aclError aclrtResetDevice(int32_t) { return ACL_SUCCESS; }
inline aclError aclrtGetDevice(int32_t* id) { if (id) *id = 0; return ACL_SUCCESS; }
inline aclError aclrtCreateContext(aclrtContext* c, int32_t) { if (c) *c = nullptr; return ACL_SUCCESS; }
inline aclError aclrtDestroyContext(aclrtContext) { return ACL_SUCCESS; }
inline aclError aclrtCreateStream(aclrtStream* s) { if (s) *s = nullptr; return ACL_SUCCESS; }
inline aclError aclrtDestroyStream(aclrtStream) { return ACL_SUCCESS; }
inline aclError aclrtSynchronizeStream(aclrtStream) { return ACL_SUCCESS; }
inline aclError aclrtSynchronizeDevice() { return ACL_SUCCESS; }
inline aclError aclrtMalloc(void** p, size_t size, aclrtMemMallocPolicy) {
    if (!p) return ACL_ERROR_INVALID_PARAM;
    *p = cbemu::gm_alloc(size, /*zeroed=*/false);  // device memory is not cleared: it holds the poison byte
    return *p ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
}
inline aclError aclrtFree(void* p) { cbemu::gm_free(p); return ACL_SUCCESS; }
inline aclError aclrtMallocHost(void** p, size_t size) {
    if (!p) return ACL_ERROR_INVALID_PARAM;
    *p = std::malloc(size ? size : 1);
    return *p ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
}
inline aclError aclrtFreeHost(void* p) { std::free(p); return ACL_SUCCESS; }
inline aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind) {
    if (count > destMax) return ACL_ERROR_INVALID_PARAM;
    std::memmove(dst, src, count);
    return ACL_SUCCESS;
}
inline aclError aclrtMemset(void* dst, size_t destMax, int32_t value, size_t count) {
    if (count > destMax) return ACL_ERROR_INVALID_PARAM;
    std::memset(dst, value, count);
    return ACL_SUCCESS;
}
inline const char* aclGetRecentErrMsg() { return ""; }

#ifndef CHECK_ACL
#define CHECK_ACL(x) do { aclError __ret = (x); (void)__ret; } while (0)
#endif

// aclFloat16: the host's half type (raw IEEE binary16 bits) and its conversions.
typedef uint16_t aclFloat16;
inline float aclFloat16ToFloat(aclFloat16 value) { return (float)half::from_bits(value); }
inline aclFloat16 aclFloatToFloat16(float value) { return half(value).bits_; }
