// The ISA intrinsics under the reduce APIs that kernels also call directly (NPUKernelBench's norm answers do):
// vcadd, the ACC_VAL register (get_acc_val) and the mask-mode switches. Undocumented as an API; modelled on what the
// documented APIs built on them do on A2/A3 (dav_c220): WholeReduceSum is one vcadd, the count form of ReduceSum is an
// accumulating vcadd read back with get_acc_val. Raw UB pointers are wrapped in tensors (impl_layer.h), so the checks
// of those APIs (UB bounds, pipe hazards) apply.
#pragma once
#include <cstdint>

#include "impl_layer.h"
#include "misc.h"
#include "vec_cmp_reduce.h"

namespace cbemu {
namespace isa {
template <typename T>
void vcadd(T* dst, T* src, uint8_t repeat, uint16_t dstRepStride, uint16_t srcBlkStride, uint16_t srcRepStride,
           bool accumulate, const SrcLoc& loc) {
    using namespace AscendC::detail_reduce;
    Mask m{ctx().mask_hi, ctx().mask_lo};
    if (!accumulate) {  // one sum per repeat, to dst[r * dstRepStride]: WholeReduceSum with the mask register
        whole(Kind::SUM, ub_view(dst, loc), ub_view(src, loc), m, repeat, dstRepStride, srcBlkStride, srcRepStride,
              AscendC::ReduceOrder::ORDER_ONLY_VALUE, loc, "vcadd");
        return;
    }
    // accumulating: the repeat sums added in order into ACC_VAL; dst is not written (kernels pass nullptr)
    AscendC::LocalTensor<T> s = ub_view(src, loc);
    constexpr uint32_t epr = 256 / sizeof(T);
    uint64_t es = rep_extent<T>(m, repeat, epr, srcBlkStride, srcRepStride);
    if (!check_ub(s, 0, es * sizeof(T), loc, "vcadd")) return;
    hz::Scope op(hz::P_V, loc, "vcadd");
    rd(op, s, es);
    bool sat = float_saturation();
    std::vector<double> sums = repeat_sums(s.addr_, m, repeat, srcBlkStride, srcRepStride, sat);
    set_sum_register(saturate(T(in_order<T>(sums, sat)), sat));
}
}  // namespace isa
}  // namespace cbemu

// The intrinsic is overloaded per type (half, float), so `vcadd(nullptr, src, ...)` resolves by src.
inline void vcadd(float* dst, float* src, uint8_t repeat, uint16_t dstRepStride, uint16_t srcBlkStride,
                  uint16_t srcRepStride, bool accumulate = false, CBEMU_LOC) {
    cbemu::isa::vcadd(dst, src, repeat, dstRepStride, srcBlkStride, srcRepStride, accumulate, loc);
}
inline void vcadd(half* dst, half* src, uint8_t repeat, uint16_t dstRepStride, uint16_t srcBlkStride,
                  uint16_t srcRepStride, bool accumulate = false, CBEMU_LOC) {
    cbemu::isa::vcadd(dst, src, repeat, dstRepStride, srcBlkStride, srcRepStride, accumulate, loc);
}
// ACC_VAL: the raw 64 bits of the last accumulated sum (GetReduceRepeatSumSpr's register).
inline int64_t get_acc_val(CBEMU_LOC) { return AscendC::GetReduceRepeatSumSpr(loc); }
// The mask register's mode and value as the instructions set them: the APIs over them (misc.h), the value as is.
inline void set_mask_norm() { AscendC::SetMaskNorm(); }
inline void set_mask_count() { AscendC::SetMaskCount(); }
inline void set_vector_mask(uint64_t maskHigh, uint64_t maskLow) {
    AscendC::AscendCUtils::SetMask<uint8_t>(maskHigh, maskLow);
}
