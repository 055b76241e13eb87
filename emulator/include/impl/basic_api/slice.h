// DataCopy with SliceInfo (docs: 数据搬运/DataCopy（GM与UB切片数据搬运）): copy a multi-dimensional slice of a tensor.
// Per dimension d (0 = innermost): from startIndex to endIndex inclusive, take a run, then skip `stride`.
// In dimension 0 a run is burstLen data blocks (burstLen * 32 / sizeof(T) elements); in outer dimensions it is one
// index. An index in dimension d weighs the product of the shapeValues of the dimensions inside it. The source and
// destination element lists, both in row-major order, are paired one to one. Written from the public API docs.
#pragma once
#include <vector>

#include "shapeinfo.h"
#include "tensor.h"

namespace AscendC {

struct SliceInfo {
    uint32_t startIndex = 0;
    uint32_t endIndex = 0;
    uint32_t stride = 0;
    uint32_t burstLen = 1;
    uint32_t shapeValue = 0;
};

}  // namespace AscendC

namespace cbemu {

template <typename T>
std::vector<uint64_t> slice_offsets(const AscendC::SliceInfo* info, uint32_t dims) {
    std::vector<uint64_t> out{0};
    uint64_t weight = 1;
    std::vector<uint64_t> weights(dims);
    for (uint32_t d = 0; d < dims; ++d) {
        weights[d] = weight;
        weight *= info[d].shapeValue ? info[d].shapeValue : 1;
    }
    for (int d = (int)dims - 1; d >= 0; --d) {  // outermost first: row-major order
        const AscendC::SliceInfo& s = info[d];
        std::vector<uint64_t> idx;
        uint64_t run = d == 0 ? (uint64_t)s.burstLen * 32 / sizeof(T) : 1;
        if (run == 0) run = 1;
        for (uint64_t i = s.startIndex; i <= s.endIndex; i += run + s.stride)
            for (uint64_t k = i; k < i + run && k <= s.endIndex; ++k) idx.push_back(k);
        std::vector<uint64_t> next;
        next.reserve(out.size() * idx.size());
        for (uint64_t base : out)
            for (uint64_t k : idx) next.push_back(base + k * weights[d]);
        out.swap(next);
    }
    return out;
}

}  // namespace cbemu

namespace AscendC {

template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const SliceInfo dstSliceInfo[],
              const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1, CBEMU_LOC) {
    std::vector<uint64_t> d = cbemu::slice_offsets<T>(dstSliceInfo, dimValue);
    std::vector<uint64_t> s = cbemu::slice_offsets<T>(srcSliceInfo, dimValue);
    for (size_t i = 0; i < d.size() && i < s.size(); ++i) dst.SetValue((uint32_t)d[i], src.GetValue(s[i], loc), loc);
}

template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const SliceInfo dstSliceInfo[],
              const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1, CBEMU_LOC) {
    std::vector<uint64_t> d = cbemu::slice_offsets<T>(dstSliceInfo, dimValue);
    std::vector<uint64_t> s = cbemu::slice_offsets<T>(srcSliceInfo, dimValue);
    for (size_t i = 0; i < d.size() && i < s.size(); ++i) dst.SetValue(d[i], src.GetValue((uint32_t)s[i], loc), loc);
}

}  // namespace AscendC
