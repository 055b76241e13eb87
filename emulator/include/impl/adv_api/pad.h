// Pad / UnPad along the last axis (docs: SIMD-API/高阶API/张量变换/Pad, UnPad).
// Pad: src rows of srcWidth elements (the first srcOriWidth valid) become rows of
//   align32(srcOriWidth + leftPad + rightPad) elements: leftPad copies of padValue, the data, then padValue.
// UnPad: rows of srcWidth lose leftPad leading and rightPad trailing elements; dst rows are packed.
#pragma once
#include <vector>

#include "core.h"

namespace AscendC {

struct PadParams {
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
    int32_t padValue = 0;
};
struct UnPadParams {
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
};

template <typename T>
void Pad(const LocalTensor<T>& dst, const LocalTensor<T>& src, PadParams& p, PadTiling& t, CBEMU_LOC) {
    uint32_t h = t.srcHeight, w = t.srcWidth, ow = t.srcOriWidth ? t.srcOriWidth : t.srcWidth;
    uint32_t epb = 32 / sizeof(T);
    uint32_t dw = (ow + p.leftPad + p.rightPad + epb - 1) / epb * epb;
    if (!cbemu::check_count(src, (int64_t)h * w, loc, "Pad") || !cbemu::check_count(dst, (int64_t)h * dw, loc, "Pad"))
        return;
    std::vector<T> in(src.addr_, src.addr_ + (size_t)h * w);  // dst may overlap src
    for (uint32_t i = 0; i < h; ++i)
        for (uint32_t j = 0; j < dw; ++j) {
            bool data = j >= p.leftPad && j < p.leftPad + ow;
            dst.addr_[(uint64_t)i * dw + j] = data ? in[(size_t)i * w + (j - p.leftPad)] : T(p.padValue);
        }
}
template <typename T>
void Pad(const LocalTensor<T>& dst, const LocalTensor<T>& src, PadParams& p, const LocalTensor<uint8_t>& tmp,
         PadTiling& t, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "Pad");
    Pad(dst, src, p, t, loc);
}

template <typename T>
void UnPad(const LocalTensor<T>& dst, const LocalTensor<T>& src, UnPadParams& p, UnPadTiling& t, CBEMU_LOC) {
    uint32_t h = t.srcHeight, w = t.srcWidth;
    uint32_t dw = w > (uint32_t)(p.leftPad + p.rightPad) ? w - p.leftPad - p.rightPad : 0;
    if (!cbemu::check_count(src, (int64_t)h * w, loc, "UnPad") || !cbemu::check_count(dst, (int64_t)h * dw, loc, "UnPad"))
        return;
    std::vector<T> in(src.addr_, src.addr_ + (size_t)h * w);
    for (uint32_t i = 0; i < h; ++i)
        for (uint32_t j = 0; j < dw; ++j) dst.addr_[(uint64_t)i * dw + j] = in[(size_t)i * w + j + p.leftPad];
}
template <typename T>
void UnPad(const LocalTensor<T>& dst, const LocalTensor<T>& src, UnPadParams& p, const LocalTensor<uint8_t>& tmp,
           UnPadTiling& t, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "UnPad");
    UnPad(dst, src, p, t, loc);
}

}  // namespace AscendC
