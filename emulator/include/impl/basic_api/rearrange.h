// Element rearrangement in UB: Interleave / DeInterleave (count form). Written from the public API docs.
#pragma once
#include <vector>

#include "../emu/vec_core.h"

namespace AscendC {

// z = [src0[0], src1[0], src0[1], src1[1], ...] (2*count elements); dst0 = z[0, count), dst1 = z[count, 2*count).
template <typename T>
void Interleave(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1, const LocalTensor<T>& src0,
                const LocalTensor<T>& src1, const int32_t count, CBEMU_LOC) {
    if (count % 2) cbemu::report("odd_count", cbemu::Sev::error, loc, "Interleave count %d must be even", count);
    if (!cbemu::check_count(dst0, count, loc, "Interleave") | !cbemu::check_count(dst1, count, loc, "Interleave") |
        !cbemu::check_count(src0, count, loc, "Interleave") | !cbemu::check_count(src1, count, loc, "Interleave"))
        return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "Interleave");
    cbemu::rd(op, src0, count), cbemu::rd(op, src1, count), cbemu::wr(op, dst0, count), cbemu::wr(op, dst1, count);
    std::vector<T> z((size_t)count * 2);
    for (int32_t i = 0; i < count; ++i) {
        z[2 * (size_t)i] = src0.addr_[i];
        z[2 * (size_t)i + 1] = src1.addr_[i];
    }
    for (int32_t i = 0; i < count; ++i) {
        dst0.addr_[i] = z[i];
        dst1.addr_[i] = z[(size_t)count + i];
    }
}

// x = src0 ++ src1 (2*count elements); dst0 = the even-indexed elements of x, dst1 = the odd-indexed ones.
template <typename T>
void DeInterleave(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1, const LocalTensor<T>& src0,
                  const LocalTensor<T>& src1, const int32_t count, CBEMU_LOC) {
    if (count % 2) cbemu::report("odd_count", cbemu::Sev::error, loc, "DeInterleave count %d must be even", count);
    if (!cbemu::check_count(dst0, count, loc, "DeInterleave") | !cbemu::check_count(dst1, count, loc, "DeInterleave") |
        !cbemu::check_count(src0, count, loc, "DeInterleave") | !cbemu::check_count(src1, count, loc, "DeInterleave"))
        return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "DeInterleave");
    cbemu::rd(op, src0, count), cbemu::rd(op, src1, count), cbemu::wr(op, dst0, count), cbemu::wr(op, dst1, count);
    std::vector<T> x((size_t)count * 2);
    for (int32_t i = 0; i < count; ++i) {
        x[i] = src0.addr_[i];
        x[(size_t)count + i] = src1.addr_[i];
    }
    for (int32_t i = 0; i < count; ++i) {
        dst0.addr_[i] = x[2 * (size_t)i];
        dst1.addr_[i] = x[2 * (size_t)i + 1];
    }
}
// One source of srcCount elements: dst0 gets its even-indexed elements, dst1 its odd-indexed ones.
template <typename T>
void DeInterleave(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1, const LocalTensor<T>& src,
                  const int32_t srcCount, CBEMU_LOC) {
    if (srcCount % 2)
        cbemu::report("odd_count", cbemu::Sev::error, loc, "DeInterleave srcCount %d must be even", srcCount);
    int32_t n = srcCount / 2;
    if (!cbemu::check_count(dst0, n, loc, "DeInterleave") | !cbemu::check_count(dst1, n, loc, "DeInterleave") |
        !cbemu::check_count(src, (int64_t)n * 2, loc, "DeInterleave"))
        return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "DeInterleave");
    cbemu::rd(op, src, (uint64_t)n * 2), cbemu::wr(op, dst0, n), cbemu::wr(op, dst1, n);
    std::vector<T> x(src.addr_, src.addr_ + (size_t)n * 2);
    for (int32_t i = 0; i < n; ++i) {
        dst0.addr_[i] = x[2 * (size_t)i];
        dst1.addr_[i] = x[2 * (size_t)i + 1];
    }
}

// InitOutput: the deprecated spelling of the GM Fill: gm[0, size) = value. The toolkit's header takes the tensor by
// value (an rvalue such as gm[offset] binds) and defaults value to 0.
template <typename T>
void InitOutput(GlobalTensor<T> gmWorkspaceAddr, const uint32_t size, const T value = 0, CBEMU_LOC) {
    uint64_t ok = gmWorkspaceAddr.check_span(gmWorkspaceAddr.GetPhyAddr(), (uint64_t)size * sizeof(T), loc, "InitOutput");
    cbemu::hz::Scope op(cbemu::hz::P_MTE3, loc, "InitOutput");  // a UB fill copied out
    op.write(gmWorkspaceAddr.GetPhyAddr(), ok);
    T* p = gmWorkspaceAddr.GetPhyAddr();
    for (uint64_t i = 0; i < ok / sizeof(T); ++i) p[i] = value;
}

}  // namespace AscendC
