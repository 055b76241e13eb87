// The device compiler's scalar builtins `min` / `max`: the clang-based compiler gives every kernel these without an
// include (Catlass-style kernels call `min(actualShape.k(), L1TileShape::K)` with no declaration of their own in
// scope). Non-template overloads for the scalar types, in the global namespace as on the device: a kernel's own
// `min` template (tla::min, std::min through a using-directive) stays usable, since a non-template wins a tie.
// cotbuilder's verify forces this header in only when a kernel's compile fails for want of them, so a kernel that
// defines a global min/max of its own never meets these.
#pragma once
#include <cstdint>

#include "qualifiers.h"

#define CBEMU_DEVICE_MINMAX(T)                                             \
    inline __aicore__ T min(T a, T b) { return b < a ? b : a; }           \
    inline __aicore__ T max(T a, T b) { return a < b ? b : a; }
CBEMU_DEVICE_MINMAX(int16_t)
CBEMU_DEVICE_MINMAX(uint16_t)
CBEMU_DEVICE_MINMAX(int32_t)
CBEMU_DEVICE_MINMAX(uint32_t)
CBEMU_DEVICE_MINMAX(int64_t)
CBEMU_DEVICE_MINMAX(uint64_t)
CBEMU_DEVICE_MINMAX(float)
#undef CBEMU_DEVICE_MINMAX
