// TopK (docs: SIMD-API/高阶API/排序操作/TopK): per row of [outter, inner] (n valid), the k largest or smallest
// values in order, ties broken by the lower position (a stable sort), with their indices (0..n-1, or taken from
// srcIndex when isInitIndex). Rows whose finish flag is set get index n. Outputs are rows of k rounded up to 32 bytes.
#pragma once
#include <algorithm>
#include <numeric>
#include <cstring>
#include <vector>

#include "core.h"

namespace AscendC {

struct TopKInfo {
    int32_t outter = 1;
    int32_t inner = 0;
    int32_t n = 0;
};

namespace cbemu_hl {
template <typename T, typename U, bool isInitIndex, bool isHasfinish>
inline void topk(const LocalTensor<T>& dstV, const LocalTensor<U>& dstI, const LocalTensor<T>& srcV,
                 const LocalTensor<U>& srcI, const LocalTensor<bool>& finish, int32_t k, const TopKInfo& info,
                 bool isLargest, const cbemu::SrcLoc& loc) {
    uint32_t rows = (uint32_t)info.outter, inner = (uint32_t)info.inner, n = (uint32_t)info.n, kk = (uint32_t)k;
    uint32_t kv = (kk + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
    uint32_t ki = (kk + 32 / sizeof(U) - 1) / (32 / sizeof(U)) * (32 / sizeof(U));
    const char* api = "TopK";
    if (!cbemu::check_count(srcV, (int64_t)rows * inner, loc, api) ||
        !cbemu::check_count(dstV, (int64_t)rows * kv, loc, api) || !cbemu::check_count(dstI, (int64_t)rows * ki, loc, api))
        return;
    if (isInitIndex && !cbemu::check_count(srcI, (int64_t)inner, loc, api)) return;
    if (isHasfinish && !cbemu::check_count(finish, (int64_t)rows, loc, api)) return;
    if (kk > n) {
        cbemu::report("assert_failed", cbemu::Sev::error, loc, "TopK: k=%u exceeds n=%u", kk, n);
        return;
    }
    std::vector<uint32_t> ord(n);
    for (uint32_t r = 0; r < rows; ++r) {
        std::iota(ord.begin(), ord.end(), 0u);
        const T* row = srcV.addr_ + (uint64_t)r * inner;
        std::stable_sort(ord.begin(), ord.end(), [&](uint32_t a, uint32_t b) {
            double x = cbemu::to_double(row[a]), y = cbemu::to_double(row[b]);
            return isLargest ? x > y : x < y;
        });
        bool fin = isHasfinish && finish.addr_[r];
        for (uint32_t j = 0; j < kk; ++j) {
            dstV.addr_[(uint64_t)r * kv + j] = row[ord[j]];
            U idx = isInitIndex ? srcI.addr_[ord[j]] : (U)ord[j];
            dstI.addr_[(uint64_t)r * ki + j] = fin ? (U)n : idx;
        }
    }
}
}  // namespace cbemu_hl

template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL, typename U>
void TopK(const LocalTensor<T>& dstValue, const LocalTensor<U>& dstIndex, const LocalTensor<T>& srcValue,
          const LocalTensor<U>& srcIndex, const LocalTensor<bool>& finish, const int32_t k, const TopkTiling& tiling,
          const TopKInfo& info, const bool isLargest = true, CBEMU_LOC) {
    (void)tiling;
    cbemu_hl::topk<T, U, isInitIndex, isHasfinish>(dstValue, dstIndex, srcValue, srcIndex, finish, k, info, isLargest,
                                                   loc);
}
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL, typename U>
void TopK(const LocalTensor<T>& dstValue, const LocalTensor<U>& dstIndex, const LocalTensor<T>& srcValue,
          const LocalTensor<U>& srcIndex, const LocalTensor<bool>& finish, const LocalTensor<uint8_t>& tmp,
          const int32_t k, const TopkTiling& tiling, const TopKInfo& info, const bool isLargest = true, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "TopK");
    (void)tiling;
    cbemu_hl::topk<T, U, isInitIndex, isHasfinish>(dstValue, dstIndex, srcValue, srcIndex, finish, k, info, isLargest,
                                                   loc);
}

}  // namespace AscendC

// ---- Concat / Sort / Extract (the Atlas A2 form: 32 scores per repeat, (score, index) pairs of 8 bytes) ----
// Sort writes each element as 8 bytes: the score in the low bytes (float: 4, half: 2 then 2 reserved zero bytes)
// and the uint32 index in the high 4. Scores are in descending order, ties keep the lower position first; without
// isFullSort each repeat's 32 elements are sorted on their own.
namespace AscendC {

// Concat: on this architecture the score tensor itself is the sort input, so concat becomes a view of src.
template <typename T>
void Concat(LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>& tmp, const int32_t repeatTime,
            CBEMU_LOC) {
    (void)tmp;
    if (!cbemu::check_count(src, (int64_t)repeatTime * 16, loc, "Concat")) return;
    concat = src;
}

template <typename T, bool isFullSort>
void Sort(const LocalTensor<T>& dst, const LocalTensor<T>& concat, const LocalTensor<uint32_t>& index,
          LocalTensor<T>& tmp, const int32_t repeatTime, CBEMU_LOC) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Sort: T must be half or float");
    (void)tmp;
    uint32_t n = (uint32_t)repeatTime * 32;
    if (!cbemu::check_count(concat, n, loc, "Sort") || !cbemu::check_count(index, n, loc, "Sort") ||
        !cbemu::check_count(dst, (int64_t)n * 8 / sizeof(T), loc, "Sort"))
        return;
    std::vector<uint32_t> ord(n);
    std::iota(ord.begin(), ord.end(), 0u);
    std::vector<double> key(n);
    for (uint32_t i = 0; i < n; ++i) key[i] = cbemu::to_double(concat.addr_[i]);
    auto desc = [&](uint32_t a, uint32_t b) { return key[a] > key[b]; };
    if (isFullSort) {
        std::stable_sort(ord.begin(), ord.end(), desc);
    } else {
        for (uint32_t r = 0; r < (uint32_t)repeatTime; ++r) std::stable_sort(ord.begin() + r * 32, ord.begin() + r * 32 + 32, desc);
    }
    std::vector<uint8_t> out((size_t)n * 8, 0);
    for (uint32_t i = 0; i < n; ++i) {
        T v = concat.addr_[ord[i]];
        uint32_t idx = index.addr_[ord[i]];
        std::memcpy(&out[(size_t)i * 8], &v, sizeof(T));
        std::memcpy(&out[(size_t)i * 8 + 4], &idx, 4);
    }
    std::memcpy((void*)dst.addr_, out.data(), out.size());
}

// GetSortLen / GetSortOffset: the size of n sorted records, and where record n starts, in elements of T - one
// record is 8 bytes, 8 / sizeof(T) elements (Sort's layout on A2, 方式一). The pages say "单位为字节", but the toolkit's
// own kernel_operator_proposal_intf_impl.h returns elements and every caller uses the value as an element count
// (TBuf::Get<T>(n), DataCopy counts, GlobalTensor offsets): the emulator follows the toolkit.
template <typename T>
uint32_t GetSortLen(const uint32_t elemCount) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "GetSortLen: T must be half or float");
    return elemCount * (8 / (uint32_t)sizeof(T));
}
template <typename T>
uint32_t GetSortOffset(const uint32_t elemOffset) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "GetSortOffset: T must be half or float");
    return elemOffset * (8 / (uint32_t)sizeof(T));
}

// MrgSort of the high-level library (MrgSort-93.md): the basic merge of up to 4 sorted queues of 8-byte records,
// with the queue lengths, validBit and repeatTime as arguments; sortedNum gets how many records of each queue were
// merged (all of them unless isExhaustedSuspension stopped the merge when one queue ran out).
template <typename T, bool isExhaustedSuspension = false>
void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& sortList, const uint16_t elementCountList[4],
             uint32_t sortedNum[4], uint16_t validBit, const int32_t repeatTime, CBEMU_LOC) {
    MrgSort4Info info(elementCountList, isExhaustedSuspension, validBit, (uint16_t)repeatTime);
    MrgSort(dst, sortList, info, loc);
    for (int i = 0; i < 4; ++i) sortedNum[i] = cbemu::mrgsort_consumed()[i];
}

template <typename T>
void Extract(const LocalTensor<T>& dstValue, const LocalTensor<uint32_t>& dstIndex, const LocalTensor<T>& sorted,
             const int32_t repeatTime, CBEMU_LOC) {
    uint32_t n = (uint32_t)repeatTime * 32;
    if (!cbemu::check_count(sorted, (int64_t)n * 8 / sizeof(T), loc, "Extract") ||
        !cbemu::check_count(dstValue, n, loc, "Extract") || !cbemu::check_count(dstIndex, n, loc, "Extract"))
        return;
    std::vector<uint8_t> in((const uint8_t*)sorted.addr_, (const uint8_t*)sorted.addr_ + (size_t)n * 8);
    for (uint32_t i = 0; i < n; ++i) {
        T v;
        uint32_t idx;
        std::memcpy(&v, &in[(size_t)i * 8], sizeof(T));
        std::memcpy(&idx, &in[(size_t)i * 8 + 4], 4);
        dstValue.addr_[i] = v;
        dstIndex.addr_[i] = idx;
    }
}

}  // namespace AscendC
