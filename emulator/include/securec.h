// securec: the bounds-checked C library CANN ships (securec.h), which the toolkit's host headers bring along; op
// host code calls its memcpy_s / memset_s / memmove_s without including it. A nonzero return is the failure it reports.
#pragma once
#include <cstddef>
#include <cstring>

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
