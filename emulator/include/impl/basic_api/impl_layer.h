// The toolkit's implementation layer (`impl/`, the `*Impl` functions the documented APIs forward to), which some
// kernels call directly with raw `__ubuf__` / `__gm__` pointers. Undocumented; each is the documented API it sits
// under (TransDataTo5HDImpl: transpose.h), reached here by wrapping the pointers in tensors so every check of that
// API (UB bounds, alignment, GM allocation, pipe hazards) still applies.
#pragma once
#include <cstdint>

#include "datacopy.h"
#include "vec.h"

namespace cbemu {
// A raw UB pointer as a tensor reaching to the end of UB (a pointer outside UB is reported by the constructor).
template <typename T>
inline AscendC::LocalTensor<T> ub_view(T* p, const SrcLoc& loc) {
    uintptr_t off = (uintptr_t)((uint8_t*)p - ctx().ub);
    size_t cap = mem_capacity(Mem::UB);
    if (off >= cap) {
        report("ub_out_of_bounds", Sev::error, loc, "a UB pointer that lies outside UB (%zu bytes)", cap);
        return AscendC::LocalTensor<T>();  // empty: the API's own count check refuses it
    }
    return AscendC::LocalTensor<T>(AscendC::TPosition::VECCALC, (uint32_t)off, (uint32_t)((cap - off) / sizeof(T)), loc);
}
}  // namespace cbemu

namespace AscendC {

// Duplicate's count form on a raw UB pointer.
template <typename T>
void DuplicateImpl(T* dst, const T& scalarValue, const int32_t& count, CBEMU_LOC) {
    Duplicate(cbemu::ub_view(dst, loc), scalarValue, count, loc);
}

// DataCopy UB -> GM with DataCopyParams on raw pointers (the GM pointer is checked against its allocation).
template <typename T>
void DataCopyUB2GMImpl(T* dst, T* src, const DataCopyParams& params, CBEMU_LOC) {
    GlobalTensor<T> g;
    g.SetGlobalBuffer(dst, loc);
    DataCopy(g, cbemu::ub_view(src, loc), params, loc);
}

}  // namespace AscendC
