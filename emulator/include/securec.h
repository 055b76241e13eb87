// securec: the bounds-checked C library CANN ships (securec.h), which the toolkit's host headers bring along; op
// host code calls its memcpy_s / memset_s / memmove_s without including it. A nonzero return is the failure it reports.
#pragma once
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstring>

#ifndef EOK
#define EOK 0  // securec's success code
#endif
typedef int errno_t;

#ifndef COTBUILDER_HAVE_MEMCPY_S
#define COTBUILDER_HAVE_MEMCPY_S
inline int memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
    if (!dest || !src || count > destMax) return -1;
    std::memmove(dest, src, count);
    return 0;
}
inline int memmove_s(void* dest, size_t destMax, const void* src, size_t count) {
    if (!dest || !src || count > destMax) return -1;
    std::memmove(dest, src, count);
    return 0;
}
inline int memset_s(void* dest, size_t destMax, int c, size_t count) {
    if (!dest || count > destMax) return -1;
    std::memset(dest, c, count);
    return 0;
}
#endif
#ifndef COTBUILDER_HAVE_STR_S
#define COTBUILDER_HAVE_STR_S
inline int strcat_s(char* dest, size_t destMax, const char* src) {
    if (!dest || !src) return -1;
    size_t have = std::strlen(dest), add = std::strlen(src);
    if (have + add + 1 > destMax) return -1;
    std::memcpy(dest + have, src, add + 1);
    return 0;
}
inline int sprintf_s(char* dest, size_t destMax, const char* fmt, ...) {
    if (!dest || !fmt || destMax == 0) return -1;
    va_list ap;
    va_start(ap, fmt);
    int n = std::vsnprintf(dest, destMax, fmt, ap);
    va_end(ap);
    return (n < 0 || static_cast<size_t>(n) >= destMax) ? -1 : n;
}
#endif
